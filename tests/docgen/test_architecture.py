"""The shape of the package: dependencies one way, facts in the model, the ir_datasets contract."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import ir_datasets
import pytest
from support import ROOT
from support.caselaw_data import write_task1_flat, write_task2
from support.pilot_data import write_pilot_root
from support.statute_data import write_statute_root

from ir_coliee import docgen
from ir_coliee.data.datasets import REGISTERED
from ir_coliee.model import EDITIONS, TASKS, edition_dataset, editions_of, official_entry

PACKAGE = ROOT / "ir_coliee"

#: Each layer imports only its own layer and the layers before it (docs/architecture.md shows the table).
LAYERS = [modules for _, modules, _ in docgen.LAYERS]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(path: Path) -> set[str]:
    """Every ir_coliee module ``path`` imports, at the top or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
        else:
            continue
        for name in names:
            if name.startswith("ir_coliee"):
                while name not in MODULES:  # `from ir_coliee.x import f`: the module is ir_coliee.x
                    name = name.rpartition(".")[0]
                found.add(name)
                break
    return found


GRAPH = {name: imports_of(path) - {name} for name, path in MODULES.items()}


def layer_of(module: str) -> int:
    parts = module.split(".")
    key = parts[1] if len(parts) > 1 else "__init__"
    return next(i for i, layer in enumerate(LAYERS) if key in layer)


def test_every_module_has_a_layer():
    for module in MODULES:
        layer_of(module)


def test_no_module_imports_a_later_layer():
    upward = [
        f"{m} (layer {layer_of(m)}) imports {d} (layer {layer_of(d)})"
        for m, deps in GRAPH.items()
        for d in deps
        if layer_of(d) > layer_of(m) and d != "ir_coliee"
    ]
    assert upward == []


def test_no_import_cycle():
    """Tarjan's strongly connected components: every component is a single module without a self-loop."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in GRAPH:
        if v not in index:
            visit(v)
    assert cycles == []


def test_the_cycle_test_can_fail():
    GRAPH["ir_coliee.measures.values"].add("ir_coliee.measures.base")
    try:
        with pytest.raises(AssertionError):
            test_no_import_cycle()
    finally:
        GRAPH["ir_coliee.measures.values"].discard("ir_coliee.measures.base")


#: ``task == "4"``, ``task in ("1", "2")``, ``.key != "3"``: facts the model should answer instead
BRANCH = re.compile(r"""(?<!for )\b(task\w*|key)\s*(==|!=|\bin\b|\bnot in\b)\s*[("'0-9]""")


def test_the_branch_pattern():
    assert BRANCH.search('if task == "4":') and BRANCH.search("if entry.task in ('1', '2'):")
    assert not BRANCH.search("for task in (t.key for t in TASKS.values())")


def test_no_task_number_branches_outside_the_model():
    found = [
        f"{module}:{n}: {line.strip()}"
        for module, path in MODULES.items()
        if not module.startswith("ir_coliee.model")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BRANCH.search(line)
    ]
    assert found == []


def test_every_registered_dataset_has_its_facts_in_the_model():
    for dataset_id, entry in REGISTERED.items():
        assert entry.year in editions_of(entry.task), dataset_id
        assert entry.task in EDITIONS[entry.year].tasks, dataset_id
        official_entry(entry.task, entry.year)  # raises when the edition has no official measures


def test_every_edition_of_the_model_is_registered():
    for task in TASKS.values():
        for year in editions_of(task.key):
            unknown_layout = (
                task.gold == "documents"
                and not task.statute
                and EDITIONS[year].caselaw(task.key) is None
            )
            if unknown_layout:  # 2018 case law
                continue
            assert edition_dataset(task.key, year) in REGISTERED, (task.key, year)


# --- the ir_datasets contract ------------------------------------------------------------------------


@pytest.fixture
def root(coliee_home):
    write_task1_flat(coliee_home)
    write_task2(coliee_home)
    write_statute_root(coliee_home)
    write_pilot_root(coliee_home)
    return coliee_home


FAMILIES = [
    "coliee/task1/2024/train",
    "coliee/task2/2026/test",
    "coliee/task3/2024/test",
    "coliee/pilot/2025/test",
]


@pytest.mark.parametrize("dataset_id", FAMILIES)
def test_docs_iter_slices(root, dataset_id):
    ds = ir_datasets.load(dataset_id)
    docs = list(ds.docs_iter())
    assert len(docs) >= 4
    assert list(ds.docs_iter()[1:3]) == docs[1:3]
    assert list(ds.docs_iter()[::2]) == docs[::2]
    assert ds.docs_iter()[0] == docs[0] and ds.docs_iter()[-1] == docs[-1]
    with pytest.raises(IndexError):
        ds.docs_iter()[len(docs)]
    with pytest.raises(TypeError):
        ds.docs_iter()["a"]


def test_pyterrier_corpus_iter_with_start_and_count(root):
    pt = pytest.importorskip("pyterrier")
    import ir_coliee  # noqa: F401

    dataset = pt.get_dataset("irds:coliee/task3/2024/test")
    every = [d["docno"] for d in dataset.get_corpus_iter(verbose=False)]
    window = [d["docno"] for d in dataset.get_corpus_iter(verbose=False, start=2, count=3)]
    assert window == every[2:5] and len(window) == 3


#: The facts' names that only model/ spells: the kinds of gold, the submission formats, the editions.
FACT_LITERALS = {"documents", "answers", "torts", "pairs", "trec"}
#: Where they may still be spelled, and why.
ALLOWED_LITERALS = {
    # a measure declares which gold it takes; measures sit below the model (and ir_measures parses them)
    ("ir_coliee.measures.base", "documents"),
    ("ir_coliee.measures.base", "answers"),
    ("ir_coliee.measures.answer", "answers"),
    # the sizes table names its parts in words ("documents"), not the gold kind
    ("ir_coliee.data.datasets.common", "documents"),
    # the bundled sample release is one edition, written in the Task 3 pairs format on purpose
    ("ir_coliee.extras.demo", 2025),
    ("ir_coliee.extras.demo", "pairs"),
    # PyTerrier's name of its own save format, not a COLIEE submission format
    ("ir_coliee.hosts.experiment", "trec"),
}


def _fact_literals(path: Path) -> set[object]:
    found: set[object] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and not isinstance(node.value, bool):
            value = node.value
            if value in FACT_LITERALS or (isinstance(value, int) and 2015 <= value <= 2035):
                found.add(value)
    return found


def test_facts_are_spelled_only_in_the_model():
    """Gold kinds, format names and edition years outside model/ only where listed (with the reason)."""
    spelled = {
        (module, value)
        for module, path in MODULES.items()
        if not module.startswith("ir_coliee.model")
        for value in _fact_literals(path)
    }
    assert spelled - ALLOWED_LITERALS == set()
    assert ALLOWED_LITERALS - spelled == set()  # the list stays as short as the code allows
    from typing import get_args

    from ir_coliee.model import FORMATS
    from ir_coliee.table.runs import FormatOption

    assert get_args(FormatOption) == ("auto", *FORMATS)


def test_the_public_api_is_what_all_says():
    """Every name in ``ir_coliee.__all__`` resolves, every registered measure is exported under its name,
    and the lazy exports are all listed."""
    import ir_coliee
    from ir_coliee.measures import REGISTRY

    for name in ir_coliee.__all__:
        assert getattr(ir_coliee, name) is not None, name
    assert {name: getattr(ir_coliee, name) for name in REGISTRY} == REGISTRY
    assert set(ir_coliee._MODULE_OF) <= set(ir_coliee.__all__)
    assert sorted(set(ir_coliee.__all__)) == sorted(ir_coliee.__all__)  # no name twice


def _collected(block_pyterrier: bool) -> list[str]:
    import subprocess
    import sys

    block = "sys.modules['pyterrier'] = None; " if block_pyterrier else ""
    code = f"import sys; {block}import pytest; sys.exit(pytest.main(['--collect-only', '-q', '-p', 'no:cacheprovider']))"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout[-2000:]
    return [line for line in result.stdout.splitlines() if "::" in line]


def test_without_pyterrier_every_other_test_is_collected():
    every, without = _collected(False), _collected(True)
    pyterrier = [
        t for t in every if t.startswith(("tests/hosts/test_experiment.py", "tests/hosts/test_pt_"))
    ]
    assert pyterrier and sorted(without) == sorted(t for t in every if t not in pyterrier)


def test_every_host_patch_names_a_test_that_exists():
    from ir_coliee.hosts import PATCHES

    assert len(PATCHES) >= 4
    for patch in PATCHES:
        path, name = patch.test.split("::")
        assert f"def {name}(" in (ROOT / path).read_text(encoding="utf-8"), patch.test
