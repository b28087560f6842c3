"""The results page as HTML: every string escaped by one function, tables whose cells carry their exact
values (``data-col``, ``data-value``: what a reader or a test reads back), and one page with its style sheet
inline (screen, phone, print), no script and nothing fetched."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

# esc: text for HTML, quotes too, in the one-line form of every output (every string from a file goes
# through it)
from ir_coliee.outputs.escape import html_text as esc

#: The page's style sheet: readable at 1280 px; on a phone tables scroll sideways and figures stack, each
#: scaled to the width (its viewBox); on paper no navigation, tables shrunk and wrapped to the page's
#: width (every column printed), no figure split across pages.
CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
max-width:80rem;padding:0 1rem 2rem;color:#1b1b1b;background:#fff}
h1{font-size:1.6rem;margin:1rem 0 .3rem}h2{margin-top:2rem;border-bottom:1px solid #ccc}
nav{display:flex;flex-wrap:wrap;gap:.2rem 1rem}p,h3{overflow-wrap:anywhere}
.note{color:#555}.warn{color:#8a4b00}
.scroll{overflow-x:auto;margin:.5rem 0 1rem}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{padding:.2rem .6rem;border-bottom:1px solid #e3e3e3;text-align:left;white-space:nowrap}
td.n{text-align:right}thead th{border-bottom:2px solid #999;background:#f5f5f5}
tr.mark td{background:#fff6d6}
.figs{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,30rem),1fr));gap:1rem}
figure{margin:0}figure svg{width:100%;height:auto}figcaption{font-weight:600}
@media print{nav{display:none}body{font-size:9pt;max-width:none;padding:0}.scroll{overflow:visible}
h2{break-after:avoid}tr,figure{break-inside:avoid}table{table-layout:fixed;width:100%;font-size:6.5pt}
th,td{white-space:normal;overflow-wrap:anywhere;padding:.1rem .15rem}.figs{display:block}
figure svg{max-width:60%}}
"""


def _cell(column: str, value: object, digits: int) -> str:
    """A cell: numbers right-aligned with their exact value in ``data-value``, text escaped."""
    if value is None or type(value).__name__ == "NAType":
        return f'<td data-col="{esc(column)}"></td>'
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        shown = ("yes" if value else "") if isinstance(value, bool) else value
        return f'<td data-col="{esc(column)}">{esc(shown)}</td>'
    exact = repr(float(value)) if isinstance(value, float) else str(value)
    shown = "–" if value != value else f"{value:.{digits}f}" if isinstance(value, float) else exact
    if 0 < float(value) < 0.5 * 10**-digits:  # a p-value not zero, though it rounds to zero
        shown = f"&lt; {10**-digits:.{digits}f}"
    return f'<td class="n" data-col="{esc(column)}" data-value="{exact}">{shown}</td>'


def table(
    name: str,
    caption: str,
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    digits: int = 4,
    marked: Sequence[bool] = (),
) -> str:
    """A table named ``name`` (``data-table``) under ``caption``; ``marked`` rows stand out."""
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in header)
    body = "".join(
        f"<tr{' class=mark' if i < len(marked) and marked[i] else ''}>"
        + "".join(_cell(h, v, digits) for h, v in zip(header, row))
        + "</tr>"
        for i, row in enumerate(rows)
    )
    return (
        f'<div class="scroll"><table data-table="{esc(name)}"><caption>{esc(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def figure(svg: str, title: str, alt: str) -> str:
    """An inline SVG figure with its title and its text alternative (the SVG read as one image)."""
    labelled = svg.replace("<svg ", f'<svg role="img" aria-label="{esc(alt)}" ', 1)
    return f"<figure>{labelled}<figcaption>{esc(title)}</figcaption></figure>"


def paragraph(text: str, kind: str = "note") -> str:
    return f'<p class="{kind}">{esc(text)}</p>'


def page(title: str, intro: Sequence[str], sections: Sequence[tuple[str, str, str]]) -> str:
    """The document: ``title``, ``intro`` lines, links to the ``(id, heading, html)`` sections, the sections."""
    nav = "".join(f'<a href="#{i}">{esc(h)}</a>' for i, h, _ in sections)
    body = "".join(f'<section id="{i}"><h2>{esc(h)}</h2>{s}</section>' for i, h, s in sections)
    lines = "".join(paragraph(line) for line in intro)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>"
        f"<header><h1>{esc(title)}</h1>{lines}<nav>{nav}</nav></header><main>{body}</main>"
        "</body></html>\n"
    )
