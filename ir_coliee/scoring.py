"""The Python API behind every command: score submissions against gold as the organisers do.

:func:`score` takes the gold (a dataset id, a gold file of any kind, or qrels in any ir_measures
shape) and one or more runs (paths, DataFrames, dicts, namedtuples), decides the task from the
arguments, the dataset and the files (:mod:`ir_coliee.model`), reads each file in the format its task
takes, and returns a :class:`Report`: one row per run with the official measures and the counts
behind them, the per-query values, and the findings (warnings) as data. ``ir_coliee eval`` and
``ir_coliee demo`` only print what it returns.

What it refuses (:class:`~ir_coliee.errors.ColieeScoringError`): a run in a format its task does not
take (Y/N answers against article gold, articles against answer gold), a run that shares no query with
the gold, a measure that does not apply to the gold (``Accuracy`` on answers), ``task`` contradicting a
dataset id.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple, Optional, Union, cast

import pandas as pd
from ir_measures.measures.base import Measure
from ir_measures.util import TYPE_QREL, TYPE_RUN, Metric

from ir_coliee.compare import Correction, compare
from ir_coliee.errors import ColieeError, ColieeScoringError, PathLike
from ir_coliee.evaluation import MeasureLike, parse_measures, per_query_frame
from ir_coliee.findings import WARNING, Finding, some
from ir_coliee.formats.pilot import ColieeTort, decision_qrels, decision_run, read_torts
from ir_coliee.gated import NAME as GATED
from ir_coliee.gated import TIE_BREAKERS, score_recall_gated
from ir_coliee.gold import gold_kind, read_gold
from ir_coliee.measures import AnswerAccuracy
from ir_coliee.model import (
    ANSWER_LABELS,
    FORMATS,
    NAME,
    QUESTION_ID,
    TASKS,
    FormatName,
    GoldKind,
    Task,
    TaskLike,
    edition_dataset,
    edition_of_file,
    expected_any,
    guess_task,
    official_entry,
    official_measures,
    task_of,
)
from ir_coliee.pilot import score_pilot
from ir_coliee.providers import calc
from ir_coliee.runs import FormatOption, ParsedRun, first_format, parse_run
from ir_coliee.tables import CodedRun, Counts, answer_counts, gold_table, run_table, set_counts, table_frame
from ir_coliee.textfile import regular_file
from ir_coliee.tuning import Over, Tuned, apply_cutoff, tune_cutoff
from ir_coliee.values import CountedValue

if TYPE_CHECKING:
    from ir_coliee.datasets.common import Registered

GoldLike = Union[str, "os.PathLike[str]", TYPE_QREL]
RunLike = Union[str, "os.PathLike[str]", TYPE_RUN, ParsedRun]
RunsLike = Union[RunLike, Sequence[RunLike], Mapping[str, RunLike]]

__all__ = [
    "AUTO",
    "Comparison",
    "Gold",
    "Prepared",
    "Report",
    "RunInfo",
    "Tuning",
    "compare_runs",
    "load_gold",
    "prepare",
    "ranked",
    "score",
    "score_files",
    "tune",
]


class Gold(NamedTuple):
    """The gold as read, with what is known of where it came from."""

    frames: dict[GoldKind, pd.DataFrame]
    """Qrels (``query_id, doc_id, relevance``) per kind; a labelled riteval file holds two kinds."""
    source: str
    dataset: Optional[Registered] = None
    """The registered dataset, when the gold is a dataset id."""
    torts: Optional[list[ColieeTort]] = None
    """The pilot's gold torts."""


class RunInfo(NamedTuple):
    """One scored run: the name of its table row and where it came from."""

    name: str
    path: Optional[str]
    format: Optional[FormatName]
    """The submission format of a file; ``None`` for a run given in memory or a pilot file."""
    tags: list[str]


class Report(NamedTuple):
    """What :func:`score` found."""

    table: pd.DataFrame
    """One row per run: ``run``, the measures, then the counts behind them (``tp``, ``retrieved``,
    ``relevant`` or ``correct``, ``questions``; ``queries``: the gold queries)."""
    per_query: pd.DataFrame
    """``run, query_id, measure, value, tp, retrieved, relevant``."""
    findings: list[Finding]
    """Warnings: queries not in the gold, gold queries absent from a run, duplicates, tags, guesses."""
    task: str
    year: Optional[int]
    measures: list[str]
    """The measure columns of :attr:`table`, in order."""
    runs: list[RunInfo]
    disqualified: dict[str, list[str]]
    """Pilot sub-tasks a run forfeits by leaving ``null`` values (their measures are NaN)."""


# --- gold ------------------------------------------------------------------------------------------


def _is_dataset_id(spec: object) -> bool:
    return isinstance(spec, str) and spec.startswith(f"{NAME}/") and not os.path.exists(spec)


def _dataset_gold(spec: str) -> Gold:
    import ir_datasets

    from ir_coliee.datasets.check import dataset_entry, unknown_dataset

    base = spec.removesuffix("/decisions")
    try:
        entry = dataset_entry(spec)
        dataset = ir_datasets.load(base if task_of(entry.task).gold == "torts" else spec)
    except KeyError:
        raise unknown_dataset(spec, "is neither a file nor a COLIEE dataset id") from None
    task = task_of(entry.task)
    if task.gold == "torts":
        return Gold({}, spec, entry, list(dataset.gold_torts_iter()))
    rows = [(q.query_id, q.doc_id, q.relevance) for q in dataset.qrels_iter()]
    return Gold({task.gold: pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance"])}, spec, entry)


def load_gold(spec: GoldLike) -> Gold:
    """The gold from a dataset id, a file (TREC qrels, label JSON, Y/N answers with or without a tag,
    labelled riteval XML, pilot JSONL) or qrels in any shape ir_measures takes."""
    if _is_dataset_id(spec):
        return _dataset_gold(cast(str, spec))
    if isinstance(spec, (str, os.PathLike)):
        path = os.fspath(spec)
        if path.endswith(".jsonl"):
            return Gold({}, path, None, read_torts(path))
        return Gold(read_gold(path), path)
    table = gold_table(spec)
    frame = pd.DataFrame(
        [(q, d, r) for q, docs in table.items() for d, r in docs.items()], columns=["query_id", "doc_id", "relevance"]
    )
    return Gold({gold_kind(frame): frame}, "<qrels>")


# --- runs ------------------------------------------------------------------------------------------


def _named_runs(runs: RunsLike) -> dict[str, RunLike]:
    """``{name: run}``: one run, a list of runs, or a mapping of names to runs. A dict of dicts is one run."""
    if isinstance(runs, Mapping):
        if all(isinstance(v, Mapping) and all(isinstance(s, (int, float)) for s in v.values()) for v in runs.values()):
            return {"run": cast(RunLike, runs)}
        return {str(k): v for k, v in runs.items()}
    if (
        isinstance(runs, (list, tuple))
        and runs
        and all(isinstance(r, (str, os.PathLike, pd.DataFrame, ParsedRun, Mapping)) for r in runs)
    ):
        return {f"run{i}": r for i, r in enumerate(runs)}
    return {"run": cast(RunLike, runs)}


def _looks(path: str) -> FormatName:
    """The format a file's first run line is in, among all official formats."""
    return first_format(path)[1]


def _mismatch(source: str, looks: FormatName, task: Task, gold_source: str) -> ColieeScoringError:
    wanted = expected_any(task.readable()) if task.formats else "a pilot JSONL file"
    return ColieeScoringError(
        f"{source} holds {looks} lines (e.g. '{FORMATS[looks].example}'), but {task.label} "
        f"({task.title}, gold {gold_source}) takes {wanted}"
    )


class _Run(NamedTuple):
    info: RunInfo
    frame: TYPE_RUN
    parsed: Optional[ParsedRun]


def _read(
    name: str, run: RunLike, task: Task, forced: FormatOption, gold: Gold, shown_as: Optional[RunLike] = None
) -> _Run:
    """One run as its task reads it; ``shown_as``: the name to report for a stream's temporary copy."""
    if isinstance(run, ParsedRun):
        parsed: ParsedRun = run
    elif isinstance(run, (str, os.PathLike)):
        path = os.fspath(run)
        shown = os.fspath(shown_as) if isinstance(shown_as, (str, os.PathLike)) else path
        looks = forced if forced != "auto" else _looks(path)
        if looks not in task.readable():
            raise _mismatch(shown, looks, task, gold.source)
        parsed = parse_run(path, looks)._replace(path=shown)  # the format is decided: no second sniff
    else:
        return _Run(RunInfo(name, None, None, []), cast(TYPE_RUN, run), None)
    if parsed.format not in task.readable():
        raise _mismatch(parsed.path, parsed.format, task, gold.source)
    joined = "+".join(parsed.run_tags)
    label = joined or os.path.basename(parsed.path)
    return _Run(RunInfo(label, parsed.path, parsed.format, parsed.run_tags), parsed.coded, parsed)


def _frame_of(run: TYPE_RUN) -> pd.DataFrame:
    """A run in any shape as a ``query_id, doc_id, score`` DataFrame."""
    if isinstance(run, CodedRun):
        return run.frame()
    if isinstance(run, pd.DataFrame) and {"query_id", "doc_id", "score"} <= set(run.columns):
        return run
    return table_frame(run_table(run))


def _in_dataset_ids(run: _Run, gold: Gold) -> _Run:
    """``run`` with its document ids as the gold dataset names them: runs say ``001 013``, a dataset with
    scoped ids says ``001/013``."""
    if gold.dataset is None or not gold.dataset.scoped:
        return run
    from ir_coliee.datasets.caselaw import scope_run

    return run._replace(frame=scope_run(_frame_of(run.frame)))


def _answers_in_memory(run: TYPE_RUN) -> bool:
    table = run_table(run)
    docs = {d for ranked in table.values() for d in ranked}
    return bool(docs) and docs <= set(ANSWER_LABELS)


# --- the task --------------------------------------------------------------------------------------


def _resolve_task(task: Optional[TaskLike], gold: Gold, first: RunLike, findings: list[Finding]) -> Task:
    """The task: as given, else the dataset's, else guessed from the gold and the first run (with a warning)."""
    if gold.dataset is not None:
        own = task_of(gold.dataset.task)
        if task is not None and task_of(task).key != own.key:
            raise ColieeError(f"--task {task} contradicts the dataset {gold.source}, which is {own.label}")
        return own
    if task is not None:
        return task_of(task)
    if gold.torts is not None:
        return guess_task("torts", statute=False)
    if isinstance(first, (str, os.PathLike)):
        answers = FORMATS[_looks(os.fspath(first))].labels != ()
    elif isinstance(first, ParsedRun):
        answers = FORMATS[first.format].labels != ()
    else:
        answers = _answers_in_memory(cast(TYPE_RUN, first))
    kind: GoldKind = "answers" if answers else "documents"
    frame = gold.frames.get(kind, next(iter(gold.frames.values())))
    statute = bool(len(frame)) and bool(frame["query_id"].map(lambda q: bool(QUESTION_ID.match(q))).all())
    guess = guess_task(kind, statute)
    findings.append(
        Finding(
            WARNING,
            gold.source,
            None,
            f"scoring as COLIEE {guess.label} (guessed from the files); pass --task to choose",
            "guess",
        )
    )
    return guess


def _gold_frame(gold: Gold, task: Task) -> pd.DataFrame:
    if task.gold not in gold.frames:
        held = " and ".join(gold.frames) or "pilot torts"
        raise ColieeScoringError(
            f"{task.label} ({task.title}) is scored against {task.gold} gold, but {gold.source} holds {held}"
        )
    frame = gold.frames[task.gold]
    if frame.empty:
        raise ColieeError(f"{gold.source}: the gold holds no relevant (query, document) pair")
    return frame


def _measures(
    measures: Optional[Sequence[MeasureLike]], task: Task, year: Optional[int], ranked: bool
) -> list[Measure]:
    chosen = official_measures(task.key, year, ranked=ranked) if measures is None else parse_measures(measures)
    for m in chosen:
        takes = getattr(m, "TAKES", "documents")
        if takes == task.gold:
            continue
        if task.gold == "answers" and str(m) == "Accuracy":
            raise ColieeScoringError(
                "Accuracy is ir_measures' pairwise ranking accuracy; the accuracy of Y/N answers is AnswerAccuracy"
            )
        if task.gold == "answers":
            raise ColieeScoringError(f"{m} scores retrieved documents; Y/N answers are scored with AnswerAccuracy")
        raise ColieeScoringError(f"{m} scores Y/N answers; {task.label} gold names documents")
    return chosen


# --- findings --------------------------------------------------------------------------------------


def _run_findings(run: _Run, gold_queries: list[str], run_queries: set[str], task: Task) -> list[Finding]:
    where = run.info.path or run.info.name
    out = []
    extra = sorted(run_queries - set(gold_queries))
    if extra:
        out.append(
            Finding(
                WARNING,
                where,
                None,
                f"{len(extra)} run queries are not in the gold and are ignored: {some(extra)}",
                "unknown-query",
            )
        )
    absent = [q for q in gold_queries if q not in run_queries]
    if absent:
        outcome = "scored as wrong" if task.gold == "answers" else "scored as nothing retrieved"
        out.append(
            Finding(
                WARNING,
                where,
                None,
                f"{len(absent)} of {len(gold_queries)} gold queries have no line in the run ({outcome}): {some(absent)}",
                "absent-queries",
            )
        )
    parsed = run.parsed
    if parsed is None:
        return out
    if parsed.duplicates:
        shown = ", ".join(f"line {d.line} (first on {d.first_line})" for d in parsed.duplicates[:5])
        out.append(
            Finding(
                WARNING,
                where,
                None,
                f"{len(parsed.duplicates)} duplicate lines in {parsed.path}, each counted once: {shown}",
                "duplicate",
            )
        )
    if len(parsed.run_tags) > 1:
        out.append(
            Finding(
                WARNING,
                where,
                None,
                f"{len(parsed.run_tags)} run tags in {parsed.path}: {some(parsed.run_tags)}",
                "tags",
            )
        )
    if parsed.untagged:
        out.append(
            Finding(
                WARNING,
                where,
                None,
                f"{parsed.untagged} lines without a run tag in {parsed.path} (scored; an official submission needs one)",
                "no-tag",
            )
        )
    return out


def _run_queries(frame: TYPE_RUN) -> set[str]:
    if isinstance(frame, CodedRun):
        return frame.query_set()
    if isinstance(frame, pd.DataFrame):
        return set(frame["query_id"].astype(str).unique())
    return set(run_table(frame))


# --- scoring ---------------------------------------------------------------------------------------


def _counts(task: Task, gold: pd.DataFrame, run: TYPE_RUN, per_query: Sequence[Metric]) -> dict[str, int]:
    """The counts behind the scores: from the per-query values of an ir_coliee measure over every line
    (they carry them), else counted afresh (only ir_measures' own measures, or cutoffs, were asked for)."""
    carrier = next(
        (
            m.measure
            for m in per_query
            if isinstance(m.value, CountedValue) and m.measure.params.get("cutoff") is None and m.measure["rel"] == 1
        ),
        None,
    )
    values: Sequence[Union[Counts, CountedValue]] = (
        [cast(CountedValue, m.value) for m in per_query if m.measure == carrier]
        if carrier is not None
        else _fresh_counts(task, gold, run)
    )
    if task.gold == "answers":
        return {"correct": sum(v.tp for v in values), "questions": len(values)}
    totals = {k: sum(getattr(v, k) for v in values) for k in ("tp", "retrieved", "relevant")}
    return {**totals, "queries": len(values)}


def _fresh_counts(task: Task, gold: pd.DataFrame, run: TYPE_RUN) -> list[Counts]:
    table = gold_table(gold)
    count = answer_counts if task.gold == "answers" else set_counts
    return list(count(table, run_table(run, table), None, 1).values())


def _report(
    rows: list[dict],
    per_query: list[pd.DataFrame],
    findings: list[Finding],
    spec: Task,
    year: Optional[int],
    names: list[str],
    runs: list[RunInfo],
    disqualified: Optional[dict[str, list[str]]] = None,
) -> Report:
    table, queries = pd.DataFrame(rows), pd.concat(per_query, ignore_index=True)
    return Report(table, queries, findings, spec.key, year, names, runs, disqualified or {})


def _with_run(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    return frame.assign(run=name)[["run", *frame.columns]]


class Prepared(NamedTuple):
    """Gold and runs read and checked for one task: what scoring, comparing and tuning start from."""

    gold: Gold
    frame: pd.DataFrame
    """The gold qrels of the task's kind (empty for the pilot)."""
    task: Task
    year: Optional[int]
    runs: list[_Run]
    """The runs as read, document ids scoped as the dataset's are."""
    findings: list[Finding]
    pilot_runs: dict[str, RunLike]

    def frames(self) -> dict[str, TYPE_RUN]:
        """``{name: run}``; a name given twice (two files with one tag) becomes the file's path."""
        out: dict[str, TYPE_RUN] = {}
        for r in self.runs:
            name = r.info.name if r.info.name not in out else (r.info.path or r.info.name)
            out[name] = r.frame
        return out


def prepare(
    gold: GoldLike,
    runs: RunsLike,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    run_format: FormatOption = "auto",
) -> Prepared:
    """Read the gold and the runs for one task, refusing what cannot be scored (see :func:`score`)."""
    loaded = load_gold(gold)
    named = _named_runs(runs)
    findings: list[Finding] = []
    with contextlib.ExitStack() as streams:  # pipes and standard input are copied once: sniffed, then parsed
        readable = {
            name: streams.enter_context(regular_file(run)) if isinstance(run, (str, os.PathLike)) else run
            for name, run in named.items()
        }
        spec = _resolve_task(task, loaded, next(iter(readable.values())), findings)
        if loaded.dataset is not None and year is None:
            year = loaded.dataset.year
        official_entry(spec.key, year)  # the edition exists
        if spec.gold == "torts":
            return Prepared(loaded, pd.DataFrame(), spec, year, [], findings, named)
        gold_frame = _gold_frame(loaded, spec)
        read = [_read(name, readable[name], spec, run_format, loaded, named[name]) for name in named]
    gold_queries = list(dict.fromkeys(gold_frame["query_id"]))
    for r in read:
        queries = _run_queries(r.frame)
        if not queries & set(gold_queries):
            raise ColieeScoringError(
                f"{r.info.path or r.info.name} shares no query with the gold {loaded.source} "
                f"(run: {len(queries)} queries, e.g. {some(sorted(queries), 3)}; gold: {len(gold_queries)}, "
                f"e.g. {some(gold_queries, 3)})"
            )
        findings.extend(_run_findings(r, gold_queries, queries, spec))
    read = [_in_dataset_ids(r, loaded) for r in read]
    return Prepared(loaded, gold_frame, spec, year, read, findings, named)


def score(
    gold: GoldLike,
    runs: RunsLike,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    measures: Optional[Sequence[MeasureLike]] = None,
    answers: Union[PathLike, Sequence[PathLike], None] = None,
    answers_gold: Optional[GoldLike] = None,
    run_format: FormatOption = "auto",
) -> Report:
    """Score ``runs`` against ``gold`` as the organisers do; see the module text for what is refused.

    ``task`` and ``year`` default to those of a dataset id given as ``gold`` (else the task is guessed
    from the files, with a finding, and the year is the newest edition); ``measures`` default to the
    official ones of the task and edition (with the ranked ones for runs in a scored format).
    ``answers``: 2026 Task 3, the Y/N answer file of each run, scored with it as recall-gated accuracy
    against ``answers_gold`` (default: the Task 4 twin of a ``coliee/task3/...`` dataset).
    ``run_format`` forces the format of run files.
    """
    if answers is not None and task is None and not _is_dataset_id(gold):
        task = next(t.key for t in TASKS.values() if t.gate)  # answers come with gated runs only
    prepared = prepare(gold, runs, task, year, run_format)
    loaded, spec, year, findings = prepared.gold, prepared.task, prepared.year, prepared.findings
    if spec.gold == "torts":
        return _score_pilot(loaded, prepared.pilot_runs, spec, year, findings)
    gold_frame, read = prepared.frame, prepared.runs
    if answers is not None:
        return _score_gated(loaded, gold_frame, read, answers, answers_gold, spec, year, findings)
    ranked = any(r.info.format is not None and FORMATS[r.info.format].scored for r in read)
    chosen = _measures(measures, spec, year, ranked)
    rows, per_query = [], []
    for r in read:
        result = calc(chosen, gold_frame, r.frame)
        aggregated = cast(dict, result.aggregated)
        rows.append(
            {
                "run": r.info.name,
                **{str(m): float(aggregated[m]) for m in chosen},
                **_counts(spec, gold_frame, r.frame, result.per_query),
            }
        )
        per_query.append(_with_run(per_query_frame(result.per_query), r.info.name))
    return _report(rows, per_query, findings, spec, year, [str(m) for m in chosen], [r.info for r in read])


def _answer_gold(loaded: Gold, answers_gold: Optional[GoldLike], spec: Task) -> pd.DataFrame:
    gate = task_of(spec.gate)
    if answers_gold is not None:
        return _gold_frame(load_gold(answers_gold), gate)
    if "answers" in loaded.frames:  # a labelled riteval file holds both
        return loaded.frames["answers"]
    if loaded.dataset is not None:  # the gate's dataset of the same edition, split and language
        return _gold_frame(load_gold(loaded.source.replace(f"/{spec.family}/", f"/{gate.family}/", 1)), gate)
    raise ColieeError(
        "--answers needs the gold answers: give --answers-gold FILE, or a coliee/task3/... dataset as GOLD"
    )


def _score_gated(
    loaded: Gold,
    gold_frame: pd.DataFrame,
    read: list[_Run],
    answers: Union[PathLike, Sequence[PathLike]],
    answers_gold: Optional[GoldLike],
    spec: Task,
    year: Optional[int],
    findings: list[Finding],
) -> Report:
    """2026 Task 3: each retrieval run scored with its Y/N answers."""
    if not spec.gate:
        raise ColieeScoringError(
            f"--answers gates the runs of a task scored with answers (2026 Task 3), not {spec.label}"
        )
    files = [answers] if isinstance(answers, (str, os.PathLike)) else list(answers)
    if len(files) != len(read):
        raise ColieeError(f"{len(read)} runs but {len(files)} answer files: give one answer file per run")
    truth = _answer_gold(loaded, answers_gold, spec)
    rows, per_query = [], []
    for r, path in zip(read, files):
        answered = parse_run(path, allowed=task_of(spec.gate).formats)
        row = score_recall_gated(gold_frame, r.frame, truth, answered.run).iloc[0].to_dict()
        rows.append({"run": r.info.name, **row})
        per_query.append(
            _with_run(score_recall_gated(gold_frame, r.frame, truth, answered.run, per_query=True), r.info.name)
        )
    names = [GATED, *map(str, TIE_BREAKERS)]
    return _report(rows, per_query, findings, spec, year, names, [r.info for r in read])


def _score_pilot(
    loaded: Gold, named: dict[str, RunLike], spec: Task, year: Optional[int], findings: list[Finding]
) -> Report:
    if loaded.torts is None:
        raise ColieeScoringError(
            f"the pilot is scored against gold torts (a JSONL file or a coliee/pilot/... dataset), not {loaded.source}"
        )
    rows, per_query, infos, disqualified = [], [], [], {}
    for run in named.values():
        if not isinstance(run, (str, os.PathLike)):
            raise ColieeScoringError("pilot submissions are JSONL files of torts")
        path = os.fspath(run)
        name = os.path.basename(path)
        scores = score_pilot(loaded.torts, read_torts(path))
        for null in scores.nulls:
            findings.append(
                Finding(WARNING, path, None, f"{null.subtask} disqualified: null at {null.where()}", "null")
            )
        if scores.unknown_claims:
            findings.append(
                Finding(
                    WARNING,
                    path,
                    None,
                    f"{len(scores.unknown_claims)} predicted claims are not in the gold and are ignored",
                    "unknown-claim",
                )
            )
        disqualified[name] = sorted(scores.disqualified())
        rows.append({"run": name, **scores.table.iloc[0].to_dict()})
        per_query.append(_with_run(scores.per_query, name))
        infos.append(RunInfo(name, path, None, []))
    names = [c for c in rows[0] if c != "run"]
    return _report(rows, per_query, findings, spec, year, names, infos, disqualified)


# --- comparing and tuning --------------------------------------------------------------------------


class Comparison(NamedTuple):
    """What :func:`compare_runs` found: the table of :func:`ir_coliee.compare` and the findings."""

    table: pd.DataFrame
    findings: list[Finding]
    task: str
    year: Optional[int]
    headline: str
    """The measure runs are ranked by (plotted by ``compare --plot``)."""


def compare_runs(
    gold: GoldLike,
    runs: RunsLike,
    measures: Optional[Sequence[MeasureLike]] = None,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    baseline: int = 0,
    resamples: int = 10_000,
    correction: Correction = "holm",
    seed: int = 42,
    answers: Optional[Sequence[PathLike]] = None,
    answers_gold: Optional[GoldLike] = None,
) -> Comparison:
    """:func:`ir_coliee.compare` on runs read as :func:`score` reads them (official measures by default).

    Accuracy tasks compare paired right/wrong outcomes (exact McNemar, Wilson intervals): Tasks 4 and 5,
    the pilot's tort prediction (JSONL submissions), and the 2026 gated Task 3 (``answers``: each run's
    answer file, in the order of the runs)."""
    if answers is not None and task is None and not _is_dataset_id(gold):
        task = next(t.key for t in TASKS.values() if t.gate)
    prepared = prepare(gold, runs, task, year)

    def compared(frames: dict[str, TYPE_RUN], qrels: TYPE_QREL, chosen: Sequence[MeasureLike]) -> pd.DataFrame:
        if not 0 <= baseline < len(frames):
            raise ColieeError(f"baseline {baseline} is not the index of a run (0 to {len(frames) - 1})")
        return compare(frames, qrels, chosen, baseline=baseline, resamples=resamples, correction=correction, seed=seed)

    if prepared.task.gold == "torts":
        frames, qrels = _pilot_decisions(prepared)
        table = compared(frames, qrels, [AnswerAccuracy])
        return Comparison(table, prepared.findings, prepared.task.key, prepared.year, str(AnswerAccuracy))
    if answers is not None:
        frames, qrels = _gated_outcomes(prepared, answers, answers_gold)
        table = compared(frames, qrels, [AnswerAccuracy])
        table.columns = [c.replace(str(AnswerAccuracy), GATED) for c in table.columns]
        table.attrs["tests"] = {GATED: table.attrs["tests"][str(AnswerAccuracy)]}
        return Comparison(table, prepared.findings, prepared.task.key, prepared.year, GATED)
    chosen = _measures(measures, prepared.task, prepared.year, ranked=False)
    table = compared(prepared.frames(), prepared.frame, chosen)
    names = [str(m) for m in chosen]
    headline = official_entry(prepared.task.key, prepared.year).ranking_column(names) or names[0]
    return Comparison(table, prepared.findings, prepared.task.key, prepared.year, headline)


def _pilot_decisions(prepared: Prepared) -> tuple[dict[str, TYPE_RUN], TYPE_QREL]:
    """The pilot's tort prediction as answers: each submission's decisions against the gold decisions."""
    gold = cast(list[ColieeTort], prepared.gold.torts)
    frames: dict[str, TYPE_RUN] = {}
    for run in prepared.pilot_runs.values():
        if not isinstance(run, (str, os.PathLike)):
            raise ColieeScoringError("pilot submissions are JSONL files of torts")
        frames[os.path.basename(os.fspath(run))] = decision_run(read_torts(run))
    return frames, decision_qrels(gold)


def _gated_outcomes(
    prepared: Prepared, answers: Sequence[PathLike], answers_gold: Optional[GoldLike]
) -> tuple[dict[str, TYPE_RUN], TYPE_QREL]:
    """2026 Task 3 as right/wrong outcomes per question (right: the answer is right and every gold article
    retrieved), in the shape of answers, so that the accuracy tests apply."""
    if len(answers) != len(prepared.runs):
        raise ColieeError(f"{len(prepared.runs)} runs but {len(answers)} answer files: give one answer file per run")
    truth = _answer_gold(prepared.gold, answers_gold, prepared.task)
    gate = task_of(prepared.task.gate)
    frames: dict[str, TYPE_RUN] = {}
    for r, path in zip(prepared.runs, answers):
        answered = parse_run(path, allowed=gate.formats).run
        values = score_recall_gated(prepared.frame, r.frame, truth, answered, per_query=True)
        name = r.info.name if r.info.name not in frames else (r.info.path or r.info.name)
        frames[name] = {q: {"Y" if v else "N": 1.0} for q, v in zip(values["query_id"], values["value"])}
    questions = dict.fromkeys(truth["query_id"])
    return frames, {q: {"Y": 1} for q in questions}


class Tuning(NamedTuple):
    """What :func:`tune` found: the cutoff and curve, and the cut run ready to write."""

    tuned: Tuned
    cut: pd.DataFrame
    """The run given as ``apply`` (else the tuned run) cut at the best cutoff."""
    write_format: FormatName
    """The official submission format of the task (Task 3: TREC 6 columns)."""
    findings: list[Finding]


def tune(
    gold: GoldLike,
    run: RunLike,
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    measure: Optional[MeasureLike] = None,
    over: Over = "rank",
    max_rank: int = 100,
    apply: Optional[RunLike] = None,
) -> Tuning:
    """The cutoff of ``run`` that maximises ``measure`` (default: the task's headline measure, e.g.
    MacroF2 for Task 3) on training ``gold``, and ``apply`` (e.g. the test run) cut with it."""
    prepared = prepare(gold, run, task, year)
    (tuned_run,) = prepared.runs
    if over != "rank" and tuned_run.info.format is not None and not FORMATS[tuned_run.info.format].scored:
        raise ColieeScoringError(
            f"{tuned_run.info.path} has no scores ({tuned_run.info.format} format: line order is the ranking); "
            "tune --over rank, or give a run with scores"
        )
    if max_rank < 1:
        raise ColieeError(f"--max-rank must be at least 1, got {max_rank}")
    chosen = measure if measure is not None else official_entry(prepared.task.key, prepared.year).headline
    (checked,) = _measures([chosen], prepared.task, prepared.year, ranked=True)
    tuned = tune_cutoff(tuned_run.frame, prepared.frame, checked, over=over, max_rank=max_rank)
    target = tuned_run
    if apply is not None:
        with regular_file(apply) if isinstance(apply, (str, os.PathLike)) else contextlib.nullcontext(apply) as run_:
            target = _in_dataset_ids(_read("apply", run_, prepared.task, "auto", prepared.gold, apply), prepared.gold)
    cut = apply_cutoff(target.frame, over, tuned.cutoff)
    return Tuning(tuned, cut, prepared.task.formats[0], prepared.findings)


# --- many runs: folders, editions from file names, a ranked table ------------------------------------

#: ``gold="auto"``: each file is scored against the test set of the edition its name says.
AUTO = "auto"


def expand_runs(paths: Sequence[PathLike]) -> list[str]:
    """Run files: the paths given, a folder standing for the files in it (sorted, hidden ones left out)."""
    found: list[str] = []
    for path in (os.fspath(p) for p in paths):
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if not n.startswith("."))
            found.extend(os.path.join(path, n) for n in names if os.path.isfile(os.path.join(path, n)))
        else:
            found.append(path)
    if not found:
        raise ColieeError(f"no run file in {', '.join(os.fspath(p) for p in paths)}")
    return found


def score_files(
    gold: GoldLike,
    paths: Sequence[PathLike],
    task: Optional[TaskLike] = None,
    year: Optional[int] = None,
    measures: Optional[Sequence[MeasureLike]] = None,
    run_format: FormatOption = "auto",
) -> list[Report]:
    """:func:`score` for run files and folders of them. With ``gold="auto"``, each file is scored against
    the test set of the edition its official name says (``R04.task4.X``: 2023's Task 4; a name without
    its year takes ``year``), one report per task and edition; else one report."""
    files = expand_runs(paths)
    if gold != AUTO:
        return [score(gold, files, task, year, measures, run_format=run_format)]
    groups: dict[str, list[str]] = {}
    unknown = []
    for path in files:
        said = edition_of_file(os.path.basename(path), year)
        if said is None or (task is not None and said[0] != task_of(task).key):
            unknown.append(path)
        else:
            groups.setdefault(edition_dataset(*said), []).append(path)
    if unknown:
        raise ColieeError(
            f"cannot tell the task and edition of {', '.join(unknown)} from the name (official names: "
            "R04.task4.RUN, task3.RUN with --year, task1_..._2024...); give --year, or the gold instead of auto"
        )
    return [
        score(dataset, group, measures=measures, run_format=run_format) for dataset, group in sorted(groups.items())
    ]


def ranked(report: Report) -> pd.DataFrame:
    """The report's runs best first by the headline of the task (``RecallGatedAccuracy`` for 2026 Task 3;
    the first measure when the official one was not asked for): ``rank``, ``run``, the headline, the other
    measures, then the counts (``66/101`` for accuracy)."""
    entry = official_entry(report.task, report.year)
    headline = entry.ranking_column(report.measures) or report.measures[0]
    table = report.table.sort_values(headline, ascending=False, kind="stable").reset_index(drop=True)
    others = [m for m in report.measures if m != headline]
    counts = [c for c in ("tp", "retrieved", "relevant") if c in table.columns]
    out = table[["run", headline, *others, *counts]].copy()
    if {"correct", "questions"} <= set(table.columns):
        out["correct"] = [f"{c}/{q}" for c, q in zip(table["correct"], table["questions"])]
    out.insert(0, "rank", table[headline].rank(ascending=False, method="min").astype(int))
    return out
