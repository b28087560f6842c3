"""Reference pages whose tables are generated from the registries, so the docs cannot drift from the code.

A page's prose is written in Markdown in ``docs/``; each generated block stands between ``<!-- NAME -->`` and
``<!-- /NAME -->``. ``python -m ir_coliee.docgen docs/`` makes every block anew from its function in
:data:`PAGES` and leaves the prose as written; a test fails when a committed block is stale.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

from ir_coliee.docgen import reference as r
from ir_coliee.docgen.architecture import LAYERS, layers_table, patches_table
from ir_coliee.errors import ColieeError
from ir_coliee.formats.textfile import atomic_output

#: Each page's generated blocks, by name.
PAGES: dict[str, Mapping[str, Callable[[], str]]] = {
    "measures.md": {"measures": r.measures_table, "measure-parameters": r.measure_parameters},
    "official.md": {"official": r.official_table},
    "datasets.md": {
        "exam-subset": r.exam_subset,
        "civil-codes": r.civil_codes,
        "datasets": r.datasets_tables,
    },
    "data.md": {"data-root": r.data_root, "data-files": r.data_files},
    "cli.md": {"commands": r.commands_help},
    "model.md": {
        "tasks": r.tasks_table,
        "formats": r.formats_table,
        "editions": r.editions_table,
        "not-registered": r.not_registered,
    },
    "architecture.md": {"layers": layers_table, "patches": patches_table},
}

_BLOCK = re.compile(r"(<!-- ([\w-]+) -->)(.*?)(<!-- /\2 -->)", re.S)


def filled(name: str, text: str, where: str = "") -> str:
    """The page ``name`` (its text as written, read from ``where``) with each generated block made anew."""
    blocks = PAGES[name]
    found = [m[2] for m in _BLOCK.finditer(text)]
    if sorted(found) != sorted(blocks):
        raise ColieeError(
            f"{where or name}: the generated blocks found whole are {found}; expected each of {list(blocks)} once, "
            "between <!-- NAME --> and <!-- /NAME -->"
        )
    return _BLOCK.sub(lambda m: m[1] + blocks[m[2]]() + m[4], text)


def write_pages(folder: Path) -> None:
    for name in PAGES:
        path = folder / name
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise ColieeError(
                f"{path}: {e.strerror}; the page's prose is written there, around its blocks"
            ) from None
        text = filled(name, text, str(path))
        with atomic_output(path) as f:
            f.write(text)


__all__ = ["LAYERS", "PAGES", "filled", "write_pages"]
