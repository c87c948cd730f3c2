"""Following a JSONL file as it changes: read what was appended, tell every other change apart.

A followed file may be appended to (in pieces), truncated, rewritten in place (shorter, as long,
or longer), replaced atomically, deleted and created again, at any rate. Only an append may be
read on from where the last read stopped; every other change makes the caller read the file
again from the start. An append is told from an in-place rewrite that grew by a fingerprint of
what was read (a CRC per block), checked before reading on.
"""

from __future__ import annotations

import os
import time
import zlib
from dataclasses import dataclass, field
from typing import BinaryIO

from collectors.files import NotAFile, open_file
from collectors.records.jsonl import CHUNK_BYTES, Line, LineError, LineSplitter, read_object

BLOCK_BYTES = 1 << 20  # the fingerprint's unit: one CRC per MiB read
CHECK_ALL_BYTES = 128 << 20  # up to this much read, every block is checked (about 40 ms at most)
SAMPLED_BLOCKS = 32  # beyond it, the first, the last and this many more, a different set each time
SETTLE_NS = 2_000_000_000  # a file changed this recently may change again within the clock's grain


@dataclass
class Fingerprint:
    """CRCs of the bytes read from `start` on, one per BLOCK_BYTES, and of the block being read."""

    start: int = 0
    blocks: list[int] = field(default_factory=list)
    partial: int = 0
    partial_size: int = 0
    turn: int = 0  # which sample of blocks the next check looks at

    def add(self, data: bytes | memoryview) -> None:
        at = 0
        while at < len(data):
            part = data[at : at + BLOCK_BYTES - self.partial_size]
            self.partial = zlib.crc32(part, self.partial)
            self.partial_size += len(part)
            at += len(part)
            if self.partial_size == BLOCK_BYTES:
                self.blocks.append(self.partial)
                self.partial, self.partial_size = 0, 0

    def matches(self, handle: BinaryIO) -> bool:
        """Whether the file still holds, where they were read, the bytes read so far."""
        for n in self._sample():
            handle.seek(self.start + n * BLOCK_BYTES)
            if zlib.crc32(handle.read(BLOCK_BYTES)) != self.blocks[n]:
                return False
        if self.partial_size:
            handle.seek(self.start + len(self.blocks) * BLOCK_BYTES)
            data = handle.read(self.partial_size)
            return len(data) == self.partial_size and zlib.crc32(data) == self.partial
        return True

    def _sample(self) -> list[int]:
        count = len(self.blocks)
        if count * BLOCK_BYTES <= CHECK_ALL_BYTES:
            return list(range(count))
        # a huge file: a different spread of blocks at each check (a rewrite is caught in a few)
        self.turn += 1
        step = max(1, count // SAMPLED_BLOCKS)
        return sorted({0, count - 1, *range(self.turn % step, count, step)})


@dataclass
class Followed:
    """How far a file has been read: byte offset, line number, which file (inode) it was, and
    the fingerprint of what was read."""

    path: str
    offset: int = 0
    line: int = 0
    inode: tuple[int, int] | None = None
    splitter: LineSplitter = field(default_factory=LineSplitter)  # holds a line still being written
    unterminated: bool = False  # the last line was taken without its newline: skip that newline
    stamp: tuple[int, int, int] = (0, 0, -1)  # modification time, change time, size when last read
    recent: bool = True  # changed within the clock's grain when last read: check again next time
    missing: bool = False  # not there when last looked for: its coming back is a change
    seen: int = -1  # its size at the last follow step (-1: none yet)
    fast: int = 0  # follow steps in a row that found it grown by more than the caller's limit
    fingerprint: Fingerprint = field(default_factory=Fingerprint)

    @classmethod
    def from_offset(cls, path: str, offset: int, line: int) -> Followed:
        """Reading starts at `offset` (a line's start), after `line` lines (skipped unread)."""
        return cls(path, offset, line, fingerprint=Fingerprint(start=offset))


def grows_too_fast(source: Followed, limit: int) -> bool:
    """Whether the file grew by more than `limit` bytes at each of the last two looks and holds
    more than that unread: a writer faster than the reader, not one large append (read in steps)."""
    try:
        size = os.stat(source.path).st_size
    except OSError:
        return False
    grown = size - (source.offset if source.seen < 0 else source.seen)
    source.seen = size
    source.fast = source.fast + 1 if grown > limit else 0
    return source.fast >= 2 and size - source.offset > limit


def read_new_lines(
    source: Followed, final: bool = False, budget: int | None = None
) -> tuple[list[tuple[int, Line]], bool]:
    """Complete lines added since the last read; True when anything but an append happened
    (replaced, truncated, rewritten in place, deleted, created again): the caller starts over
    from a fresh Followed. A last line without its newline is taken when it is a whole JSON
    object, or always when `final` (nothing more will be written). `budget`: read at most about
    that many bytes now (a large file is read in steps)."""
    try:
        handle = open_file(source.path)  # (closed below; the stat is of what is read)
    except (FileNotFoundError, NotAFile):  # (the caller's files.not_a_file says which)
        changed = source.inode is not None and not source.missing
        source.missing = True
        return [], changed
    with handle:
        stat = os.fstat(handle.fileno())
        if source.missing or not _same_file(source, handle, stat):
            return [], True
        source.inode = (stat.st_dev, stat.st_ino)
        source.stamp = (stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size)
        source.recent = time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) < SETTLE_NS
        end = stat.st_size if budget is None else min(stat.st_size, source.offset + budget)
        lines = _read(source, handle, end)
        last = _last_line(source.splitter, final) if source.offset == stat.st_size else None
    if last is not None:
        lines.append(last)
        source.unterminated = True
    first = source.line + 1
    source.line += len(lines)
    return [(first + n, line) for n, line in enumerate(lines)], False


def _same_file(source: Followed, handle: BinaryIO, stat: os.stat_result) -> bool:
    """Whether the open file is the one read so far, holding what was read (appended to at most)."""
    if source.inode is None:
        return True  # nothing read yet
    if (stat.st_dev, stat.st_ino) != source.inode or stat.st_size < source.offset:
        return False  # replaced, or truncated
    if (stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size) == source.stamp and not source.recent:
        return True  # untouched since a read long enough after its last change
    return source.fingerprint.matches(handle)


def _read(source: Followed, handle: BinaryIO, end: int) -> list[Line]:
    lines: list[Line] = []
    handle.seek(source.offset)
    while source.offset < end and (chunk := handle.read(min(CHUNK_BYTES, end - source.offset))):
        source.offset += len(chunk)
        source.fingerprint.add(chunk)
        if source.unterminated and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        source.unterminated = False
        lines += source.splitter.feed(chunk)
    return lines


def _last_line(splitter: LineSplitter, final: bool) -> Line | None:
    if final:
        return splitter.finish()
    pending = splitter.peek()
    if not pending:
        return None
    try:
        read_object(pending)  # a file that lacks its final newline, not a line still being written
    except LineError:
        return None
    return splitter.finish()


def tail_start(path: str, keep: int) -> tuple[int, int]:
    """Where to start reading to get about the last `keep` bytes of whole lines, and how many
    lines come before (counted, not parsed: gigabytes a second)."""
    with open_file(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        start = max(0, size - keep)
        if start:
            handle.seek(start - 1)
            newline = handle.read(CHUNK_BYTES).find(b"\n")
            start = size if newline < 0 else start + newline  # (start - 1) + newline + 1: a line's start
        handle.seek(0)
        lines, at = 0, 0
        while at < start and (chunk := handle.read(min(CHUNK_BYTES, start - at))):
            lines += chunk.count(b"\n")
            at += len(chunk)
    return start, lines
