"""Gold and run in memory, as every host hands them over, and the per-query counts every ir_coliee
measure derives from: the one engine (numpy) the provider, the scorers and ``tune`` count with.

A run of ten million lines names a few thousand queries and documents over and over. Kept as codes
(each distinct id stored once, in a list; each line two integers and a score), it takes a tenth of the
memory of a string per cell, and the counts come from vectorised steps: map the gold's relevant pairs
onto the run's codes, look each up among the run's sorted distinct pairs (or those a cutoff keeps),
and add them up per query with ``bincount``. No Python object is made per line, and no table is sized
by queries times documents: memory grows with the input alone.

:func:`align` maps the run's ids onto the gold's convention, on the distinct ids, never line by
line: ``.txt`` suffixes stripped, zero padding restored (``12``, the integer 12 or the text ``12.0`` ->
``012`` where that gold id is the only one with that number), and case-scoped document ids (a
dataset's ``826/032``) added or removed to match the gold. Each mapping but the official ``.txt`` and
scoping is reported, so that a mapped id never passes unseen.

What hosts hand over: a pandas DataFrame (``query_id, doc_id, score``, or PyTerrier's ``qid, docno``)
whose ids may be strings, integers (pandas reads ``001`` as 1), categoricals or objects; a dict of dicts
(scores may be numpy scalars); a list, generator or other one-shot iterable of namedtuples
(``ScoredDoc``, ``GenericScoredDoc``) or plain ``(query, doc, score)`` tuples. :func:`coded_run`
turns each into a :class:`~ir_coliee.table.tables.CodedRun` with string ids, consuming an iterator exactly
once; a missing id (``None``, NaN), an id that is not a whole number or text, or a score that is not a
finite number is refused with the row it sits on. :func:`gold_table` does the same for gold, :func:`run_table` gives a run as a dict of dicts.

numpy is imported at first use (a run is made), not with this module: ``import ir_coliee`` does not
load it.
"""

from __future__ import annotations

import math
import numbers
import operator
import re
from array import array
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from itertools import chain, count, repeat
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Union

from ir_measures.util import ScoredDoc

from ir_coliee.errors import ColieeScoringError, some
from ir_coliee.formats.textfile import strip_txt
from ir_coliee.model import ANSWER_LABELS, QUESTION_ID

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

#: query id -> document id -> relevance (gold) or best score (run)
Table = dict[str, dict[str, float]]

#: Dataset ids of collections whose document names repeat across queries carry the query: ``826/032``.
SCOPE = "/"


class CheckedGold(dict):
    """A gold table of string ids and integer relevance, made by :func:`~ir_coliee.table.tables.gold_table` or by a
    gold file's reader. The layers a gold passes through (scorer, provider, ``compare``) each ask
    ``gold_table`` for it; this one is handed back as it is, not converted again (a twentieth of scoring 10M
    lines, three times over; a fifth of scoring a gold of a million queries)."""

    #: its ids, gathered on first use (:func:`gold_ids`); its codes at each relevance level, in
    #: ``vars(gold)["coded"]`` (:func:`coded_gold`)
    ids: object = None


#: The counts of every gold query as columns: the query ids, then relevant documents retrieved, distinct
#: documents retrieved, relevant documents.
CountColumns = tuple[list[str], list[int], list[int], list[int]]


# --- the numpy steps ----------------------------------------------------------------------------


def pair_codes(queries: np.ndarray, docs: np.ndarray, n_docs: int) -> np.ndarray:
    """One integer per (query, document) pair of codes."""
    import numpy as np

    codes = np.multiply(queries, max(n_docs, 1), dtype=np.int64)
    codes += docs
    return codes


def sorted_pairs(queries: np.ndarray, docs: np.ndarray, n_docs: int) -> np.ndarray:
    """The lines' pair codes in ascending order: equal neighbours are a pair given twice. A stable sort
    (a merge sort of sorted stretches): runs come grouped by query, which it takes in long stretches,
    in a fifth of the time of numpy's default sort; memory stays two integers per line, where a table of
    every query and document would grow with their product."""
    codes = pair_codes(queries, docs, n_docs)
    codes.sort(kind="stable")  # in place: np.sort would copy them first
    return codes


#: A column of line codes or scores as a reader hands it over: an ``array.array`` (the line reader's) or a
#: numpy array; the run holds it as a numpy array.
Column = Union["array[int]", "array[float]", "np.ndarray"]


class Duplicate(NamedTuple):
    """A (query, document) pair given again: counted once, at its first (best) position."""

    line: int
    first_line: int
    query_id: str
    doc_id: str


class CodedRun:
    """A run as codes: ``queries[i]`` and ``docs[i]`` index ``query_ids`` and ``doc_ids`` (lists of the
    distinct ids); ``scores[i]``. The columns are numpy arrays, every step below is taken in numpy.

    Iterating yields ``ir_measures.ScoredDoc`` rows; :meth:`frame` is the ``query_id, doc_id, score``
    DataFrame (built once, on first use). ``unique``: no (query, document) pair is given twice (the
    reader checked), so nothing needs merging.
    """

    def __init__(
        self,
        query_ids: list[str],
        doc_ids: list[str],
        queries: Column,
        docs: Column,
        scores: Optional[Column],
        unique: bool = False,
        pairs: Optional[np.ndarray] = None,
    ):
        import numpy as np

        self.query_ids, self.doc_ids = query_ids, doc_ids
        # over the same memory where it can: codes keep their width (the fast reader's are 32-bit: no
        # copy of ten million lines), the line reader's arrays are not copied
        self.queries, self.docs = np.asarray(queries), np.asarray(docs)
        # without scores (a format or a shape without them), line order is the ranking
        if scores is None:
            self.scores = np.arange(len(self.queries), 0, -1, dtype=float)
        else:
            self.scores = np.asarray(scores, dtype=float)
        self.unique = unique
        #: the distinct pair codes, ascending (:meth:`pairs`), when the reader made them
        self._pairs = pairs
        self._frame: Optional[pd.DataFrame] = None
        #: The key of the gold ids this run's ids were aligned with (:func:`align`), so that
        #: the layers it passes through do not align it again.
        self.aligned: Optional[int] = None

    def __len__(self) -> int:
        return len(self.queries)

    def __iter__(self) -> Iterator[ScoredDoc]:
        queries, docs = self.query_ids, self.doc_ids
        for q, d, s in zip(self.queries.tolist(), self.docs.tolist(), self.scores.tolist()):
            yield ScoredDoc(queries[q], docs[d], s)

    def duplicates(self, line: Callable[[int], int]) -> list[Duplicate]:
        """Each line whose (query, document) pair came on an earlier line, with that first line (``line``:
        the file's line of a row), as both readers name it."""
        if self.unique:
            return []
        import numpy as np

        # a stable sort of the pair codes: equal codes keep their line order
        codes = pair_codes(self.queries, self.docs, len(self.doc_ids))
        order = np.argsort(codes, kind="stable")
        codes = codes[order]
        new = np.ones(len(codes), dtype=bool)
        new[1:] = codes[1:] != codes[:-1]
        # the first line of each pair is where its stretch of equal codes starts
        starts = np.maximum.accumulate(np.where(new, np.arange(len(codes)), 0))
        rows = np.stack([order[~new], order[starts[~new]]], axis=1)
        q, d = self.queries, self.docs
        return [
            Duplicate(line(i), line(first), self.query_ids[q[i]], self.doc_ids[d[i]])
            for i, first in rows[np.argsort(rows[:, 0])].tolist()
        ]

    def pairs(self) -> np.ndarray:
        """The distinct (query, document) pair codes (:func:`pair_codes`), ascending."""
        if self._pairs is None:
            import numpy as np

            ordered = sorted_pairs(self.queries, self.docs, len(self.doc_ids))
            first = np.ones(len(ordered), dtype=bool)
            first[1:] = ordered[1:] != ordered[:-1]
            self._pairs = ordered if self.unique else ordered[first]
        return self._pairs

    def ranked(self) -> np.ndarray:
        """The lines in trec_eval's order, the one order every cutoff keeps a prefix of: by query code,
        best score first, ties by doc id descending (as strings); of a pair given twice, only its line
        ranked first (its best score)."""
        import numpy as np

        doc_rank = np.empty(len(self.doc_ids), dtype=np.int64)
        doc_rank[sorted(range(len(self.doc_ids)), key=self.doc_ids.__getitem__)] = np.arange(
            len(self.doc_ids)
        )
        order = np.lexsort((-doc_rank[self.docs], -self.scores, self.queries))
        if self.unique:
            return order
        codes = pair_codes(self.queries[order], self.docs[order], len(self.doc_ids))
        return order[np.sort(np.unique(codes, return_index=True)[1])]

    def top(self, cutoff: Optional[int]) -> np.ndarray:
        """The distinct pair codes, ascending, of each query's ``cutoff`` best documents in the order of
        :meth:`ranked` (all of them when ``None``)."""
        if cutoff is None:
            return self.pairs()
        import numpy as np

        order = self.ranked()
        queries = self.queries[order]
        # a line's place in its query's ranking: its index less that of its query's first line
        place = np.arange(len(order)) - np.searchsorted(queries, queries)
        kept = order[place < cutoff]
        return np.sort(pair_codes(self.queries[kept], self.docs[kept], len(self.doc_ids)))

    def frame(self) -> pd.DataFrame:
        """``query_id``, ``doc_id``, ``score``, ids as Python strings (the shape ir_measures and PyTerrier take)."""
        if self._frame is None:
            import pandas as pd
            import pyarrow as pa

            # Arrow takes each id from the distinct ones and hands the column to pandas as it stands
            # (pandas 3's string dtype is Arrow's; older pandas get objects): no Python object per cell
            # on the way, which took a third more memory and twice the time
            q, d = pa.array(self.queries), pa.array(self.docs)
            self._frame = pd.DataFrame(
                {
                    "query_id": pa.array(self.query_ids, pa.string()).take(q).to_pandas(),
                    "doc_id": pa.array(self.doc_ids, pa.string()).take(d).to_pandas(),
                    "score": self.scores,
                }
            )
        return self._frame

    def table(self, keep: Optional[set[str]] = None) -> Table:
        """The run as ``{query_id: {doc_id: score}}`` (the queries in ``keep``, all when ``None``), each id
        string shared by all its lines; a pair given twice keeps its best score, as :func:`run_table`."""
        import numpy as np

        out: Table = {}
        # the lines query after query (in line order within each), cut where the query changes
        order = np.argsort(self.queries, kind="stable")
        codes = self.queries[order]
        starts = np.flatnonzero(np.diff(codes, prepend=-1))
        docs, scores = (np.split(column[order], starts[1:]) for column in (self.docs, self.scores))
        for q, doc_codes, query_scores in zip(codes[starts].tolist(), docs, scores):
            qid = self.query_ids[q]
            if keep is not None and qid not in keep:
                continue
            named = map(self.doc_ids.__getitem__, doc_codes.tolist())
            table = out.setdefault(qid, {})
            if self.unique:
                table.update(zip(named, query_scores.tolist()))
            else:
                for did, score in zip(named, query_scores.tolist()):
                    if did not in table or score > table[did]:
                        table[did] = score
        return out

    def lines_per_query(self) -> list[int]:
        """How many lines each of :attr:`query_ids` has."""
        import numpy as np

        return np.bincount(self.queries, minlength=len(self.query_ids)).tolist()

    def docs_of_queries(self, kept: list[bool]) -> list[str]:
        """The distinct documents of the lines whose query code is marked in ``kept``."""
        import numpy as np

        lines = self.docs if all(kept) else self.docs[np.asarray(kept, dtype=bool)[self.queries]]
        found = np.bincount(lines, minlength=len(self.doc_ids)) > 0
        return [doc for doc, p in zip(self.doc_ids, found.tolist()) if p]


def table_frame(table: Table, value: str = "score") -> pd.DataFrame:
    """``{query_id: {doc_id: value}}`` as a ``query_id, doc_id, score`` DataFrame (a run), or with
    ``value="relevance"`` a ``query_id, doc_id, relevance`` one (qrels)."""
    import pandas as pd

    rows = [(q, d, s) for q, docs in table.items() for d, s in docs.items()]
    return pd.DataFrame(rows, columns=["query_id", "doc_id", value])


# --- the gold as codes, and the counts ------------------------------------------------------------------


class GoldIds:
    """The ids of the gold a run is aligned with: its queries (in order, and each one's position) and its
    (judged) documents, as sets: membership is what a run asks of them."""

    def __init__(self, gold: Table):
        self.queries = list(gold)
        self.position = dict(zip(self.queries, count()))
        self.docs = frozenset(chain.from_iterable(gold.values()))
        #: documents named ``query/doc`` (a dataset with case-scoped ids)
        self.scoped = bool(self.docs) and all(
            d.startswith(q + SCOPE) for q, docs in gold.items() for d in docs
        )
        self.key = hash((tuple(self.queries), self.docs))


def gold_ids(gold: Table) -> GoldIds:
    """The ids of ``gold``, gathered once per checked gold (the one door, the provider and tune each ask)."""
    ids = getattr(gold, "ids", None)
    if ids is None:
        ids = GoldIds(gold)
        if isinstance(gold, CheckedGold):
            gold.ids = ids
    return ids


def coded_gold(gold: Table, rel: int) -> CodedGold:
    """:class:`CodedGold` of ``gold``, made once per checked gold and relevance level: the provider and the
    scorer's totals each count with it, and making it walks every gold pair."""
    made: dict[int, CodedGold] = (
        vars(gold).setdefault("coded", {}) if isinstance(gold, CheckedGold) else {}
    )
    return made[rel] if rel in made else made.setdefault(rel, CodedGold(gold, rel))


class CodedGold:
    """The relevant pairs of a gold table as codes, made column by column (no Python object per pair)."""

    def __init__(self, gold: Table, rel: int):
        import numpy as np

        self.queries, self.rel = list(gold), rel
        # every judged document, query after query
        judged = list(chain.from_iterable(gold.values()))
        # each document coded by sorting the hashes, not by a dict lookup per pair (the larger part of scoring a
        # million queries): as many codes as documents, unless two share a hash (then looked up after all)
        hashes = np.fromiter(map(hash, judged), dtype=np.int64, count=len(judged))
        _, first, doc = np.unique(hashes, return_index=True, return_inverse=True)
        self.docs = list(map(judged.__getitem__, first.tolist()))
        if len(self.docs) < len(gold_ids(gold).docs):
            self.docs = sorted(gold_ids(gold).docs)
            doc = np.fromiter(
                map(dict(zip(self.docs, count())).__getitem__, judged),
                dtype=np.int64,
                count=len(judged),
            )
        self.position = [gold_ids(gold).position, dict(zip(self.docs, count()))]
        relevance = np.fromiter(
            chain.from_iterable(map(dict.values, gold.values())), dtype=float, count=len(judged)
        )
        query = np.repeat(
            np.arange(len(gold)),
            np.fromiter(map(len, gold.values()), dtype=np.int64, count=len(gold)),
        )
        kept = relevance >= rel
        # (the pairs are distinct: the stable sort gives what any sort would, and is the one the run's pairs
        # take, so numpy pages in one sort's code, not two: 0.25 MiB of a small run's peak)
        self.pairs = np.sort(query[kept] * len(self.docs) + doc[kept], kind="stable")
        self.relevant = np.bincount(query[kept], minlength=len(gold))

    def line_codes(self, run: CodedRun) -> tuple[np.ndarray, np.ndarray]:
        """For each distinct query and document id of ``run``, its position among the gold's, or -1."""
        import numpy as np

        query, doc = (
            np.fromiter(map(position.get, ids, repeat(-1)), dtype=np.int64, count=len(ids))
            for ids, position in zip((run.query_ids, run.doc_ids), self.position)
        )
        return query, doc

    def relevant_lines(self, query: np.ndarray, doc: np.ndarray) -> np.ndarray:
        """Which lines, given as gold query and gold document positions (-1: not in the gold), name a
        relevant pair: a binary search among the relevant pairs (a table of every query and document
        would grow with their product, not with the input)."""
        import numpy as np

        hit = (query >= 0) & (doc >= 0)
        out = np.zeros(len(query), dtype=bool)
        if len(self.pairs):
            pairs = query[hit].astype(np.int64) * len(self.docs) + doc[hit]
            found = np.minimum(np.searchsorted(self.pairs, pairs), len(self.pairs) - 1)
            out[hit] = self.pairs[found] == pairs
        return out

    def counts(self, run: CodedRun, cutoff: Optional[int], answers: bool = False) -> CountColumns:
        """Counts of every gold query (a gold query absent from the run has nothing retrieved), of the
        documents ``run`` retrieves, or its best ``cutoff`` of each query (:meth:`CodedRun.top`). Each
        relevant pair, taken to the run's codes, is looked up among the run's distinct pairs (a binary
        search per relevant pair, not per line); each query retrieved as many documents as it has
        distinct pairs. ``answers``: answer accuracy, one gold answer and at most one answer a question
        (:meth:`refuse_answers`)."""
        import numpy as np

        n = len(self.queries)
        query_of, doc_of = self.line_codes(run)
        pairs = run.top(cutoff)
        width = max(len(run.doc_ids), 1)
        in_gold = query_of >= 0
        per_query = np.bincount(pairs // width, minlength=len(run.query_ids))
        retrieved = np.zeros(n, dtype=np.int64)
        retrieved[query_of[in_gold]] = per_query[in_gold]  # one run query per gold query (aligned)
        # the gold's codes -> the run's (-1: not in the run)
        run_query = np.full(n, -1, dtype=np.int64)
        run_query[query_of[in_gold]] = np.flatnonzero(in_gold)
        if answers:
            self.refuse_answers(run, pairs, run_query, retrieved)
        run_doc = np.full(len(self.docs), -1, dtype=np.int64)
        run_doc[doc_of[doc_of >= 0]] = np.flatnonzero(doc_of >= 0)
        gold_query, gold_doc = np.divmod(self.pairs, max(len(self.docs), 1))
        query, doc = run_query[gold_query], run_doc[gold_doc]
        shared = (query >= 0) & (doc >= 0)
        wanted = query[shared] * width + doc[shared]
        found = np.searchsorted(pairs, wanted)
        hit = found < len(pairs)
        hit[hit] = pairs[found[hit]] == wanted[hit]
        tp = np.bincount(gold_query[shared][hit], minlength=n)
        return self.queries, tp.tolist(), retrieved.tolist(), self.relevant.tolist()

    def refuse_answers(
        self, run: CodedRun, pairs: np.ndarray, run_query: np.ndarray, retrieved: np.ndarray
    ) -> None:
        """Refuse, at the first question in gold order, a gold of other than one answer (relevance at
        least ``rel``) or a run of more than one (``pairs``: the run's distinct pairs, ``run_query``: each
        gold question's code in the run): then the counts are those of answer accuracy, ``tp`` 1 where
        the question's one answer is the gold's."""
        import numpy as np

        wrong = np.flatnonzero((self.relevant != 1) | (retrieved > 1))
        if not len(wrong):
            return
        at = int(wrong[0])
        qid = self.queries[at]
        if self.relevant[at] != 1:
            labels = _named(self.pairs, at, self.docs)
            raise ColieeScoringError(
                f"gold question {qid!r} has {len(labels)} answers with relevance >= {self.rel} "
                f"({', '.join(map(repr, labels)) or 'none'}); answer accuracy needs exactly one"
            )
        answers = _named(pairs, int(run_query[at]), run.doc_ids)
        raise ColieeScoringError(
            f"question {qid!r} has {len(answers)} different answers ({', '.join(map(repr, answers))}); "
            "give one answer per question, or use a cutoff of 1 to take the best-scored one"
        )


def _named(pairs: np.ndarray, query: int, ids: list[str]) -> list[str]:
    """The documents ``pairs`` (codes of :func:`pair_codes` over ``ids``) give ``query``, by id."""
    width = max(len(ids), 1)
    return sorted(map(ids.__getitem__, (pairs[pairs // width == query] % width).tolist()))


# --- a run's ids in the gold's convention ------------------------------------------------------------------------------------


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


def _unpadded(ids: list[str], gold: Collection[str], what: str) -> tuple[list[str], Optional[str]]:
    """``ids`` with zero padding restored where an id is not a gold id: an id with the number of exactly
    one gold id becomes it (``12`` or ``12.0`` -> ``012``); where every gold id has the same width, a
    shorter number is padded to it (``99`` -> ``000099``, a document the gold does not name). The note
    that says how many ``what`` ids were replaced, with one example (``None``: none was). The ids are distinct ids, a few thousand: plain Python at every run
    size. ``gold``: a set of the gold's ids (or a dict of them)."""
    # the width of the gold's ids when all are ASCII digits of one width (``000028``: 6), asked of all
    # at once (a gold of a million queries)
    widths, joined = set(map(len, gold)), "".join(gold)
    one_width = len(widths) == 1 and joined.isascii() and joined.isdigit()
    width = widths.pop() if one_width else None
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
        return ids, None
    numbered = _by_number(gold)
    if not numbered and width is None:
        return ids, None  # no gold id is a number: no padding to restore
    new = list(ids)
    for i in unknown:
        new[i] = _restored(ids[i], numbered, width)
    changed = [i for i, (old, now) in enumerate(zip(ids, new)) if old != now]
    if not changed:
        return ids, None
    return new, (
        f"{len(changed)} {what} ids are not in the gold and are read as the gold's id of the same number "
        f"(e.g. {ids[changed[0]]!r} -> {new[changed[0]]!r})"
    )


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
    return [strip_txt(i) for i in ids] if any(map(str.endswith, ids, repeat(".txt"))) else ids


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
    # a run that needs scoping is a small Task 2 run
    for pair in zip(run.queries.tolist(), run.docs.tolist()):
        code = by_pair.get(pair)
        if code is None:
            q, d = run.query_ids[pair[0]], run.doc_ids[pair[1]]
            prefix = q + SCOPE
            new = (d if d.startswith(prefix) else prefix + d) if scoped else d.removeprefix(prefix)
            changed += new != d
            code = by_pair[pair] = ids.setdefault(new, len(ids))
        codes.append(code)
    # two ids may have become one (unscoped), so a pair may repeat
    unique = run.unique and not changed
    return CodedRun(run.query_ids, list(ids), run.queries, codes, run.scores, unique)


def _merged(codes: np.ndarray, ids: list[str]) -> tuple[np.ndarray, list[str]]:
    """``codes`` (over ``ids``) and ``ids``, distinct again after a mapping made two of them one: each old
    code mapped to its id's new one (both as they are when none merged)."""
    import numpy as np

    position: dict[str, int] = {}
    remap = [position.setdefault(i, len(position)) for i in ids]
    if len(position) == len(ids):
        return codes, ids
    return np.asarray(remap, dtype=codes.dtype)[codes], list(position)


def _recoded(run: CodedRun, query_ids: list[str], doc_ids: list[str]) -> CodedRun:
    """``run`` under new ``query_ids`` and ``doc_ids`` (one per old code), codes merged where two became one."""
    if query_ids == run.query_ids and doc_ids == run.doc_ids:
        return run
    query_codes, queries = _merged(run.queries, query_ids)
    doc_codes, docs = _merged(run.docs, doc_ids)
    # merged ids: pairs may repeat
    unique = run.unique and len(queries) == len(query_ids) and len(docs) == len(doc_ids)
    return CodedRun(queries, docs, query_codes, doc_codes, run.scores, unique)


def align(run: CodedRun, gold: GoldIds) -> Aligned:
    """``run`` with its query and document ids in the gold's convention (see the module text)."""
    if run.aligned == gold.key:  # aligned with this gold already, by a layer above
        return Aligned(run, [])
    query_ids, query_note = _unpadded(_without_txt(run.query_ids), gold.position, "query")
    out = _recoded(run, query_ids, _without_txt(run.doc_ids))
    out = _rescoped(out, gold.scoped)
    doc_ids, doc_note = _unpadded(out.doc_ids, gold.docs, "document")
    out = _recoded(out, out.query_ids, doc_ids)
    # on the run itself when nothing changed: its ids are this gold's convention
    out.aligned = gold.key
    return Aligned(out, [note for note in (query_note, doc_note) if note])


# --- every host's shape of a run or of qrels ---------------------------------------------------------

_QUERY_COLUMNS = ("query_id", "qid")
_DOC_COLUMNS = ("doc_id", "docno")
#: relevance: ir_measures' and ir_datasets' name, then PyTerrier's (its qrels frames: qid, docno, label)
_RELEVANCE_COLUMNS = ("relevance", "label")
#: A run as columns: query ids, document ids, scores (``None``: none given)
Columns = tuple[Any, Any, Optional[Any]]
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
    return _merged(codes.astype(np.int64, copy=False), texts)  # 1 and "1" are one id


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


def _pick(columns: Iterable[str], names: tuple[str, ...]) -> Optional[str]:
    return next((n for n in names if n in columns), None)


def _frame_columns(frame: Any, source: str) -> Columns:
    columns = list(frame.columns)
    query, doc = _pick(columns, _QUERY_COLUMNS), _pick(columns, _DOC_COLUMNS)
    if query is None or doc is None:
        raise _refuse(source, f"a DataFrame with columns {columns}; expected {_EXPECTED}")
    return frame[query], frame[doc], frame["score"] if "score" in columns else None


def _dict_columns(run: Mapping, source: str) -> Columns:
    import numpy as np

    inner = list(run.values())
    if not all(isinstance(docs, Mapping) for docs in inner):
        raise _refuse(source, f"a dict whose values are not dicts of scores; expected {_EXPECTED}")
    lengths = np.fromiter(map(len, inner), dtype=np.int64, count=len(inner))
    queries = np.repeat(np.arange(len(inner)), lengths)
    query_texts = [id_text(q, source, "query id") for q in run]
    docs = list(chain.from_iterable(inner))
    try:
        scores = np.fromiter(
            chain.from_iterable(d.values() for d in inner), dtype=float, count=len(docs)
        )
    except (TypeError, ValueError):
        raise _refuse(source, "a score is not a number; scores are finite numbers") from None
    return np.array(query_texts, dtype=object)[queries], docs, scores


def _row_columns(rows: list, source: str) -> Columns:
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
        return list(map(get("query_id"), rows)), list(map(get("doc_id"), rows)), scores
    if all(isinstance(r, Mapping) and {"query_id", "doc_id"} <= set(r) for r in rows):
        scores = [r["score"] for r in rows] if all("score" in r for r in rows) else None
        return [r["query_id"] for r in rows], [r["doc_id"] for r in rows], scores
    if all(
        isinstance(r, (tuple, list)) and len(r) == 3 and not hasattr(r, "_fields") for r in rows
    ):
        q, d, s = zip(*rows)
        return list(q), list(d), list(s)
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
    # the query, document and score columns (scores ``None``: line order ranks)
    if hasattr(run, "columns") and hasattr(run, "itertuples"):
        queries, docs, scores = _frame_columns(run, source)
    elif isinstance(run, Mapping):
        queries, docs, scores = _dict_columns(run, source)
    elif isinstance(run, Iterable) and not isinstance(run, (str, bytes)):
        rows = list(run)
        queries, docs, scores = _row_columns(rows, source) if rows else ([], [], [])
    else:
        raise _refuse(source, f"a {type(run).__name__}; expected {_EXPECTED}")
    query_codes, query_ids = _encoded(queries, source, "query id")
    doc_codes, doc_ids = _encoded(docs, source, "document id")
    # without scores, line order is the ranking, as in the official files without a score column
    scored = None if scores is None else _scores(scores, source)
    return CodedRun(query_ids, doc_ids, query_codes, doc_codes, scored)


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
