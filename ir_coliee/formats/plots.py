"""Figures: matplotlib found before any work is done, and the file (PNG, PDF or SVG by its suffix) written
atomically."""

from __future__ import annotations

import importlib
import importlib.util
import os
from typing import Any

from ir_coliee.errors import PACKAGES, ColieeArgumentError, ColieeError, PathLike, install_hint
from ir_coliee.formats.textfile import atomic_output


def require(module: str, purpose: str) -> None:
    """Refuse at once, before any work, when an optional dependency is missing or fails to import (a
    broken install raises inside it): not after the work and its other outputs are done."""
    if importlib.util.find_spec(module) is None:
        raise ColieeError(f"{purpose} needs {module}: {install_hint(module)}")
    try:
        importlib.import_module(module)
    except (
        Exception
    ) as e:  # whatever a broken install raises: ImportError, OSError, AttributeError, ...
        raise ColieeError(
            f"{purpose} needs {module}, which is installed but fails to import ({type(e).__name__}: {e}); "
            f"reinstall it: pip install --force-reinstall {PACKAGES[module][0]}"
        ) from None


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only backend."""
    require("matplotlib", "plots")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def figure_format(path: PathLike, option: str = "plot") -> str:
    """The format the suffix of ``path`` says, one matplotlib writes everywhere: ``png``, ``pdf`` or ``svg``."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in (".png", ".pdf", ".svg"):
        raise ColieeArgumentError(
            f"{option} {path}: name a .png, .pdf or .svg file (its suffix says the format)"
        )
    return suffix[1:]


def save(fig: Any, path: PathLike) -> str:
    """``fig`` at ``path`` in the format its suffix says (:func:`figure_format`), written through a temporary
    file (the old file stays whole on failure)."""
    plt = pyplot()
    try:
        with atomic_output(path, "wb") as f:
            fig.savefig(f, dpi=120, format=figure_format(path))
    finally:
        plt.close(fig)
    return str(path)
