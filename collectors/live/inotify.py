"""Linux inotify, used directly, so that a scan's workers can place the watches.

watchdog's inotify observer places its watches itself: it walks the whole tree again, in
Python, before it reports anything (about 3 s of CPU for the demo tree's 65,000 directories,
beside a scan that lists every one of them anyway). Here the scan's walk keeps the directories
it listed, and once its output is out (a watch costs the kernel about 5 us: a quarter of the
demo tree's scan on two cores) the workers watch them (`watch_listed`: a worker is given the
descriptor when it starts, and a watch placed through a copy belongs to the same instance),
then look again at whatever changed since the scan began: a change between the scan's look and
the watch is not lost. `Inotify` reads the events on a thread of its own and maps each watch's
number back to its directory once it is told (`learn`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import select
import struct
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing import reduction
from typing import Any

from collectors.collect.discovery import NEVER_WALKED

IN_MODIFY = 0x2
IN_CLOSE_WRITE = 0x8
IN_MOVED_FROM = 0x40
IN_MOVED_TO = 0x80
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_MOVE_SELF = 0x800
IN_Q_OVERFLOW = 0x4000
IN_IGNORED = 0x8000
IN_ONLYDIR = 0x1000000
IN_ISDIR = 0x40000000
# changes only: reading and listing (the scan's own included) queue nothing, and on a relatime
# filesystem a first read changes the access time (IN_ATTRIB) of every freshly built file
WATCH_MASK = (
    IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
)
IN_CLOEXEC = 0o2000000
IN_NONBLOCK = 0o4000
HELD_AT_MOST = 100_000  # events of watches not yet learned; beyond, they count as an overflow

_HEADER = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len (then the name)


def _load_libc() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None
    if not all(hasattr(libc, name) for name in ("inotify_init1", "inotify_add_watch", "inotify_rm_watch")):
        return None
    libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
    libc.inotify_rm_watch.argtypes = [ctypes.c_int, ctypes.c_int]
    return libc


_LIBC = _load_libc()


def available() -> bool:
    return _LIBC is not None


def _checked(result: int, path: str | None = None) -> int:
    if result < 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), path)
    return result


def place(fd: int, path: str) -> int:
    """Watch a directory through `fd` (any copy of it); the watch's number. OSError on failure
    (ENOSPC: the user's watches ran out)."""
    return int(_checked(_LIBC.inotify_add_watch(fd, os.fsencode(path), WATCH_MASK | IN_ONLYDIR), path))


def watch_below(fd: int, top: str) -> tuple[list[tuple[int, str]], list[tuple[str, bool]]]:
    """Watch `top` and every directory below it (symbolic links not followed), each before it
    is listed: the watches placed, and every (path, is directory) found, `top` first."""
    placed: list[tuple[int, str]] = []
    found: list[tuple[str, bool]] = []
    stack = [top]
    while stack:
        directory = stack.pop()
        try:
            placed.append((place(fd, directory), directory))
            with os.scandir(directory) as scan:
                entries = list(scan)
        except OSError:
            continue  # gone, unreadable, or not a directory: nothing to watch there
        found.append((directory, True))
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                stack.append(entry.path)
            else:
                found.append((entry.path, False))
    return placed, found


# directories a scan listed, each with the paths of the artifacts it found there
Listed = list[tuple[str, list[str]]]


@dataclass
class LateWatches:
    """What `watch_listed` did: the number of each directory's watch (-1: none), what may have
    changed unseen (path, is directory), the subdirectories of those directories made (or moved
    in) since, which the scan may not have listed, and how many directories got no watch: the
    user's watches ran out. (Small: a worker's result is written to a pipe whole, so that a
    worker stopped meanwhile cannot leave half of one for the pool to wait on forever.)"""

    numbers: list[int] = field(default_factory=list)
    changed: list[tuple[str, bool]] = field(default_factory=list)
    made: list[str] = field(default_factory=list)
    unwatched: int = 0


def watch_listed(fd: int, listed: Listed, since_ns: int) -> LateWatches:
    """Watch directories a scan listed after `since_ns` (collectors.files.change_clock_ns()), then tell what may have
    changed between its look and the watch: each directory, and each of its files the scan read
    (the paths given with it), whose status changed since then (a write, a rename, a new or
    removed entry, times set back with `touch -d` or `cp -p`: all set the change time to now),
    or that is gone."""
    done = LateWatches()
    for directory, files in listed:
        try:
            done.numbers.append(place(fd, directory))
        except OSError as exc:
            done.numbers.append(-1)
            done.unwatched += exc.errno == errno.ENOSPC  # (else gone: its parent changed)
            continue
        try:
            changed = os.stat(directory).st_ctime_ns >= since_ns
        except OSError:
            continue  # gone meanwhile: its parent changed
        if changed:
            done.changed.append((directory, True))
            done.made += _made_since(directory, since_ns)
        for path in files:
            try:
                if os.stat(path).st_ctime_ns < since_ns:
                    continue
            except OSError:
                pass  # gone, or no longer readable: looked at again
            done.changed.append((path, False))
    return done


def placed_by(late: LateWatches, listed: Listed) -> list[tuple[int, str]]:
    """The watches `watch_listed` placed on `listed`: (number, directory)."""
    return [(wd, directory) for wd, (directory, _files) in zip(late.numbers, listed) if wd >= 0]


def _made_since(directory: str, since: int) -> list[str]:
    """The subdirectories (not links, nor folders no walk enters) whose status changed since `since`."""
    made = []
    try:
        with os.scandir(directory) as scan:
            for entry in scan:
                if entry.name not in NEVER_WALKED and entry.is_dir(follow_symlinks=False):
                    if entry.stat(follow_symlinks=False).st_ctime_ns >= since:
                        made.append(entry.path)
    except OSError:
        pass  # gone meanwhile: its parent's watch tells
    return made


# --- handing the descriptor to worker processes --------------------------------------------------


_worker_fd: int | None = None


class SharedDescriptor:
    """An inotify descriptor given to a worker process when it starts: a forked one inherits it,
    a spawned one is handed a copy (with the same number)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __reduce__(self) -> tuple[Any, ...]:
        return (_arrived, (reduction.DupFd(self.fd),))  # (pickled only while spawning)


def _arrived(copy: Any) -> SharedDescriptor:
    return SharedDescriptor(copy.detach())


def adopt(shared: SharedDescriptor | None) -> None:
    """In a worker, at its start: the descriptor its walks place watches through."""
    global _worker_fd
    _worker_fd = None if shared is None else shared.fd


def worker_descriptor() -> int | None:
    return _worker_fd


# --- the owner's side ----------------------------------------------------------------------------


def parse_events(data: bytes) -> Iterator[tuple[int, int, str]]:
    """(watch number, mask, name) of each event in what one read() gave."""
    offset = 0
    while offset + _HEADER.size <= len(data):
        wd, mask, _cookie, length = _HEADER.unpack_from(data, offset)
        start = offset + _HEADER.size
        name = data[start : start + length].split(b"\0", 1)[0]
        offset = start + length
        yield wd, mask, os.fsdecode(name)


class Inotify:
    """One inotify instance: its watches' directories, and a thread that reads its events.

    `note(path, is_directory)` hears of every change; `on_overflow()` of a kernel queue that
    overflowed (changes were lost: rescan); `on_error(exc)` of an event that could not be
    handled (the thread goes on). Events of a watch placed elsewhere (a worker's walk) are held
    until `learn` tells its directory.
    """

    def __init__(
        self,
        note: Callable[[str, bool], None],
        on_overflow: Callable[[], None],
        on_error: Callable[[BaseException], None],
    ) -> None:
        if _LIBC is None:
            raise OSError(errno.ENOSYS, "inotify is not available here")
        self.fd = _checked(_LIBC.inotify_init1(IN_CLOEXEC | IN_NONBLOCK))
        self.note = note
        self.on_overflow = on_overflow
        self.on_error = on_error
        self._lock = threading.Lock()
        self._path_of: dict[int, str] = {}
        self._number_of: dict[str, int] = {}
        self._held: dict[int, list[tuple[int, str]]] = {}
        self._held_count = 0
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._run, name="vitis-tui-inotify", daemon=True)
        self.closed = False

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop reading, remove every watch (workers may still hold a copy of the descriptor,
        which keeps the instance and its watches alive) and close."""
        if self.closed:
            return
        self.closed = True
        os.write(self._wake_w, b"x")
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self.clear()
        for fd in (self.fd, self._wake_r, self._wake_w):
            os.close(fd)

    def join(self, timeout: float | None = None) -> None:
        """(stop() already waited for the thread: an observer's interface)"""

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    # --- watches ----------------------------------------------------------------------------

    def watch_tree(self, top: str) -> list[tuple[str, bool]]:
        """Watch `top` and every directory below it (symbolic links not followed), each before
        it is listed; every (path, is directory) found, `top` first."""
        if self.closed:
            return []  # (the descriptor's number may be another file's now)
        placed, found = watch_below(self.fd, top)
        self.learn(placed)
        return found

    def watch_directory(self, directory: str) -> bool:
        """Watch one directory (not what is below it); False where the user's watches ran out."""
        if self.closed:
            return True  # (stopped: nothing is watched any more)
        try:
            self.learn([(place(self.fd, directory), directory)])
        except OSError as exc:
            return exc.errno != errno.ENOSPC  # (gone or unreadable: nothing to watch)
        return True

    def learn(self, placed: Iterable[tuple[int, str]]) -> None:
        """Directories watched (by a walk, here or in a worker); their held events are handled now."""
        due: list[tuple[str, int, str]] = []
        with self._lock:
            path_of, number_of, held = self._path_of, self._number_of, self._held
            for wd, path in placed:  # (a scan's 100,000 directories: kept lean)
                old = number_of.get(path)
                if old is not None:
                    self._forget_number(old)
                path_of[wd] = path
                number_of[path] = wd
                if held and wd in held:
                    for mask, name in held.pop(wd):
                        due.append((path, mask, name))
                        self._held_count -= 1
        for path, mask, name in due:
            self._handle(path, mask, name)

    def unwatch_below(self, top: str) -> None:
        prefix = top + os.sep
        with self._lock:
            gone = [wd for path, wd in self._number_of.items() if path == top or path.startswith(prefix)]
            for wd in gone:
                self._forget_number(wd)
        self._remove(gone)

    def clear(self) -> None:
        with self._lock:
            gone = list(self._path_of)
            self._path_of.clear()
            self._number_of.clear()
            self._held.clear()
            self._held_count = 0
        self._remove(gone)

    def covers(self, path: str) -> bool:
        with self._lock:
            return path in self._number_of

    def uncovered(self, paths: Iterable[str]) -> list[str]:
        """The paths that have no watch (yet)."""
        with self._lock:
            return [path for path in paths if path not in self._number_of]

    def watched(self) -> int:
        with self._lock:
            return len(self._path_of)

    def _forget_number(self, wd: int | None) -> None:
        path = self._path_of.pop(wd, None) if wd is not None else None
        if path is not None and self._number_of.get(path) == wd:
            del self._number_of[path]

    def _remove(self, numbers: list[int]) -> None:
        for wd in numbers:
            _LIBC.inotify_rm_watch(self.fd, wd)  # (fails harmlessly for a watch the kernel already ended)

    # --- the reading thread -------------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._read_until_stopped()
        except Exception as exc:  # (an event that fails is handled in dispatch: this is the end)
            if not self.closed:
                self.on_error(RuntimeError(f"inotify events are no longer read ({exc!r}): rescans still look"))

    def _read_until_stopped(self) -> None:
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        poller.register(self._wake_r, select.POLLIN)
        while not self.closed:
            ready = {fd for fd, _event in poller.poll()}
            if self._wake_r in ready or self.closed:
                return
            try:
                data = os.read(self.fd, 256 * 1024)
            except BlockingIOError:
                continue
            self.dispatch(data)

    def dispatch(self, data: bytes) -> None:
        """Handle what one read() gave; an event that fails costs only itself."""
        for wd, mask, name in parse_events(data):
            try:
                self._event(wd, mask, name)
            except Exception as exc:
                self.on_error(exc)

    def _event(self, wd: int, mask: int, name: str) -> None:
        if mask & IN_Q_OVERFLOW:
            self.on_overflow()
            return
        with self._lock:
            directory = self._path_of.get(wd)
            if mask & IN_IGNORED:  # the watch ended (its directory is gone)
                self._forget_number(wd)
                return
            if directory is None:
                self._hold(wd, mask, name)
                return
        self._handle(directory, mask, name)

    def _hold(self, wd: int, mask: int, name: str) -> None:
        if self._held_count >= HELD_AT_MOST:
            self._held.clear()
            self._held_count = 0
            self.on_overflow()  # (outside the lock would be nicer; the rescan is only asked for)
            return
        self._held.setdefault(wd, []).append((mask, name))
        self._held_count += 1

    def _handle(self, directory: str, mask: int, name: str) -> None:
        path = os.path.join(directory, name) if name else directory
        is_dir = bool(mask & IN_ISDIR)
        if is_dir and mask & (IN_CREATE | IN_MOVED_TO):
            # a directory made (or moved in): watch it, and tell what it already holds (files
            # can be made in it before its watch is there)
            for found, found_is_dir in self.watch_tree(path):
                self.note(found, found_is_dir)
            return
        if is_dir and mask & IN_MOVED_FROM:
            self.unwatch_below(path)  # (moved within the tree, it comes back as IN_MOVED_TO)
        self.note(path, is_dir or not name)
