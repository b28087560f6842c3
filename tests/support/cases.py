"""Small gold/run pairs whose scores are worked out by hand in the tests."""

from __future__ import annotations

from fractions import Fraction

# q1: 2 relevant, retrieves a (hit) and x; q2: 1 relevant, retrieves c (hit), y, z;
# q3: 1 relevant, absent from the run; q9: in the run only (ignored).
GOLD = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}, "q3": {"d": 1}}
RUN = {"q1": {"a": 3.0, "x": 2.0}, "q2": {"c": 3.0, "y": 2.0, "z": 1.0}, "q9": {"a": 1.0}}

# tp = 1 + 1 + 0 = 2, retrieved = 2 + 3 + 0 = 5, relevant = 2 + 1 + 1 = 4
MICRO_P = 2 / 5
MICRO_R = 2 / 4
MICRO_F1 = 2 * (2 / 5) * (2 / 4) / ((2 / 5) + (2 / 4))  # = 4/9
# per query P: 1/2, 1/3, 0; R: 1/2, 1/1, 0
MACRO_P = (1 / 2 + 1 / 3 + 0) / 3  # = 5/18
MACRO_R = (1 / 2 + 1 + 0) / 3  # = 1/2
# per query F2 = 5PR / (4P + R): q1 = (5/4)/(5/2) = 1/2; q2 = (5/3)/(7/3) = 5/7; q3 = 0
MACRO_F2 = (1 / 2 + 5 / 7 + 0) / 3  # = 17/42


def oracle_data_lines(text: str) -> list[str]:
    """The lines a run reader must keep, stripped, by the official rules written independently of the package:
    not blank, not inside a /* */ comment (a leading BOM is no content)."""
    kept, in_comment = [], False
    for line in text.removeprefix("\ufeff").split("\n"):
        stripped = line.strip(" \t\r")
        if in_comment or stripped.startswith("/*"):
            in_comment = "*/" not in stripped
            continue
        if stripped:
            kept.append(stripped)
    return kept


def without_path(out: str) -> list[str]:
    """The lines of a printed tsv table without its last column, after checking that it is ``path`` (the
    file each row came from): the values before it are what tests compare."""
    lines = out.splitlines()
    assert lines[0].split("\t")[-1] == "path", lines[0]
    return ["\t".join(line.split("\t")[:-1]) for line in lines]


def default_columns(task: str, year: int | None = None) -> list[str]:
    """The measure columns a verb prints by default for ``task`` in ``year``: its official measures and
    those reported for ranked runs, read from the model, so that a change of the defaults breaks only
    the tests about that choice."""
    from ir_coliee.model import official_measures

    return [str(m) for m in official_measures(task, year, ranked=True)]


def dataset_columns(dataset_id: str) -> list[str]:
    """:func:`default_columns` of a COLIEE dataset id (``coliee/task1/2024/test``)."""
    _, task, year, *_ = dataset_id.split("/")
    return default_columns(task.removeprefix("task"), int(year))


def defaults_are_ours(task: str, year: int | None = None) -> bool:
    """Whether every default measure of ``task`` is ir_coliee's own (counted without numpy): only then
    does a small ``eval`` with the defaults load no numpy (pytrec_eval's measures need it)."""
    from ir_coliee.measures import ColieeMeasure
    from ir_coliee.model import official_measures

    return all(isinstance(m, ColieeMeasure) for m in official_measures(task, year, ranked=True))


def printed_rows(out: str) -> list[dict[str, str]]:
    """The rows of a printed tsv table, each by column name (its ``path`` column checked and dropped)."""
    header, *rows = (line.split("\t") for line in without_path(out))
    return [dict(zip(header, row)) for row in rows]


def picked(row: dict[str, str], *columns: str) -> list[str]:
    """The cells of ``row`` in ``columns``: what a test compares, whatever else the table shows."""
    return [row[c] for c in columns]


def micro_reference(
    gold: dict[str, set[str]], pairs: set[tuple[str, str]]
) -> tuple[Fraction, Fraction, Fraction]:
    """Micro P, R, F1 of a set of (query, document) pairs by the official definition (COLIEE-SPEC
    section 6), written independently of the package: gold queries only, a pair counted once."""
    kept = {(q, d) for q, d in pairs if q in gold}
    tp = sum(d in gold[q] for q, d in kept)
    relevant = sum(len(ds) for ds in gold.values())
    p = Fraction(tp, len(kept)) if kept else Fraction(0)
    r = Fraction(tp, relevant)
    return p, r, (2 * p * r / (p + r) if p + r else Fraction(0))
