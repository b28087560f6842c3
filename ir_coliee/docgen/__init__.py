"""Reference pages generated from the registries, so the docs cannot drift from the code.

``python -m ir_coliee.docgen docs/`` rewrites them; a test fails when a committed page is stale.
"""

from __future__ import annotations

from pathlib import Path

from ir_coliee.docgen.architecture import LAYERS, architecture_page
from ir_coliee.docgen.reference import (
    cli_page,
    data_page,
    datasets_page,
    measures_page,
    model_page,
    official_page,
)
from ir_coliee.formats.textfile import atomic_output

PAGES = {
    "measures.md": measures_page,
    "official.md": official_page,
    "datasets.md": datasets_page,
    "data.md": data_page,
    "cli.md": cli_page,
    "model.md": model_page,
    "architecture.md": architecture_page,
}


def write_pages(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, page in PAGES.items():
        text = page()
        with atomic_output(folder / name) as f:
            f.write(text)


__all__ = ["LAYERS", "PAGES", "write_pages"]
