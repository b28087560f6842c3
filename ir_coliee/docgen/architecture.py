"""The generated blocks of docs/architecture.md: the layers and where a host is patched (the recipes beside
them are written in the page, and run by the tests as written)."""

from __future__ import annotations

from ir_coliee.docgen.reference import table
from ir_coliee.hosts import PATCHES

#: The layers of the package, first to last: each module imports only its own layer and those before it
#: (data flows one way: file -> reader -> records / run tables -> datasets and providers -> the scoring
#: API -> commands). The architecture test holds the imports to it; docs/architecture.md shows it.
LAYERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("base", ("errors", "progress"), "errors, the API's error boundary, findings; progress bars"),
    (
        "model",
        ("model",),
        "the facts: tasks, gold kinds, submission formats, editions, official measures (by name)",
    ),
    (
        "published",
        ("results",),
        "the published official result tables, with their sources, and a run's place on them",
    ),
    (
        "formats",
        ("formats",),
        "the organisers' files read and written: gold files, records, runs' text; whole-file writes",
    ),
    (
        "outputs",
        ("outputs",),
        "the one door out: an escaper per style, one writer of tables, figures, the page's HTML",
    ),
    (
        "table",
        ("table",),
        "the in-memory gold and run: runs read from files, every host shape, ids aligned, counts",
    ),
    (
        "measures",
        ("measures",),
        "each measure declared with its formula; the ir_measures provider and pipeline",
    ),
    (
        "data",
        ("data",),
        "the data root: files found, the catalog of dataset ids, their gold, the ir_datasets entries",
    ),
    (
        "inputs",
        ("inputs",),
        "the one door in: gold and runs from ids, files, team folders as kept, manifests, host shapes; skips said",
    ),
    (
        "scoring",
        ("scoring",),
        "one module per verb and its result: score, compare, tune, benchmark, analyse, report, ...",
    ),
    ("extras", ("extras",), "the BM25 baseline and the demo on the sample release"),
    (
        "hosts",
        ("hosts",),
        "the registration with ir_measures and ir_datasets, PyTerrier's provider and Experiment",
    ),
    (
        "front ends",
        ("cli", "docgen", "__main__", "__init__", "sample"),
        "the command line, the docs, the package",
    ),
)


def layers_table() -> str:
    rows = [(name, ", ".join(f"`{m}`" for m in modules), what) for name, modules, what in LAYERS]
    return table(("layer", "modules", "what it holds"), rows) + "\n"


def patches_table() -> str:
    rows = [(p.host, p.what, p.why, f"`{p.test}`") for p in PATCHES]
    return table(("host", "what", "why", "test"), rows) + "\n"
