"""The one host-global change: registration with ir_measures is idempotent and sufficient."""

from __future__ import annotations

import json
import os

import ir_measures
import pytest
from support.cases import GOLD, RUN

import ir_coliee
from ir_coliee.hosts import register as _host
from ir_coliee.measures import REGISTRY
from ir_coliee.measures.pipeline import provider


def installed() -> bool:
    """Whether ``install`` is in effect: our provider in the pipeline, our measures in the registry."""
    return provider in ir_measures.DefaultPipeline.providers and all(
        ir_measures.measures.registry.get(name) is m for name, m in REGISTRY.items()
    )


def test_install_is_idempotent_and_puts_our_provider_first():
    _host.install()
    _host.install()
    providers = ir_measures.DefaultPipeline.providers
    assert providers[0] is provider
    assert sum(p is provider for p in providers) == 1
    assert installed()


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
        assert not installed()
        assert ir_coliee.calc_aggregate(measures, GOLD, RUN) == reference
    finally:
        _host.install()
    assert installed()


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
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
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


@pytest.mark.parametrize("before", [True, False])
def test_import_leaves_the_garbage_collector_as_it_found_it(before):
    """The collector is paused while the package imports (its passes over what imports make are a tenth
    of their time), then on again if it was on, and off still if the importer had turned it off."""
    code = f"import gc\nif not {before}: gc.disable()\nimport ir_coliee\nprint(gc.isenabled())"
    assert _modules_after(code)[1] == str(before)


@pytest.mark.parametrize(
    ("gold_text", "name", "run_text", "output"),
    [
        ("q1 0 a 1\nq2 0 b 1\n", "task1.run", "q1 a t\nq1 c t\nq2 x t\n", "tsv"),
        (
            '{"q1.txt": ["a.txt"], "q2.txt": ["b.txt"]}',
            "task1.run",
            "q1 a t\nq1 c t\nq2 x t\n",
            "json",
        ),
        (
            "q1 0 a 1\nq2 0 b 1\n",
            "task3-L.run",
            "q1 Q0 a 1 0.9 t\nq1 Q0 c 2 0.5 t\nq2 Q0 x 1 0.2 t\n",
            "markdown",
        ),
    ],
)
def test_eval_of_two_small_files_imports_no_pandas_pyarrow_or_ir_datasets(
    tmp_path, gold_text, name, run_text, output
):
    """The everyday command on a real-size run: start-up is the cost, so it loads nothing it does not need,
    and prints the same values as ever (q1: 1 of 2 retrieved is relevant; q2: 0 of 1; 1 of 2 relevant found)."""
    gold, run = tmp_path / "gold", tmp_path / name
    gold.write_text(gold_text)
    run.write_text(run_text)
    loaded, printed = _modules_after(
        f"from ir_coliee.cli import main\nmain(['eval', {str(gold)!r}, {str(run)!r}, '--task', '1', '--format', {output!r}])"
    )
    # the counts are taken with numpy (one engine, whatever the run's size); nothing else is loaded: not
    # the readers of the pilot, the figures or a CSV writer either (each a part of the start-up paid)
    unused = {"pandas", "pyarrow", "ir_datasets", "csv", "ir_coliee.formats.pilot"}
    assert not (unused | {"ir_coliee.outputs.plots"}) & loaded and "numpy" in loaded
    micro_p, micro_r = 1 / 3, 1 / 2
    expected = {
        "MicroP": micro_p,
        "MicroR": micro_r,
        "MicroF1": 2 * micro_p * micro_r / (micro_p + micro_r),
    }  # F1 2/5
    if output == "json":
        assert {m: json.loads(printed)["measures"][m] for m in expected} == expected
    else:
        assert all(f"{v:.4f}" in printed for v in expected.values())


@pytest.mark.parametrize("split_file", [None, 0])
def test_eval_of_a_run_loads_numpy_but_not_pandas_and_arrow_only_past_the_split_readers_sizes(
    tmp_path, split_file
):
    """A run is read by Python's split up to ``SPLIT_FILE`` bytes, by Arrow past them (here forced at
    ``0``), and counted in numpy without a DataFrame. 100 queries x 300 lines; each query has 3
    relevant documents, 2 of them retrieved: tp 200 of 30,000 retrieved and 300 relevant."""
    gold, run = tmp_path / "labels.json", tmp_path / "task1.TEAM"
    gold.write_text(
        json.dumps({f"q{q:03d}.txt": ["d000000.txt", "d000001.txt", "x.txt"] for q in range(100)})
    )
    run.write_text("".join(f"q{q:03d} d{d:06d} TEAM\n" for q in range(100) for d in range(300)))
    limit = (
        ""
        if split_file is None
        else f"import ir_coliee.table.run_fast as f\nf.SPLIT_FILE = {split_file}\n"
    )
    loaded, printed = _modules_after(
        f"{limit}from ir_coliee.cli import main\nmain(['eval', {str(gold)!r}, {str(run)!r}, '--task', '1', '--format', 'json'])"
    )
    assert "numpy" in loaded and not {"pandas", "ir_datasets"} & loaded
    assert ("pyarrow" in loaded) == (split_file == 0)
    micro_p, micro_r = 200 / 30_000, 200 / 300
    expected = {
        "MicroP": micro_p,
        "MicroR": micro_r,
        "MicroF1": 2 * micro_p * micro_r / (micro_p + micro_r),
    }
    measures = json.loads(printed)["measures"]
    assert {m: measures[m] for m in expected} == pytest.approx(expected, rel=1e-12)


def test_datasets_are_registered_whichever_is_imported_first():
    for code in (
        "import ir_coliee, ir_datasets",
        "import ir_datasets, ir_coliee",
        "import ir_coliee.data.datasets.caselaw, ir_datasets",
        "import ir_coliee\nfrom ir_datasets.formats import TrecQrels",
    ):
        probe = (
            f"{code}\nimport ir_datasets\nprint(ir_datasets.load('coliee/task3/2024/test').qrels_cls().__name__)\n"
            "print(ir_datasets.docs_parent_id('coliee/task4/2024/test/ja'))"  # the docs links are in place too
        )
        import subprocess
        import sys

        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
        assert out.returncode == 0, (code, out.stderr)
        assert out.stdout.split() == ["TrecQrel", "coliee/civil-code/2024/ja"], code
