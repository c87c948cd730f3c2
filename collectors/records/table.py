"""Records held column by column for the records view: load, filter, sort, export (pure).

100,000 records must load in seconds and filter per keystroke, so nothing here keeps the
parsed JSON of a record: each row keeps its original line (for byte-exact JSONL export) and
the handful of values the columns and the filter language need.
"""

from __future__ import annotations

import csv
import io
import json
import math
from array import array
from bisect import bisect_left, insort
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..aliases import NO_ALIASES, Aliases, loosen
from ..numbers import number_or_none
from ..text import visible
from ..validate import extra_fields
from .fields import BY_KEY, FIELDS, META_PREFIX, field_of
from .model import EXTENSION_TYPES, RecordKey, as_dict, key_of
from .query import And, Compare, Everything, Match, Node, Not, Or, Text, glob

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
    synth = as_dict(record.get("hls_synth"))
    performance = as_dict(synth.get("PerformanceEstimates"))
    latency = as_dict(performance.get("SummaryOfOverallLatency"))
    resources = as_dict(as_dict(synth.get("AreaEstimates")).get("Resources"))
    assignments = as_dict(synth.get("UserAssignments"))
    rtl = as_dict(record.get("rtl_sim"))
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
        latency.get("Worst-caseLatency"),
        latency.get("Interval-max"),
        as_dict(performance.get("SummaryOfTimingAnalysis")).get("EstimatedClockPeriod"),
        resources.get("LUT"),
        resources.get("FF"),
        resources.get("DSP"),
        resources.get("BRAM_18K"),
        resources.get("URAM"),
        rtl.get("kernel_runtime_cycles"),
        rtl.get("kernel_runtime_us"),
        rtl.get("kernel_clock_freq_mhz"),
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
_INTERNED = frozenset(
    n for n, column in enumerate(COLUMNS) if not column.numeric and column.key not in ("summary", "note")
)
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


@dataclass
class Prepared:
    """A record read for the table, not yet in it."""

    raw: str
    values: list[str]
    dynamic: dict[str, str]
    key: RecordKey
    source: str
    origin: str


class RecordTable:
    """Rows by index; columns as lists of (interned) strings plus float arrays for the numbers.
    Fields beyond the fixed columns (`meta.KEY`, fields the schema does not name) are kept
    sparsely, by row. `aliases` change the suite, group and device shown and matched."""

    def __init__(self, aliases: Aliases = NO_ALIASES, key_order: bool = False) -> None:
        """`key_order`: rows in record-key order (the output file's), not in the order they came
        (a live tree's records arrive in any order; a file is read in its own order)."""
        self.aliases = aliases
        self._key_order: list[tuple[tuple[Any, ...], int, int]] | None = [] if key_order else None
        self.raw: list[str] = []
        self.keys: list[RowKey] = []
        self.sources: list[str] = []
        self.text: dict[str, list[str]] = {c.key: [] for c in COLUMNS}
        self.dynamic: dict[str, dict[int, str]] = {}  # meta.KEY or a field path -> row -> value
        self._derived: dict[str, Any] = {}  # number columns, dense dynamic columns, the free-text haystack
        self.invalid: set[int] = set()  # rows the contract refuses: left out of every export
        self.dead: set[int] = set()  # rows of records removed while watching
        self._intern: dict[str, str] = {}
        self._aliased: dict[tuple[str, str], str] = {}
        self._columns = [self.text[c.key] for c in COLUMNS]
        self._by_key: dict[RowKey, int] = {}
        self._cache: dict[Node, frozenset[int]] = {}
        self._orders: dict[tuple[str, bool], list[int]] = {}

    def __len__(self) -> int:
        return len(self.raw) - len(self.dead)

    # --- filling ------------------------------------------------------------------------------

    def add(self, raw: str, record: dict, source: str = "", origin: str = "") -> int:
        """Append a record (its original line and parsed form). Its key, which marks hold on to,
        is the record key within `origin` (the file or tree it came from): stable across reloads."""
        return self.append([self.prepare(raw, record, source, origin)])[0]

    def prepare(self, raw: str, record: dict, source: str = "", origin: str = "") -> Prepared:
        """The costly part of adding a record (reading its fields), kept apart so that a loader
        thread can do it while the interface's thread only appends."""
        values, dynamic = self._values(record)
        return Prepared(raw, values, dynamic, key_of(record), source, origin)

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
            if position in _INTERNED:  # repeated words share one string; numbers are left alone
                column.extend([intern(v, v) for v in values])
            else:
                column.extend(values)
        self._grown(start)
        return list(range(start, len(self.raw)))

    def _values(self, record: dict) -> tuple[list[str], dict[str, str]]:
        """A record's fixed column values and its dynamic ones (meta.KEY, fields not in the schema)."""
        extras = extra_fields(record)
        values = [v if type(v) is str else _text(v) for v in extract(record, extras)]
        for name, position in _ALIASED.items():
            values[position] = self._alias(name, values[position])
        return values, dynamic_values(record, extras)

    def _grown(self, start: int) -> None:
        """Rows from `start` on are new: the free-text index, number columns and dense dynamic
        columns are extended; what depends on every row (query results, orders) starts over."""
        self._cache.clear()
        self._orders.clear()
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
        index = self._by_key.get((origin, key_of(record), 0))
        if index is None:
            return self.add(raw, record, source, origin)
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
        return index

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

    def matching(self, node: Node) -> frozenset[int] | None:
        """Row indices matching a parsed query (None: every row). Results are cached per sub-query,
        so typing one more term costs only that term."""
        if isinstance(node, Everything):
            return None
        cached = self._cache.get(node)
        if cached is None:
            cached = self._cache[node] = frozenset(self._evaluate(node))
        return cached

    def _evaluate(self, node: Node) -> Iterable[int]:
        if isinstance(node, Text):
            needle = node.value.lower()
            return (i for i, hay in enumerate(self.haystack) if needle in hay)
        if isinstance(node, Match):
            return self._match(node)
        if isinstance(node, Compare):
            values, n = self.numbers_of(node.field), node.number
            test = {
                "<": lambda x: x < n,
                "<=": lambda x: x <= n,
                ">": lambda x: x > n,
                ">=": lambda x: x >= n,
                "=": lambda x: x == n,
                "!=": lambda x: x != n and x == x,
            }[node.op]
            return (i for i, x in enumerate(values) if test(x))
        if isinstance(node, Not):
            inner = self.matching(node.term)
            return () if inner is None else (i for i in range(len(self.raw)) if i not in inner)
        if isinstance(node, And):
            sets = sorted((self.matching(t) for t in node.terms), key=lambda s: len(self.raw) if s is None else len(s))
            common = set(range(len(self.raw))) if sets[0] is None else set(sets[0])
            for other in sets[1:]:
                if other is not None:
                    common &= other
            return common
        if isinstance(node, Or):
            result: set[int] = set()
            for term in node.terms:
                matched = self.matching(term)
                if matched is None:
                    return range(len(self.raw))
                result |= matched
            return result
        raise TypeError(node)

    def _match(self, node: Match) -> Iterable[int]:
        """A glob over a column's distinct values; group paths with `-` and `_` alike unless
        the aliases turn that off."""
        loose = node.field == "group" and self.aliases.loose_groups
        pattern = glob(loosen(node.value) if loose else node.value)
        column = self.column(node.field)

        def fits(value: str) -> bool:
            if loose:
                value = loosen(value)
            return bool(pattern.fullmatch(value) or pattern.fullmatch(_short(node.field, value)))

        ok = {v for v in set(column) if fits(v)}
        if node.negated:
            return (i for i, v in enumerate(column) if v not in ok)
        return (i for i, v in enumerate(column) if v in ok)

    def order(self, column: str | None, descending: bool = False) -> list[int]:
        """Row indices sorted by a column (missing numbers last either way); None: file order."""
        if column is None:
            if self._key_order is not None:
                return [index for _order, _n, index in self._key_order]
            return list(range(len(self.raw)))
        key = (column, descending)
        if key not in self._orders:
            if self.is_numeric(column):
                values = self.numbers_of(column)
                present = [i for i in range(len(values)) if not math.isnan(values[i])]
                present.sort(key=values.__getitem__, reverse=descending)
                missing = [i for i in range(len(values)) if math.isnan(values[i])]
                self._orders[key] = present + missing
            else:
                texts = self.column(column)
                self._orders[key] = sorted(range(len(texts)), key=texts.__getitem__, reverse=descending)
        return self._orders[key]

    def view(self, node: Node, column: str | None, descending: bool) -> list[int]:
        matched = self.matching(node)
        ordered = self.order(column, descending)
        if self.dead:
            dead = self.dead
            ordered = [i for i in ordered if i not in dead]
        return ordered if matched is None else [i for i in ordered if i in matched]


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
