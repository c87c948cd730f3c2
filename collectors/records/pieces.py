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
from typing import TYPE_CHECKING, Any

from collectors.problems import Problem
from collectors.records.columns import COLUMNS, INTERNED, cells
from collectors.records.jsonl import LineError, read_record, whole_lines
from collectors.records.model import KeyFields, key_fields
from collectors.records.quick import read_row
from collectors.records.rawlines import BLOCK_ROWS

if TYPE_CHECKING:
    from collectors.records.table import RecordTable


@dataclass
class Coded:
    """A column of a piece: its distinct values, and per row the place of its value among them."""

    distinct: list[str]
    codes: array


@dataclass
class Piece:
    """Rows of one file, from consecutive lines: what RecordTable.append_piece takes."""

    path: str  # the file (absolute): every row's origin, and its source with `lines`
    lines: array = field(default_factory=lambda: array("q"))  # each row's line number
    keys: list[KeyFields] = field(default_factory=list)  # each row's key, as RecordKey takes it
    columns: list[Coded | list[str]] = field(default_factory=list)  # in COLUMNS order
    dynamic: dict[str, tuple[array, list[str]]] = field(default_factory=dict)  # name -> (rows, values)
    raw: list[tuple[int, bytes]] = field(default_factory=list)  # (rows, zlib of their lines joined by newlines)
    problems: list[Problem] = field(default_factory=list)  # lines that are not records

    def __len__(self) -> int:
        return len(self.lines)


_TEXT = {str, type(None)}


def _coded(values: tuple[Any, ...]) -> Coded:
    """A column coded by its distinct values, each given as its cell text; found at C speed (a
    dict of the values) where no two values that read differently are one key of a dict: text,
    null and numbers of one kind (1, 1.0 and true are one key; so are 0.0 and -0.0). Any other
    column (lists, objects, mixed numbers) is made text first."""
    numbers = set(map(type, values)) - _TEXT
    if numbers <= {int} or numbers == {float}:
        distinct = dict.fromkeys(values)
        if not (numbers and 0.0 in distinct and float in numbers):
            at = {value: n for n, value in enumerate(distinct)}
            return Coded(cells(distinct), array("I", map(at.__getitem__, values)))
    return _coded(tuple(cells(values)))


def prepare_piece(table: RecordTable, path: str, first_line: int, data: bytes) -> Piece:
    """The records of `data` (whole lines, the first numbered `first_line`) as one Piece: each
    line read straight into its row where it fits the closed schema (quick.py), else read and
    given its values by `table.values_of` (a table without aliases: they apply where the piece is
    appended, RecordTable.append_piece); each column then coded at once."""
    piece = Piece(path)
    rows: list[list[Any]] = []
    kept: list[bytes] = []
    for number, line in enumerate(whole_lines(data), first_line):
        row = read_row(line) if type(line) is bytes else None
        if row is None:  # (the general reading, which also says why a line is not a record)
            try:
                record = read_record(line)
            except LineError as exc:
                piece.problems.append(Problem(f"{path}:{number}", str(exc)))
                continue
            row = (key_fields(record), *table.values_of(record))
        key, values, dynamic = row
        for name, value in dynamic.items():
            at, texts = piece.dynamic.setdefault(name, (array("I"), []))
            at.append(len(rows))
            texts.append(value)
        piece.lines.append(number)
        piece.keys.append(key)
        rows.append(values)
        assert isinstance(line, bytes)  # (read_record refuses an Oversized line)
        kept.append(line)
    for position, column in enumerate(zip(*rows) if rows else [()] * len(COLUMNS)):
        piece.columns.append(_coded(column) if position in INTERNED else cells(column))
    for start in range(0, len(kept), BLOCK_ROWS):
        block = kept[start : start + BLOCK_ROWS]
        piece.raw.append((len(block), zlib.compress(b"\n".join(block), 1)))
    return piece
