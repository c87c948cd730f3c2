"""Records held column by column for the records view: load, filter, sort, export (pure).

100,000 records must load in seconds and filter per keystroke, so nothing here keeps the
parsed JSON of a record: each row keeps its original line (for byte-exact JSONL export) and
the handful of values the columns and the filter language need.
"""

from __future__ import annotations

import csv
import io
import json
from array import array
from bisect import bisect_left, insort
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import compress, repeat
from operator import contains, eq
from typing import Any

from collectors.aliases import NO_ALIASES, Aliases, loosen
from collectors.numbers import number_or_none
from collectors.records.fields import BY_KEY, FIELDS, META_PREFIX, field_of
from collectors.records.model import EXTENSION_TYPES, RecordKey, as_dict, key_of
from collectors.records.query import And, Compare, Everything, Match, Node, Not, Or, Text, glob
from collectors.records.validate import extra_fields
from collectors.text import visible

NAN = float("nan")
# A row's handle (marks hold on to it): the record's key within the file or tree it came from,
# and an occurrence number when a file repeats a key (both lines are shown).
RowKey = tuple[str, RecordKey, int]


def _msps(value: Any) -> str:
    return f"{value / 1e6:.1f} Msps" if isinstance(value, (int, float)) else "?"


def extension_summary(record: dict[str, Any]) -> str:
    """One line that sums up an extension record (AIE port, XRT recipe, LOOM mapping)."""
    kind = record.get("report_type")
    payload = record.get(kind) if isinstance(kind, str) else None
    if not isinstance(payload, dict):
        return ""
    if kind == "aie_sim":
        if payload.get("values_per_sample") is None:
            rate = "sample type unknown"
        elif payload.get("first_time_s") is None:
            rate = "no timestamps"
        else:
            frame = payload.get("frame_throughput_sps")
            rate = (f"{_msps(frame)} per frame, " if frame else "") + f"raw {_msps(payload.get('raw_throughput_sps'))}"
        return f"{payload.get('data_lines')} lines, {payload.get('frames')} frames, {rate}"
    if kind == "xrt_recipe":
        errors, warnings = payload.get("errors") or [], payload.get("schema_warnings") or []
        verdict = "valid" if payload.get("valid") else f"{len(errors)} errors"
        return (
            f"{verdict}, {len(warnings)} schema warnings, {payload.get('runs')} runs in "
            f"{payload.get('cpu_runlists')} cpu + {payload.get('npu_runlists')} npu runlists"
        )
    if kind == "cgra_map":
        edges = payload.get("edges") or {}
        timing = payload.get("timing") or {}
        config = payload.get("config") or {}
        snapshots = payload.get("snapshots") or []
        parts = [
            f"{payload.get('state')}: {payload.get('mapped_nodes')} nodes mapped",
            f"edges {edges.get('routed', 0)} routed / {edges.get('unrouted', 0)} unrouted",
        ]
        if timing:
            parts.append(f"II {timing.get('initiation_interval')}")
        if config:
            complete = "" if config.get("complete") else " (incomplete)"
            parts.append(f"{config.get('word_count')} config words{complete}")
        if snapshots:
            parts.append(f"snapshot #{snapshots[-1]['sequence']} {snapshots[-1]['trigger']}")
        return ", ".join(parts)
    return ""


COLUMNS = FIELDS  # the columns, in the order `extract` gives their values


def note(record: dict, extras: list[tuple[str, Any]]) -> str | None:
    """What a producer wrote in its payload beyond the contract, as text (a failed build's `error`)."""
    kind = record.get("report_type")
    texts = [value for path, value in extras if path.startswith(f"{kind}.") and isinstance(value, str) and value]
    return "; ".join(texts) if texts else None


def synth_figures(record: dict) -> tuple[Any, ...]:
    """An hls_synth record's worst-case latency, maximum interval, estimated clock, LUT, FF, DSP,
    BRAM_18K and URAM (None where missing), in COLUMNS order; also the runs table's figures."""
    synth = as_dict(record.get("hls_synth"))
    performance = as_dict(synth.get("PerformanceEstimates"))
    latency = as_dict(performance.get("SummaryOfOverallLatency"))
    resources = as_dict(as_dict(synth.get("AreaEstimates")).get("Resources"))
    return (
        latency.get("Worst-caseLatency"),
        latency.get("Interval-max"),
        as_dict(performance.get("SummaryOfTimingAnalysis")).get("EstimatedClockPeriod"),
        resources.get("LUT"),
        resources.get("FF"),
        resources.get("DSP"),
        resources.get("BRAM_18K"),
        resources.get("URAM"),
    )


def rtl_figures(record: dict) -> tuple[Any, Any, Any]:
    """An rtl_sim record's kernel runtime in cycles and in microseconds and its clock, in COLUMNS order."""
    rtl = as_dict(record.get("rtl_sim"))
    return rtl.get("kernel_runtime_cycles"), rtl.get("kernel_runtime_us"), rtl.get("kernel_clock_freq_mhz")


def extract(record: dict, extras: list[tuple[str, Any]] | None = None) -> list[Any]:
    """The value of every column, in COLUMNS order. Records from other producers may lack any
    part, so every step tolerates a missing or odd-typed object (one pass, no per-column lookups:
    this runs 100,000 times when a large file loads). `extras`: the record's fields the schema
    does not name, when the caller has them already."""
    run, problem, impl = (
        as_dict(record.get("run")),
        as_dict(record.get("problem")),
        as_dict(record.get("implementation")),
    )
    variant = as_dict(impl.get("variant"))
    kind = record.get("report_type")
    payload = as_dict(record.get(kind)) if isinstance(kind, str) else {}
    assignments = as_dict(as_dict(record.get("hls_synth")).get("UserAssignments"))
    group = problem.get("group_path")
    return [
        kind,
        problem.get("suite"),
        "/".join(map(str, group)) if isinstance(group, list) else group,
        f"{variant.get('index')}_{variant.get('name')}",
        impl.get("origin"),
        impl.get("origin_version"),
        run.get("target"),
        run.get("device"),
        run.get("vitis_version"),
        payload.get("status"),
        run.get("runtime_seconds"),
        *synth_figures(record),
        *rtl_figures(record),
        assignments.get("Part"),
        assignments.get("TopModelName"),
        variant.get("index"),
        extension_summary(record) if kind in EXTENSION_TYPES else None,
        note(record, extra_fields(record) if extras is None else extras),
    ]


def dynamic_values(record: dict, extras: list[tuple[str, Any]]) -> dict[str, str]:
    """`meta.KEY` for each origin_meta key, and each field the schema does not name by its path."""
    meta = as_dict(as_dict(record.get("implementation")).get("origin_meta"))
    values = {f"{META_PREFIX}{key}": _cell(value) for key, value in meta.items()}
    values.update((path, _cell(value)) for path, value in extras)
    return values


def _cell(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, bool):
        return "true" if value else "false"
    return _text(value)


POSITION = {column.key: n for n, column in enumerate(COLUMNS)}
# repeated values share one string (numbers too: a report's figures repeat across variants)
_INTERNED = frozenset(n for n, column in enumerate(COLUMNS) if column.key not in ("summary", "note"))
_ALIASED = {"suite": POSITION["suite"], "group": POSITION["group"], "device": POSITION["device"]}
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


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value) if not value.is_integer() else f"{value:.1f}"
    return str(value)


def _float_or_nan(value: Any) -> float:
    if type(value) is str and value.isascii() and value.isdigit():
        return float(value)  # the common cell (cycles, LUT), at C speed
    found = number_or_none(value)
    return NAN if found is None else float(found)  # "undef", "" and the like: no number


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

    def _split(self, source: str, known_only: bool = False) -> tuple[int, int]:
        """A file number and line number, or (0, -1) for text that does not read as 'FILE:LINE'
        exactly (a line number with a leading zero would not be written back the same).
        `known_only`: a file not seen yet gets no number (-1): a look-up from another thread."""
        path, colon, number = source.rpartition(":")
        if not colon or not number.isascii() or not number.isdigit() or (number[0] == "0" and number != "0"):
            return 0, -1
        found = self._path_ids.get(path)
        if found is None and known_only:
            return -1, int(number)
        if found is None:
            found = self._path_ids[path] = len(self._paths)
            self._paths.append(path)
        return found, int(number)

    def rows_of(self, sources: Iterable[str]) -> list[int]:
        """The rows whose source is one of `sources` (a schema check's verdicts), in row order.
        Reads only: safe from a worker thread while the interface's thread appends."""
        split = {source: self._split(source, known_only=True) for source in sources}
        wanted = {at for at in split.values() if at[1] >= 0}
        wanted_other = {source for source, at in split.items() if at[1] < 0}
        rows = [i for i, at in enumerate(zip(self._files, self._lines)) if at in wanted]
        rows += [i for i, source in list(self._other.items()) if source in wanted_other]
        return sorted(set(rows))


CACHED_QUERIES = 256  # answers kept (about 1 byte per row each): typing adds a few per keystroke


class RecordTable:
    """Rows by index; columns as lists of (interned) strings plus float arrays for the numbers.
    Fields beyond the fixed columns (`meta.KEY`, fields the schema does not name) are kept
    sparsely, by row. `aliases` change the suite, group and device shown and matched."""

    def __init__(self, aliases: Aliases = NO_ALIASES, key_order: bool = False, closed: bool = False) -> None:
        """`key_order`: rows in record-key order (the output file's), not in the order they came
        (a live tree's records arrive in any order; a file is read in its own order). `closed`:
        every record passed the closed schema (a live tree's): no field beyond it to look for."""
        self.aliases = aliases
        self._closed = closed
        self._key_order: list[tuple[tuple[Any, ...], int, int]] | None = [] if key_order else None
        self.raw: list[str] = []
        self.keys: list[RowKey] = []
        self.sources = Sources()
        self.text: dict[str, list[str]] = {c.key: [] for c in COLUMNS}
        self.dynamic: dict[str, dict[int, str]] = {}  # meta.KEY or a field path -> row -> value
        self._derived: dict[str, Any] = {}  # number columns, dense dynamic columns, the free-text haystack
        self.invalid: set[int] = set()  # rows the contract refuses: left out of every export
        self.dead: set[int] = set()  # rows of records removed while watching
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
        values, dynamic = self._values(record)
        return Prepared(raw, values, dynamic, key_of(record) if key is None else key, source, origin)

    def append(self, rows: list[Prepared]) -> list[int]:
        """Append prepared records, column by column; derived indexes grow with them instead of
        being rebuilt."""
        start = len(self.raw)
        for offset, row in enumerate(rows):
            index = start + offset
            key: RowKey = (row.origin, row.key, 0)
            if key in self._by_key:
                key = (row.origin, row.key, index)  # the same record twice in one file: both are shown
            self._by_key[key] = index
            if self._key_order is not None:
                insort(self._key_order, (row.key.order, key[2], index))
            self.keys.append(key)
            for name, value in row.dynamic.items():
                self.dynamic.setdefault(name, {})[index] = value
        self.raw.extend(row.raw for row in rows)
        self.sources.extend(row.source for row in rows)
        intern = self._intern.setdefault
        for position, (column, values) in enumerate(zip(self._columns, zip(*(row.values for row in rows)))):
            if position in _INTERNED:
                column.extend([intern(v, v) for v in values])
            else:
                column.extend(values)
        self._grown(start)
        return list(range(start, len(self.raw)))

    def _values(self, record: dict) -> tuple[list[str], dict[str, str]]:
        """A record's fixed column values and its dynamic ones (meta.KEY, fields not in the schema)."""
        extras = [] if self._closed else extra_fields(record)
        values = [v if type(v) is str else _text(v) for v in extract(record, extras)]
        for name, position in _ALIASED.items():
            values[position] = self._alias(name, values[position])
        return values, dynamic_values(record, extras)

    def _grown(self, start: int) -> None:
        """Rows from `start` on are new: the free-text index, number columns and dense dynamic
        columns are extended; query answers and orders take the new rows when next asked for."""
        end = len(self.raw)
        for key, derived in list(self._derived.items()):
            if key == "haystack":
                derived.extend(self._haystack_rows(start))
            elif isinstance(derived, array):
                derived.extend(map(_float_or_nan, self.column(key)[start:]))
            elif key.startswith("column:"):
                values = self.dynamic.get(key.removeprefix("column:"), {})
                derived.extend(values.get(i, "") for i in range(start, end))
            else:
                del self._derived[key]  # a flag over every value (is a column numeric?)

    def put(self, raw: str, record: dict, source: str = "", origin: str = "") -> int:
        """Add a record, or replace the row that holds its key, in place (marks stay on it); the
        derived indexes are patched at that row, not rebuilt."""
        return self.put_all([(raw, record, source)], origin)[0]

    def put_all(
        self, items: list[tuple[str, dict, str]], origin: str = "", keys: list[RecordKey] | None = None
    ) -> list[int]:
        """`put` for many (raw line, record, source) at once: the new ones are appended together
        (a live scan brings thousands; one by one, each append is a pass of its own). `keys`:
        the records' keys, where the caller has them already."""
        rows: list[int | tuple[int]] = []  # a row index, or (n,): the n-th of the new ones
        new: list[Prepared] = []
        pending: dict[RecordKey, int] = {}  # key -> its place among the new ones (a later one wins)
        for n, (raw, record, source) in enumerate(items):
            key = key_of(record) if keys is None else keys[n]
            index = self._by_key.get((origin, key, 0))
            if index is not None:
                self._replace(index, raw, record, source)
                rows.append(index)
                continue
            prepared = self.prepare(raw, record, source, origin, key)
            if key in pending:
                new[pending[key]] = prepared
            else:
                pending[key] = len(new)
                new.append(prepared)
            rows.append((pending[key],))
        appended = self.append(new) if new else []
        return [row if isinstance(row, int) else appended[row[0]] for row in rows]

    def _replace(self, index: int, raw: str, record: dict, source: str) -> None:
        values, dynamic = self._values(record)
        for column, value in zip(self._columns, values):
            column[index] = value
        for by_row in self.dynamic.values():
            by_row.pop(index, None)
        for name, value in dynamic.items():
            self.dynamic.setdefault(name, {})[index] = value
        self.raw[index] = raw
        self.sources[index] = source
        self._patched(index)

    def _patched(self, index: int) -> None:
        self._cache.clear()
        self._orders.clear()
        for key, derived in list(self._derived.items()):
            if key == "haystack":
                derived[index] = self._haystack_rows(index, index + 1)[0]
            elif isinstance(derived, array):
                derived[index] = _float_or_nan(self.column(key)[index])
            elif key.startswith("column:"):
                derived[index] = self.dynamic.get(key.removeprefix("column:"), {}).get(index, "")
            else:
                del self._derived[key]  # a flag over every value (is a column numeric?)

    def drop(self, origin: str, key: RecordKey) -> None:
        """Remove a record: its row stays in the columns, dead, and is never shown again."""
        index = self._by_key.pop((origin, key, 0), None)
        if index is not None:
            self.dead.add(index)
            if self._key_order is not None:
                del self._key_order[bisect_left(self._key_order, (key.order, 0, index))]
            self._cache.clear()  # (the derived indexes may keep the dead row: views leave it out)
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
        dense = self._derived.get(f"column:{key}")
        if dense is None:
            values = self.dynamic.get(key, {})
            dense = self._derived[f"column:{key}"] = [values.get(i, "") for i in range(len(self.raw))]
        return dense

    def is_numeric(self, key: str) -> bool:
        """Fixed number columns, and dynamic columns whose every value is a number."""
        if key in BY_KEY:
            return BY_KEY[key].numeric
        flag = self._derived.get(f"numeric:{key}")
        if flag is None:
            values = self.dynamic.get(key, {}).values()
            flag = self._derived[f"numeric:{key}"] = bool(values) and all(
                _float_or_nan(v) == _float_or_nan(v) for v in values
            )
        return flag

    @property
    def haystack(self) -> list[str]:
        """Every value of a row in one lowercase string, for free text (built when first searched),
        origin_meta and the fields the schema does not name included."""
        if "haystack" not in self._derived:
            self._derived["haystack"] = self._haystack_rows(0)
        return self._derived["haystack"]

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
        if column not in self._derived:
            self._derived[column] = array("d", map(_float_or_nan, self.column(column)))
        return self._derived[column]

    def index_of(self, key: RowKey) -> int | None:
        return self._by_key.get(key)

    def record(self, index: int) -> dict:
        return json.loads(self.raw[index])

    # --- filtering and sorting ---------------------------------------------------------------------

    def matching(self, node: Node) -> bytes | None:
        """Which rows match a parsed query, as a 0/1 byte per row (None: every row). Answers are
        kept per sub-query, so typing one more term costs only that term, and rows appended
        since (a load streaming in) are judged alone."""
        if isinstance(node, Everything):
            return None
        count = len(self.raw)
        cached = self._cache.get(node)
        if cached is None or len(cached) < count:
            if cached is None and len(self._cache) >= CACHED_QUERIES:
                self._cache.clear()
            if cached is None or isinstance(node, (Not, And, Or)):  # these combine their terms' answers anew
                cached = self._evaluate(node, 0)
            else:
                cached += self._evaluate(node, len(cached))
            self._cache[node] = cached
        return cached

    def _evaluate(self, node: Node, start: int) -> bytes:
        """The rows from `start` on that match `node`, a 0/1 byte each."""
        if isinstance(node, Text):
            return bytes(map(contains, self.haystack[start:], repeat(node.value.lower())))
        if isinstance(node, Match):
            return self._match(node, start)
        if isinstance(node, Compare):
            return _compare(self.numbers_of(node.field)[start:], node.op, node.number)
        count = len(self.raw)
        if isinstance(node, Not):
            inner = self.matching(node.term)
            return bytes(count) if inner is None else _combine("^", inner, b"\x01" * count)
        if isinstance(node, And):
            answers = [a for a in (self.matching(t) for t in node.terms) if a is not None]
            return _combine("&", *answers) if answers else b"\x01" * count
        if isinstance(node, Or):
            either = [self.matching(t) for t in node.terms]
            terms = [a for a in either if a is not None]
            return _combine("|", *terms) if len(terms) == len(either) else b"\x01" * count
        raise TypeError(node)

    def _match(self, node: Match, start: int) -> bytes:
        """A glob over a column's distinct values; group paths with `-` and `_` alike unless
        the aliases turn that off."""
        loose = node.field == "group" and self.aliases.loose_groups
        pattern = glob(loosen(node.value) if loose else node.value)
        column = self.column(node.field)[start:]

        def fits(value: str) -> bool:
            if loose:
                value = loosen(value)
            return bool(pattern.fullmatch(value) or pattern.fullmatch(_short(node.field, value)))

        answer = {v: fits(v) != node.negated for v in set(column)}
        return bytes(map(answer.__getitem__, column))

    def order(self, column: str | None, descending: bool = False) -> list[int]:
        """Row indices sorted by a column (missing numbers last either way); None: file order."""
        if column is None:
            if self._key_order is not None:
                return [index for _order, _n, index in self._key_order]
            return list(range(len(self.raw)))
        present, missing = self._sorted(column, descending)
        return present + missing

    def _sorted(self, column: str, descending: bool) -> tuple[list[int], list[int]]:
        """The rows with a value in sort order, and those without (in file order). Rows appended
        since the last sort are sorted into it: the sort is stable, and those rows come after
        every older row, so the order is the one a sort from scratch gives."""
        key = (column, descending)
        present, missing = self._orders.get(key, ([], []))
        start = len(present) + len(missing)
        if start < len(self.raw):
            if self.is_numeric(column):
                values = self.numbers_of(column)
                new = range(start, len(values))
                present = present + [i for i in new if values[i] == values[i]]
                present.sort(key=values.__getitem__, reverse=descending)
                missing = missing + [i for i in new if values[i] != values[i]]  # NaN: no number
            else:
                texts = self.column(column)
                present = present + list(range(start, len(texts)))
                present.sort(key=texts.__getitem__, reverse=descending)
            self._orders[key] = (present, missing)
        return present, missing

    def view(self, node: Node, column: str | None, descending: bool) -> list[int]:
        matched = self.matching(node)
        if column is None and self._key_order is None:  # file order: the rows are the mask's
            ordered: Iterable[int] = range(len(self.raw))
            shown = ordered if matched is None else compress(ordered, matched)
        else:
            ordered = self.order(column, descending)
            shown = ordered if matched is None else compress(ordered, map(matched.__getitem__, ordered))
        if self.dead:
            dead = self.dead
            return [i for i in shown if i not in dead]
        return list(shown)


def _combine(op: str, *masks: bytes) -> bytes:
    """0/1 bytes combined row by row, at C speed (as big integers)."""
    size = len(masks[0])
    number = int.from_bytes(masks[0], "little")
    for mask in masks[1:]:
        other = int.from_bytes(mask, "little")
        number = number & other if op == "&" else number | other if op == "|" else number ^ other
    return number.to_bytes(size, "little")


def _compare(values: array, op: str, number: float) -> bytes:
    """Which values compare true, a 0/1 byte each: NaN (no number) never does. The comparison is
    the float's own method, called by map at C speed (x < n is n > x)."""
    if op == "!=":
        return _combine("&", bytes(map(number.__ne__, values)), bytes(map(eq, values, values)))
    test = {"<": number.__gt__, "<=": number.__ge__, ">": number.__lt__, ">=": number.__le__, "=": number.__eq__}[op]
    return bytes(map(test, values))


def _short(field: str, value: str) -> str:
    """The short spelling a value also answers to: `hw_emu` for vitis.hw_emu, `pipeline` for 2_pipeline."""
    if field == "target":
        return value.removeprefix("vitis.")
    if field == "variant":
        return value.partition("_")[2]
    return value


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


def label_of(key: str) -> str:
    return field_of(key).label


# --- export (pure) ------------------------------------------------------------------------------

FORMATS = ("jsonl", "csv", "md")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what spreadsheets read as a formula (OWASP)


def exported_rows(table: RecordTable, rows: list[int]) -> list[int]:
    """The rows an export holds, in every format: those the contract accepts."""
    return [i for i in rows if i not in table.invalid]


def safe_cell(text: str, numeric: bool = False) -> str:
    """A cell a spreadsheet shows as text: formula starts get a leading `'` (a number stays a number)."""
    if text.startswith(FORMULA_STARTS) and not (numeric and _float_or_nan(text) == _float_or_nan(text)):
        text = "'" + text
    return visible(text)


def export(
    table: RecordTable,
    rows: list[int],
    columns: list[str],
    fmt: str,
    raw: bool = False,
    shared: dict[str, str] | None = None,
) -> str:
    """The rows the contract accepts as JSONL (original lines, byte for byte), CSV or a Markdown
    table of `columns`. CSV and Markdown cells are neutralised (formula starts, control
    characters) unless `raw`; Markdown puts `shared` values in a line above the table."""
    kept = exported_rows(table, rows)
    if fmt == "jsonl":
        return "".join(table.raw[i] + "\n" for i in kept)
    numeric = {c: table.is_numeric(c) for c in columns}
    cells = [[table.column(c)[i] for c in columns] for i in kept]
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        labels = [label_of(c) for c in columns]
        writer.writerow(labels if raw else [safe_cell(label) for label in labels])
        for row in cells:
            writer.writerow(row if raw else [safe_cell(v, numeric[c]) for v, c in zip(row, columns)])
        return out.getvalue()
    if fmt == "md":
        return _markdown(columns, cells, numeric, shared or {})
    raise ValueError(f"unknown format {fmt!r} (jsonl, csv, md)")


def _markdown(columns: list[str], cells: list[list[str]], numeric: dict[str, bool], shared: dict[str, str]) -> str:
    def escape(value: str, is_number: bool = False) -> str:
        return safe_cell(value, is_number).replace("\\", "\\\\").replace("|", "\\|")

    lines = [" · ".join(f"{escape(label_of(k))}: {escape(v)}" for k, v in shared.items()), ""] if shared else []
    lines += [
        "| " + " | ".join(escape(label_of(c)) for c in columns) + " |",
        "|" + "|".join("---:" if numeric[c] else "---" for c in columns) + "|",
    ]
    lines += ["| " + " | ".join(escape(v, numeric[c]) for v, c in zip(row, columns)) + " |" for row in cells]
    return "\n".join(lines) + "\n"
