"""docs/architecture.md: the layers, where each fact lives, and the recipes (run by the tests as written)."""

from __future__ import annotations

from ir_coliee.docgen.reference import HEADER, table
from ir_coliee.hosts import PATCHES

#: The layers of the package, first to last: each module imports only its own layer and those before it
#: (data flows one way: file -> reader -> records / run tables -> datasets and providers -> the scoring
#: API -> commands). The architecture test holds the imports to it; docs/architecture.md shows it.
LAYERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("base", ("errors", "progress"), "errors, the API's error boundary, findings; progress bars"),
    ("model", ("model",), "the facts: tasks, gold kinds, submission formats, editions, official measures (by name)"),
    ("formats", ("formats",), "the organisers' files read and written as records; text files, plain tables, figures"),
    ("table", ("table",), "the in-memory gold and run: read from files and every host shape, ids aligned, counts"),
    ("measures", ("measures",), "each measure declared with its formula; the ir_measures provider and pipeline"),
    ("data", ("data",), "the data root: files found, the catalog of dataset ids, their gold, the ir_datasets entries"),
    ("scoring", ("scoring",), "one module per verb: score, compare, tune, benchmark, validate, gated, pilot, ..."),
    ("hosts", ("hosts",), "the registration with ir_measures and ir_datasets, PyTerrier's provider and Experiment"),
    ("front ends", ("cli", "docgen", "__main__", "__init__", "sample"), "the command line, the docs, the package"),
)

_RECIPES = r"""
## Recipes

Each recipe below is run by the test suite, as written.

**A new edition** is one `Edition` entry in `ir_coliee/model/editions.py` (plus an `OFFICIAL` row in
`ir_coliee/model/official.py` if its measures change), fixtures in the official layout, and regenerated
docs; no test names the editions' totals (they are read from the model):

```python
from ir_coliee import model

model.EDITIONS[2027] = model.EDITIONS[2026]._replace(year=2027, statute_exam="R08")
assert model.edition_dataset("1", 2027) == "coliee/task1/2027/test"
assert [str(m) for m in model.official_measures("1", 2027)] == ["MicroP", "MicroR", "MicroF1"]
```

**A new submission format** is one `RunFormat` in `ir_coliee/model/formats.py`: the readers, the
validator and the writer read it from there.

```python
import os
import tempfile

import ir_coliee
from ir_coliee.model import FORMATS, RunFormat

FORMATS["scored"] = RunFormat("scored", ("query_id", "doc_id", "score", "run_tag"), query=0, doc=1, score=2, tag=3)
path = os.path.join(tempfile.mkdtemp(), "run.scored")
ir_coliee.write_run({"q1": {"d1": 2.0, "d2": 1.0}}, path, format="scored", tag="t")
assert open(path).read() == "q1 d1 2.0 t\nq1 d2 1.0 t\n"
assert ir_coliee.read_run(path, format="scored")["doc_id"].tolist() == ["d1", "d2"]
```

**A new measure** is one class with its formula over the counts (true positives, retrieved,
relevant) and one declaration, in one file of `ir_coliee/measures/`; the provider, the registry, the host
registration, `compare`, `tune` and these docs read it from there:

```python
import ir_measures

import ir_coliee
from ir_coliee.hosts import register as _host
from ir_coliee.measures.base import ColieeMeasure, declare


def jaccard(tp, retrieved, relevant):
    union = retrieved + relevant - tp
    return tp / union if union else 0.0


class _MicroJaccard(ColieeMeasure):
    # Micro Jaccard: Σ|ret∩rel| / Σ|ret∪rel|

    __name__ = "MicroJaccard"
    NAME = __name__
    AVERAGING = "micro"

    def formula(self):
        return jaccard


class _MacroJaccard(_MicroJaccard):
    __name__ = "MacroJaccard"
    NAME = __name__
    AVERAGING = "mean"


MicroJaccard, MacroJaccard = declare(_MicroJaccard()), declare(_MacroJaccard())
_host.install()  # names parse once registered
gold = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}}
run = {"q1": {"a": 2.0, "c": 1.0}, "q2": {"c": 1.0}}
assert ir_measures.calc_aggregate([ir_measures.parse_measure("MicroJaccard")], gold, run) == {MicroJaccard: 2 / 4}
assert ir_coliee.calc_aggregate([MacroJaccard], gold, run) == {MacroJaccard: (1 / 3 + 1) / 2}
assert ir_coliee.tune_cutoff(gold, run, MacroJaccard).cutoff == 1
table = ir_coliee.compare(gold, {"a": run, "b": run}, [MicroJaccard, MacroJaccard], resamples=100)
assert table["MicroJaccard"].tolist() == [0.5, 0.5]
```

**A new command** is a module in `ir_coliee/cli/` holding its parser (`add`) and its handler, named
in `COMMANDS` with the commands it adds (the module is imported when one of them runs; here the function
itself stands in for it); it prints what the Python API returns:

```python
import argparse

from ir_coliee import cli


def add(sub: argparse._SubParsersAction) -> None:
    hello = sub.add_parser("hello", help="say which tasks there are")
    hello.set_defaults(func=lambda args: print(", ".join(ir_coliee.TASKS)) or 0)


cli.COMMANDS = (*cli.COMMANDS, cli.Command(("hello",), add))
assert cli.main(["hello"]) == 0
```
"""


def architecture_page() -> str:
    """docs/architecture.md: the layers (from :data:`LAYERS`), where each fact lives, and the recipes."""
    layers = [[name, ", ".join(f"`{m}`" for m in modules), what] for name, modules, what in LAYERS]
    patches = [[p.host, p.what, p.why, f"`{p.test}`"] for p in PATCHES]
    return (
        "\n".join(
            [
                HEADER + "# Architecture",
                "",
                "Data flows one way, and each layer imports only its own layer and the layers before it (a test holds",
                "the imports to this table and fails on an import cycle):",
                "",
                table(["layer", "modules", "what it holds"], layers),
                "Where each fact lives: the tasks, their gold kinds (`KINDS`: what a gold holds and which scorer",
                "reads it) and how dataset ids are built in `model/tasks.py`; the submission formats in",
                "`model/formats.py`; editions, official file names and known sizes in `model/editions.py`; the",
                "official measures, by name, in `model/official.py`. Other modules ask these records; a test fails on a gold-kind, format-name or",
                "year literal outside `model/` beyond a listed handful.",
                "",
                "## Where a host is patched",
                "",
                "Only where the host has no public hook; each place has its test.",
                "",
                table(["host", "what", "why", "test"], patches),
            ]
        )
        + _RECIPES
    )
