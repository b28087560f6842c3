"""A dataset id given as gold is read through the catalog (``ir_coliee.data``), without ir_datasets:
the same table as the ir_datasets entry's ``qrels_iter()`` for every dataset id, the same error where
the entry has none, and the command loads neither ir_datasets nor numpy, pandas or pyarrow."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys

import ir_datasets
import pytest
from support.caselaw_data import (
    write_2019,
    write_task1_2020,
    write_task1_2021,
    write_task1_flat,
    write_task2,
)
from support.pilot_data import write_pilot_root
from support.statute_data import write_statute_root

from ir_coliee.data.catalog import EXAM_SUBSET, catalog, dataset_entry
from ir_coliee.data.pilot_files import PilotSet
from ir_coliee.errors import ColieeError
from ir_coliee.extras.demo import RELEASE, sample_release
from ir_coliee.inputs.gold import load_gold
from ir_coliee.model import EDITIONS
from ir_coliee.table.tables import gold_table


def _host_gold(dataset_id: str):
    """What the ir_datasets entry gives: the pilot's gold torts, else its qrels as a table."""
    dataset = ir_datasets.load(dataset_id.removesuffix("/decisions"))
    if dataset_id.startswith("coliee/pilot/"):
        return list(dataset.gold_torts_iter())
    return gold_table(ir_datasets.load(dataset_id).qrels_iter())


def _catalog_gold(dataset_id: str):
    """What ``load_gold`` reads for a dataset id (its own files; ``load_gold`` may then look further for
    a test exam whose gold came out later, which its own tests cover)."""
    entry = dataset_entry(dataset_id)
    if isinstance(entry.files, PilotSet):
        return entry.files.files.gold_torts()
    return gold_table(entry.files.qrels())


def test_every_dataset_id_gives_the_gold_of_its_ir_datasets_entry(coliee_home):
    write_task1_flat(coliee_home, with_test_gold=True)
    write_task1_2021(coliee_home)
    write_task1_2020(coliee_home)
    write_2019(coliee_home)
    write_task2(coliee_home)
    write_statute_root(coliee_home)
    write_pilot_root(coliee_home)
    compared = served = 0
    # every listed id, and a per-exam subset (once asked for, subsets join the catalog: other tests may have)
    ids = [*(d for d in catalog() if not re.match(EXAM_SUBSET, d)), "coliee/task3/2024/train/h30"]
    for dataset_id in ids:
        try:
            expected = _host_gold(dataset_id)
        except ColieeError as e:
            with pytest.raises(ColieeError) as refused:
                _catalog_gold(dataset_id)
            assert str(refused.value) == str(e)  # the same missing file named
            compared += 1
            continue
        assert _catalog_gold(dataset_id) == expected, dataset_id
        gold = load_gold(dataset_id)
        assert (gold.torts if gold.torts is not None else list(gold.tables.values())) in (
            expected,
            [expected],
        )
        compared, served = compared + 1, served + 1
    assert compared == len(ids)  # every listed id and the subset
    assert {int(d.split("/")[2]) for d in ids} == set(
        EDITIONS
    )  # every edition of the model is listed
    assert (
        served >= 40
    )  # Task 1 (2019-2024), Task 2, Tasks 3 and 4, the pilot: real gold compared, not only errors


def test_eval_with_a_dataset_id_loads_no_ir_datasets_and_prints_the_official_values(tmp_path):
    """Two queries of the sample release's Task 1 gold: the run finds one of two gold cases of the first
    (and retrieves one wrong case), none of the second: MicroP 1/3, MicroR 1 over all gold pairs."""
    with sample_release():
        table = load_gold("coliee/task1/2025/test").tables["documents"]
    (q1, docs1), (q2, _) = list(table.items())[:2]
    first = sorted(docs1)[0]
    run = tmp_path / "task1.TEAMrun"
    run.write_text(f"{q1} {first} TEAMrun\n{q1} 999999 TEAMrun\n{q2} 999998 TEAMrun\n")
    relevant = sum(len(docs) for docs in table.values())
    code = (
        "import sys\nfrom ir_coliee.cli import main\n"
        f"main(['eval', 'coliee/task1/2025/test', {str(run)!r}, '--format', 'json'])\n"
        "print(sorted(m for m in ('ir_datasets', 'numpy', 'pandas', 'pyarrow') if m in sys.modules))"
    )
    env = {**os.environ, "COLIEE_HOME": str(RELEASE)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout
    printed, loaded = out.rsplit("\n", 2)[0], out.rsplit("\n", 2)[1]
    # the counts are taken with numpy (one engine); nothing else is loaded
    assert set(ast.literal_eval(loaded)) == {"numpy"}
    values = json.loads(printed)["measures"]
    assert values["MicroP"] == pytest.approx(1 / 3)
    assert values["MicroR"] == pytest.approx(1 / relevant)
    assert values["MicroF1"] == pytest.approx(2 * (1 / 3) * (1 / relevant) / (1 / 3 + 1 / relevant))


def test_a_folder_named_like_a_dataset_id_is_not_gold(tmp_path, monkeypatch):
    """Run from a folder of runs named by dataset ids (``ir_coliee benchmark runs/``), ``coliee/task1/2025/test``
    is still the dataset: a folder is never a gold file; a file of that name is."""
    from ir_coliee.inputs.gold import is_dataset_id

    (tmp_path / "coliee" / "task1" / "2025" / "test").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert is_dataset_id("coliee/task1/2025/test")
    (tmp_path / "coliee" / "task1" / "2025" / "gold.json").write_text("{}")
    assert not is_dataset_id("coliee/task1/2025/gold.json")
