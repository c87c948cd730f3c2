"""Choosing inotify or polling, and coalescing events per project."""

from __future__ import annotations

import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from collectors.live.modes import WatchMode, choose_mode, filesystem_of
from collectors.live.observers import relevant
from collectors.live.watcher import WatchClient, Watcher

from ..conftest import until

MOUNTS = """\
/dev/vda1 / ext4 rw,relatime 0 0
nas:/export/builds /nfs/builds nfs4 rw,relatime 0 0
//srv/share /mnt/my\\040share cifs rw 0 0
user@host:/data /home/u/remote fuse.sshfs rw 0 0
"""


class Client:
    """A WatchClient for the watcher alone: projects by a table, batches to a function."""

    def __init__(self, projects: Callable[[str], str | None] = lambda p: None, batch=lambda p, r: None) -> None:
        self.projects = projects
        self.batch = batch
        self.errors: list[BaseException] = []
        self.notes: list[str] = []

    def project_for(self, path: str) -> str | None:
        return self.projects(path)

    def ignored(self, path: str) -> bool:
        return False

    def batch_due(self, projects: set[str], rescan: bool) -> None:
        self.batch(projects, rescan)

    def failed(self, error: BaseException) -> None:
        self.errors.append(error)

    def state_changed(self, note: str) -> None:
        self.notes.append(note)

    def look(self) -> None:
        pass


def test_the_session_is_a_watch_client() -> None:
    from collectors.live.session import LiveSession

    client: type[WatchClient] = LiveSession  # (mypy checks it against the protocol)
    assert all(callable(getattr(client, name)) for name in ("project_for", "ignored", "batch_due", "look"))


def test_filesystem_of_picks_the_longest_mount(tmp_path: Path) -> None:
    mounts = tmp_path / "mounts"
    mounts.write_text(MOUNTS)
    assert filesystem_of("/nfs/builds/suite", str(mounts)) == "nfs4"
    assert filesystem_of("/mnt/my share/x", str(mounts)) == "cifs"
    assert filesystem_of("/home/u/remote/b", str(mounts)) == "fuse.sshfs"
    assert filesystem_of("/home/u/local", str(mounts)) == "ext4"


def test_choose_mode_reasons(tmp_path: Path) -> None:
    mounts = tmp_path / "mounts"
    mounts.write_text(MOUNTS)
    local = choose_mode(["/home/u/local"], environ={}, mounts_file=str(mounts))
    assert (local.kind, local.reason) == ("inotify", "local filesystem")
    nfs = choose_mode(["/nfs/builds/suite"], environ={}, mounts_file=str(mounts))
    assert nfs.kind == "polling" and nfs.interval == 5.0
    assert nfs.reason == "/nfs/builds/suite is on nfs4: inotify does not see changes made on other hosts"
    flag = choose_mode(["/home/u/local"], poll=2, environ={}, mounts_file=str(mounts))
    assert str(flag) == "polling every 2 s (--poll given)"
    env = choose_mode(["/home/u/local"], environ={"VITIS_TUI_POLL": "7"}, mounts_file=str(mounts))
    assert str(env) == "polling every 7 s (VITIS_TUI_POLL=7)"


def test_too_many_directories_for_inotify_means_polling(tmp_path: Path) -> None:
    mounts = tmp_path / "mounts"
    mounts.write_text(MOUNTS)
    limit = int(Path("/proc/sys/fs/inotify/max_user_watches").read_text())
    mode = choose_mode(["/home/u/local"], directories=limit, environ={}, mounts_file=str(mounts))
    assert mode.kind == "polling"
    assert mode.reason == (f"{limit} directories, inotify allows {limit} watches (raise fs.inotify.max_user_watches)")


def test_relevant_changes() -> None:
    assert relevant("/p/proj/solution1/syn/report/csynth.xml", False)
    assert relevant("/p/_x.hw_emu.x/logs/link/v++.log", False)
    assert relevant("/p/Makefile", False)
    assert relevant("/p/new_dir", True)
    assert not relevant("/p/proj/solution1/.autopilot/db/a.g.bc", False)
    assert not relevant("/p/proj/solution1/syn/verilog/top.v", False)


def test_events_coalesce_per_project(tmp_path: Path) -> None:
    batches: list[tuple[set[str], bool]] = []
    done = threading.Event()

    def on_batch(projects: set[str], rescan: bool) -> None:
        batches.append((projects, rescan))
        done.set()

    key = {"/r/a/x.log": "/r/a", "/r/a/y.log": "/r/a", "/r/b/z.log": "/r/b"}
    watcher = Watcher([str(tmp_path)], WatchMode("inotify", None, "test"), Client(key.get, on_batch), debounce=0.2)
    watcher.start()
    try:
        for path in ["/r/a/x.log", "/r/a/y.log", "/r/b/z.log", "/r/a/x.log"]:
            watcher.note(path)
        assert done.wait(5)
        deadline = time.monotonic() + 5
        while sum(len(p) for p, _ in batches) < 2 and time.monotonic() < deadline:
            done.clear()
            done.wait(0.5)
        assert sorted(p for projects, _ in batches for p in projects) == ["/r/a", "/r/b"]
        assert not any(rescan for _, rescan in batches)
        done.clear()
        watcher.note("/r/new_project/Makefile")  # outside every known project: a rescan
        assert done.wait(5) and batches[-1] == (set(), True)
    finally:
        watcher.stop()


def test_watch_refuses_without_a_terminal(tmp_path: Path) -> None:
    for command in (["watch", str(tmp_path)], ["demo"]):
        done = subprocess.run(
            [sys.executable, "-m", "tui.cli", *command],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            cwd=Path(__file__).parents[2],
            timeout=30,
        )
        assert done.returncode == 2
        assert "needs an interactive terminal" in done.stderr and "vitis-tui collect" in done.stderr


def test_watch_help_explains_every_option() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "watch", "--help"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[2],
        timeout=30,
    )
    for option in (
        "--poll",
        "--rescan",
        "-o",
        "--suite",
        "--origin",
        "--origin-version",
        "--suite-root",
        "VITIS_TUI_POLL",
        "NFS",
    ):
        assert option in done.stdout


def test_a_write_is_still_seen(tmp_path: Path) -> None:
    report = tmp_path / "p" / "solution1" / "syn" / "report" / "csynth.xml"
    report.parent.mkdir(parents=True)
    report.write_text("<profile/>\n")
    noted: list[str] = []
    watcher = Watcher([str(tmp_path)], WatchMode("inotify", None, "test"), Client())
    watcher.note = noted.append  # type: ignore[method-assign]
    watcher.start(hold=True)
    try:
        with open(report, "a", encoding="utf-8") as handle:  # appended, still open: IN_MODIFY alone
            handle.write("<more/>")
            handle.flush()
            deadline = time.monotonic() + 5
            while str(report) not in noted and time.monotonic() < deadline:
                time.sleep(0.01)
        assert str(report) in noted
    finally:
        watcher.stop()


def test_a_kernel_queue_overflow_asks_for_a_rescan(tmp_path: Path) -> None:
    """The changes lost when the kernel's queue overflowed must be found by a rescan."""
    from collectors.live.inotify import IN_Q_OVERFLOW, Inotify

    batches: list[bool] = []
    done = threading.Event()

    def on_batch(projects: set[str], rescan: bool) -> None:
        batches.append(rescan)
        done.set()

    watcher = Watcher([str(tmp_path)], WatchMode("inotify", None, "test"), Client(batch=on_batch), rescan_every=3600)
    watcher.start()
    try:
        assert isinstance(watcher._observer, Inotify)
        watcher._observer.dispatch(struct.pack("iIII", -1, IN_Q_OVERFLOW, 0, 0))  # as the kernel says it
        assert done.wait(5) and batches == [True]
    finally:
        watcher.stop()


def test_where_inotify_is_missing_watchdog_watches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Other systems: watchdog's observer for the platform places its own watches, before the scan."""
    import collectors.live.inotify as inotify_module

    monkeypatch.setattr(inotify_module, "_LIBC", None)
    mode = choose_mode([str(tmp_path)], environ={})
    assert (mode.kind, str(mode)) == ("events", "events (local filesystem)")
    report = tmp_path / "p" / "solution1" / "syn" / "report" / "csynth.xml"
    report.parent.mkdir(parents=True)
    noted: list[str] = []
    watcher = Watcher([str(tmp_path)], mode, Client(), placed_by_scan=True)
    watcher.note = noted.append  # type: ignore[method-assign]
    watcher.start(hold=True)
    try:
        assert watcher.watching is None  # (nothing for a scan to place)
        report.write_text("<profile/>\n")
        assert until(lambda: str(report) in noted)
    finally:
        watcher.stop()


def test_a_look_that_raises_is_reported_once_a_turn_and_batches_go_on(tmp_path: Path) -> None:
    batches: list[set[str]] = []

    class Failing(Client):
        def look(self) -> None:
            raise OSError("a look that fails")

    client = Failing({"/r/a/x.log": "/r/a"}.get, lambda projects, rescan: batches.append(projects))
    watcher = Watcher([str(tmp_path)], WatchMode("inotify", None, "test"), client, rescan_every=3600)
    watcher.start()
    try:
        watcher.note("/r/a/x.log")
        assert until(lambda: {"/r/a"} in batches, 5)
        assert until(lambda: len(client.errors) >= 2, 5)  # (each second: not in a loop)
        time_of_two = time.monotonic()
        assert until(lambda: len(client.errors) >= 3, 5) and time.monotonic() - time_of_two > 0.5
    finally:
        watcher.stop()
