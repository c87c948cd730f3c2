"""Choosing inotify or polling, and coalescing events per project."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from collectors.watch import Watcher, WatchMode, choose_mode, filesystem_of, relevant

MOUNTS = """\
/dev/vda1 / ext4 rw,relatime 0 0
nas:/export/builds /nfs/builds nfs4 rw,relatime 0 0
//srv/share /mnt/my\\040share cifs rw 0 0
user@host:/data /home/u/remote fuse.sshfs rw 0 0
"""


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
    watcher = Watcher([str(tmp_path)], WatchMode("inotify", None, "test"), key.get, on_batch, debounce=0.2)
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


def test_reading_the_tree_queues_no_kernel_events(tmp_path: Path) -> None:
    """The scan reads every report and lists every directory after the watch is placed. On a
    relatime filesystem the first read of a fresh file changes its access time: were IN_ATTRIB
    (or opens and reads) asked of the kernel, a large fresh tree would overflow its event queue
    and the real changes among them would be lost."""
    from watchdog.observers.inotify_c import InotifyConstants as K

    (tmp_path / "p" / "solution1").mkdir(parents=True)
    watcher = Watcher([str(tmp_path)], WatchMode("inotify", None, "test"), lambda p: None, lambda p, r: None)
    watcher.start(hold=True)
    try:
        emitters = list(watcher._observer.emitters)
        assert emitters
        for emitter in emitters:
            mask = emitter.get_event_mask_from_filter()
            assert not mask & (K.IN_ATTRIB | K.IN_ACCESS | K.IN_OPEN | K.IN_CLOSE_NOWRITE)
            assert mask & K.IN_MODIFY and mask & K.IN_CLOSE_WRITE and mask & K.IN_CREATE and mask & K.IN_MOVE
    finally:
        watcher.stop()


def test_a_write_is_still_seen(tmp_path: Path) -> None:
    report = tmp_path / "p" / "solution1" / "syn" / "report" / "csynth.xml"
    report.parent.mkdir(parents=True)
    report.write_text("<profile/>\n")
    noted: list[str] = []
    watcher = Watcher([str(tmp_path)], WatchMode("inotify", None, "test"), lambda p: None, lambda p, r: None)
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
    """watchdog only logs an overflow: the changes lost with it must be found by a rescan."""
    batches: list[bool] = []
    done = threading.Event()

    def on_batch(projects: set[str], rescan: bool) -> None:
        batches.append(rescan)
        done.set()

    watcher = Watcher([str(tmp_path)], WatchMode("inotify", None, "test"), lambda p: None, on_batch, rescan_every=3600)
    watcher.start()
    try:
        logging.getLogger("watchdog.observers.inotify_c").warning(
            "Inotify queue overflowed; filesystem events were lost"
        )
        assert done.wait(5) and batches == [True]
    finally:
        watcher.stop()
    assert not any(isinstance(h, type(watcher._overflow)) for h in logging.getLogger("watchdog.observers").handlers)


def test_a_directory_changed_within_one_clock_step_is_told_by_its_names(tmp_path: Path) -> None:
    """A directory modified just before the walk listed it may be modified again within the same
    step of the file system's clock, keeping its time stamp: its entries' names tell instead."""
    from collectors.discovery import changed_since_listed, find_projects

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    old = time.time_ns() - 3_600 * 10**9
    os.utime(tmp_path / "b", ns=(old, old))
    walked = find_projects([str(tmp_path)], fresh_since=time.time_ns() - 10**9)
    seen = {path: (mtime, names) for path, mtime, names in walked.listed or []}
    assert seen[str(tmp_path / "b")] == (old, None)  # an old one: its time stamp is enough
    assert seen[str(tmp_path / "a")][1] is not None
    assert not any(changed_since_listed((path, *rest)) for path, rest in seen.items())
    for name in ("a", "b"):  # a new entry, the time stamp put back as it was
        (tmp_path / name / "new.log").write_text("")
        os.utime(tmp_path / name, ns=(seen[str(tmp_path / name)][0],) * 2)
    assert changed_since_listed((str(tmp_path / "a"), *seen[str(tmp_path / "a")]))
    assert not changed_since_listed((str(tmp_path / "b"), *seen[str(tmp_path / "b")]))  # (its next stamp tells)
    (tmp_path / "b" / "new.log").unlink()
    (tmp_path / "b").rmdir()
    assert changed_since_listed((str(tmp_path / "b"), *seen[str(tmp_path / "b")]))  # gone
