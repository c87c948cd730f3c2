"""Outputs: a symbolic link is written through to its target; a second writer of one output is
refused naming the first; a full disk, a missing directory or a name with control characters is
one clear line and leaves the old output whole."""

from __future__ import annotations

import errno
import fcntl
import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from collectors.records.lock import OutputLock, lock_path
from collectors.records.store import write_atomic

from .. import trees
from .conftest import records


@pytest.fixture
def root(tmp_path: Path) -> Path:
    trees.hls_two_solutions(tmp_path / "root")
    return tmp_path / "root"


def test_an_output_link_is_written_through_and_stays_a_link(tmp_path: Path, root: Path, cli) -> None:
    dated = tmp_path / "runs" / "2026-11-26.jsonl"
    dated.parent.mkdir()
    dated.write_text("old records\n")
    latest = tmp_path / "latest.jsonl"
    latest.symlink_to(os.path.join("runs", "2026-11-26.jsonl"))  # relative, as `ln -s` makes it
    ran = cli("collect", str(root), "-o", str(latest))
    assert ran.code == 0
    assert latest.is_symlink() and os.readlink(latest) == "runs/2026-11-26.jsonl"
    assert len(records(dated)) == 3
    assert sorted(os.listdir(dated.parent)) == ["2026-11-26.jsonl"]  # no temporary, no lock left
    assert sorted(os.listdir(tmp_path)) == ["latest.jsonl", "root", "runs"]


def test_a_dangling_output_link_creates_its_target(tmp_path: Path, root: Path, cli) -> None:
    latest = tmp_path / "latest.jsonl"
    latest.symlink_to(tmp_path / "first.jsonl")
    assert cli("collect", str(root), "-o", str(latest)).code == 0
    assert latest.is_symlink() and len(records(tmp_path / "first.jsonl")) == 3


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("fifo", "not a regular file (a FIFO), refused, nothing replaced"),
        ("directory", "not a regular file (a directory), refused, nothing replaced"),
        ("loop", "Too many levels of symbolic links"),
        ("missing-directory", "does not exist"),
    ],
)
def test_an_output_link_to_what_cannot_be_written_is_refused(
    tmp_path: Path, root: Path, cli, target: str, reason: str
) -> None:
    link = tmp_path / "out.jsonl"
    if target == "fifo":
        os.mkfifo(tmp_path / "fifo")
        link.symlink_to(tmp_path / "fifo")
    elif target == "directory":
        link.symlink_to(root)
    elif target == "loop":
        link.symlink_to(tmp_path / "other.jsonl")
        (tmp_path / "other.jsonl").symlink_to(link)
    else:
        link.symlink_to(tmp_path / "gone" / "out.jsonl")
    ran = cli("collect", str(root), "-o", str(link))
    assert ran.code == 3 and ran.err.count("\n") == 1
    assert ran.err.startswith(f"{link}: output not writable: ") and reason in ran.err
    assert link.is_symlink()


@pytest.mark.parametrize("parent", ["missing", "a-file"])
def test_an_output_whose_directory_is_not_one_is_refused(tmp_path: Path, root: Path, cli, parent: str) -> None:
    if parent == "a-file":
        (tmp_path / parent).write_text("x\n")
    out = tmp_path / parent / "out.jsonl"
    ran = cli("collect", str(root), "-o", str(out))
    what = "does not exist" if parent == "missing" else "is not a directory"
    assert (ran.code, ran.err) == (3, f"{out}: output not writable: directory {tmp_path / parent} {what}\n")


HOLDER = """
import sys, time
from collectors.collect import engine
def slow(*args, **kwargs):
    print("scanning", flush=True)
    time.sleep(60)
engine.Engine.scan = slow
from tui.cli import main
sys.argv = ["vitis-tui", "collect", {root!r}, "-o", {out!r}]
sys.exit(main(sys.argv[1:]))
"""


def start_holder(root: Path, out: Path) -> subprocess.Popen[str]:
    script = textwrap.dedent(HOLDER.format(root=str(root), out=str(out)))
    holder = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "scanning\n"  # it holds the lock
    return holder


def test_a_second_writer_of_one_output_is_refused_naming_the_first(tmp_path: Path, root: Path, cli) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("previous\n")
    holder = start_holder(root, out)
    try:
        ran = cli("collect", str(root), "-o", str(out))
        assert ran.code == 3
        first = f"pid {holder.pid}: vitis-tui collect {root} -o {out}"
        assert ran.err == f"{out}: output in use by another vitis-tui ({first}); refused\n"
        assert out.read_text() == "previous\n"
        link = tmp_path / "link.jsonl"  # the same file through a link: the same lock
        link.symlink_to(out)
        assert cli("collect", str(root), "-o", str(link)).code == 3
    finally:
        holder.send_signal(signal.SIGKILL)  # however the first ends, its lock goes with it
        holder.wait(timeout=30)
    ran = cli("collect", str(root), "-o", str(out))
    assert ran.code == 0 and len(records(out)) == 3
    assert sorted(os.listdir(tmp_path)) == [
        "link.jsonl",
        "out.jsonl",
        "root",
    ]  # the stale lock file taken, then removed


def test_watch_on_an_output_being_written_is_refused(
    tmp_path: Path, root: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out.jsonl"
    holder = start_holder(root, out)
    try:
        monkeypatch.setattr("tui.commands.watch.has_terminal", lambda: True)  # refused before any screen
        ran = cli("watch", str(tmp_path / "root"), "-o", str(out))
        first = f"pid {holder.pid}: vitis-tui collect {root} -o {out}"
        assert (ran.code, ran.err) == (3, f"{out}: output in use by another vitis-tui ({first}); refused\n")
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)


def test_the_lock_is_counted_within_one_process(tmp_path: Path) -> None:
    out = str(tmp_path / "out.jsonl")
    first, second = OutputLock.acquire(out), OutputLock.acquire(out)
    assert first is second and os.path.exists(lock_path(out))
    first.release()
    assert os.path.exists(lock_path(out))
    second.release()
    assert not os.path.exists(lock_path(out))


def test_a_full_disk_leaves_the_old_output_whole(
    tmp_path: Path, root: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("previous\n")

    def full(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    ran = cli("collect", str(root), "-o", str(out))
    assert (ran.code, ran.err) == (3, f"{out}: cannot write: No space left on device\n")
    assert out.read_text() == "previous\n"
    assert sorted(os.listdir(tmp_path)) == ["out.jsonl", "root"]


def test_write_atomic_through_a_link_replaces_the_target_not_the_link(tmp_path: Path) -> None:
    target = tmp_path / "target.jsonl"
    target.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    before = os.stat(target).st_ino
    write_atomic(str(link), b"new\n")
    assert link.is_symlink() and target.read_text() == "new\n"
    assert os.stat(target).st_ino != before  # replaced by a rename: a reader never saw half of it


def test_an_output_name_with_control_characters_is_written_and_said_escaped(tmp_path: Path, root: Path, cli) -> None:
    out = tmp_path / "out\n\x1b[31m.jsonl"
    ran = cli("collect", str(root), "-o", str(out))
    assert ran.code == 0 and len(records(out)) == 3
    assert "\x1b" not in ran.err  # every line of it one line, the escape shown as text
    assert ran.err.splitlines()[-1].endswith(f"-> {tmp_path}/out\\n\\x1b[31m.jsonl")


def test_an_extension_output_that_is_the_output_is_refused(tmp_path: Path, root: Path, cli) -> None:
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(root), "-o", str(out), "--ext-output", str(tmp_path / "." / "out.jsonl"))
    assert (ran.code, ran.err) == (
        3,
        f"{tmp_path / '.' / 'out.jsonl'}: output not writable: the same file as the output {out}; refused\n",
    )
    assert not out.exists()


def test_an_output_that_is_the_configuration_is_refused(tmp_path: Path, root: Path, cli) -> None:
    config = root / "vitis-tui.toml"
    config.write_text('suite = "s"\n')
    ran = cli("collect", str(root), "-o", str(config))
    assert (ran.code, ran.err) == (
        3,
        f"{config}: output not writable: the same file as the configuration {config}; refused\n",
    )
    assert config.read_text() == 'suite = "s"\n'


def test_a_private_output_stays_private(tmp_path: Path, root: Path, cli) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("previous\n")
    out.chmod(0o600)
    assert cli("collect", str(root), "-o", str(out)).code == 0
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600 and len(records(out)) == 3


def test_an_output_name_at_the_length_limit_can_be_locked(tmp_path: Path, root: Path, cli) -> None:
    out = tmp_path / ("r" * 240 + ".jsonl")  # 246 bytes: the lock file's affixes would pass 255
    ran = cli("collect", str(root), "-o", str(out))
    assert ran.code == 0 and len(records(out)) == 3
    assert len(os.fsencode(os.path.basename(lock_path(str(out))))) <= 255


def test_a_lock_file_that_is_a_fifo_is_refused(tmp_path: Path, root: Path, cli) -> None:
    out = tmp_path / "out.jsonl"
    os.mkfifo(lock_path(str(out)))
    ran = cli("collect", str(root), "-o", str(out))
    assert (ran.code, ran.err) == (
        3,
        f"{out}: output not writable: cannot lock {lock_path(str(out))}: not a regular file\n",
    )
    assert not out.exists()


def test_a_filesystem_without_locks_writes_and_says_so(
    tmp_path: Path, root: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_locks(*args: object) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(fcntl, "lockf", no_locks)
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(root), "-o", str(out))
    assert ran.code == 0 and len(records(out)) == 3
    assert ran.problems == [
        f"{path}: no lock taken (No locks available): a second writer of this output would not be refused"
        for path in (out, tmp_path / "out.ext.jsonl")
    ]


def test_dev_stdout_on_a_pipe_is_said_to_be_a_fifo(tmp_path: Path, root: Path) -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "tui.cli", "collect", str(root), "-o", "/dev/stdout"],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (ran.returncode, ran.stdout) == (3, "")
    assert ran.stderr == "/dev/stdout: output not writable: not a regular file (a FIFO), refused, nothing replaced\n"
