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
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import count
from operator import itemgetter
from typing import TYPE_CHECKING, Any, cast

from collectors.problems import Problem
from collectors.records.columns import COLUMNS, INTERNED, cells, meta_values
from collectors.records.jsonl import Line, LineError, read_record, whole_lines
from collectors.records.model import KeyFields, key_fields
from collectors.records.quick import read_row, read_rows
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


def _coded(values: Sequence[Any]) -> Coded:
    """A column coded by its distinct values, each given as its cell text; found at C speed (a
    dict of the values) where no two values that read differently are one key of a dict: text,
    null and numbers of one kind (1, 1.0 and true are one key; so are 0.0 and -0.0). Any other
    column (lists, objects, mixed numbers) is made text first."""
    try:
        distinct = dict.fromkeys(values)
    except TypeError:  # (a list or an object among them)
        return _coded(cells(values))
    if not set(map(type, distinct)) <= _TEXT:  # (no number among the distinct: none among the values)
        numbers = set(map(type, values)) - _TEXT
        if not (numbers <= {int} or numbers == {float}) or (float in numbers and 0.0 in distinct):
            return _coded(cells(values))
    if len(distinct) <= 1:  # (one value: a piece's suite, origin, status... often are; none: an empty piece)
        return Coded(cells(distinct), array("I", [0]) * len(values))
    at = dict(zip(distinct, count()))  # (two values at least: itemgetter gives a tuple, at C speed)
    return Coded(cells(distinct), array("I", itemgetter(*values)(at)))


def prepare_piece(table: RecordTable, path: str, first_line: int, data: bytes) -> Piece:
    """The records of `data` (whole lines, the first numbered `first_line`) as one Piece: all the
    lines read at once, column by column, where each fits the closed schema (quick.py); else each
    line read into its row where it fits, or read and given its values by `table.values_of` (a
    table without aliases: they apply where the piece is appended, RecordTable.append_piece);
    each column then coded at once."""
    lines = whole_lines(data)
    read = read_rows(lines)
    if read is not None:
        keys, columns, metas = read
        piece = Piece(path, array("q", range(first_line, first_line + len(keys))), keys)
        for row, meta in enumerate(metas):
            if meta is not None:
                _add_dynamic(piece, row, meta_values(meta))
        return _finished(piece, columns, cast(list[bytes], lines))  # (all bytes: read_rows read each)
    return _one_by_one(table, path, first_line, lines)


def _one_by_one(table: RecordTable, path: str, first_line: int, lines: list[Line]) -> Piece:
    piece = Piece(path)
    rows: list[list[Any]] = []
    kept: list[bytes] = []
    for number, line in enumerate(lines, first_line):
        row = read_row(line) if type(line) is bytes else None
        if row is None:  # (the general reading, which also says why a line is not a record)
            try:
                record = read_record(line)
            except LineError as exc:
                piece.problems.append(Problem(f"{path}:{number}", str(exc)))
                continue
            row = (key_fields(record), *table.values_of(record))
        key, values, dynamic = row
        _add_dynamic(piece, len(rows), dynamic)
        piece.lines.append(number)
        piece.keys.append(key)
        rows.append(values)
        assert isinstance(line, bytes)  # (read_record refuses an Oversized line)
        kept.append(line)
    return _finished(piece, list(zip(*rows)) if rows else [()] * len(COLUMNS), kept)


def _add_dynamic(piece: Piece, row: int, dynamic: dict[str, str]) -> None:
    for name, value in dynamic.items():
        at, texts = piece.dynamic.setdefault(name, (array("I"), []))
        at.append(row)
        texts.append(value)


def _finished(piece: Piece, columns: list[Sequence[Any]], kept: list[bytes]) -> Piece:
    """The piece with its columns coded (each in COLUMNS order) and its lines compressed."""
    for position, column in enumerate(columns):
        piece.columns.append(_coded(column) if position in INTERNED else cells(column))
    for start in range(0, len(kept), BLOCK_ROWS):
        block = kept[start : start + BLOCK_ROWS]
        piece.raw.append((len(block), zlib.compress(b"\n".join(block), 1)))
    return piece
