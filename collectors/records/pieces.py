"""A piece of a JSONL file read for the records table in one go, column by column (pure).

A large file is read in pieces of a few MiB, each cut at a line's end, and each piece prepared
apart (by a child process where there are cores to spare: preparers.py). What comes back is
laid out as the table holds it, so that the interface's thread appends a piece of thousands of
rows in a few milliseconds instead of a few microseconds a row: each column's values as the
distinct values and a code per row, the original lines already compressed in blocks.
"""

from __future__ import annotations

import zlib
from array import array
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from collectors.problems import Problem
from collectors.records.columns import COLUMNS, INTERNED
from collectors.records.jsonl import LineError, LineSplitter, read_record
from collectors.records.model import RecordKey, key_of
from collectors.records.rawlines import BLOCK_ROWS

if TYPE_CHECKING:
    from collectors.records.table import RecordTable


@dataclass
class Coded:
    """A column of a piece: its distinct values, and per row the place of its value among them."""

    distinct: list[str]
    codes: array

    def values(self) -> list[str]:
        return list(map(self.distinct.__getitem__, self.codes))


@dataclass
class Piece:
    """Rows of one file, from consecutive lines: what RecordTable.append_piece takes."""

    path: str  # the file (absolute): every row's origin, and its source with `lines`
    lines: array = field(default_factory=lambda: array("q"))  # each row's line number
    keys: list[RecordKey] = field(default_factory=list)
    columns: list[Coded | list[str]] = field(default_factory=list)  # in COLUMNS order
    dynamic: dict[str, tuple[array, list[str]]] = field(default_factory=dict)  # name -> (rows, values)
    raw: list[tuple[int, bytes]] = field(default_factory=list)  # (rows, zlib of their lines joined by newlines)
    problems: list[Problem] = field(default_factory=list)  # lines that are not records

    def __len__(self) -> int:
        return len(self.lines)


def _coded(values: tuple[str, ...]) -> Coded:
    codes: dict[str, int] = {}
    coded = array("I", [codes.setdefault(v, len(codes)) for v in values])
    return Coded(list(codes), coded)


def prepare_piece(table: RecordTable, path: str, first_line: int, data: bytes) -> Piece:
    """The records of `data` (whole lines, the first numbered `first_line`) as one Piece, their
    values read by `table.values_of` (a table without aliases: they apply where the piece is
    appended, RecordTable.append_piece)."""
    piece = Piece(path)
    rows: list[list[str]] = []
    kept: list[bytes] = []
    for number, line in enumerate(LineSplitter().feed(data), first_line):
        try:
            record = read_record(line)
        except LineError as exc:
            piece.problems.append(Problem(f"{path}:{number}", str(exc)))
            continue
        cells, dynamic = table.values_of(record)
        for name, value in dynamic.items():
            at, values = piece.dynamic.setdefault(name, (array("I"), []))
            at.append(len(rows))
            values.append(value)
        piece.lines.append(number)
        piece.keys.append(key_of(record))
        rows.append(cells)
        assert isinstance(line, bytes)  # (read_record refuses an Oversized line)
        kept.append(line)
    for position, column in enumerate(zip(*rows) if rows else [()] * len(COLUMNS)):
        piece.columns.append(_coded(column) if position in INTERNED else list(column))
    for start in range(0, len(kept), BLOCK_ROWS):
        block = kept[start : start + BLOCK_ROWS]
        piece.raw.append((len(block), zlib.compress(b"\n".join(block), 1)))
    return piece
