"""Every option of a command that calls its API by parameter name (``cli/options.called``) reaches it: the
options the command line keeps for itself are listed here, and every other one must be a parameter of the
API function, so that renaming a parameter cannot silently drop the option that sets it."""

from __future__ import annotations

import argparse

import pytest

from ir_coliee.cli import build_parser
from ir_coliee.scoring.benchmark import benchmark
from ir_coliee.scoring.compare import compare_runs
from ir_coliee.scoring.files import score_files
from ir_coliee.scoring.page import report
from ir_coliee.scoring.tune import tune

#: command -> (the API function it calls, the options it uses itself: output, measures it parses, ...)
COMMANDS = {
    "benchmark": (benchmark, {"digits", "format", "measure", "name", "out"}),
    "compare": (compare_runs, {"digits", "format", "measure", "out", "plot"}),
    "eval": (score_files, {"digits", "format", "inputs", "leaderboard", "out", "per_query"}),
    "report": (report, {"measure", "out"}),
    "tune": (tune, {"curve", "digits", "format", "out", "plot", "tag", "write", "write_format"}),
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_option_the_command_does_not_keep_is_a_parameter_of_its_api(command):
    api, kept = COMMANDS[command]
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    options = {a.dest for a in commands.choices[command]._actions if a.dest != "help"}
    code = api.__code__
    parameters = set(code.co_varnames[: code.co_argcount + code.co_kwonlyargcount])
    assert options - kept <= parameters, f"{command}: options that reach no parameter"
    assert kept <= options  # the list above stays true to the parser
    assert len(options - kept) >= 6  # the options it passes on are many: each one is checked
