"""The generated blocks of the reference pages: measures, official measures, datasets, data files, commands
and the model, each read from its registry (the prose around them is written in ``docs/``)."""

from __future__ import annotations

import argparse
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from unittest import mock

from ir_coliee import model
from ir_coliee.measures import REGISTRY
from ir_coliee.measures.significance import significance_test


def table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table, a blank line before it."""
    lines = [f"| {' | '.join(map(str, cells))} |\n" for cells in (header, *rows)]
    return "\n" + lines[0] + "|" + "---|" * len(header) + "\n" + "".join(lines[1:])


def measures_table() -> str:
    """Every measure, its formula, averaging and paired test."""
    rows = []
    for name, measure in REGISTRY.items():
        beta = measure.params.get("beta")
        formula = measure.FORMULA.replace("|", "\\|") + (f", β = {beta:g}" if beta else "")
        rows.append((f"`{name}`", measure.AVERAGING, formula, significance_test(measure)))
    return table(
        ("name", "averaging", "formula", "paired test (compare, benchmark, Experiment)"), rows
    )


def measure_parameters() -> str:
    """Each measure class: what it is, its parameters and where it is official."""
    out = []
    for cls in dict.fromkeys(type(m) for m in REGISTRY.values()):
        out.append(f"\n## {cls.NAME}\n\n{' '.join((cls.__doc__ or '').split())}\n")
        params = cls.SUPPORTED_PARAMS.items()
        rows = [(f"`{p}`", "all lines" if p == "cutoff" else i.default, i.desc) for p, i in params]
        out.append(table(("parameter", "default", "meaning"), rows))
        used = [e for e in model.OFFICIAL if any(isinstance(m, cls) for m in e.measures)]
        if used:
            spans = "; ".join(f"Task {e.task} {e.span()}" for e in used)
            out.append(f"\nOfficial in: {spans}.\n")
    return "".join(out) + "\n"


def official_table() -> str:
    """The table behind ``ir_coliee.official_measures`` and ``ir_coliee eval``."""
    rows = [
        (e.task, e.span(), _names(e.measures), _names(e.ranked) or "-", e.note)
        for e in model.OFFICIAL
    ]
    header = ("task", "editions", "official measures", "also for ranked runs", "note")
    return table(header, rows) + "\n"


def _names(items: Iterable[object]) -> str:
    return ", ".join(f"`{i}`" for i in items)


def _needed_files() -> dict[str, list[tuple[str, str]]]:
    """Each dataset's parts and the official files they need."""
    from ir_coliee.data.datasets import REGISTERED
    from ir_coliee.data.datasets.check import listed_ids
    from ir_coliee.data.locator import data_root_at

    # resolved against an empty data root: what the datasets need, not what one has
    with tempfile.TemporaryDirectory() as empty, data_root_at(empty):
        return {  # the per-exam subsets: loaded on demand, listed by pattern
            dataset_id: [
                (s.part, s.problem.split(": expected ", 1)[-1])
                for s in REGISTERED[dataset_id].files.sources()
            ]
            for dataset_id in listed_ids()
        }


def exam_subset() -> str:
    from ir_coliee.data.catalog import EXAM_SUBSET

    return f"`{EXAM_SUBSET}`"


def civil_codes() -> str:
    """The registered Civil Code entries, in order of registration."""
    import ir_datasets

    return _names(i for i in ir_datasets.registry if model.civil_code_of_id(i))


def _records(dataset) -> str:
    """The record types of a dataset's parts, with their fields."""
    parts = []
    for part in ("docs", "queries", "qrels", "scoreddocs"):
        if getattr(dataset, f"has_{part}")():
            cls = getattr(dataset, f"{part}_cls")()
            parts.append(f"{part}: `{cls.__name__}({', '.join(cls._fields)})`")
    return (
        "Records: "
        + "; ".join(parts)
        + ". `docs_count()`, `queries_count()` and `qrels_count()` count what your files serve; "
        "`metadata()` gives the size of a complete official copy where it is known (the table's last "
        "column, COLIEE-SPEC section 8). `ir_coliee data check ID` compares your copy."
    )


def _sizes(dataset_id: str) -> str:
    sizes = model.known_sizes(dataset_id)
    known = [f"{getattr(sizes, part):,} {part}" for part in sizes._fields if getattr(sizes, part)]
    return ", ".join(known) or "-"


def datasets_tables() -> str:
    """Per family of datasets: what it is, its records, and each id's official measures and files."""
    import ir_datasets

    families: dict[str, list[tuple[str, list[tuple[str, str]]]]] = {}
    for dataset_id, parts in _needed_files().items():
        families.setdefault(dataset_id.split("/")[1], []).append((dataset_id, parts))
    header = (
        "dataset id",
        "official measures",
        "files read (part: official name)",
        "complete copy",
    )
    out = []
    for family, datasets in families.items():
        dataset = ir_datasets.load(datasets[0][0])
        doc = dataset.documentation()
        out.append(
            f"\n## {doc.get('pretty_name', family)}\n\n{doc.get('desc', '')}\n\n{_records(dataset)}\n"
        )
        rows = []
        for dataset_id, parts in datasets:
            measures = _names(ir_datasets.load(dataset_id).documentation()["official_measures"])
            files = "<br>".join(f"{part}: {names}" for part, names in parts)
            rows.append((f"`{dataset_id}`", measures, files, _sizes(dataset_id)))
        out.append(table(header, rows))
    return "".join(out) + "\n"


def data_root() -> str:
    from ir_coliee.data.files import ENV_HOME, HOW_TO_GET

    return f"\n{HOW_TO_GET}: `${ENV_HOME}` if set, else `$IR_DATASETS_HOME/coliee`, else `~/.ir_datasets/coliee`.\n"


def data_files() -> str:
    """Per edition, the official files each task needs."""
    by_year: dict[str, dict[str, dict[str, None]]] = {}
    for dataset_id, parts in _needed_files().items():
        _, family, year, *_ = dataset_id.split("/")
        files = by_year.setdefault(year, {}).setdefault(family, {})
        for _, names in parts:
            files.setdefault(names, None)
    out = []
    for year in sorted(by_year, reverse=True):
        rows = [
            (family, "<br>".join(_compact_exams(list(names))))
            for family, names in sorted(by_year[year].items())
        ]
        header = ("task", "official files (any of the alternatives)")
        out.append(f"\n## COLIEE {year}\n" + table(header, rows))
    return "".join(out) + "\n"


_EXAM = re.compile(r"(?<=_)(H\d{2}|R\d{2})(?=_)")


def _compact_exams(names: list[str]) -> list[str]:
    """Names that differ only in the exam (``riteval_H18_en.xml`` ... ``riteval_R05_en.xml``) as one
    line ``riteval_{H18..R05}_en.xml``."""
    from ir_coliee.data.statute_files import EXAMS

    groups: dict[str, list[str]] = {}
    for name in names:
        exams = _EXAM.findall(name)
        key = _EXAM.sub("{}", name) if exams and len(set(exams)) == 1 else name
        groups.setdefault(key, []).extend(exams[:1] if key != name else [])
    out = []
    for key, exams in groups.items():
        if not exams:
            out.append(key)
            continue
        ordered = sorted(set(exams), key=EXAMS.index)
        span = ordered[0] if len(ordered) == 1 else f"{{{ordered[0]}..{ordered[-1]}}}"
        out.append(key.replace("{}", span))
    return out


def commands_help() -> str:
    """The help of every ``ir_coliee`` command, at a fixed width."""
    from ir_coliee.cli import build_parser

    with mock.patch.dict(os.environ, {"COLUMNS": "100"}):
        parser = build_parser()
        out = ["\n```text\n", parser.format_help(), "```\n"]
        for name, command in _commands(parser):
            heading = f"\n{'#' * (1 + name.count(' '))}# ir_coliee {name}\n\n```text\n"
            out.extend([heading, command.format_help(), "```\n"])
    return "".join(out) + "\n"


def _commands(
    parser: argparse.ArgumentParser, prefix: str = ""
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Each command and sub-command, in the order of the help."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                yield prefix + name, command
                yield from _commands(command, f"{prefix}{name} ")


def tasks_table() -> str:
    rows = []
    for t in model.TASKS.values():
        level, template = t.unknown_doc
        unknown = template.format(doc=t.doc_word, doc_id="X", query_id="Q")
        rules = [f"{level}: {unknown}"] if t.collection and t.gold == model.DOCUMENTS else []
        if t.self_retrieval_forbidden:
            rules.append("a query case is not its own candidate")
        if t.ranked_limit:
            rules.append(
                f"{t.ranked_limit.files} files: at most {t.ranked_limit.lines} lines per query"
            )
        if t.gate:
            rules.append(f"from 2026 gated by Task {t.gate} answers")
        submitted = _names(t.formats) or "JSONL torts"
        readable = _names(t.readable()) or "JSONL torts"
        rows.append((t.key, t.title, submitted, t.gold, readable, "; ".join(rules) or "-"))
    return table(("task", "what", "submitted as", "gold", "scored from", "rules"), rows) + "\n"


def formats_table() -> str:
    rows = []
    for f in model.FORMATS.values():
        scores = "yes" if f.scored else "no: line order is the ranking"
        rows.append((f"`{f.name}`", f.expected().replace("|", "\\|"), f"`{f.example}`", scores))
    return table(("format", "columns", "example", "scores"), rows) + "\n"


def editions_table() -> str:
    rows = []
    for e in model.EDITIONS.values():
        cells = []
        for files in (e.task1, e.task2):
            if files is None:
                cells.append("not supported (layout unknown)")
            else:
                names = files.names("folders", "{split}", e.year)
                names += files.names("gold", "{split}", e.year)
                names += [files.index_file] if files.index_file else []
                cells.append(f"{files.layout}: " + _names(names))
        languages = ", ".join(e.statute_languages)
        rows.append((e.year, ", ".join(e.tasks), e.statute_exam, languages, *cells))
    header = (
        "year",
        "tasks",
        "statute test exam",
        "statute languages",
        "Task 1 files",
        "Task 2 files",
    )
    return table(header, rows) + "\n"


def not_registered() -> str:
    lines = "".join(f"- {year}: {why}.\n" for year, why in model.NOT_REGISTERED.items())
    return f"\n{lines}\n"
