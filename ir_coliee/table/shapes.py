"""Every in-memory shape of a run or of qrels as one normalised table, and run ids aligned with the gold's.

What hosts hand over: a pandas DataFrame (``query_id, doc_id, score``, or PyTerrier's ``qid, docno``)
whose ids may be strings, integers (pandas reads ``001`` as 1), categoricals or objects; a dict of dicts
(scores may be numpy scalars); a list, generator or other one-shot iterable of namedtuples
(``ScoredDoc``, ``GenericScoredDoc``) or plain ``(query, doc, score)`` tuples. :func:`coded_run`
turns each into a :class:`~ir_coliee.table.tables.CodedRun` with string ids, consuming an iterator exactly
once; a missing id (``None``, NaN), an id that is not a whole number or text, or a score that is not a
finite number is refused with the row it sits on. :func:`gold_table` does the same for gold, :func:`run_table` gives a run as a dict of dicts.

:func:`align` then maps the run's ids onto the gold's convention, on the distinct ids, never line by
line: ``.txt`` suffixes stripped, zero padding restored (``12``, the integer 12 or the text ``12.0`` ->
``012`` where that gold id is the only one with that number), and case-scoped document ids (a
dataset's ``826/032``) added or removed to match the gold. Each mapping but the official ``.txt`` and
scoping is reported, so that a mapped id never passes unseen.

Below the scorers: the ir_measures provider and the scoring API (``ir_coliee.inputs.ingest``) both
use it, so a run scores the same through every door.
"""

from __future__ import annotations

import itertools
import math
import numbers
import operator
import re
from array import array
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Optional

from ir_coliee.errors import ColieeScoringError, some
from ir_coliee.formats.textfile import strip_txt
from ir_coliee.model import ANSWER_LABELS, QUESTION_ID
from ir_coliee.table.tables import SCOPE, CheckedGold, CodedRun, GoldIds, Table

if TYPE_CHECKING:
    import numpy as np

_QUERY_COLUMNS = ("query_id", "qid")
_DOC_COLUMNS = ("doc_id", "docno")
#: relevance: ir_measures' and ir_datasets' name, then PyTerrier's (its qrels frames: qid, docno, label)
_RELEVANCE_COLUMNS = ("relevance", "label")
_EXPECTED = (
    "a run: a DataFrame with query_id, doc_id, score (or PyTerrier's qid, docno, score), a dict "
    "{query_id: {doc_id: score}}, or an iterable of (query_id, doc_id, score) rows or namedtuples"
)


def _refuse(source: str, problem: str) -> ColieeScoringError:
    return ColieeScoringError(f"{source}: {problem}")


def id_text(value: object, source: str, what: str) -> str:
    """An id as the text the official files hold: strings as they are, whole numbers (Python, numpy or a
    float such as ``12.0`` that pandas made of one) in decimal; anything else is refused."""
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return str(int(value))
    if (
        isinstance(value, numbers.Real)
        and not isinstance(value, bool)
        and float(value).is_integer()
    ):
        return str(int(float(value)))
    raise _refuse(
        source,
        f"{what} {value!r} ({type(value).__name__}) is not an id: give text or whole numbers",
    )


def _encoded(values: Any, source: str, what: str) -> tuple[np.ndarray, list[str]]:
    """Codes and distinct texts of a column of ids of any dtype; the first missing id is refused with
    its row. Distinct values are converted once (a few thousand), not every line."""
    import numpy as np
    import pandas as pd

    codes, uniques = pd.factorize(
        values if isinstance(values, pd.Series) else np.asarray(values, dtype=object)
    )
    if len(codes) and int(codes.min()) < 0:
        row = int(np.flatnonzero(codes < 0)[0])
        raise _refuse(source, f"row {row}: the {what} is missing (None or NaN)")
    texts = [id_text(u, source, what) for u in list(uniques)]
    distinct, remap = _merged(texts)  # 1 and "1" are one id
    codes = codes.astype(np.int64, copy=False)
    return (codes if remap is None else np.asarray(remap, dtype=np.int64)[codes]), distinct


def _scores(values: Any, source: str) -> np.ndarray:
    import numpy as np

    try:
        scores = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        scores = None
    if scores is None or scores.ndim != 1:
        raise _refuse(source, "a score is not a number; scores are finite numbers")
    bad = np.flatnonzero(~np.isfinite(scores))
    if len(bad):
        raise _refuse(
            source, f"row {int(bad[0])}: the score is {scores[bad[0]]!r}; scores are finite numbers"
        )
    return scores


def _from_columns(queries: Any, docs: Any, scores: Optional[Any], source: str) -> CodedRun:
    import numpy as np

    query_codes, query_ids = _encoded(queries, source, "query id")
    doc_codes, doc_ids = _encoded(docs, source, "document id")
    if scores is None:
        # without scores, line order is the ranking, as in the official files without a score column
        scored = np.arange(len(query_codes), 0, -1, dtype=float)
    else:
        scored = _scores(scores, source)
    return CodedRun(query_ids, doc_ids, query_codes, doc_codes, scored)


def _pick(columns: Iterable[str], names: tuple[str, ...]) -> Optional[str]:
    return next((n for n in names if n in columns), None)


def _from_frame(frame: Any, source: str) -> CodedRun:
    columns = list(frame.columns)
    query, doc = _pick(columns, _QUERY_COLUMNS), _pick(columns, _DOC_COLUMNS)
    if query is None or doc is None:
        raise _refuse(source, f"a DataFrame with columns {columns}; expected {_EXPECTED}")
    return _from_columns(
        frame[query], frame[doc], frame["score"] if "score" in columns else None, source
    )


def _from_dicts(run: Mapping, source: str) -> CodedRun:
    import numpy as np

    inner = list(run.values())
    if not all(isinstance(docs, Mapping) for docs in inner):
        raise _refuse(source, f"a dict whose values are not dicts of scores; expected {_EXPECTED}")
    lengths = np.fromiter(map(len, inner), dtype=np.int64, count=len(inner))
    queries = np.repeat(np.arange(len(inner)), lengths)
    query_texts = [id_text(q, source, "query id") for q in run]
    docs = list(itertools.chain.from_iterable(inner))
    try:
        scores = np.fromiter(
            itertools.chain.from_iterable(d.values() for d in inner), dtype=float, count=len(docs)
        )
    except (TypeError, ValueError):
        raise _refuse(source, "a score is not a number; scores are finite numbers") from None
    return _from_columns(np.array(query_texts, dtype=object)[queries], docs, scores, source)


def _from_rows(rows: list, source: str) -> CodedRun:
    """Namedtuples (``ScoredDoc`` and the like, column by column with ``attrgetter`` in C), mappings with
    those keys, or plain ``(query, doc, score)`` tuples."""
    first = rows[0]
    fields = getattr(type(first), "_fields", None)
    if (
        fields is not None
        and {"query_id", "doc_id"} <= set(fields)
        and len(set(map(type, rows))) == 1
    ):
        get = operator.attrgetter
        scores = list(map(get("score"), rows)) if "score" in fields else None
        return _from_columns(
            list(map(get("query_id"), rows)), list(map(get("doc_id"), rows)), scores, source
        )
    if all(isinstance(r, Mapping) and {"query_id", "doc_id"} <= set(r) for r in rows):
        scores = [r["score"] for r in rows] if all("score" in r for r in rows) else None
        return _from_columns(
            [r["query_id"] for r in rows], [r["doc_id"] for r in rows], scores, source
        )
    if all(
        isinstance(r, (tuple, list)) and len(r) == 3 and not hasattr(r, "_fields") for r in rows
    ):
        q, d, s = zip(*rows)
        return _from_columns(list(q), list(d), list(s), source)
    raise _refuse(source, f"rows of type {type(first).__name__}; expected {_EXPECTED}")


def as_dicts(value: object) -> object:
    """A ranx ``Qrels`` or ``Run`` as the dict of dicts it holds (``to_dict()``); anything else as it is."""
    if type(value).__module__.startswith("ranx.") and hasattr(value, "to_dict"):
        return value.to_dict()
    return value


def coded_run(run: object, source: str = "the run") -> CodedRun:
    """``run``, in any shape a host hands over, as codes with string ids; an iterator is consumed once.
    ``source`` names the run in errors. An empty run is empty codes (ir_measures scores it 0); the
    scoring API refuses it, as it refuses any run that shares no query with the gold."""
    run = as_dicts(run)
    if isinstance(run, CodedRun):
        return run
    if hasattr(run, "columns") and hasattr(run, "itertuples"):
        return _from_frame(run, source)
    if isinstance(run, Mapping):
        return _from_dicts(run, source)
    if isinstance(run, Iterable) and not isinstance(run, (str, bytes)):
        rows = list(run)
        return _from_rows(rows, source) if rows else _from_columns([], [], [], source)
    raise _refuse(source, f"a {type(run).__name__}; expected {_EXPECTED}")


def gold_table(qrels: object, source: str = "the gold") -> Table:
    """Gold in any shape (``query_id, doc_id, relevance`` DataFrame, dict of dicts, ranx ``Qrels``, iterable of
    ``TrecQrel``-like rows, consumed once) as ``{query_id: {doc_id: relevance}}`` with string ids."""
    if type(qrels) is CheckedGold:
        return qrels
    qrels = as_dicts(qrels)
    if isinstance(qrels, Mapping):
        checked = CheckedGold()
        for q, docs in qrels.items():
            query = id_text(q, source, "query id")
            checked[query] = {id_text(d, source, "document id"): int(r) for d, r in docs.items()}
        return checked
    if hasattr(qrels, "columns"):
        frame: Any = qrels
        names = [
            _pick(frame.columns, n) for n in (_QUERY_COLUMNS, _DOC_COLUMNS, _RELEVANCE_COLUMNS)
        ]
        if None in names:
            raise _refuse(
                source,
                f"a DataFrame with columns {list(frame.columns)}; expected query_id, doc_id, relevance "
                "(or PyTerrier's qid, docno, label)",
            )
        rows: Iterable = zip(*(frame[n].tolist() for n in names))
    elif isinstance(qrels, Iterable) and not isinstance(qrels, (str, bytes)):
        rows = ((r.query_id, r.doc_id, r.relevance) for r in qrels)
    else:
        raise _refuse(
            source, f"a {type(qrels).__name__}; expected qrels (query_id, doc_id, relevance)"
        )
    table: Table = CheckedGold()
    texts: dict[object, str] = {}  # each distinct id converted once
    for q, d, r in rows:
        for value, what in ((q, "query id"), (d, "document id")):
            if value not in texts:
                if value is None or (isinstance(value, float) and math.isnan(value)):
                    raise _refuse(source, f"a {what} is missing (None or NaN)")
                texts[value] = id_text(value, source, what)
        table.setdefault(texts[q], {})[texts[d]] = int(r)
    return table


def run_table(run: object, keep: Optional[Iterable[str]] = None) -> Table:
    """The run as ``{query_id: {doc_id: score}}``, for the query ids in ``keep`` (all when ``None``), from
    any shape (string ids, an iterator consumed once). A (query, document) pair that appears more than
    once counts once, with its highest score."""
    return coded_run(run).table(None if keep is None else set(keep))


# --- id conventions ------------------------------------------------------------------------------------


class Aligned(NamedTuple):
    """A run with its ids in the gold's convention, and what was mapped (for a warning)."""

    run: CodedRun
    notes: list[str]


_ARTICLE = re.compile(r"[0-9]+(-[0-9]+)+")


def _id_kind(text: str) -> tuple[str, int]:
    """What one id looks like: its convention, and for plain numbers their width."""
    if text in ANSWER_LABELS:
        return ("Y/N answers", 0)
    if QUESTION_ID.match(text):
        return ("bar-exam question ids (H30-1-A)", 0)
    if SCOPE in text:
        return ("case-scoped ids (826/032)", 0)
    if text.isascii() and text.isdigit():
        return ("numbers", len(text))
    if _ARTICLE.fullmatch(text):
        return ("article numbers with a branch (3-2)", 0)
    return ("other ids", 0)


def id_kinds(ids: Sequence[str]) -> set[tuple[str, int]]:
    return {_id_kind(i) for i in ids[:5000]}


def describe(kinds: set[tuple[str, int]]) -> str:
    """The conventions of a set of ids in words: ``numbers of 6 digits``, ``numbers of 1 to 3 digits and ...``."""
    widths = sorted(width for kind, width in kinds if kind == "numbers")
    parts = sorted(kind for kind, _ in kinds if kind != "numbers")
    if widths:
        span = f"{widths[0]}" if len(widths) == 1 else f"{widths[0]} to {widths[-1]}"
        parts.insert(0, f"numbers of {span} digits")
    return " and ".join(parts) or "no ids"


def no_shared_query(run: Iterable[str], gold: Sequence[str], what: str) -> str:
    """What to say of a run none of whose queries is in the gold (``what`` says which run and gold): a few
    ids of each side and their conventions, since a score of such a run would be a silent zero."""
    ordered, gold = sorted(run), list(gold)
    return (
        f"{what} (run: {len(ordered)} queries, e.g. {some(ordered, 3)}, {describe(id_kinds(ordered))}; "
        f"gold: {len(gold)}, e.g. {some(gold, 3)}, {describe(id_kinds(gold))})"
    )


def _numeral(text: str) -> Optional[str]:
    """An id's numbers without leading zeros (``0012`` -> ``12``, ``826/027`` -> ``826/27``, ``000`` ->
    ``0``), also as the text of a whole float (``12.0``: PyTerrier turns float qids into such text while
    the qrels' stay numbers), ``None`` where the id is not ASCII digits (in parts joined by the scope)."""
    parts = text.removesuffix(".0").split(SCOPE)
    if not all(part.isascii() and part.isdigit() for part in parts):
        return None
    return SCOPE.join(part.lstrip("0") or "0" for part in parts)


def _uniform_width(gold: Collection[str]) -> Optional[int]:
    """The width of the gold's ids when all are ASCII digits of one width (``000028``: 6), else ``None``."""
    # asked of all at once: a gold of a million queries
    widths, joined = set(map(len, gold)), "".join(gold)
    return widths.pop() if len(widths) == 1 and joined.isascii() and joined.isdigit() else None


def _unpadded(
    ids: list[str], gold: Collection[str]
) -> tuple[list[str], int, Optional[tuple[str, str]]]:
    """``ids`` with zero padding restored where an id is not a gold id: an id with the number of exactly
    one gold id becomes it (``12`` or ``12.0`` -> ``012``); where every gold id has the same width, a
    shorter number is padded to it (``99`` -> ``000099``, a document the gold does not name). How many
    were replaced, and one example. The ids are distinct ids, a few thousand: plain Python at every run
    size. ``gold``: a set of the gold's ids (or a dict of them)."""
    width = _uniform_width(gold) if gold else None
    # a number of the gold's one width that is not a gold id matches none by its number; the positions
    # in an array, not a list of ints (for ten million documents outside the gold, 80 MB, not 360)
    unknown = array(
        "q",
        (
            i
            for i, text in enumerate(ids)
            if text not in gold and (width is None or len(text) != width or "." in text)
        ),
    )
    if not unknown:
        return ids, 0, None
    numbered = _by_number(gold)
    if not numbered and width is None:
        return ids, 0, None  # no gold id is a number: no padding to restore
    new = list(ids)
    for i in unknown:
        new[i] = _restored(ids[i], numbered, width)
    changed = [i for i, (old, now) in enumerate(zip(ids, new)) if old != now]
    if not changed:
        return ids, 0, None
    return new, len(changed), (ids[changed[0]], new[changed[0]])


def _by_number(gold: Collection[str]) -> dict[str, str]:
    """Each number that exactly one gold id has, with that id (two gold ids of one number: neither)."""
    by_number: dict[str, Optional[str]] = {}
    for gid in gold:
        number = _numeral(gid)
        if number is not None:
            by_number[number] = gid if number not in by_number else None
    return {number: gid for number, gid in by_number.items() if gid is not None}


def _restored(text: str, numbered: Mapping[str, str], width: Optional[int]) -> str:
    """The gold id of ``text``'s number, else ``text`` padded to the gold's one width, else ``text``."""
    number = _numeral(text)
    if number is not None and number in numbered:
        return numbered[number]
    digits = text.removesuffix(".0")
    if width is not None and digits.isascii() and digits.isdigit() and len(digits) < width:
        return digits.zfill(width)
    return text


def _without_txt(ids: list[str]) -> list[str]:
    # (map in C: a third of the time of a generator, over ten million distinct ids)
    return (
        [strip_txt(i) for i in ids]
        if any(map(str.endswith, ids, itertools.repeat(".txt")))
        else ids
    )


def _rescoped(run: CodedRun, scoped: bool) -> CodedRun:
    """Document ids scoped by their query (``826/032``) where the gold's are, unscoped where the gold's are
    not; pairs, not distinct ids, decide (``032`` of case 826 is not ``032`` of case 827)."""
    has_scope = [SCOPE in d for d in run.doc_ids]
    if (scoped and all(has_scope)) or (not scoped and not any(has_scope)):
        return run
    ids: dict[str, int] = {}
    by_pair: dict[tuple[int, int], int] = {}
    changed = 0
    codes = array("q")
    for pair in zip(
        run.queries.tolist(), run.docs.tolist()
    ):  # a run that needs scoping is a small Task 2 run
        code = by_pair.get(pair)
        if code is None:
            q, d = run.query_ids[pair[0]], run.doc_ids[pair[1]]
            prefix = q + SCOPE
            new = (d if d.startswith(prefix) else prefix + d) if scoped else d.removeprefix(prefix)
            changed += new != d
            code = by_pair[pair] = ids.setdefault(new, len(ids))
        codes.append(code)
    return run.with_codes(run.query_ids, list(ids), run.queries, codes, merged=bool(changed))


def _merged(ids: list[str]) -> tuple[list[str], Optional[list[int]]]:
    """Distinct ``ids`` again after a mapping made two of them one, and the old code -> new code map
    (``None`` when none merged)."""
    position: dict[str, int] = {}
    remap = [position.setdefault(i, len(position)) for i in ids]
    return (ids, None) if len(position) == len(ids) else (list(position), remap)


def _recoded(run: CodedRun, query_ids: list[str], doc_ids: list[str]) -> CodedRun:
    """``run`` under new ``query_ids`` and ``doc_ids`` (one per old code), codes merged where two became one."""
    if query_ids == run.query_ids and doc_ids == run.doc_ids:
        return run
    queries, query_map = _merged(query_ids)
    docs, doc_map = _merged(doc_ids)
    query_codes, doc_codes = run.remapped(query_map, doc_map)
    return run.with_codes(
        queries, docs, query_codes, doc_codes, merged=query_map is not None or doc_map is not None
    )


def align(run: CodedRun, gold: GoldIds) -> Aligned:
    """``run`` with its query and document ids in the gold's convention (see the module text)."""
    if run.aligned == gold.key:  # aligned with this gold already, by a layer above
        return Aligned(run, [])
    notes: list[str] = []
    query_ids, padded_queries, query_example = _unpadded(_without_txt(run.query_ids), gold.position)
    out = _recoded(run, query_ids, _without_txt(run.doc_ids))
    out = _rescoped(out, gold.scoped)
    doc_ids, padded_docs, doc_example = _unpadded(out.doc_ids, gold.docs)
    out = _recoded(out, out.query_ids, doc_ids)
    for count, example, what in (
        (padded_queries, query_example, "query"),
        (padded_docs, doc_example, "document"),
    ):
        if count and example is not None:
            notes.append(
                f"{count} {what} ids are not in the gold and are read as the gold's id of the same number "
                f"(e.g. {example[0]!r} -> {example[1]!r})"
            )
    # on the run itself when nothing changed: its ids are this gold's convention
    out.aligned = gold.key
    return Aligned(out, notes)
