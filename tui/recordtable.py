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
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from collectors.records import record_key

from .query import And, Compare, Everything, Match, Node, Not, Or, Text, glob

NAN = float("nan")


def _dig(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _synth(record: dict, *keys: str) -> Any:
    return _dig(record.get("hls_synth"), *keys)


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    get: Callable[[dict], Any]
    numeric: bool = False


COLUMNS: tuple[Column, ...] = (
    Column("type", "type", lambda r: r.get("report_type")),
    Column("suite", "suite", lambda r: _dig(r, "problem", "suite")),
    Column("group", "group", lambda r: "/".join(map(str, _dig(r, "problem", "group_path") or []))),
    Column("variant", "variant", lambda r: "{}_{}".format(_dig(r, "implementation", "variant", "index"),
                                                          _dig(r, "implementation", "variant", "name"))),
    Column("origin", "origin", lambda r: _dig(r, "implementation", "origin")),
    Column("origin_version", "origin version", lambda r: _dig(r, "implementation", "origin_version")),
    Column("target", "target", lambda r: _dig(r, "run", "target")),
    Column("device", "device", lambda r: _dig(r, "run", "device")),
    Column("vitis", "vitis", lambda r: _dig(r, "run", "vitis_version")),
    Column("status", "status", lambda r: _dig(r, r.get("report_type") or "", "status")),
    Column("runtime", "runtime s", lambda r: _dig(r, "run", "runtime_seconds"), True),
    Column("latency", "latency", lambda r: _synth(r, "PerformanceEstimates", "SummaryOfOverallLatency",
                                                  "Worst-caseLatency"), True),
    Column("interval", "interval", lambda r: _synth(r, "PerformanceEstimates", "SummaryOfOverallLatency",
                                                    "Interval-max"), True),
    Column("clock", "clock ns", lambda r: _synth(r, "PerformanceEstimates", "SummaryOfTimingAnalysis",
                                                 "EstimatedClockPeriod"), True),
    Column("lut", "LUT", lambda r: _synth(r, "AreaEstimates", "Resources", "LUT"), True),
    Column("ff", "FF", lambda r: _synth(r, "AreaEstimates", "Resources", "FF"), True),
    Column("dsp", "DSP", lambda r: _synth(r, "AreaEstimates", "Resources", "DSP"), True),
    Column("bram", "BRAM", lambda r: _synth(r, "AreaEstimates", "Resources", "BRAM_18K"), True),
    Column("uram", "URAM", lambda r: _synth(r, "AreaEstimates", "Resources", "URAM"), True),
    Column("cycles", "cycles", lambda r: _dig(r, "rtl_sim", "kernel_runtime_cycles"), True),
    Column("us", "us", lambda r: _dig(r, "rtl_sim", "kernel_runtime_us"), True),
    Column("mhz", "MHz", lambda r: _dig(r, "rtl_sim", "kernel_clock_freq_mhz"), True),
    Column("part", "part", lambda r: _synth(r, "UserAssignments", "Part")),
    Column("top", "top", lambda r: _synth(r, "UserAssignments", "TopModelName")),
)
BY_KEY = {column.key: column for column in COLUMNS}
DEFAULT_VISIBLE = ("type", "group", "variant", "target", "device", "status", "latency", "clock", "lut", "ff",
                   "dsp", "bram", "cycles", "us", "runtime")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value) if not value.is_integer() else f"{value:.1f}"
    return str(value)


def _number(value: Any) -> float:
    if value is None or isinstance(value, bool):
        return NAN
    try:
        return float(value)
    except (TypeError, ValueError):
        return NAN  # "undef", "" and the like: no number


class RecordTable:
    """Rows by index; columns as lists of (interned) strings plus float arrays for the numbers."""

    def __init__(self) -> None:
        self.raw: list[str] = []
        self.keys: list[str] = []
        self.sources: list[str] = []
        self.text: dict[str, list[str]] = {c.key: [] for c in COLUMNS}
        self.numbers: dict[str, array] = {c.key: array("d") for c in COLUMNS if c.numeric}
        self.haystack: list[str] = []
        self.invalid: set[int] = set()  # rows the schema check refused: never exported as JSONL
        self._intern: dict[str, str] = {}
        self._by_key: dict[str, int] = {}
        self._cache: dict[Node, frozenset[int]] = {}
        self._orders: dict[tuple[str, bool], list[int]] = {}

    def __len__(self) -> int:
        return len(self.raw)

    # --- filling ------------------------------------------------------------------------------

    def add(self, raw: str, record: dict, source: str = "", origin: str = "") -> int:
        """Append a record (its original line and parsed form). Its key, which marks hold on to,
        is the record key within `origin` (the file or tree it came from): stable across reloads."""
        key = f"{origin}|{record_key(record)!r}" if _has_key(record) else f"{source}#"
        if key in self._by_key:
            key = f"{key}#{len(self.raw)}"  # the same record twice in one file: both are shown
        values = [self._intern.setdefault(v, v) for v in (_text(c.get(record)) for c in COLUMNS)]
        index = len(self.raw)
        self._by_key[key] = index
        self.raw.append(raw)
        self.keys.append(key)
        self.sources.append(source)
        self.haystack.append("\x00".join(values).lower())
        for column, value in zip(COLUMNS, values):
            self.text[column.key].append(value)
            if column.numeric:
                self.numbers[column.key].append(_number(value))
        self._cache.clear()
        self._orders.clear()
        return index

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
            pattern = glob(node.value)
            column = self.text[node.field]
            ok = {v for v in set(column) if pattern.fullmatch(v) or pattern.fullmatch(_short(node.field, v))}
            if node.negated:
                return (i for i, v in enumerate(column) if v not in ok)
            return (i for i, v in enumerate(column) if v in ok)
        if isinstance(node, Compare):
            values, n = self.numbers[node.field], node.number
            test = {"<": lambda x: x < n, "<=": lambda x: x <= n, ">": lambda x: x > n, ">=": lambda x: x >= n,
                    "=": lambda x: x == n, "!=": lambda x: x != n and x == x}[node.op]
            return (i for i, x in enumerate(values) if test(x))
        if isinstance(node, Not):
            inner = self.matching(node.term)
            return () if inner is None else (i for i in range(len(self.raw)) if i not in inner)
        if isinstance(node, And):
            sets = sorted((self.matching(t) for t in node.terms), key=lambda s: len(self.raw) if s is None else len(s))
            result = set(range(len(self.raw))) if sets[0] is None else set(sets[0])
            for other in sets[1:]:
                if other is not None:
                    result &= other
            return result
        if isinstance(node, Or):
            result: set[int] = set()
            for term in node.terms:
                matched = self.matching(term)
                if matched is None:
                    return range(len(self.raw))
                result |= matched
            return result
        raise TypeError(node)

    def order(self, column: str | None, descending: bool = False) -> list[int]:
        """Row indices sorted by a column (missing numbers last either way); None: file order."""
        if column is None:
            return list(range(len(self.raw)))
        key = (column, descending)
        if key not in self._orders:
            if column in self.numbers:
                values = self.numbers[column]
                present = [i for i in range(len(values)) if not math.isnan(values[i])]
                present.sort(key=values.__getitem__, reverse=descending)
                missing = [i for i in range(len(values)) if math.isnan(values[i])]
                self._orders[key] = present + missing
            else:
                values = self.text[column]
                self._orders[key] = sorted(range(len(values)), key=values.__getitem__, reverse=descending)
        return self._orders[key]

    def view(self, node: Node, column: str | None, descending: bool) -> list[int]:
        matched = self.matching(node)
        ordered = self.order(column, descending)
        return ordered if matched is None else [i for i in ordered if i in matched]


def _short(field: str, value: str) -> str:
    """The short spelling a value also answers to: `hw_emu` for vitis.hw_emu, `pipeline` for 2_pipeline."""
    if field == "target":
        return value.removeprefix("vitis.")
    if field == "variant":
        return value.partition("_")[2]
    return value


def _has_key(record: dict) -> bool:
    try:
        record_key(record)
        return True
    except (KeyError, TypeError, IndexError):
        return False


# --- export (pure) ------------------------------------------------------------------------------

FORMATS = ("jsonl", "csv", "md")


def export(table: RecordTable, rows: list[int], columns: list[str], fmt: str) -> str:
    """The rows as JSONL (original lines, byte for byte), CSV or a Markdown table of `columns`."""
    if fmt == "jsonl":  # the original lines, byte for byte; a line the schema refused is left out
        return "".join(table.raw[i] + "\n" for i in rows if i not in table.invalid)
    labels = [BY_KEY[c].label for c in columns]
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(labels)
        for i in rows:
            writer.writerow([table.text[c][i] for c in columns])
        return out.getvalue()
    if fmt == "md":
        def escape(value: str) -> str:
            return value.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
        lines = ["| " + " | ".join(escape(l) for l in labels) + " |",
                 "|" + "|".join("---:" if BY_KEY[c].numeric else "---" for c in columns) + "|"]
        lines += ["| " + " | ".join(escape(table.text[c][i]) for c in columns) + " |" for i in rows]
        return "\n".join(lines) + "\n"
    raise ValueError(f"unknown format {fmt!r} (jsonl, csv, md)")
