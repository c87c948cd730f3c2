"""Pieces of a large file prepared in child processes, one per usable core, handed back in order.

Reading a record's columns costs about 15 microseconds of Python a line, three times the JSON
parse; one process holds one core, and its threads share it with the interface. So the pieces
of a large file go round to children, and come back laid out as the table holds them
(pieces.py). Plain children over pipes (children.py), as the schema check's. A request names
where the piece lies in the file, and the child reads it there: megabytes written into a pipe
go 64 KiB at a time, each time waiting for the child's reading thread to get the GIL back from
the preparing one (the writer, and with it every child, stood still for most of a load). The
child's answer carries the CRC of what it read, so that a file changed meanwhile is never shown
as the one the caller read. A child that dies costs nothing but time: its pieces are prepared
here instead.
"""

from __future__ import annotations

import gc
import os
import pickle
import struct
import subprocess
import sys
import threading
import zlib
from collections import deque
from typing import IO, TYPE_CHECKING, Any

from collectors.files import open_file
from collectors.records.children import in_child, start_child, stop_child
from collectors.records.pieces import Piece, prepare_piece

if TYPE_CHECKING:
    from collectors.records.table import RecordTable

PIECES_AHEAD = 2  # pieces handed to each child beyond the one it prepares
PIPE_BYTES = 1 << 20  # a child's answers go through a pipe this large where the system allows
_LENGTH = struct.Struct("<Q")
MAX_MESSAGE_BYTES = 1 << 30  # a length beyond is no message (a piece's answer: under a MiB)
Request = tuple[str, tuple[int, int], int, int, int]  # path, inode, start, size, first line


class PreparersGone(Exception):
    """The children were stopped (a newer load, or the program is closing): no more pieces."""


class Preparers:
    """`count` children for one load, started when first given a piece; pieces come back in the
    order given. One thread gives and takes; any thread may close."""

    def __init__(self, count: int, nice: int = 5, first: int | None = None) -> None:
        """`first`: children started at the first piece (all `count` by default); the others
        when `start_all` is called."""
        self.count = count
        self.first = count if first is None else min(first, count)
        self.nice = nice
        self.closed = False
        self._children: list[subprocess.Popen[bytes]] | None = None  # None: not started yet
        self._given: deque[tuple[subprocess.Popen[bytes] | None, Request, bytes | memoryview]] = deque()
        self._turn = 0
        self._lock = threading.Lock()

    def room(self) -> bool:
        """Whether another piece may be given before the oldest is taken back."""
        return len(self._given) < max(1, len(self._children or ())) * (1 + PIECES_AHEAD)

    def give(self, path: str, inode: tuple[int, int], start: int, first_line: int, data: bytes | memoryview) -> None:
        """A piece to prepare: `data`, whole lines read from `path` (that inode) at byte `start`,
        the first numbered `first_line`."""
        request = (path, inode, start, len(data), first_line)
        child = self._next_child()
        if child is not None and not _send(child, request):
            child = None  # (dead: prepared here when taken)
        self._given.append((child, request, data))

    def take(self) -> Piece | None:
        """The oldest piece given, prepared; None when the child read other bytes than the
        caller did (the file changed meanwhile); PreparersGone once closed."""
        if self.closed:
            raise PreparersGone
        child, request, data = self._given.popleft()
        answer = _receive(child) if child is not None else None
        if self.closed:
            raise PreparersGone
        if answer is None:  # no child, or it died: here, then
            from collectors.records.table import RecordTable

            return prepare_piece(RecordTable(), request[0], request[4], bytes(data))
        crc, piece = answer
        return piece if crc == zlib.crc32(data) else None

    def pending(self) -> int:
        return len(self._given)

    def _next_child(self) -> subprocess.Popen[bytes] | None:
        """The child to give the next piece to, children started at the first (after the first
        screen: started sooner, they slowed it by 0.05 s on two cores, and the load no less)."""
        with self._lock:
            if self.closed:
                raise PreparersGone
            if self._children is None:
                self._children = _start(self.first, self.nice)
            if not self._children:
                return None
            self._turn = (self._turn + 1) % len(self._children)
            return self._children[self._turn]

    def start_all(self) -> None:
        """Start the children not started yet (from any thread; none before the first piece)."""
        with self._lock:
            if not self.closed and self._children is not None and len(self._children) < self.count:
                self._children += _start(self.count - len(self._children), self.nice)

    def close(self) -> None:
        """Stop the children now, whatever they are doing (from any thread), for good."""
        with self._lock:
            self.closed = True
            children, self._children = self._children or [], []
        for child in children:
            stop_child(child)


def _start(count: int, nice: int) -> list[subprocess.Popen[bytes]]:
    children = []
    try:
        for _ in range(count):
            children.append(start_child("collectors.records.preparers", str(nice)))
    except OSError:
        pass  # as many as could be had (none: every piece is prepared here)
    return children


def _send(child: subprocess.Popen[bytes], request: Request) -> bool:
    try:
        assert child.stdin is not None
        _write(child.stdin, request)
        return True
    except (OSError, ValueError):
        return False


def _receive(child: subprocess.Popen[bytes]) -> tuple[int | None, Piece] | None:
    """The child's next answer; None, and the child stopped, where it died or its answer is no
    answer (its stream out of step for good: the pieces given it since are prepared here)."""
    try:
        assert child.stdout is not None
        answer = _read(child.stdout)
    except Exception:  # (EOF, a broken pipe, a length past any memory, bytes that are no pickle)
        answer = None
    if isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[1], Piece):
        return answer
    stop_child(child)
    return None


def _write(stream: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)))
    stream.write(data)
    stream.flush()


def _read(stream: IO[bytes]) -> Any:
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError
    (size,) = _LENGTH.unpack(head)
    if size > MAX_MESSAGE_BYTES:
        raise ValueError(f"a message of {size} bytes")
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


# --- the child ------------------------------------------------------------------------------------


def prepare_request(table: RecordTable, request: Request) -> tuple[int | None, Piece]:
    """The piece a request names, read from its file, with the CRC of what was read (None: the
    file is another one now, or shorter: no piece)."""
    path, inode, start, size, first_line = request
    try:
        with open_file(path) as handle:
            stat = os.fstat(handle.fileno())
            data = os.pread(handle.fileno(), size, start)
    except OSError:
        return None, Piece(path)
    if (stat.st_dev, stat.st_ino) != tuple(inode) or len(data) != size:
        return None, Piece(path)
    return zlib.crc32(data), prepare_piece(table, path, first_line, data)


def _wider_pipe(descriptor: int) -> None:
    """An answer of a few hundred KiB goes through at once: the child goes on to the next piece
    while the parent is still busy with the last (Linux; elsewhere the usual 64 KiB)."""
    try:
        import fcntl

        fcntl.fcntl(descriptor, getattr(fcntl, "F_SETPIPE_SZ", 1031), PIPE_BYTES)
    except (OSError, ImportError):
        pass


def main() -> None:
    from collectors.records.table import RecordTable  # noqa: F811 (at run time, in the child)

    in_child(int(sys.argv[1]) if len(sys.argv) > 1 else 0)  # the interface comes first
    _wider_pipe(sys.stdout.fileno())
    gc.disable()  # nothing here lives past its piece, and nothing holds a cycle: 8 % of the time
    table = RecordTable()  # (no aliases: they apply where the piece is appended)
    try:
        while True:
            _write(sys.stdout.buffer, prepare_request(table, _read(sys.stdin.buffer)))
    except (OSError, ValueError, EOFError):
        pass  # the parent closed the pipe: done


if __name__ == "__main__":
    main()
