"""Writing the official submission formats."""

from __future__ import annotations

import math
import os
from typing import Optional

from ir_measures.util import TYPE_RUN

from ir_coliee.errors import ColieeArgumentError, ColieeError, PathLike
from ir_coliee.formats.textfile import atomic_output
from ir_coliee.model.formats import FORMATS, FormatName
from ir_coliee.table.run_lines import RUN_TAG
from ir_coliee.table.tables import run_table


def check_run_tag(tag: str) -> None:
    """Refuse ``tag`` unless it is an official run tag (1-12 letters or digits): before the work that
    writes it (``tune --write``), and in :func:`write_run`."""
    if not isinstance(tag, str) or not RUN_TAG.fullmatch(tag):
        raise ColieeArgumentError(
            f"run tag {tag!r} is not allowed: use 1 to 12 letters or digits, no punctuation"
        )


def _writable(query_id: object, doc_id: object, score: float) -> None:
    """Refuse what :func:`read_run` would reject: empty ids or ids with white space, scores that are not finite."""
    for what, value in (("query", query_id), ("document", doc_id)):
        if not isinstance(value, str) or not value or any(c.isspace() for c in value):
            raise ColieeArgumentError(
                f"{what} id {value!r} cannot be written: ids are non-empty and hold no white space"
            )
    if not math.isfinite(score):
        raise ColieeArgumentError(
            f"the score of {query_id!r} {doc_id!r} is {score!r}; scores are finite numbers"
        )


def write_run(
    run: TYPE_RUN, path: PathLike, format: FormatName, tag: str, max_per_query: Optional[int] = None
) -> str:
    """Write ``run`` (anything ir_measures takes) as an official submission file; returns the path.

    Queries are written in id order, documents best score first (ties: doc id descending, as
    trec_eval ranks them); ``max_per_query`` keeps only the best ones (``task3-L`` allows 100).
    PyTerrier result frames (``qid``, ``docno``) are taken too (read as
    :func:`~ir_coliee.table.tables.coded_run` reads every shape), and dataset ids scoped by query (Task 2's
    ``001/013``) are written as the official format names them (``001 013``).
    """
    if format not in FORMATS:
        raise ColieeArgumentError(
            f"unknown run format {format!r}; expected one of {', '.join(FORMATS)}"
        )
    fmt = FORMATS[format]
    check_run_tag(tag)
    if max_per_query is not None and not (isinstance(max_per_query, int) and max_per_query >= 1):
        raise ColieeError(
            f"max_per_query must be a whole number of at least 1, got {max_per_query!r}"
        )
    lines: list[str] = []
    for qid, docs in sorted(run_table(run).items()):
        prefix = f"{qid}/"
        scoped = sorted(docs.items(), key=lambda item: (item[1], item[0]), reverse=True)
        ranked = [(d[len(prefix) :] if d.startswith(prefix) else d, s) for d, s in scoped]
        if fmt.labels:
            labels = {d for d, _ in ranked}
            if len(labels) != 1 or not labels <= set(fmt.labels):
                raise ColieeArgumentError(
                    f"question {qid!r} must have exactly one answer Y or N, got {sorted(labels)}"
                )
        for rank, (did, score) in enumerate(ranked[:max_per_query], 1):
            _writable(qid, did, score)
            # one line of ``fmt``, fields placed where the format says
            fields = [""] * fmt.width
            fields[fmt.query], fields[fmt.doc], fields[fmt.tag] = qid, did, tag
            if fmt.score is not None:
                fields[fmt.score] = repr(score)
            if fmt.rank is not None:
                fields[fmt.rank] = str(rank)
            for column, value in fmt.fixed:
                fields[column] = value
            lines.append(" ".join(fields) + "\n")
    with atomic_output(path) as f:  # a kill or a full disk leaves the old file whole
        f.writelines(lines)
    return os.fspath(path)
