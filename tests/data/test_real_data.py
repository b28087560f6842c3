"""Checks on the licensed COLIEE files; they run when COLIEE_HOME points at them (marked requires_data)."""

from __future__ import annotations

import ir_datasets
import pytest

from ir_coliee.data.datasets import REGISTERED
from ir_coliee.model import QUESTION_ID

pytestmark = pytest.mark.requires_data


def complete_datasets(task: str):
    """Every dataset of the task whose files are all present, loaded, with its queries and qrels;
    the gold's queries must be among the queries."""
    found = [
        d
        for d, reg in sorted(REGISTERED.items())
        if d.startswith(f"coliee/task{task}/") and all(s.location for s in reg.files.sources())
    ]
    assert found, (
        f"COLIEE_HOME is set but holds no complete Task {task} dataset: see ir_coliee data check"
    )
    for dataset_id in found:
        ds = ir_datasets.load(dataset_id)
        queries = [q.query_id for q in ds.queries_iter()]
        assert queries and len(set(queries)) == len(queries), dataset_id
        qrels = list(ds.qrels_iter())
        assert {q.query_id for q in qrels} <= set(queries), dataset_id
        yield dataset_id, ds, queries, qrels


@pytest.mark.parametrize("task", ["3", "4"])
def test_statute_datasets_parse_and_agree(task):
    for dataset_id, ds, queries, qrels in complete_datasets(task):
        assert all(QUESTION_ID.match(q) for q in queries), dataset_id
        if task == "3":
            articles = {d.doc_id for d in ds.docs_iter()}
            assert len(articles) > 700, dataset_id
            known = sum(q.doc_id in articles for q in qrels)
            assert known >= 0.95 * len(qrels), (dataset_id, known, len(qrels))
        else:
            assert {q.doc_id for q in qrels} <= {"Y", "N"}, dataset_id


@pytest.mark.parametrize("task", ["1", "2"])
def test_caselaw_datasets_parse_and_agree(task):
    for dataset_id, ds, _, qrels in complete_datasets(task):
        doc_ids = [doc.doc_id for doc in ds.docs_iter()]
        assert len(set(doc_ids)) == len(doc_ids) > 0, dataset_id
        known = set(doc_ids)
        assert sum(q.doc_id in known for q in qrels) >= 0.99 * len(qrels), dataset_id
        assert ds.docs_store().get(doc_ids[-1]).doc_id == doc_ids[-1]
