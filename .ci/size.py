"""The package's size, as the one-door issue limits it: code lines of ir_coliee formatted at line length 100
(blank, comment and docstring lines not counted), at most LIMIT. A limit is met by removing code: the copy
is formatted first, so packing lines denser gains nothing.

    python .ci/size.py            # prints the count; exit 1 above the limit
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

LIMIT = 11_000


def code_lines(path: Path) -> int:
    source = path.read_text(encoding="utf-8")
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        first = node.body[0] if isinstance(node, kinds) and node.body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            if isinstance(first.value.value, str):
                docstrings.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return sum(
        1
        for number, line in enumerate(source.splitlines(), 1)
        if line.strip() and not line.strip().startswith("#") and number not in docstrings
    )


def main() -> int:
    package = Path(__file__).resolve().parent.parent / "ir_coliee"
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "ir_coliee"
        shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
        subprocess.run(
            ["ruff", "format", "--quiet", "--line-length", "100", "--isolated", str(copy)],
            check=True,
        )
        total = sum(code_lines(p) for p in copy.rglob("*.py"))
    print(f"ir_coliee: {total:,} code lines (limit {LIMIT:,})")
    return 0 if total <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
