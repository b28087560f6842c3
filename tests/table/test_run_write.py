"""Every writer goes through a temporary file renamed into place: a full disk (a file-size limit), a kill
part way, or an error leave the old file whole and no half file beside it, and the error names the path."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

OLD = "the old file, which must survive <!-- x --><!-- /x -->\n"  # with a block for the docs writer

#: Each writer as a line of Python that writes a large output to ``path``.
WRITERS = {
    "write_run": "ir_coliee.write_run({f'q{q}': {f'd{d}': float(d) for d in range(200)} for q in range(300)}, path, "
    "format='trec', tag='t')",
    "write_torts": "from ir_coliee.formats.pilot import ColieeTort, write_torts; "
    "write_torts([ColieeTort('T' + str(i) * 50, None, (), (), (), True) for i in range(3000)], path)",
    "plot": "from ir_coliee.outputs.plots import pyplot, save; plt = pyplot(); fig, ax = plt.subplots(); "
    "import random; ax.plot([random.random() for _ in range(20000)]); save(fig, path)",
    "docs page": "from pathlib import Path; from ir_coliee import docgen; import os; "
    "docgen.PAGES = {os.path.basename(path): {'x': lambda: 'x' * 2_000_000}}; docgen.write_pages(Path(os.path.dirname(path)))",
}


def _run(code: str, limit: int | None = None) -> subprocess.CompletedProcess:
    def limited() -> None:
        import resource

        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, timeout=120, preexec_fn=limited
    )


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_full_disk_leaves_the_old_file_whole(tmp_path, writer):
    path = tmp_path / (
        "out.png" if writer == "plot" else "out.file"
    )  # a figure's suffix says its format
    path.write_text(OLD)
    code = f"import ir_coliee\npath = {str(path)!r}\ntry:\n    {WRITERS[writer]}\nexcept OSError as e:\n"
    code += "    print(e.filename, e.strerror); raise SystemExit(3)\n"
    result = _run(code, limit=16 * 1024)
    assert result.returncode == 3, result.stderr.decode()
    assert (
        str(path) in result.stdout.decode()
        and "old file is left as it was" in result.stdout.decode()
    )
    assert path.read_text() == OLD and [p.name for p in tmp_path.iterdir()] == [path.name]


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_kill_part_way_leaves_the_old_file_whole(tmp_path, writer):
    path = tmp_path / (
        "out.png" if writer == "plot" else "out.file"
    )  # a figure's suffix says its format
    path.write_text(OLD)
    code = textwrap.dedent(
        f"""
        import os, signal
        import ir_coliee
        os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)  # killed when the data is written, before the rename
        path = {str(path)!r}
        {WRITERS[writer]}
        """
    )
    result = _run(code)
    assert result.returncode == -9
    assert (
        path.read_text() == OLD
    )  # a temporary file may stay behind a kill; the target is never half written
