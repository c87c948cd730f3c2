"""One writer per output file: a lock file beside the file actually written.

`OutputLock.acquire(output)` takes it or raises OutputLocked naming the holder (its pid and
command, which the holder writes into the lock file); `release()` gives it back. The lock is a
POSIX record lock (`fcntl.lockf`): the kernel drops it however the process ends (`kill -9`
included), it is not inherited by forked workers, and it works on NFS. Within one process the
lock is counted, not refused (the process is the writer). The lock file is removed on release;
one left by a killed process is simply taken by the next writer.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import shlex
import stat
import sys
import threading

from collectors.records.store import TEMPORARY_PREFIX, written_path

MAX_NAME = 200  # bytes of the output's name kept in the lock file's name (255 less the affixes)
UNSUPPORTED = (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS)  # filesystems without record locks
_HELD: dict[str, OutputLock] = {}  # lock file -> the lock this process holds on it
_GUARD = threading.Lock()


class OutputLocked(Exception):
    """Another process writes the same output: `holder` says which (pid and command)."""

    def __init__(self, output: str, holder: str) -> None:
        super().__init__(f"in use by another vitis-tui ({holder}); refused")
        self.output = output
        self.holder = holder


def lock_path(output: str) -> str:
    """`.vitis-tui-NAME.lock` beside the file written for `output` (a link's target); a name
    too long to take the prefix and suffix (names stop at 255 bytes) is shortened by a hash."""
    target = written_path(output)
    name = os.path.basename(target)
    if len(os.fsencode(name)) > MAX_NAME:
        digest = hashlib.sha256(os.fsencode(name)).hexdigest()[:16]
        name = f"{name[:40]}-{digest}"
    return os.path.join(os.path.dirname(target), f"{TEMPORARY_PREFIX}{name}.lock")


def this_command() -> str:
    words = [os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python", *sys.argv[1:]]
    return shlex.join(words)


class OutputLock:
    def __init__(self, path: str, descriptor: int) -> None:
        self.path = path
        self._descriptor = descriptor
        self._count = 1

    @classmethod
    def acquire(cls, output: str) -> OutputLock:
        """Take the lock of `output`; OutputLocked when another process holds it, OSError when the
        lock file cannot be made."""
        path = lock_path(output)
        with _GUARD:
            held = _HELD.get(path)
            if held is not None:
                held._count += 1
                return held
            lock = cls(path, _lock_file(path, output))
            _HELD[path] = lock
            return lock

    def release(self) -> None:
        with _GUARD:
            self._count -= 1
            if self._count > 0 or self._descriptor < 0:
                return
            _HELD.pop(self.path, None)
            try:
                os.unlink(self.path)  # while still held: a waiting writer then finds a new file
            except OSError:
                pass
            os.close(self._descriptor)  # (closing drops the lock)
            self._descriptor = -1


def _lock_file(path: str, output: str) -> int:
    """A descriptor of `path` holding its lock, the holder written in it."""
    for _ in range(10):  # the file may be removed by its releasing holder between open and lock
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # a FIFO or a device put there
                raise OSError(errno.EEXIST, "not a regular file", path)
            fcntl.lockf(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(descriptor)
            if exc.errno not in (errno.EACCES, errno.EAGAIN):
                raise
            raise OutputLocked(output, _holder(path)) from None
        if _same_file(path, descriptor):
            return _signed(descriptor)
        os.close(descriptor)  # removed or replaced meanwhile: lock the new one
    raise OSError(errno.EAGAIN, "the lock file keeps changing", path)


def _signed(descriptor: int) -> int:
    """The lock file with this process's pid and command in it (what a refused writer is told)."""
    try:
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"pid {os.getpid()}: {this_command()}\n".encode("utf-8", "surrogateescape"))
    except OSError:
        os.close(descriptor)
        raise
    return descriptor


def _same_file(path: str, descriptor: int) -> bool:
    try:
        named, opened = os.stat(path), os.fstat(descriptor)
    except OSError:
        return False
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)


def _holder(path: str) -> str:
    """What the holder wrote (one line, at most 300 characters), or a description without it."""
    try:
        with open(path, "rb") as handle:  # (not ours: reading it drops no lock of this process)
            text = handle.read(300).decode("utf-8", "replace").splitlines()
    except OSError:
        text = []
    return text[0] if text and text[0] else "a process that has not yet said which"
