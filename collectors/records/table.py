"""The records table: records held column by column for the records view, the dashboard and
`export` (pure). Column extraction is in columns.py, the derived indexes in indexes.py, filtering
and sorting in filtering.py, the writers in writers.py.

100,000 records must load in seconds and filter per keystroke, so nothing here keeps the
parsed JSON of a record: each row keeps its original line (for byte-exact JSONL export) and
the handful of values the columns and the filter language need.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, insort
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import count, repeat
from typing import Any

from collectors.aliases import NO_ALIASES, Aliases
from collectors.records.columns import (
    ALIASED,
    COLUMNS,
    INTERNED,
    cells,
    dynamic_values,
    extension_summary,
    extract,
    float_or_nan,
    note,
    number_reader,
    rtl_figures,
    synth_figures,
)
from collectors.records.fields import BY_KEY, META_PREFIX
from collectors.records.filtering import CACHED_QUERIES, Filtering
from collectors.records.indexes import Indexes
from collectors.records.jsonl import loads_read
from collectors.records.model import RecordKey, key_of
from collectors.records.pieces import Coded, Piece
from collectors.records.query import Node
from collectors.records.rawlines import RawLines
from collectors.records.validate import extra_fields
from collectors.records.writers import FORMATS, export, exported_rows, label_of, plan_export, plan_pieces, safe_cell

# (the names other modules import from here, where they lived before the split)
__all__ = [
    "COLUMNS",
    "FORMATS",
    "CACHED_QUERIES",
    "Prepared",
    "RecordTable",
    "RowKey",
    "default_columns",
    "export",
    "plan_export",
    "plan_pieces",
    "exported_rows",
    "extension_summary",
    "extract",
    "label_of",
    "note",
    "rtl_figures",
    "safe_cell",
    "synth_figures",
]

_ALIASED_AT = {position: name for name, position in ALIASED.items()}

# A row's handle (marks hold on to it): the record's key within the file or tree it came from,
# and an occurrence number when a file repeats a key (both lines are shown).
RowKey = tuple[str, RecordKey, int]


@dataclass(slots=True)
class Prepared:
    """A record read for the table, not yet in it."""

    raw: str
    values: list[str]
    dynamic: dict[str, str]
    key: RecordKey
    source: str
    origin: str


class Sources:
    """Where each row came from, as text ('FILE:LINE' for a line of a file): held as a file number
    and a line number per row (a string per row would cost 80 bytes); any other text is kept as is."""

    def __init__(self) -> None:
        self._paths: list[str] = []
        self._path_ids: dict[str, int] = {}
        self._files = array("I")  # per row: the file's number
        self._lines = array("q")  # per row: its line number, -1 where the text is in _other
        self._other: dict[int, str] = {}

    def __len__(self) -> int:
        return len(self._lines)

    def __getitem__(self, index: int) -> str:
        line = self._lines[index]
        if line < 0:
            return self._other[index if index >= 0 else index + len(self._lines)]
        return f"{self._paths[self._files[index]]}:{line}"

    def __iter__(self) -> Iterator[str]:
        return (self[i] for i in range(len(self)))

    def __setitem__(self, index: int, source: str) -> None:
        path, line = self._split(source)
        self._files[index], self._lines[index] = path, line
        if line < 0:
            self._other[index] = source
        else:
            self._other.pop(index, None)

    def extend(self, sources: Iterable[str]) -> None:
        for source in sources:
            path, line = self._split(source)
            if line < 0:
                self._other[len(self._lines)] = source
            self._files.append(path)
            self._lines.append(line)

    def extend_numbered(self, path: str, lines: array) -> None:
        """Rows from lines of one file: their line numbers."""
        self._files.extend(array("I", [self._path_id(path)]) * len(lines))
        self._lines.extend(lines)

    def _path_id(self, path: str) -> int:
        found = self._path_ids.get(path)
        if found is None:
            found = self._path_ids[path] = len(self._paths)
            self._paths.append(path)
        return found

    def _split(self, source: str, known_only: bool = False) -> tuple[int, int]:
        """A file number and line number, or (0, -1) for text that does not read as 'FILE:LINE'
        exactly (a line number with a leading zero would not be written back the same).
        `known_only`: a file not seen yet gets no number (-1): a look-up from another thread."""
        path, colon, number = source.rpartition(":")
        if not colon or not number.isascii() or not number.isdigit() or (number[0] == "0" and number != "0"):
            return 0, -1
        if known_only and path not in self._path_ids:
            return -1, int(number)
        return self._path_id(path), int(number)

    def rows_of(self, sources: Iterable[str]) -> list[int]:
        """The rows whose source is one of `sources` (a schema check's verdicts), in row order.
        Reads only: safe from a worker thread while the interface's thread appends."""
        if not sources:
            return []
        split = {source: self._split(source, known_only=True) for source in sources}
        wanted = {at for at in split.values() if at[1] >= 0}
        wanted_other = {source for source, at in split.items() if at[1] < 0}
        rows = [i for i, at in enumerate(zip(self._files, self._lines)) if at in wanted]
        rows += [i for i, source in list(self._other.items()) if source in wanted_other]
        return sorted(set(rows))


class RecordTable(Filtering):
    """Rows by index; columns as lists of (interned) strings plus float arrays for the numbers.
    Fields beyond the fixed columns (`meta.KEY`, fields the schema does not name) are kept
    sparsely, by row. `aliases` change the suite, group and device shown and matched."""

    def __init__(self, aliases: Aliases = NO_ALIASES, key_order: bool = False, closed: bool = False) -> None:
        """`key_order`: rows in record-key order (the output file's), not in the order they came
        (a live tree's records arrive in any order; a file is read in its own order). `closed`:
        every record passed the closed schema (a live tree's): no field beyond it to look for."""
        self.aliases = aliases
        self._aliasing = aliases != NO_ALIASES  # (none: every name is its own, a microsecond a row)
        self._closed = closed
        self._key_order: list[tuple[tuple[Any, ...], int, int]] | None = [] if key_order else None
        self.raw = RawLines()  # each row's line as it was read (compressed: see rawlines.py)
        self.keys: list[RowKey] = []
        self.sources = Sources()
        self.text: dict[str, list[str]] = {c.key: [] for c in COLUMNS}
        self.dynamic: dict[str, dict[int, str]] = {}  # meta.KEY or a field path -> row -> value
        self.indexes = Indexes()  # built when first needed, then kept current
        self.invalid: set[int] = set()  # rows the contract refuses: left out of every export
        self.dead: set[int] = set()  # rows of records removed (while watching; lines found to be no record)
        self._intern: dict[str, str] = {}
        self._aliased: dict[tuple[str, str], str] = {}
        self._columns = [self.text[c.key] for c in COLUMNS]
        self._by_key: dict[RowKey, int] = {}
        self._cache: dict[Node, bytes] = {}  # a 0/1 byte per row, for the first rows (see matching)
        self._orders: dict[tuple[str, bool], tuple[list[int], list[int]]] = {}  # rows with a value, without

    def __len__(self) -> int:
        return len(self.raw) - len(self.dead)

    # --- filling ------------------------------------------------------------------------------

    def add(self, raw: str, record: dict, source: str = "", origin: str = "") -> int:
        """Append a record (its original line and parsed form). Its key, which marks hold on to,
        is the record key within `origin` (the file or tree it came from): stable across reloads."""
        return self.append([self.prepare(raw, record, source, origin)])[0]

    def prepare(
        self, raw: str, record: dict, source: str = "", origin: str = "", key: RecordKey | None = None
    ) -> Prepared:
        """The costly part of adding a record (reading its fields), kept apart so that a loader
        thread can do it while the interface's thread only appends. `key`: its key, when known."""
        values, dynamic = self.values_of(record)
        return Prepared(raw, values, dynamic, key_of(record) if key is None else key, source, origin)

    def append(self, rows: list[Prepared]) -> list[int]:
        """Append prepared records, column by column; derived indexes grow with them instead of
        being rebuilt."""
        start = len(self.raw)
        for offset, row in enumerate(rows):
            self._add_key(row.origin, row.key, start + offset)
            for name, value in row.dynamic.items():
                self.dynamic.setdefault(name, {})[start + offset] = value
        self.raw.extend(row.raw for row in rows)
        self.sources.extend(row.source for row in rows)
        intern = self._intern.setdefault
        for position, (column, values) in enumerate(zip(self._columns, zip(*(row.values for row in rows)))):
            if position in INTERNED:
                column.extend([intern(v, v) for v in values])
            else:
                column.extend(values)
        self._grown(start)
        return list(range(start, len(self.raw)))

    def append_piece(self, piece: Piece) -> list[int]:
        """Append a piece prepared elsewhere (pieces.py), column by column: the rows `append`
        would give for the same lines, at a few microseconds a row (their keys)."""
        start = len(self.raw)
        self._add_keys(piece.path, list(map(RecordKey._make, piece.keys)), start)
        for name, (rows, values) in piece.dynamic.items():
            self.dynamic.setdefault(name, {}).update(zip([start + row for row in rows], values))
        self.raw.extend_blocks(piece.raw)
        self.sources.extend_numbered(piece.path, piece.lines)
        intern = self._intern.setdefault
        for position, (column, given) in enumerate(zip(self._columns, piece.columns)):
            if isinstance(given, Coded):  # (a piece is prepared without aliases: they apply here)
                alias = _ALIASED_AT.get(position)
                distinct = given.distinct if alias is None else [self._alias(alias, v) for v in given.distinct]
                column.extend(map([intern(v, v) for v in distinct].__getitem__, given.codes))
            else:
                column.extend(given)
        self._grown(start)
        return list(range(start, len(self.raw)))

    def _add_keys(self, origin: str, keys: list[RecordKey], start: int) -> None:
        """`_add_key` for rows from `start` on, at C speed where every key is new to the table
        and to the others (a piece of a file: 1.5 us a row one by one)."""
        row_keys = list(zip(repeat(origin), keys, repeat(0)))
        known = len(self._by_key)
        if self._key_order is None and self._by_key.keys().isdisjoint(row_keys):
            self._by_key.update(zip(row_keys, count(start)))
            if len(self._by_key) == known + len(row_keys):
                self.keys.extend(row_keys)
                return
            for row_key in row_keys:  # (a key twice among them: each is added as one by one)
                self._by_key.pop(row_key, None)
        for offset, key in enumerate(keys):
            self._add_key(origin, key, start + offset)

    def _add_key(self, origin: str, key: RecordKey, index: int) -> None:
        row_key: RowKey = (origin, key, 0)
        if self._by_key.setdefault(row_key, index) != index:
            row_key = (origin, key, index)  # the same record twice in one file: both are shown
            self._by_key[row_key] = index
        if self._key_order is not None:
            insort(self._key_order, (key.order, row_key[2], index))
        self.keys.append(row_key)

    def values_of(self, record: dict) -> tuple[list[str], dict[str, str]]:
        """A record's fixed column values and its dynamic ones (meta.KEY, fields not in the schema)."""
        extras = [] if self._closed else extra_fields(record)
        values = cells(extract(record, extras))
        if self._aliasing:
            for name, position in ALIASED.items():
                values[position] = self._alias(name, values[position])
        return values, dynamic_values(record, extras)

    def _grown(self, start: int) -> None:
        """Rows from `start` on are new: the derived indexes are extended; query answers and
        orders take the new rows when next asked for."""
        self.indexes.grow(start, len(self.raw), self.column, self._sparse, self._haystack_rows)

    def put(self, raw: str, record: dict, source: str = "", origin: str = "") -> int:
        """Add a record, or replace the row that holds its key, in place (marks stay on it); the
        derived indexes are patched at that row, not rebuilt."""
        return self.put_all([(raw, record, source)], origin)[0]

    def put_all(self, items: list[tuple[str, dict, str]], origin: str = "") -> list[int]:
        """`put` for many (raw line, record, source) at once."""
        return self.put_prepared([self.prepare(raw, record, source, origin) for raw, record, source in items])

    def put_prepared(self, rows: list[Prepared]) -> list[int]:
        """Records read already (`prepare`, on another thread if need be), each in place of the
        row that holds its key or appended: the new ones together (a live scan brings thousands;
        one by one, each append is a pass of its own). Their row indices, in order."""
        placed: list[int | tuple[int]] = []  # a row index, or (n,): the n-th of the new ones
        new: list[Prepared] = []
        pending: dict[RecordKey, int] = {}  # key -> its place among the new ones (a later one wins)
        for row in rows:
            index = self._by_key.get((row.origin, row.key, 0))
            if index is not None:
                self._replace(index, row)
                placed.append(index)
                continue
            if row.key in pending:
                new[pending[row.key]] = row
            else:
                pending[row.key] = len(new)
                new.append(row)
            placed.append((pending[row.key],))
        appended = self.append(new) if new else []
        return [row if isinstance(row, int) else appended[row[0]] for row in placed]

    def _replace(self, index: int, row: Prepared) -> None:
        for column, value in zip(self._columns, row.values):
            column[index] = value
        for by_row in self.dynamic.values():
            by_row.pop(index, None)
        for name, value in row.dynamic.items():
            self.dynamic.setdefault(name, {})[index] = value
        self.raw[index] = row.raw
        self.sources[index] = row.source
        self._patched(index)

    def _patched(self, index: int) -> None:
        self._cache.clear()
        self._orders.clear()
        self.indexes.patch(index, self.column, self._sparse, lambda i: self._haystack_rows(i, i + 1))

    def _sparse(self, key: str) -> dict[int, str]:
        return self.dynamic.get(key, {})

    def drop(self, origin: str, key: RecordKey) -> None:
        """Remove a record: its row stays in the columns, dead, and is never shown again."""
        index = self._by_key.get((origin, key, 0))
        if index is not None:
            self.drop_rows([index])

    def drop_rows(self, rows: Iterable[int]) -> None:
        """Remove the records of these rows (`drop`, by row)."""
        for index in rows:
            row_key = self.keys[index]
            if index in self.dead or self._by_key.get(row_key) != index:
                continue
            del self._by_key[row_key]
            self.dead.add(index)
            if self._key_order is not None:
                del self._key_order[bisect_left(self._key_order, (row_key[1].order, row_key[2], index))]
        self._cache.clear()  # (the derived indexes may keep a dead row: views leave it out)
        self._orders.clear()

    def _alias(self, name: str, value: str) -> str:
        """The configured name of a suite, group path or device (cached per spelling)."""
        found = self._aliased.get((name, value))
        if found is None:
            aliases = self.aliases
            if name == "suite":
                found = aliases.suite(value)
            elif name == "device":
                found = aliases.device(value)
            else:
                found = "/".join(aliases.group(tuple(value.split("/"))))
            self._aliased[(name, value)] = found
        return found

    # --- columns ------------------------------------------------------------------------------------

    def column_keys(self) -> list[str]:
        """Every column this table can show and filter: the fixed ones, then meta.KEY, then the
        fields the schema does not name."""
        dynamic = sorted(self.dynamic, key=lambda k: (not k.startswith(META_PREFIX), k))
        return [c.key for c in COLUMNS] + dynamic

    def has_column(self, key: str) -> bool:
        return key in self.text or key in self.dynamic

    def column(self, key: str) -> list[str]:
        """A column's text per row ('' where a row has no value); unknown keys are all ''."""
        if key in self.text:
            return self.text[key]
        dense = self.indexes.dense.get(key)
        if dense is None:
            values = self.dynamic.get(key, {})
            dense = self.indexes.dense[key] = [values.get(i, "") for i in range(len(self.raw))]
        return dense

    def is_numeric(self, key: str) -> bool:
        """Fixed number columns, and dynamic columns whose every value is a number."""
        if key in BY_KEY:
            return BY_KEY[key].numeric
        flag = self.indexes.numeric.get(key)
        if flag is None:
            values = self.dynamic.get(key, {}).values()
            flag = self.indexes.numeric[key] = bool(values) and all(float_or_nan(v) == float_or_nan(v) for v in values)
        return flag

    @property
    def haystack(self) -> list[str]:
        """Every value of a row in one lowercase string, for free text (built when first searched),
        origin_meta and the fields the schema does not name included."""
        if self.indexes.haystack is None:
            self.indexes.haystack = self._haystack_rows(0)
        return self.indexes.haystack

    def _haystack_rows(self, start: int, end: int | None = None) -> list[str]:
        columns = [self.text[c.key][start:end] for c in COLUMNS]
        rows = ["\x00".join(row) for row in zip(*columns)]
        stop = len(self.raw) if end is None else end
        for values in self.dynamic.values():
            # a few rows (a live patch) are looked up; many (a load) walk the column once
            found = (
                ((i, values[i]) for i in range(start, stop) if i in values)
                if stop - start < len(values)
                else ((i, v) for i, v in values.items() if start <= i < stop)
            )
            for i, value in found:
                rows[i - start] += "\x00" + value
        return [row.lower() for row in rows]

    def numbers_of(self, column: str) -> array:
        """A column as floats (NaN where there is no number), built when first needed."""
        numbers = self.indexes.numbers.get(column)
        if numbers is None:
            numbers = self.indexes.numbers[column] = array("d", map(number_reader(column), self.column(column)))
        return numbers

    def index_of(self, key: RowKey) -> int | None:
        return self._by_key.get(key)

    def record(self, index: int) -> dict:
        record: dict = loads_read(self.raw[index])
        return record


# the columns a view starts with, each shown when its values differ between records
CANDIDATES = (
    "type",
    "suite",
    "group",
    "variant",
    "origin",
    "origin_version",
    "meta.model",
    "target",
    "device",
    "vitis",
    "status",
    "latency",
    "clock",
    "lut",
    "ff",
    "dsp",
    "bram",
    "cycles",
    "us",
    "runtime",
    "note",
    "summary",
)
# what an empty table shows (an export keeps its header): the candidates that tell records of one
# producer apart, without those that only tell producers apart
DEFAULT_VISIBLE = tuple(
    k for k in CANDIDATES if k not in ("suite", "origin", "origin_version", "meta.model", "vitis", "note")
)


def default_columns(table: RecordTable) -> tuple[list[str], dict[str, str]]:
    """The columns to start with, and the values every record shares (shown once, in a header
    line, instead of on every row). A column shows as soon as its values differ; one that no
    record fills is left out. An empty table gets the usual columns (exports keep a header)."""
    if not len(table):
        return list(DEFAULT_VISIBLE), {}
    shown: list[str] = []
    shared: dict[str, str] = {}
    for key in CANDIDATES:
        if not table.has_column(key):
            continue
        values = set(table.column(key))
        if values == {""}:
            continue
        if len(values) == 1 and len(table) > 1 and not table.is_numeric(key):
            shared[key] = values.pop()
        else:
            shown.append(key)
    return shown, shared
