"""inotify used directly: watches placed by number (by a walk, here or in a worker), the events
read back on the owner's thread, directories made and moved while watched."""

from __future__ import annotations

import errno
import os
import select
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import collectors.live.inotify as inotify_module
from collectors.collect.discovery import find_projects
from collectors.files import change_clock_ns
from collectors.live.inotify import (
    IN_CLOSE_WRITE,
    IN_CREATE,
    IN_ISDIR,
    Inotify,
    parse_events,
    placed_by,
    watch_listed,
)

from ..conftest import until

pytestmark = pytest.mark.skipif(not inotify_module.available(), reason="Linux inotify")


class Heard:
    """What an Inotify tells: changes, overflows, errors."""

    def __init__(self) -> None:
        self.changes: list[tuple[str, bool]] = []
        self.overflows = 0
        self.errors: list[BaseException] = []
        self._lock = threading.Lock()

    def note(self, path: str, is_directory: bool) -> None:
        with self._lock:
            self.changes.append((path, is_directory))

    def overflow(self) -> None:
        self.overflows += 1

    def paths(self) -> set[str]:
        with self._lock:
            return {path for path, _is_dir in self.changes}


def opened(heard: Heard, start: bool = True) -> Inotify:
    watching = Inotify(heard.note, heard.overflow, heard.errors.append)
    if start:
        watching.start()
    return watching


@contextmanager
def watching_tree(tree: Path) -> Iterator[tuple[Inotify, Heard]]:
    """An Inotify reading its events, with `tree` watched; stopped after."""
    heard = Heard()
    watching = opened(heard)
    try:
        watching.watch_tree(str(tree))
        yield watching, heard
    finally:
        watching.stop()


def watches_in_kernel(fd: int) -> int:
    """How many watches the instance behind `fd` holds (the kernel lists them in fdinfo)."""
    with open(f"/proc/self/fdinfo/{fd}", encoding="ascii") as info:
        return sum(1 for line in info if line.startswith("inotify wd:"))


def event(wd: int, mask: int, name: bytes = b"") -> bytes:
    padded = name + b"\0" * (-len(name) % 16 or (16 if name else 0))
    return struct.pack("iIII", wd, mask, 0, len(padded)) + padded


def test_events_are_parsed_as_the_kernel_writes_them() -> None:
    data = (
        event(3, IN_CREATE | IN_ISDIR, b"solution1")
        + event(4, IN_CLOSE_WRITE, "rapport\u00e9.xml".encode())
        + event(5, 0x400)
    )
    assert list(parse_events(data)) == [
        (3, IN_CREATE | IN_ISDIR, "solution1"),
        (4, IN_CLOSE_WRITE, "rapport\u00e9.xml"),
        (5, 0x400, ""),
    ]
    assert list(parse_events(b"\xff\xff\xff")) == []  # (a short read: nothing half-parsed)


def test_reading_and_listing_queue_nothing(tmp_path: Path) -> None:
    """The scan reads every report and lists every directory after the watch is placed. On a
    relatime filesystem the first read of a fresh file changes its access time: were IN_ATTRIB
    (or opens and reads) asked of the kernel, a large fresh tree would overflow its queue and
    the real changes among them would be lost."""
    (tmp_path / "p" / "solution1").mkdir(parents=True)
    report = tmp_path / "p" / "solution1" / "csynth.xml"
    report.write_text("<profile/>\n")
    watching = opened(Heard(), start=False)
    try:
        watching.watch_tree(str(tmp_path))
        report.read_text()
        os.listdir(report.parent)
        os.utime(report)  # (an attribute change alone)
        assert select.select([watching.fd], [], [], 0.2)[0] == []
        report.write_text("<profile>2</profile>\n")
        assert select.select([watching.fd], [], [], 5)[0] == [watching.fd]
    finally:
        watching.stop()


def test_a_directory_made_while_watched_is_watched_with_what_it_already_holds(tmp_path: Path) -> None:
    """Files can be made in a new directory before its watch is placed: they are told too."""
    with watching_tree(tmp_path) as (watching, heard):
        deep = tmp_path / "proj" / "solution1" / "syn" / "report"
        deep.mkdir(parents=True)
        (deep / "csynth.xml").write_text("<profile/>\n")
        assert until(lambda: str(deep / "csynth.xml") in heard.paths())
        assert until(lambda: watching.covers(str(deep)))
        later = deep / "csynth.rpt"
        later.write_text("x")  # seen through the new directory's own watch
        assert until(lambda: str(later) in heard.paths())
        assert (str(tmp_path / "proj"), True) in heard.changes
    assert heard.errors == []


def test_a_directory_moved_within_the_tree_is_watched_where_it_went(tmp_path: Path) -> None:
    old = tmp_path / "a" / "proj"
    (old / "solution1").mkdir(parents=True)
    (tmp_path / "b").mkdir()
    with watching_tree(tmp_path) as (watching, heard):
        new = tmp_path / "b" / "proj"
        old.rename(new)
        assert until(lambda: watching.covers(str(new / "solution1")))
        assert not watching.covers(str(old)) and not watching.covers(str(old / "solution1"))
        (new / "solution1" / "csynth.xml").write_text("<profile/>\n")
        assert until(lambda: str(new / "solution1" / "csynth.xml") in heard.paths())
        assert not any(path.startswith(str(old) + os.sep) for path in heard.paths())
        assert str(old) in heard.paths()  # (where it was: what was there is gone)


def test_a_watch_placed_through_a_copy_is_told_once_learned(tmp_path: Path) -> None:
    """A worker places watches through its copy of the descriptor; their events wait until the
    owner is told which directory each number is."""
    heard = Heard()
    watching = opened(heard)
    copy = os.dup(watching.fd)
    try:
        listed: list[tuple[str, list[str]]] = [(str(tmp_path), [])]
        late = watch_listed(copy, listed, change_clock_ns())
        assert [path for _wd, path in placed_by(late, listed)] == [str(tmp_path)]
        (tmp_path / "vitis_hls.log").write_text("x")
        assert until(lambda: watches_in_kernel(copy) == 1)
        assert not until(lambda: bool(heard.changes), seconds=0.3)  # held: the number is not known yet
        watching.learn(placed_by(late, listed))
        assert until(lambda: str(tmp_path / "vitis_hls.log") in heard.paths())
    finally:
        watching.stop()
        os.close(copy)


def test_too_many_events_of_unknown_watches_count_as_an_overflow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inotify_module, "HELD_AT_MOST", 2)
    heard = Heard()
    watching = opened(heard, start=False)
    try:
        watching.dispatch(b"".join(event(99, IN_CLOSE_WRITE, f"f{n}".encode()) for n in range(3)))
        assert heard.overflows == 1
        watching.learn([(99, "/nowhere")])
        assert heard.changes == []  # (let go: the rescan the overflow asked for looks everywhere)
    finally:
        watching.stop()


def test_stopping_removes_every_watch_even_while_a_copy_lives(tmp_path: Path) -> None:
    """A worker's copy of the descriptor keeps the instance alive: its watches (the user's
    limited supply) must be removed, not merely let go with the owner's descriptor."""
    (tmp_path / "a" / "b").mkdir(parents=True)
    watching = opened(Heard())
    copy = os.dup(watching.fd)
    try:
        watching.watch_tree(str(tmp_path))
        assert watches_in_kernel(copy) == watching.watched() == 3
        watching.stop()
        assert watches_in_kernel(copy) == 0
    finally:
        os.close(copy)


def test_the_walk_keeps_each_directory_it_lists_and_no_other(tmp_path: Path) -> None:
    for folder in ("proj/solution1/syn/report", "proj/.git/objects", "common/lib"):
        (tmp_path / folder).mkdir(parents=True)
    walked = find_projects([str(tmp_path)], keep_listed=True)
    relative = sorted(os.path.relpath(path, tmp_path) for path in walked.listed)
    assert relative == [".", "proj", "proj/solution1", "proj/solution1/syn", "proj/solution1/syn/report"]
    assert find_projects([str(tmp_path)]).listed == []


def scan_begins(*done: Path) -> int:
    """When a scan begins, once the kernel's clock has passed the change times of what was done
    before (it stamps them from a clock that moves a tick at a time)."""
    latest = max(os.stat(path).st_ctime_ns for path in done)
    assert until(lambda: change_clock_ns() > latest)
    return change_clock_ns()


def test_what_changed_between_the_look_and_the_watch_is_told(tmp_path: Path) -> None:
    """watch_listed watches what a scan listed, then tells what changed after the scan began:
    a report rewritten, a report removed, a directory whose entries changed and the new
    subdirectory made in it; nothing where nothing changed."""
    quiet, busy = tmp_path / "quiet", tmp_path / "busy"
    for folder in (quiet, busy):
        folder.mkdir()
        (folder / "csynth.xml").write_text("<profile/>")
        (folder / "csynth.rpt").write_text("old")
    began = scan_begins(*tmp_path.rglob("*"))  # the scan looks now; then, before the watch:
    (busy / "csynth.xml").write_text("<profile>new</profile>")
    (busy / "csynth.rpt").unlink()
    (busy / "solution2").mkdir()
    files = {folder: [str(folder / "csynth.xml"), str(folder / "csynth.rpt")] for folder in (quiet, busy)}
    watching = opened(Heard(), start=False)
    try:
        listed = [(str(f), paths) for f, paths in files.items()]
        late = watch_listed(watching.fd, listed, began)
        assert sorted(path for _wd, path in placed_by(late, listed)) == [str(busy), str(quiet)]
        assert sorted(late.changed) == [
            (str(busy), True),
            (str(busy / "csynth.rpt"), False),
            (str(busy / "csynth.xml"), False),
        ]
        assert late.made == [str(busy / "solution2")] and late.unwatched == 0
        assert watches_in_kernel(watching.fd) == 2
    finally:
        watching.stop()


def test_times_set_back_do_not_hide_a_change(tmp_path: Path) -> None:
    """`cp -p` and `touch -d` set a file's times back; its change time tells all the same."""
    report = tmp_path / "csynth.xml"
    report.write_text("<profile/>")
    began = scan_begins(report, tmp_path)
    report.write_text("<profile>copied</profile>")
    then = time.time() - 60
    os.utime(report, (then, then))  # (as `cp -p` does)
    watching = opened(Heard(), start=False)
    try:
        late = watch_listed(watching.fd, [(str(tmp_path), [str(report)])], began)
        assert late.changed == [(str(report), False)]
    finally:
        watching.stop()


def test_watches_running_out_are_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_more(fd: int, path: str) -> int:
        if not os.path.isdir(path):
            raise OSError(errno.ENOENT, "No such file or directory", path)
        raise OSError(errno.ENOSPC, "No space left on device", path)

    monkeypatch.setattr(inotify_module, "place", no_more)
    late = watch_listed(-1, [(str(tmp_path), []), (str(tmp_path / "gone"), [])], change_clock_ns())
    assert (late.numbers, late.changed, late.unwatched) == ([-1, -1], [], 1)


def test_a_reader_that_stops_says_so(tmp_path: Path) -> None:
    """Every long-running thread reports its own end: here reading the descriptor fails."""
    heard = Heard()
    watching = opened(heard, start=False)
    directory = os.open(tmp_path, os.O_RDONLY)
    os.dup2(directory, watching.fd)  # (a directory: always readable, and read() fails)
    os.close(directory)
    watching.start()
    try:
        assert until(lambda: bool(heard.errors))
        assert str(heard.errors[0]) == (
            "inotify events are no longer read (IsADirectoryError(21, 'Is a directory')): rescans still look"
        )
        assert until(lambda: not watching.is_alive())
    finally:
        watching.stop()


def test_names_that_are_not_utf8_or_hold_newlines_come_back_as_the_walk_spells_them(tmp_path: Path) -> None:
    with watching_tree(tmp_path) as (watching, heard):
        odd = os.path.join(os.fsencode(tmp_path), b"run\xff\nx")  # (a name a build script could make)
        os.mkdir(odd)
        with open(os.path.join(odd, b"csynth.xml"), "w", encoding="utf-8") as out:
            out.write("<profile/>\n")
        expected = os.path.join(os.fsdecode(odd), "csynth.xml")
        assert until(lambda: expected in heard.paths())
        assert [entry.path for entry in os.scandir(os.fsdecode(odd))] == [expected]
        later = os.path.join(os.fsdecode(odd), "csynth.rpt")
        open(later, "w").close()  # (seen through the odd directory's own watch)
        assert until(lambda: later in heard.paths())
    assert heard.errors == []
