"""Figures: matplotlib found before any work is done, the file (PNG, PDF or SVG by its suffix) written
atomically, and the bar panels of the analyses (:class:`Panel`), drawn alike in a file and in the results page."""

from __future__ import annotations

import importlib
import importlib.util
import io
import os
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from ir_coliee.errors import PACKAGES, ColieeArgumentError, ColieeError, PathLike, install_hint
from ir_coliee.formats.textfile import atomic_output
from ir_coliee.outputs.escape import figure_text


def require(module: str, purpose: str) -> None:
    """Refuse at once, before any work, when an optional dependency is missing or fails to import (a
    broken install raises inside it): not after the work and its other outputs are done."""
    if importlib.util.find_spec(module) is None:
        raise ColieeError(f"{purpose} needs {module}: {install_hint(module)}")
    try:
        importlib.import_module(module)
    # whatever a broken install raises: ImportError, OSError, AttributeError, ...
    except Exception as e:
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


class Panel(NamedTuple):
    """One small bar chart, as data: ``series`` holds a value per category for each run (or one series)."""

    title: str
    x: str
    """What the categories are (the grouping)."""
    y: str
    """What the bars measure: the measure's name."""
    categories: list[str]
    series: dict[str, list[float]]

    @property
    def alt(self) -> str:
        """The figure as text, for a reader who cannot see it: every bar's value."""
        bars = "; ".join(
            f"{c}: " + ", ".join(f"{s} {v[i]:.4g}" for s, v in self.series.items())
            for i, c in enumerate(self.categories)
        )
        return f"Bar chart of {self.y} by {self.x}. {bars}."


#: Patterns that set apart runs whose colours are near (more runs than a ten-colour palette holds).
HATCHES = ("", "//", "..", "xx")


def looks(names: Sequence[str]) -> dict[str, tuple[Any, str]]:
    """Each run's colour and hatch, the same in every figure: the ten colours of ``tab10`` for up to ten
    runs; beyond that as many distinct hues as runs, neighbours told apart by hatches, so that no colour
    repeats in a figure however many runs there are."""
    pyplot()
    from matplotlib import colormaps

    n = len(names)
    if n <= 10:  # a ListedColormap called with an int gives its i-th colour
        return {name: (colormaps["tab10"](i), "") for i, name in enumerate(names)}
    turbo = colormaps["turbo"]
    return {
        name: (turbo(0.05 + 0.9 * i / (n - 1)), HATCHES[i % len(HATCHES)])
        for i, name in enumerate(names)
    }


def draw(ax: Any, panel: Panel, styles: dict[str, tuple[Any, str]]) -> None:
    """``panel`` on ``ax``: grouped bars, one per series in each category, axes named, a legend of runs
    above the axes (the figure stays narrow enough to read on a phone)."""
    width = 0.8 / len(panel.series)
    bars = []
    for i, (name, values) in enumerate(panel.series.items()):
        colour, hatch = styles.get(name, ("0.45", ""))
        offset = (i - (len(panel.series) - 1) / 2) * width
        xs = [x + offset for x in range(len(values))]
        edge = "0.15" if hatch else colour
        bars.append(ax.bar(xs, values, width, color=colour, hatch=hatch, edgecolor=edge, lw=0))
    many = sum(map(len, panel.categories)) > 40  # slanted, so that they do not overlap on a phone
    slant = {"rotation": 40, "ha": "right"} if many else {"rotation": 0, "ha": "center"}
    ax.set_xticks(range(len(panel.categories)), [figure_text(c) for c in panel.categories], **slant)
    ax.set_xlabel(figure_text(panel.x))
    ax.set_ylabel(figure_text(panel.y))
    rows = -(-len(panel.series) // 3) if len(panel.series) > 1 else 0  # the legend's, 3 runs a row
    ax.set_title(figure_text(panel.title), pad=6 + 17 * rows)
    if rows:  # between the title and the axes; labels given, so that a "_name" is listed too
        names = [figure_text(n) for n in panel.series]
        ax.legend(bars, names, loc="lower center", bbox_to_anchor=(0.5, 1), ncol=3, frameon=False)


def _figure(panels: Sequence[Panel], styles: dict[str, tuple[Any, str]]) -> Any:
    rows = -(-max(len(p.series) for p in panels) // 3)  # the legend's, three runs a row
    height = 3.0 + 0.25 * rows
    fig, axes = pyplot().subplots(len(panels), 1, figsize=(5, height * len(panels)), squeeze=False)
    for ax, panel in zip(axes[:, 0], panels):
        draw(ax, panel, styles)
    return fig


def plot(panels: Sequence[Panel], styles: dict[str, tuple[Any, str]], path: PathLike) -> str:
    """The panels one above the other in one file (PNG, PDF or SVG by its suffix)."""
    fig = _figure(panels, styles)
    fig.tight_layout()
    return save(fig, path)


def svg(panel: Panel, styles: dict[str, tuple[Any, str]], salt: str) -> str:
    """``panel`` as an inline SVG element: text kept as text, no date, every id (and every reference
    to one) prefixed by ``salt``, each figure of a page its own, so that no two share an id."""
    import matplotlib

    fig = _figure([panel], styles)
    out = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": salt}):
        fig.savefig(out, format="svg", metadata={"Date": None}, bbox_inches="tight")
    pyplot().close(fig)
    text = out.getvalue()
    return re.sub(r'(\bid="|url\(#|href="#)', rf"\1{salt}-", text[text.index("<svg") :])
