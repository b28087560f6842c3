"""The organisers' analyses: which questions are hard, for whom, and why, from the runs themselves.

:func:`analyse` reads the gold and the runs as :func:`ir_coliee.score` does, takes each run's per-query
data once, and groups the gold questions:

* ``"relevant"``: by their number of gold items (relevant articles or cases);
* ``"single-multiple"``: one gold item (``single``) or more (``multiple``);
* ``"anonymised"``: questions whose text names parties by anonymised symbols (:func:`is_anonymised`), read
  from the dataset (a statute dataset id as the gold), against the ``other`` questions;
* a grouping of one's own: an entry in :data:`GROUPINGS` (docs/architecture.md has the recipe);
* a category file: lines ``QUERY_ID CATEGORY...`` (tab-separated fields keep spaces in a name, else
  whitespace separates them; ``#`` comments); a question may have several categories, on one line or
  several, and one in none is in ``(none)``; ``all`` and ``(none)`` are no category's name, and a file
  without a category is refused. It is named by its base name, or its path where that name is taken.

A group's value of a measure is the measure over that group alone, by its official definition: a micro
measure from the group's summed counts (true positives, retrieved, relevant), a mean (macro measures,
answer accuracy) over the group's questions; so it equals :func:`ir_coliee.score` on the group's gold and
runs. Y/N gold (Tasks 4, 5, the pilot's tort prediction) also gets the majority-answer baseline: the gold's
most frequent answer (``N`` on a tie, the organisers' "No" baseline) given to every question.

The pilot is analysed on its tort prediction (``AnswerAccuracy``, one decision per tort): its torts are
grouped by a category file only, as a count of gold items or a question text means nothing there.
"""

from __future__ import annotations

import math
import os
import re
import unicodedata
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Optional, TextIO, Union, cast

from ir_measures.measures.base import Measure, SumAgg

from ir_coliee.errors import (
    WARNING,
    ColieeArgumentError,
    ColieeError,
    ColieeWarning,
    Finding,
    PathLike,
)
from ir_coliee.inputs.door import Prepared, check_measures, prepare
from ir_coliee.inputs.gold import GoldLike
from ir_coliee.inputs.ingest import RunsLike
from ir_coliee.measures import AnswerAccuracy
from ir_coliee.measures.parse import MeasureLike, parse_measures
from ir_coliee.measures.significance import PerQuery, per_query_all, stat_of
from ir_coliee.model import TORTS, TaskLike, official_entry
from ir_coliee.outputs.tabular import (
    PAPER_MISSING,
    OutputFormat,
    json_rows,
    output_options,
    write_json,
    write_rows,
)
from ir_coliee.table.tables import Table

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from ir_coliee.outputs.plots import Panel

By = Union[str, PathLike]
#: What names one grouping, or a gold file: a name or a path.
_NAMED = (str, os.PathLike)
#: The histogram's buckets of a question's mean value over the runs (1.0 falls in the last).
BUCKETS = [f"{i / 10:.1f}-{(i + 1) / 10:.1f}" for i in range(10)]
NONE = "(none)"
#: What a category file is not named after (its path is its name then): the whole set, the per_question
#: columns (and the groupings' names, see :data:`GROUPINGS`).
RESERVED = {"all", "query_id", "solved", "nothing"}

# a single capital Latin letter standing alone (after NFKC: full-width letters too), not one of an
# abbreviation, a letter followed or preceded by "." and another letter (U.S., E.g.)
_SYMBOL = re.compile(r"(?<![A-Za-z0-9-])(?<![A-Za-z]\.)[A-Z](?![A-Za-z0-9-])(?!\.[A-Za-z])")
# the Japanese questions' symbols for parties and things, 甲 乙 丙 丁 (甲土地 where the English has land X,
# 乙建物 building Y), not the words they open (丁寧 careful, 丁目 a street block, 丁度 exactly, 甲斐, 甲状腺, 乙女)
_KANJI_SYMBOL = re.compile("[甲乙丙丁](?![寧目斐状女度])")


def is_anonymised(text: str) -> bool:
    """The rule of ``by="anonymised"``: the question names a party (or a thing: ``land X``, ``Plan B``) by a
    symbol: one of 甲 乙 丙 丁 (``甲土地``, ``乙建物``: the Japanese questions' land X and building Y), or a
    capital Latin letter standing alone (``A sold X to B``; full-width ``Ａ`` too; ``(A)``, ``"A``),
    other than the pronoun ``I``, the letters of an abbreviation (``U.S.``, ``E.g.``), and the article: an
    ``A`` opening the text or a sentence (after ``.``, ``!``, ``?``) followed by whitespace and a lowercase
    word (``A person who...``; so a question whose only symbol is an ``A`` opening sentences, ``A sold it.``,
    is missed; ``A's land``, ``A, a minor,`` and ``Aが`` are a party's)."""
    text = unicodedata.normalize("NFKC", text)
    if _KANJI_SYMBOL.search(text):
        return True
    for match in _SYMBOL.finditer(text):
        opening = text[: match.start()].rstrip()[-1:] in ("", ".", "!", "?")
        article = match[0] == "A" and opening and re.match(r"\s+[a-z]", text[match.end() :])
        if match[0] != "I" and not article:
            return True
    return False


class Grouping(NamedTuple):
    """One ``by``: its name, each question's groups, and the groups in the order tables show them."""

    name: str
    of: dict[str, list[str]]
    order: list[str]


_NO_TEXTS = (
    'by="anonymised" reads the question texts of a statute dataset: give its id as the gold '
    "(coliee/task3/2025/test, coliee/task4/2025/test), not {gold}"
)


def _question_texts(prepared: Prepared) -> dict[str, str]:
    """The question texts of a statute dataset given as the gold (the only place they are read from)."""
    from ir_coliee.data.statute_files import StatuteSet

    files = prepared.gold.dataset.files if prepared.gold.dataset is not None else None
    if not isinstance(files, StatuteSet):
        raise ColieeError(_NO_TEXTS.format(gold=prepared.gold.source))
    return {q.query_id: q.text for q in files.questions()}


def _category_fields(path: str, n: int, line: str) -> list[str]:
    """The fields of line ``n`` of a category file (``[]``: no data), each rule of the file checked."""
    where = f"category file {path}, line {n}"
    line, mark, comment = line.partition("#")  # a comment, on a line of its own or after the data
    # a "#" in a name: said, never cut silently
    if mark and line.strip() and not line[-1].isspace():
        warnings.warn(f"{where}: {mark + comment!r} read as a comment", ColieeWarning, stacklevel=2)
    fields = [f.strip() for f in (line.split("\t") if "\t" in line else line.split()) if f.strip()]
    if len(fields) == 1:
        raise ColieeError(f"{where}: expected QUERY_ID CATEGORY, got {line.strip()!r}")
    if clash := {NONE, "all"} & set(fields[1:]):
        raise ColieeError(f"{where}: {clash.pop()!r} names a group of its own; rename it")
    # per_question joins categories with ", "
    if comma := next((c for c in fields[1:] if "," in c), None):
        raise ColieeError(f"{where}: the category {comma!r} holds a comma; rename it")
    return fields


def _categories(path: str, qids: Sequence[str], taken: set[str]) -> Grouping:
    """A category file's groups, named by its base name, or its path where ``taken`` holds that name; an id
    that is not a gold question is refused (a file of another set)."""
    try:
        lines = Path(path).read_text(encoding="utf-8-sig").splitlines()
    except UnicodeDecodeError:
        raise ColieeError(f"category file {path}: not UTF-8 text") from None
    known, unknown = set(qids), []
    of: dict[str, list[str]] = {q: [] for q in qids}
    for n, line in enumerate(lines, 1):
        fields = _category_fields(path, n, line)
        if not fields:
            continue
        # Task 1 names its cases' files
        qid = fields[0] if fields[0] in known else fields[0].removesuffix(".txt")
        if qid not in known:
            unknown.append(fields[0])
            continue
        of[qid] += [c for c in fields[1:] if c not in of[qid]]
    if unknown:
        raise ColieeError(
            f"category file {path}: {len(unknown)} ids are not questions of the gold ({', '.join(unknown[:3])})"
        )
    if not any(of.values()):
        raise ColieeError(
            f"category file {path}: no line QUERY_ID CATEGORY (it is empty or only comments)"
        )
    order = list(dict.fromkeys(c for q in qids for c in of[q]))
    of = {q: cats or [NONE] for q, cats in of.items()}
    name = os.path.basename(path)
    return Grouping(name if name not in taken else os.path.abspath(path), of, [*order, NONE])


def _anonymised(prepared: Prepared, qrels: Table) -> Grouping:
    """The questions that name parties by anonymised symbols, and the others (a question without a text
    is among the others, said as a finding)."""
    texts = _question_texts(prepared)
    for q in (q for q in qrels if not texts.get(q, "").strip()):
        prepared.findings.append(
            Finding(WARNING, prepared.gold.source, None, f"{q}: no question text: other")
        )
    of = {q: ["anonymised" if is_anonymised(texts.get(q, "")) else "other"] for q in qrels}
    return Grouping("anonymised", of, ["anonymised", "other"])


def _by_relevant(_: Prepared, qrels: Table) -> Grouping:
    """The questions by their number of relevant items."""
    counts = {q: sum(r > 0 for r in docs.values()) for q, docs in qrels.items()}
    order = [str(n) for n in sorted(set(counts.values()))]
    return Grouping("relevant", {q: [str(n)] for q, n in counts.items()}, order)


def _single_multiple(_: Prepared, qrels: Table) -> Grouping:
    """The questions with one relevant item (``single``) or more (``multiple``)."""
    counts = {q: sum(r > 0 for r in docs.values()) for q, docs in qrels.items()}
    of = {q: ["multiple" if n > 1 else "single" if n == 1 else NONE] for q, n in counts.items()}
    return Grouping("single-multiple", of, ["single", "multiple", NONE])


class Grouper(NamedTuple):
    """A grouping that ``by`` names: how it groups the gold questions (from what :func:`prepare` read
    and the gold table), and whether it applies to a gold of one answer per question (Task 4)."""

    group: Callable[[Prepared, Table], Grouping]
    answers: bool = False


#: The groupings by name (a new one is an entry here: docs/architecture.md); any other ``by`` is a
#: category file.
GROUPINGS: dict[str, Grouper] = {
    "relevant": Grouper(_by_relevant),
    "single-multiple": Grouper(_single_multiple),
    "anonymised": Grouper(_anonymised, answers=True),
}


def _grouping(by: By, prepared: Prepared, qrels: Table, taken: set[str]) -> Grouping:
    name = os.fspath(by)
    if name not in GROUPINGS:  # a category file, there (checked by asked_groupings)
        return _categories(name, list(qrels), taken)
    grouper = GROUPINGS[name]
    if prepared.task.gold == TORTS or (prepared.task.kind.labels and not grouper.answers):
        answers = [n for n, g in GROUPINGS.items() if g.answers]  # none applies to the pilot
        other = ", ".join(answers) if prepared.task.gold != TORTS else ""
        raise ColieeError(
            f'by="{name}" means nothing where the gold is one answer per question: group by '
            f"{other + ' or ' if other else ''}a category file"
        )
    return grouper.group(prepared, qrels)


def asked_groupings(by: Union[By, Sequence[By]], gold: GoldLike) -> list[By]:
    """The groupings asked for, each once (``[]``: the whole set alone), each category file there, and
    ``anonymised`` only of a dataset's gold: checked before any file is read."""
    bys = [by] if isinstance(by, _NAMED) else by
    if not isinstance(bys, (list, tuple)) or not all(isinstance(b, _NAMED) for b in bys):
        raise ColieeArgumentError(
            f"by: give at least one grouping ({', '.join(GROUPINGS)}, a file), or [] for the whole "
            f"set alone, not {by!r}"
        )
    keys = [os.fspath(b) if os.fspath(b) in GROUPINGS else os.path.realpath(b) for b in bys]
    if twice := [os.fspath(b) for b, k in zip(bys, keys) if keys.count(k) > 1]:
        raise ColieeArgumentError(f"by {twice[-1]!r}: given twice; each grouping is shown once")
    if absent := [n for n in map(os.fspath, bys) if n not in GROUPINGS and not os.path.isfile(n)]:
        raise ColieeArgumentError(
            f"by {absent[0]!r}: neither {', '.join(GROUPINGS)} nor a category file that exists"
        )
    if "anonymised" in bys and isinstance(gold, _NAMED) and os.path.isfile(gold):
        raise ColieeArgumentError(_NO_TEXTS.format(gold=os.fspath(gold)))
    return list(bys)


def asked_measures(
    measures: Union[MeasureLike, Sequence[MeasureLike], None],
) -> Optional[Sequence[MeasureLike]]:
    """The measures asked for as a list (``None``: none asked), every name known before any file is
    read."""
    measures = [measures] if isinstance(measures, (str, Measure)) else measures
    parse_measures(measures or ())
    return measures


def _chosen(prepared: Prepared, measures: Optional[Sequence[MeasureLike]]) -> list[Measure]:
    """The measures asked for, then the headline, each once; counts last."""
    task, year = prepared.task, prepared.year
    official = check_measures(None, task, year, ranked=False)
    headline = official_entry(task.key, year).ranking_column([str(m) for m in official])
    # each once, the first kept (parse_measures drops a second naming of one measure)
    chosen = check_measures([*(measures or ()), headline], task, year, ranked=False)
    # a count (NumRet: summed by score, not averaged) is no fraction to bucket or to call solved: last
    chosen.sort(key=lambda m: isinstance(m.aggregator(), SumAgg))
    return chosen


def _majority(qrels: Table, qids: Sequence[str]) -> tuple[str, list[float]]:
    """The majority answer of a gold of one answer per question (a tie goes to N or False), and whether
    it is right on each question: the baseline the overview papers show beside the runs."""
    answer = {q: next(iter(docs)) for q, docs in qrels.items()}
    counts = Counter(answer.values())
    majority = max(sorted(counts), key=lambda a: (counts[a], a in ("N", "False")))
    return majority, [float(answer[q] == majority) for q in qids]


def analyse(
    gold: GoldLike,
    runs: RunsLike,
    by: Union[By, Sequence[By]],
    measures: Union[MeasureLike, Sequence[MeasureLike], None] = None,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
) -> Analysis:
    """The questions of ``gold`` grouped ``by`` one grouping or several (see the module text; ``[]``: the
    whole set alone), with each run's values per question and per group. ``gold`` and ``runs`` are anything :func:`ir_coliee.score`
    takes (runs also as folders of run files); ``measures``: those asked, then the task's headline
    measure (default: the headline alone), counts (``NumRet``: summed over a group, as ``score`` sums them)
    last; the first is the one the histogram buckets and that counts the runs solving a question fully
    (value 1) or getting nothing (value 0)."""
    bys = asked_groupings(by, gold)
    measures = asked_measures(measures)
    prepared = prepare(gold, runs, task, year, "auto", measures is not None)
    chosen: list[Measure] = [AnswerAccuracy]
    if prepared.task.gold == TORTS:
        if any(str(m) != str(AnswerAccuracy) for m in measures or ()):
            raise ColieeError(
                "the pilot is analysed on its tort prediction: AnswerAccuracy, one decision per tort"
            )
        frames, qrels = prepared.pilot_decisions()
    else:
        frames, qrels = prepared.run_tables(), prepared.qrels
        chosen = _chosen(prepared, measures)
    groupings: list[Grouping] = []
    for b in bys:  # names taken: the groupings', the columns' of per_question, the earlier files'
        taken = {*RESERVED, *GROUPINGS, *(g.name for g in groupings)}
        groupings.append(_grouping(b, prepared, qrels, taken))
    if "mean" in frames:
        raise ColieeArgumentError(
            "a run is named 'mean', the name of the mean over the runs: give it another name"
        )
    qids = list(qrels)
    data = {
        name: dict(zip(chosen, per_query_all(chosen, qids, qrels, run)))
        for name, run in frames.items()
    }
    answers = prepared.task.kind.labels or prepared.task.gold == TORTS
    baseline = _majority(qrels, qids) if answers else None
    return Analysis(
        prepared.task.key, prepared.year, chosen, qids, groupings, data, baseline, prepared.findings
    )


def _flat(values: list[list[float]]) -> list[float]:
    """Each measure's values of the runs, then each measure's mean over the runs."""
    return [*(v for row in values for v in row), *(sum(row) / len(row) for row in values)]


class Analysis(NamedTuple):
    """What :func:`analyse` found: :attr:`per_question`, :attr:`groups` and :attr:`histogram` (DataFrames
    built from the plain rows of :meth:`tables`), :meth:`write` and :meth:`plot`; ``data`` holds each run's
    per-query data of each measure over ``qids``, ``baseline`` the majority answer and whether it is right
    on each question (Y/N gold only)."""

    task: str
    year: Optional[int]
    measures: list[Measure]
    qids: list[str]
    groupings: list[Grouping]
    data: dict[str, dict[Measure, PerQuery]]
    baseline: Optional[tuple[str, list[float]]]
    findings: list[Finding]

    @property
    def runs(self) -> list[str]:
        return list(self.data)

    def __repr__(self) -> str:
        return f"Analysis({self.task!r}, {self.year}, runs={self.runs}, by={[g.name for g in self.groupings]})"

    def _groups(self) -> list[tuple[str, str, np.ndarray]]:
        """Every group as ``(by, group, mask over the questions)``, the whole set first."""
        import numpy as np

        masks = [
            (g.name, k, np.array([k in g.of[q] for q in self.qids]))
            for g in self.groupings
            for k in g.order
        ]
        # a grouping's groups all kept, empty ones too (other, multiple), so its shape holds; not an empty (none)
        whole = ("all", "all", np.ones(len(self.qids), dtype=bool))
        return [whole, *(x for x in masks if x[2].any() or x[1] != NONE)]

    def value(self, measure: Measure, run: str, mask: np.ndarray) -> float:
        """``measure`` of ``run`` over the questions of ``mask`` by its definition (micro: from the summed counts;
        a count: their sum)."""
        # a group with no question (``other``, when every question is anonymised)
        if not mask.any():
            return math.nan
        stat = stat_of(measure)
        sums = stat.columns(self.data[run][measure])[mask].sum(axis=0)[None, :]
        n = 1 if isinstance(measure.aggregator(), SumAgg) else int(mask.sum())
        return float(stat.of_sums(sums, n)[0])

    def tables(self) -> dict[str, tuple[list[str], list[list[object]]]]:
        """``{"groups" | "histogram" | "per_question": (header, rows)}``, as plain rows."""
        import numpy as np

        base = [f"baseline ({self.baseline[0]})"] if self.baseline else []
        groups, histogram = [], []
        # the histogram's
        means = np.mean([self.data[r][self.measures[0]].values for r in self.runs], axis=0)
        for by, group, mask in self._groups():
            values = [[self.value(m, r, mask) for r in self.runs] for m in self.measures]
            right = []
            if self.baseline:  # the majority answer's accuracy over the group
                right = [float(np.mean(self.baseline[1], where=mask)) if mask.any() else math.nan]
            groups.append([by, group, int(mask.sum()), *_flat(values), *right])
            buckets = [min(9, math.floor(v * 10 + 1e-9)) for v in means[mask]]
            histogram.append([by, group, *(buckets.count(i) for i in range(10))])
        per_question = []
        for i, q in enumerate(self.qids):
            values = [[float(self.data[r][m].values[i]) for r in self.runs] for m in self.measures]
            solved = sum(v >= 1 - 1e-12 for v in values[0]), sum(v <= 1e-12 for v in values[0])
            labels = [", ".join(g.of[q]) for g in self.groupings]
            per_question.append([q, *labels, *_flat(values), *solved])
        labels = [g.name for g in self.groupings]
        # each measure's value of each run, then each measure's mean over the runs (as _flat)
        columns = [f"{m} {r}" for m in self.measures for r in self.runs]
        columns += [f"{m} mean" for m in self.measures]
        return {
            "groups": (["by", "group", "questions", *columns, *base], groups),
            "histogram": (["by", "group", *BUCKETS], histogram),
            "per_question": (["query_id", *labels, *columns, "solved", "nothing"], per_question),
        }

    def _frame(self, name: str) -> pd.DataFrame:
        import pandas as pd

        header, rows = self.tables()[name]
        return pd.DataFrame(rows, columns=header)

    @property
    def groups(self) -> pd.DataFrame:
        """One row per group (``by``, ``group``; first ``all``): its questions, each run's value of each
        measure over the group (``MacroF2 bm25``), their mean over the runs, the majority baseline's accuracy."""
        return self._frame("groups")

    @property
    def histogram(self) -> pd.DataFrame:
        """One row per group: how many of its questions have a mean over the runs of the first measure in
        each bucket (``0.0-0.1`` ... ``0.9-1.0``)."""
        return self._frame("histogram")

    @property
    def per_question(self) -> pd.DataFrame:
        """One row per gold question: its groups, each run's value of each measure, their mean over the runs,
        how many runs solve it fully (``solved``) and get nothing (``nothing``) on the first measure."""
        return self._frame("per_question")

    def write(self, out: TextIO, style: OutputFormat = "tsv", digits: int = 4) -> None:
        """The three tables as one document: JSON one object (``measure``: the one the histogram buckets
        and ``solved`` and ``nothing`` count); the others each table under a title naming it."""
        output_options(style, digits)
        tables = self.tables()
        if style == "json":
            measure = str(self.measures[0])  # the histogram's, solved's and nothing's
            doc: dict[str, object] = {"task": self.task, "year": self.year, "measure": measure}
            doc.update({name: json_rows(h, rows) for name, (h, rows) in tables.items()})
            write_json({**doc, "findings": [str(f) for f in self.findings]}, out)
            return
        title = {"markdown": "### {}\n\n", "latex": "% {}\n"}.get(style, "# {}\n")
        first = self.measures[0]  # each table says which measure its counts are of
        said = {
            "histogram": f"histogram: the questions by their mean {first} over the runs",
            "per_question": f"per question (solved, nothing: the runs whose {first} is 1, 0)",
        }
        for i, (name, (header, rows)) in enumerate(tables.items()):
            out.write("\n" * (i > 0) + title.format(said.get(name, name)))
            write_rows(header, rows, out, digits, PAPER_MISSING.get(style, ""), style=style)

    def panels(self) -> list[Panel]:
        """The figures as the overview papers draw them: one panel per grouping, each group's value of the
        first measure with one bar per run, then the histogram of the whole set."""
        from ir_coliee.outputs.plots import Panel

        m, panels = self.measures[0], []
        for g in self.groupings:
            groups = [(k, mask) for by, k, mask in self._groups() if by == g.name]
            series = {r: [self.value(m, r, mask) for _, mask in groups] for r in self.runs}
            panels.append(Panel(f"{m} by {g.name}", g.name, str(m), [k for k, _ in groups], series))
        # the whole set's
        counts = [float(cast(int, c)) for c in self.tables()["histogram"][1][0][2:]]
        x = f"mean {m} over the runs"
        panels.append(Panel(f"Questions by {x}", x, "questions", BUCKETS, {"questions": counts}))
        return panels

    def plot(self, path: PathLike) -> str:
        """The :meth:`panels` one above the other (PNG, PDF or SVG, as the suffix says; needs matplotlib),
        each run in the colour it has in every figure of the results page."""
        from ir_coliee.outputs.plots import looks, plot

        return plot(self.panels(), looks(self.runs), path)
