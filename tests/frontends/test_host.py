"""The one host-global change: registration with ir_measures is idempotent and sufficient."""

from __future__ import annotations

import os

import ir_measures
from support.cases import GOLD, RUN

import ir_coliee
from ir_coliee import _host
from ir_coliee.measures import REGISTRY
from ir_coliee.providers import provider


def test_install_is_idempotent_and_puts_our_provider_first():
    _host.install()
    _host.install()
    providers = ir_measures.DefaultPipeline.providers
    assert providers[0] is provider
    assert sum(p is provider for p in providers) == 1
    assert _host.installed()


def test_runtime_provider_does_not_claim_our_measures():
    assert not any(hasattr(m, "runtime_impl") for m in REGISTRY.values())
    assert not ir_measures.runtime.supports(ir_coliee.MicroF1)


def test_every_public_name_parses():
    for name, measure in REGISTRY.items():
        assert ir_measures.parse_measure(name) == measure
        assert getattr(ir_coliee, name) is measure


def test_own_pipeline_works_without_the_host_registration():
    measures = [ir_coliee.MicroF1, ir_measures.AP]
    reference = ir_measures.calc_aggregate(measures, GOLD, RUN)
    providers = ir_measures.DefaultPipeline.providers
    providers.remove(provider)
    try:
        assert not _host.installed()
        assert ir_coliee.calc_aggregate(measures, GOLD, RUN) == reference
    finally:
        _host.install()
    assert _host.installed()


def test_importing_reads_no_file(tmp_path):
    """No data file and no package data (YAML, samples) is read at import; only code is loaded."""
    import subprocess
    import sys

    data = tmp_path / "coliee-data"
    data.mkdir()
    (data / "riteval_R05_en.xml").write_text("<dataset/>")
    code = (
        "import builtins, io, os, pathlib\n"
        "opened = []\n"
        "real = builtins.open\n"
        "def spy(f, *a, **k):\n"
        "    opened.append(str(f)); return real(f, *a, **k)\n"
        "builtins.open = io.open = spy\n"
        "import ir_coliee, ir_datasets\n"
        "list(ir_datasets.registry)\n"
        "package = os.path.dirname(ir_coliee.__file__)\n"
        "data = os.environ['COLIEE_HOME']\n"
        "print([f for f in opened if f.startswith(data) or (f.startswith(package) and not f.endswith('.py'))])\n"
    )
    env = {**os.environ, "COLIEE_HOME": str(data)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == "[]"


def _modules_after(code: str) -> tuple[set[str], str]:
    """The modules loaded after running ``code`` in a fresh interpreter, and what it printed."""
    import json
    import subprocess
    import sys

    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    *printed, modules = out.stdout.strip().splitlines()
    return set(json.loads(modules)), "\n".join(printed)


def test_import_loads_no_pandas_numpy_pyarrow_or_ir_datasets():
    loaded, _ = _modules_after("import ir_coliee")
    assert not loaded & {"pandas", "numpy", "pyarrow", "ir_datasets"}


def test_eval_of_two_files_does_not_import_ir_datasets(tmp_path):
    gold, run = tmp_path / "gold.qrels", tmp_path / "task1.run"
    gold.write_text("q1 0 a 1\n")
    run.write_text("q1 a t\n")
    loaded = _modules_after(
        f"from ir_coliee.cli import main\nmain(['eval', {str(gold)!r}, {str(run)!r}, '--task', '1'])"
    )
    assert "MicroF1" not in loaded and "ir_datasets" not in loaded


def test_datasets_are_registered_whichever_is_imported_first():
    for code in (
        "import ir_coliee, ir_datasets",
        "import ir_datasets, ir_coliee",
        "import ir_coliee.datasets.caselaw, ir_datasets",
        "import ir_coliee\nfrom ir_datasets.formats import TrecQrels",
    ):
        probe = f"{code}\nimport ir_datasets\nprint(ir_datasets.load('coliee/task3/2024/test').qrels_cls().__name__)"
        import subprocess
        import sys

        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
        assert out.returncode == 0, (code, out.stderr)
        assert out.stdout.strip() == "TrecQrel", code
