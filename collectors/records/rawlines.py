"""The original line of every row of the records table, kept compressed in blocks.

A row keeps its line for byte-exact JSONL export, the detail view, the schema check and
compare; as Python strings, 100,000 lines of 650 bytes hold 70 MB, a million 700 MB. Lines
come in the table's row order and are read back rarely and mostly in runs, so full blocks of
BLOCK_ROWS lines are zlib-compressed (level 1: about 400 MB/s, and the GIL is let go
meanwhile); the last, unfull block stays as strings. A line replaced later (a live tree's
record written again) is held apart, as a string.
"""

from __future__ import annotations

import threading
import zlib
from bisect import bisect_right
from collections.abc import Iterable, Iterator

BLOCK_ROWS = 1024


class RawLines:
    """A list of lines (strings without a newline) that grows at its end and is replaced in place.
    The interface's thread fills it while a worker may read it (a check of every row): a lock
    keeps each call whole. Blocks hold BLOCK_ROWS lines, except those that came compressed
    already (a piece prepared elsewhere: pieces.py) and the tail that was open before them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._blocks: list[bytes | list[str]] = []  # compressed; a list where a line held a newline
        self._starts: list[int] = []  # each block's first row
        self._stored = 0  # rows in blocks
        self._tail: list[str] = []
        self._replaced: dict[int, str] = {}  # row -> its line, for rows in compressed blocks
        self._opened: tuple[int, list[str]] = (-1, [])  # the block read last, as lines

    def __len__(self) -> int:
        with self._lock:  # (not half-way through an extend, in another thread)
            return self._size()

    def _size(self) -> int:
        return self._stored + len(self._tail)

    def extend(self, lines: Iterable[str]) -> None:
        with self._lock:
            self._tail.extend(lines)
            while len(self._tail) >= BLOCK_ROWS:
                full, self._tail = self._tail[:BLOCK_ROWS], self._tail[BLOCK_ROWS:]
                self._store(full)

    def extend_blocks(self, blocks: Iterable[tuple[int, bytes]]) -> None:
        """Append lines compressed already: (how many, zlib of them joined by newlines)."""
        with self._lock:
            if self._tail:
                full, self._tail = self._tail, []
                self._store(full)
            for rows, data in blocks:
                self._add_block(rows, data)

    def _store(self, lines: list[str]) -> None:
        text = "\n".join(lines)
        # (a line from elsewhere than a file, holding a newline, would split wrongly: kept as is)
        intact = text.count("\n") == len(lines) - 1
        self._add_block(len(lines), zlib.compress(text.encode("utf-8", "surrogatepass"), 1) if intact else lines)

    def _add_block(self, rows: int, block: bytes | list[str]) -> None:
        self._blocks.append(block)
        self._starts.append(self._stored)
        self._stored += rows

    def __getitem__(self, index: int) -> str:
        return self.many([index])[0]

    def __setitem__(self, index: int, line: str) -> None:
        with self._lock:
            index = self._index(index)
            if index >= self._stored:
                self._tail[index - self._stored] = line
            else:
                self._replaced[index] = line

    def __iter__(self) -> Iterator[str]:
        with self._lock:
            size = self._size()
        return iter(self.many(range(size)))

    def many(self, rows: Iterable[int]) -> list[str]:
        """The lines of `rows`, in their order; each block is opened once however they jump about
        (an export in a sorted order would otherwise open a block for every line), and one at a
        time (all of them open at once would hold every line of the table)."""
        with self._lock:
            wanted = [self._index(i) for i in rows]
            found = [""] * len(wanted)
            first, end, lines = 0, 0, self._tail  # (no block open yet)
            for position in sorted(range(len(wanted)), key=wanted.__getitem__):
                row = wanted[position]
                if not first <= row < end:
                    block = bisect_right(self._starts, row) - 1 if row < self._stored else len(self._blocks)
                    first, end, lines = self._opened_block(block)
                line = self._replaced.get(row)
                found[position] = lines[row - first] if line is None else line
            return found

    def _opened_block(self, block: int) -> tuple[int, int, list[str]]:
        """(first row, end row, lines) of a block; the tail is the block after the last."""
        if block == len(self._blocks):
            return self._stored, self._stored + len(self._tail), self._tail
        end = self._starts[block + 1] if block + 1 < len(self._blocks) else self._stored
        number, lines = self._opened
        if number != block:
            stored = self._blocks[block]
            lines = stored if isinstance(stored, list) else _lines(zlib.decompress(stored))
            self._opened = (block, lines)
        return self._starts[block], end, lines

    def _index(self, index: int) -> int:
        size = self._size()
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("row out of range")
        return index


def _lines(block: bytes) -> list[str]:
    return block.decode("utf-8", "surrogatepass").split("\n")
