"""Whole documents: written to the last byte or failed aloud, naming the target; temporary names that the
file system takes."""

from __future__ import annotations

import errno
import io
import json
import os

import pytest

from ir_coliee.formats.textfile import atomic_output
from ir_coliee.outputs.tabular import write_json, write_rows


class _Short(io.RawIOBase):
    """A descriptor that takes at most ``step`` bytes a write, and nothing after ``room`` bytes (a disk
    that fills: the kernel's short write, then none)."""

    def __init__(self, step: int, room: int, name: str) -> None:
        self.data, self.step, self.room, self.name = bytearray(), step, room, name

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:
        n = max(0, min(len(b), self.step, self.room - len(self.data)))
        self.data += bytes(b[:n])
        return n


def _stream(step: int, room: int, name: str = "out.json") -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BufferedWriter(_Short(step, room, name)), encoding="utf-8")


DOC = {f"q{i}": [f"d{i}"] * 20 for i in range(500)}  # 60 KB: more than a buffer, one write


@pytest.mark.parametrize("chunk", [1 << 20, 777])
def test_a_document_written_in_short_writes_arrives_whole(monkeypatch, chunk):
    import ir_coliee.formats.textfile

    monkeypatch.setattr(ir_coliee.formats.textfile, "_CHUNK", chunk)  # encoded in parts, or at once
    out = _stream(step=1000, room=10**9)
    write_json(DOC, out)
    written = out.buffer.raw.data.decode()  # type: ignore[attr-defined]
    assert len(written) > 100_000 and json.loads(written) == DOC and written.endswith("}\n")


@pytest.mark.parametrize("writer", ["json", "tsv"])
def test_a_write_that_does_not_fit_is_an_error_naming_the_target(writer):
    out = _stream(step=4096, room=16_384, name="/data/out.json")
    with pytest.raises(OSError) as failed:
        if writer == "json":
            write_json(DOC, out)
        else:
            write_rows(["q", "d"], [[q, d[0]] for q, d in DOC.items()] * 50, out, 4)
    assert failed.value.errno == errno.ENOSPC and failed.value.filename == "/data/out.json"


def test_the_command_line_says_a_cut_document_with_exit_2(write, tmp_path):
    import subprocess
    import sys

    from support.cli import GOLD_T1, RUN_T1

    with open("/dev/full", "w") as full:
        argv = [
            "eval",
            write("g.json", GOLD_T1),
            write("r", RUN_T1),
            "--task",
            "1",
            "--format",
            "json",
        ]
        done = subprocess.run(
            [sys.executable, "-m", "ir_coliee", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "ir_coliee: error: <standard output>: No space left on device"
    )


@pytest.mark.parametrize("length", [243, 255])
def test_a_long_file_name_gets_a_temporary_name_the_file_system_takes(tmp_path, length):
    path = tmp_path / ("r" * length)
    limit = os.pathconf(tmp_path, "PC_NAME_MAX")
    assert length <= limit
    for text in ("first\n", "second\n"):  # a new file, then one replaced
        with atomic_output(path) as f:
            f.write(text)
        assert path.read_text() == text and os.listdir(tmp_path) == [path.name]


def test_a_name_of_many_bytes_gets_a_temporary_name_the_file_system_takes(tmp_path):
    path = tmp_path / ("é" * 125 + ".txt")  # 129 characters, 254 bytes
    assert len(os.fsencode(path.name)) <= os.pathconf(tmp_path, "PC_NAME_MAX")
    with atomic_output(path) as f:
        f.write("x\n")
    assert path.read_text() == "x\n" and os.listdir(tmp_path) == [path.name]


def test_a_failed_write_says_it_once_and_what_is_left(tmp_path, monkeypatch):
    with pytest.raises(
        OSError
    ) as full:  # a device: named once, not "cannot write (cannot write (...))"
        with atomic_output("/dev/full") as f:
            write_rows(["a"], [["b" * 10_000]], f, 0)
    assert (full.value.filename, full.value.strerror) == (
        "/dev/full",
        "cannot write (No space left on device)",
    )

    def no_space(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    path = tmp_path / "new.tsv"
    for kept in ("no file was made", "the old file is left as it was"):
        with pytest.raises(OSError, match=kept):
            with atomic_output(path) as f:
                f.write("x\n")
        path.write_text("old\n")
    assert path.read_text() == "old\n"


def test_a_file_on_a_read_only_file_system_is_said_so(tmp_path, monkeypatch):
    path = tmp_path / "page.md"
    path.write_text("old\n")
    statvfs = os.statvfs(tmp_path)
    monkeypatch.setattr(os, "access", lambda *a, **k: False)  # as on a read-only mount
    monkeypatch.setattr(os, "statvfs", lambda p: type("V", (), {"f_flag": os.ST_RDONLY})())
    with pytest.raises(OSError) as refused:
        with atomic_output(path):
            pass
    assert refused.value.errno == errno.EROFS and "read-only file system" in str(refused.value)
    monkeypatch.setattr(os, "statvfs", lambda p: statvfs)  # a writable one: the file's permissions
    with pytest.raises(PermissionError, match="permission denied"):
        with atomic_output(path):
            pass


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["eval", "--help"]])
def test_help_to_a_full_device_fails_aloud(argv):
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "ir_coliee", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert done.returncode == 2
    assert done.stderr == "ir_coliee: error: <standard output>: No space left on device\n"
