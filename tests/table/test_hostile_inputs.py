"""Hostile input and faults: a correct score or a clean error naming the file, never a silent wrong
number or a traceback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading

import pytest

import ir_coliee
from ir_coliee import ColieeFormatError, score

GOLD_JSON = '{"000001.txt": ["000010.txt"], "000002.txt": ["000012.txt", "000013.txt"]}'
RUN = "000001 000010 t\n000002 000012 t\n000002 000099 t\n"
# tp 1 + 1 = 2, retrieved 1 + 2 = 3, relevant 1 + 2 = 3: P = R = F1 = 2/3


def stdin_of(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def fifo(tmp_path, name: str, data: bytes) -> str:
    """A named pipe that a thread fills once: it can be read once only."""
    path = str(tmp_path / name)
    os.mkfifo(path)

    def feed() -> None:
        with open(path, "wb") as f:
            f.write(data)

    threading.Thread(target=feed, daemon=True).start()
    return path


def test_run_from_standard_input(write, monkeypatch):
    stdin_of(monkeypatch, RUN.encode())
    row = score(write("g.json", GOLD_JSON), "-", task=1).table.iloc[0]
    assert (row["tp"], row["retrieved"], row["relevant"]) == (2, 3, 3) and row[
        "MicroF1"
    ] == pytest.approx(2 / 3)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_run_and_gold_from_named_pipes(tmp_path):
    report = score(fifo(tmp_path, "gold", GOLD_JSON.encode()), fifo(tmp_path, "run", RUN.encode()))
    assert report.table.iloc[0]["MicroF1"] == pytest.approx(2 / 3)
    assert report.runs[0].path.endswith("run")  # named as given, not as the temporary copy


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_errors_in_a_pipe_name_the_pipe_and_the_line(tmp_path):
    pipe = fifo(tmp_path, "run", b"000001 000010 t\n000001 bad\n")
    with pytest.raises(ColieeFormatError) as info:
        ir_coliee.read_run(pipe)
    assert (info.value.path, info.value.line) == (pipe, 2)


def test_many_piped_lines_lose_no_row(write, tmp_path):
    n = 200_000
    run = "".join(f"{q:06d} {d:06d} t\n" for q in range(n // 100) for d in range(100))
    gold = write("gold.qrels", "".join(f"{q:06d} 0 {q % 100:06d} 1\n" for q in range(n // 100)))
    result = subprocess.run(
        [sys.executable, "-m", "ir_coliee", "eval", gold, "-", "--task", "1", "--format", "json"],
        input=run.encode(),
        capture_output=True,
        check=True,
    )
    import json

    counts = json.loads(result.stdout)["counts"]
    # every query retrieves 100 cases, one of them its only relevant one
    assert counts == {"tp": n // 100, "retrieved": n, "relevant": n // 100, "queries": n // 100}


# --- label JSON --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, line, problem",
    [
        ('{"000001.txt": ["000010.txt"],\n " ": ["000011.txt"]}', 2, "an empty query id"),
        (
            '{"000001.txt": ["000010.txt", ""]}',
            1,
            "an empty document id among the labels of '000001.txt'",
        ),
        ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", None, "JSON nested too deeply"),
        ('{"a": [' + "9" * 5000 + "]}", None, "unreadable JSON value"),
    ],
)
def test_label_json_that_would_score_wrong_is_an_error(write, text, line, problem):
    path = write("task1_test_labels_2024.json", text)
    with pytest.raises(ColieeFormatError) as info:
        ir_coliee.read_qrels(path)
    assert (info.value.path, info.value.line) == (path, line) and problem in info.value.problem


def test_a_pilot_tort_with_a_key_twice_is_an_error(write):
    line = (
        '{"tort_id": "T1", "court_decision": true, "court_decision": false, "undisputed_facts": []}'
    )
    with pytest.raises(ColieeFormatError, match="'court_decision' appears twice") as info:
        ir_coliee.formats.pilot.read_torts(write("sub.jsonl", "\n" + line + "\n"))
    assert info.value.line == 2


# --- several copies of one official file -------------------------------------------------------------


def test_a_stale_backup_copy_is_not_read_and_every_copy_is_named(coliee_home, capsys):
    import ir_datasets
    from support.caselaw_data import write_task1_flat

    from ir_coliee.cli import main

    write_task1_flat(coliee_home, with_test_gold=True)
    current = coliee_home / "task1_test_labels_2024.json"
    backup = coliee_home / "backup" / "old" / "task1_test_labels_2024.json"
    backup.parent.mkdir(parents=True)
    backup.write_text('{"000200.txt": ["000999.txt"]}')  # stale: another gold
    ir_coliee.data.locator.refresh()
    qrels = [
        (q.query_id, q.doc_id) for q in ir_datasets.load("coliee/task1/2024/test").qrels_iter()
    ]
    assert ("000200", "000999") not in qrels and qrels  # the shallowest copy serves
    assert main(["data", "check", "coliee/task1/2024/test"]) == 0
    out, err = capsys.readouterr()
    assert f"copies\tNOTE: {current} is read; also under the data root, not read: {backup}" in out
    assert f"2 copies under the data root: reading {current}" in err


def test_a_package_as_folder_and_as_zip_reads_the_folder(coliee_home, capsys):
    import ir_datasets
    from support.statute_data import write_statute_root, zip_folder

    write_statute_root(coliee_home)
    package = coliee_home / "COLIEE2024statute_data-English"
    copy = coliee_home / "copy" / package.name
    import shutil

    shutil.copytree(package, copy)
    zip_folder(copy)  # copy/COLIEE2024statute_data-English.zip, with the folder nested inside
    ir_coliee.data.locator.refresh()
    ds = ir_datasets.load("coliee/task3/2024/test")
    assert len(list(ds.docs_iter())) == 9
    sources = dict(
        (s.part, s.location)
        for s in ir_coliee.data.datasets.REGISTERED["coliee/task3/2024/test"].files.sources()
    )
    assert sources["docs"] == str(package / "text" / "civil_code_en-1to724-2.txt")
    assert "copies under the data root" in capsys.readouterr().err


# --- the data root: links, FIFOs, corrupt and oversized zips, files deleted mid-way -------------------


def check_out(argv, env=None, timeout=120):
    """``ir_coliee ARGV`` in a fresh process (a hang fails the test instead of blocking it)."""
    result = subprocess.run(
        [sys.executable, "-m", "ir_coliee", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_fifo_links_and_loops_in_the_data_root_do_not_block_or_crash(tmp_path):
    from support.caselaw_data import write_task1_flat

    root = tmp_path / "root"
    elsewhere = tmp_path / "elsewhere"
    write_task1_flat(elsewhere)
    root.mkdir()
    os.symlink(
        elsewhere / "task1_test_files_2024", root / "task1_test_files_2024"
    )  # linked into place
    os.symlink(
        elsewhere / "task1_test_no_labels_2024.json", root / "task1_test_no_labels_2024.json"
    )
    os.mkfifo(root / "a_fifo")
    (root / "loop").mkdir()
    os.symlink(root / "loop", root / "loop" / "again")
    os.symlink(root / "nowhere", root / "dead.txt")
    result = check_out(
        ["data", "check", "coliee/task1/2024/test"], {"COLIEE_HOME": str(root)}, timeout=60
    )
    assert (
        f"coliee/task1/2024/test\tdocs\t{root}/task1_test_files_2024/" in result.stdout
    )  # the link was followed
    assert (
        f"data root\tproblem\t{root}/a_fifo: not a regular file (a FIFO, socket or device), skipped"
        in result.stdout
    )
    assert f"data root\tproblem\t{root}/dead.txt: a dangling link, skipped" in result.stdout
    assert "a link loop, not followed" in result.stdout


def test_corrupt_and_oversized_zips_are_named_and_the_rest_is_read(coliee_home, monkeypatch):
    import zipfile

    import ir_datasets
    from support.caselaw_data import write_task1_flat
    from support.statute_data import write_statute_root, zip_folder

    from ir_coliee.data import files, locator

    write_task1_flat(coliee_home)
    (coliee_home / "not_a_zip.zip").write_bytes(b"this is not a zip file")
    package = write_statute_root(coliee_home) / "COLIEE2024statute_data-English"
    zipped = zip_folder(package)
    truncated = coliee_home / "truncated.zip"
    truncated.write_bytes(zipped.read_bytes()[: zipped.stat().st_size // 2])
    ir_coliee.data.locator.refresh()
    assert (
        len(list(ir_datasets.load("coliee/task1/2024/train").docs_iter())) > 0
    )  # the rest is read
    problems = "\n".join(locator.LOCATOR.problems)
    assert f"{coliee_home / 'not_a_zip.zip'}: not a readable zip file" in problems
    assert f"{truncated}: not a readable zip file" in problems
    # a member whose bytes were damaged after zipping: the CRC check names it
    data = bytearray(zipped.read_bytes())
    with zipfile.ZipFile(zipped) as zf:
        info = zf.getinfo("COLIEE2024statute_data-English/text/civil_code_en-1to724-2.txt")
        start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    data[start + 10] ^= 0xFF
    zipped.write_bytes(bytes(data))
    ir_coliee.data.locator.refresh()
    with pytest.raises(
        ir_coliee.errors.ColieeDataError,
        match=r"civil_code_en-1to724-2\.txt: cannot be read",
    ):
        list(ir_datasets.load("coliee/task3/2024/train").docs_iter())
    # a small zip that expands past the cap is refused before it takes the memory
    monkeypatch.setattr(files, "MAX_MEMBER", 1000)
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as zf:  # the 2024 package, now a bomb
        zf.writestr(
            "COLIEE2024statute_data-English/text/civil_code_en-1to724-2.txt", b"\0" * 100_000
        )
    ir_coliee.data.locator.refresh()
    with pytest.raises(
        ir_coliee.errors.ColieeDataError, match="expands to 100,000 bytes, more than 1,000"
    ):
        list(ir_datasets.load("coliee/task3/2024/train").docs_iter())


def test_a_case_file_deleted_while_the_docstore_is_open(coliee_home):
    import ir_datasets
    from support.caselaw_data import write_task1_flat

    write_task1_flat(coliee_home)
    ds = ir_datasets.load("coliee/task1/2024/train")
    store = ds.docs_store()
    first = next(ds.docs_iter())
    victim = next(coliee_home.rglob(f"{first.doc_id}.txt"))
    victim.unlink()
    # its folder's listing changed: the data root is scanned anew, and the document is no longer there
    with pytest.raises(KeyError, match=f"doc_id={first.doc_id} not found"):
        store.get(first.doc_id)
    assert first.doc_id not in [d.doc_id for d in ds.docs_iter()]
    deeper = (
        coliee_home / "task1_test_files_2024" / "task1_test_files_2024"
    )  # a nested folder: not watched
    store = ir_datasets.load("coliee/task1/2024/test").docs_store()
    victim = deeper / "000300.txt"
    victim.unlink()
    with pytest.raises(ir_coliee.errors.ColieeDataError, match=f"{victim}: cannot be read"):
        store.get("000300")


def test_data_check_carries_on_past_a_bad_dataset_and_refuses_a_file_as_root(
    coliee_home, tmp_path, capsys
):
    from support.statute_data import write_statute_root

    from ir_coliee.cli import main

    write_statute_root(coliee_home)
    (coliee_home / "task2_test_labels_2026.json").write_text('{"999": ["001.txt"], "998": 7}')
    (coliee_home / "task2_test_files_2026" / "999" / "paragraphs").mkdir(parents=True)
    (coliee_home / "task2_test_files_2026" / "999" / "entailed_fragment.txt").write_text("fragment")
    (coliee_home / "task2_test_files_2026" / "999" / "paragraphs" / "001.txt").write_text(
        "[1] text"
    )
    ir_coliee.data.locator.refresh()
    assert main(["data", "check", "coliee/task2/2026/test", "coliee/task3/2024/test"]) == 1
    out = capsys.readouterr().out
    # the gold that cannot be read is said on its part, the parts that can be read shown
    said = "coliee/task2/2026/test\tqrels\tUNREADABLE: "
    assert f"{said}{coliee_home}/task2_test_labels_2026.json:1: the labels of '998' are 7" in out
    assert "coliee/task3/2024/test\tcounts\tNOTE: 9 documents" in out  # checked after the bad one
    a_file = tmp_path / "root.txt"
    a_file.write_text("")
    result = check_out(["data", "check"], {"COLIEE_HOME": str(a_file)})
    assert result.returncode == 2 and f"the data root {a_file} is a file" in result.stderr


def test_lone_surrogates_in_label_ids_are_an_error(write):
    with pytest.raises(ColieeFormatError, match="lone surrogate"):
        ir_coliee.read_qrels(write("labels.json", '{"\\ud800": ["000001.txt"]}'))


@pytest.mark.parametrize("option", ["--write", "--plot"])
def test_output_paths_are_checked_before_the_work(write, tmp_path, option):
    gold = write("gold.qrels", "q1 0 a 1\nq2 0 b 1\n")
    run = write("task3-L.t", "q1 Q0 a 1 0.9 t\nq2 Q0 c 1 0.8 t\n")
    command = (
        ["tune", gold, run] if option == "--write" else ["compare", gold, run, run, "--task", "1"]
    )
    for target, problem in (
        (tmp_path, "is a folder"),
        (tmp_path / "no" / "such" / "out", "does not exist"),
    ):
        result = check_out([*command, option, str(target)])
        assert result.returncode == 2 and problem in result.stderr


# --- unreadable files, as a user who cannot read them ------------------------------------------------

_AS_NOBODY = """
import os, sys
os.setgid(65534); os.setuid(65534)
from ir_coliee.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _other_user_can_run_python() -> bool:
    if os.geteuid() != 0:
        return True  # the tests run as a user already: chmod 0 binds them
    probe = subprocess.run(
        [sys.executable, "-c", _AS_NOBODY, "--version"], capture_output=True, timeout=120
    )
    return probe.returncode == 0


class Unreadable:
    """A data root with a locked folder, and a locked run file, read by a user who may not read them."""

    def __init__(self, top: str):
        from pathlib import Path

        from support.caselaw_data import write_task1_flat

        self.gold, self.run = os.path.join(top, "gold.json"), os.path.join(top, "task1.t")
        Path(self.gold).write_text(GOLD_JSON)
        Path(self.run).write_text(RUN)
        self.root = os.path.join(top, "root")
        write_task1_flat(Path(self.root), with_test_gold=True)
        self.locked = os.path.join(self.root, "task1_train_files_2024")
        self.home = os.path.join(top, "home")
        os.mkdir(self.home)
        for folder, dirs, names in os.walk(top):
            for name in [*dirs, *names]:
                os.chmod(os.path.join(folder, name), 0o777 if name == "home" else 0o755)
        os.chmod(top, 0o755)
        os.chmod(self.run, 0)
        os.chmod(self.locked, 0)

    def check(self, cli) -> None:
        code, out, err = cli("eval", self.gold, self.run, "--task", "1")
        assert (
            code == 2
            and f"{self.run}: cannot be read (Permission denied)" in err
            and "Traceback" not in err
        )
        code, out, err = cli("data", "check", "coliee/task1/2024/train", "coliee/task1/2024/test")
        assert code == 1 and "Traceback" not in err
        assert f"data root\tproblem\t{self.locked}: cannot be read (Permission denied)" in out
        assert "coliee/task1/2024/test\tcounts\tNOTE:" in out  # the rest is still checked


def test_unreadable_files_and_folders_as_a_non_root_user(monkeypatch, capsys):
    import shutil
    import tempfile

    top = tempfile.mkdtemp(
        prefix="ir_coliee-perm-"
    )  # readable by the other user, unlike pytest's folders
    case = Unreadable(top)
    env = {**os.environ, "COLIEE_HOME": case.root, "IR_DATASETS_HOME": case.home, "HOME": case.home}
    try:
        if _other_user_can_run_python():
            prefix = (
                [sys.executable, "-c", _AS_NOBODY]
                if os.geteuid() == 0
                else [sys.executable, "-m", "ir_coliee"]
            )

            def as_other_user(*argv):
                r = subprocess.run(
                    [*prefix, *argv], capture_output=True, text=True, env=env, timeout=120
                )
                return r.returncode, r.stdout, r.stderr

            case.check(as_other_user)
        else:  # root, and no other user can start Python here: the same denials, raised where the OS would
            real_open, real_scandir = open, os.scandir

            def denied(path) -> PermissionError:
                return PermissionError(13, "Permission denied", os.fspath(path))

            def is_(path, locked: str) -> bool:
                return isinstance(path, (str, os.PathLike)) and os.fspath(path) == locked

            def guarded_open(path, *args, **kwargs):
                if is_(path, case.run):
                    raise denied(path)
                return real_open(path, *args, **kwargs)

            def guarded_scandir(path="."):
                if is_(path, case.locked):
                    raise denied(path)
                return real_scandir(path)

            monkeypatch.setattr("builtins.open", guarded_open)
            monkeypatch.setattr(os, "scandir", guarded_scandir)
            monkeypatch.setattr(
                os, "access", lambda path, mode: not (is_(path, case.run) or is_(path, case.locked))
            )
            for key in ("COLIEE_HOME", "IR_DATASETS_HOME"):
                monkeypatch.setenv(key, env[key])
            ir_coliee.data.locator.refresh()
            from ir_coliee.cli import main

            def in_process(*argv):
                code = main(list(argv))
                out, err = capsys.readouterr()
                return code, out, err

            case.check(in_process)
    finally:
        for folder, dirs, _names in os.walk(top):
            for d in dirs:
                os.chmod(os.path.join(folder, d), 0o755)
        os.chmod(case.locked, 0o755)
        os.chmod(case.run, 0o644)
        shutil.rmtree(top)
        ir_coliee.data.locator.refresh()


# --- killed mid-way: nothing is left behind that changes the next run -----------------------------------


@pytest.mark.parametrize("command", ["eval", "data check"])
def test_a_run_killed_mid_way_leaves_the_next_one_identical(tmp_path, command):
    import signal
    import time

    from support.caselaw_data import write_task1_flat

    root = tmp_path / "root"
    write_task1_flat(root, with_test_gold=True)
    run = tmp_path / "task1.big"
    run.write_text("".join(f"{q:06d} {d:06d} t\n" for q in range(200, 202) for d in range(300_000)))
    argv = (
        ["eval", "coliee/task1/2024/test", str(run)]
        if command == "eval"
        else ["data", "check", "coliee/task1/2024/test"]
    )
    env = {**os.environ, "COLIEE_HOME": str(root), "IR_DATASETS_HOME": str(tmp_path / "irds")}
    before = sorted(root.rglob("*"))
    clean = subprocess.run(
        [sys.executable, "-m", "ir_coliee", *argv], capture_output=True, text=True, env=env
    )
    killed = subprocess.Popen(
        [sys.executable, "-m", "ir_coliee", *argv], env=env, stdout=subprocess.DEVNULL
    )
    time.sleep(1.0)  # past the start, mid-way through reading
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    again = subprocess.run(
        [sys.executable, "-m", "ir_coliee", *argv], capture_output=True, text=True, env=env
    )
    assert (again.returncode, again.stdout, again.stderr) == (
        clean.returncode,
        clean.stdout,
        clean.stderr,
    )
    assert clean.returncode == 0 and clean.stdout
    assert sorted(root.rglob("*")) == before  # nothing written in the data root
    assert not list(
        (tmp_path / "irds").rglob("*coliee*")
    )  # no cache of ours (ir_datasets makes its own folders)


def test_an_entry_that_cannot_be_examined_skips_only_itself(tmp_path):
    """The scan examines a folder's entries in one go; an entry whose kind cannot be told (a link to
    itself) is named, and the entries after it are still found."""
    from ir_coliee.data.locator import as_file, index

    (tmp_path / "a.txt").write_text("x")
    os.symlink("m_self", tmp_path / "m_self")
    (tmp_path / "z.txt").write_text("x")
    problems: list = []
    found = index(tmp_path, problems, [], {})
    assert sorted(found) == ["a.txt", "z.txt"]
    assert as_file(found["z.txt"][0]).disk_path == str(tmp_path / "z.txt")
    assert len(problems) == 1 and problems[0].startswith(f"{tmp_path / 'm_self'}: cannot be read (")


def test_a_copy_that_may_not_be_read_is_skipped_when_picked(tmp_path, monkeypatch):
    """Readability is asked when a file is chosen: the readable copy serves, the other is named."""
    from pathlib import Path

    from ir_coliee.data.locator import Locator

    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "gold.json").write_text("{}")
    locked = str(tmp_path / "a" / "gold.json")
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda path, mode: os.fspath(path) != locked and real_access(path, mode)
    )
    locator = Locator(Path(tmp_path))
    picked = locator.pick(locator.find("gold.json"), lambda f: ())
    assert [f.disk_path for f in picked] == [str(tmp_path / "b" / "gold.json")]
    assert locator.problems == [f"{locked}: cannot be read (permission denied), skipped"]
