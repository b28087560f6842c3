"""The layouts real runs come in, made from plain lines, so that every reader is held to all of them."""

from __future__ import annotations


def layouts(lines: list[str], doc: int) -> dict[str, str]:
    """``lines`` (fields joined by one space) laid out as real files have them; ``doc``: the document
    column, which gets a ``.txt`` in the first line (as the query of the last line does) in ``.txt ids``."""
    lf = "".join(f"{line}\n" for line in lines)
    first = lines[0].split(" ")
    first[doc] += ".txt"
    with_txt = [" ".join(first), *lines[1:-1], lines[-1].replace(" ", ".txt ", 1)]
    return {
        "LF": lf,
        "CRLF": lf.replace("\n", "\r\n"),
        "tabs": lf.replace(" ", "\t"),
        "byte order mark": "\ufeff" + lf,
        "no final newline": lf[:-1],
        "blank lines": lf.replace("\n", "\n\n", 1) + "\n",
        "blank lines, mixed line ends": f"{lines[0]}\n\n\n"
        + "".join(f"{line}\r\n\r\n" for line in lines[1:]),
        "comment": "/* a ranked  run,\n two   lines */\n" + lf,
        ".txt ids": "".join(f"{line}\n" for line in with_txt),
    }
