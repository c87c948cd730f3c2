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
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..extensions import EXTENSION_TYPES
from ..numbers import number_or_none
from .query import And, Compare, Everything, Match, Node, Not, Or, Text, glob

NAN = float("nan")


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


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    numeric: bool = False


COLUMNS: tuple[Column, ...] = (
    Column("type", "type"),
    Column("suite", "suite"),
    Column("group", "group"),
    Column("variant", "variant"),
    Column("origin", "origin"),
    Column("origin_version", "origin version"),
    Column("target", "target"),
    Column("device", "device"),
    Column("vitis", "vitis"),
    Column("status", "status"),
    Column("runtime", "runtime s", True),
    Column("latency", "latency", True),
    Column("interval", "interval", True),
    Column("clock", "clock ns", True),
    Column("lut", "LUT", True),
    Column("ff", "FF", True),
    Column("dsp", "DSP", True),
    Column("bram", "BRAM", True),
    Column("uram", "URAM", True),
    Column("cycles", "cycles", True),
    Column("us", "us", True),
    Column("mhz", "MHz", True),
    Column("part", "part"),
    Column("top", "top"),
    Column("summary", "summary"),
)


def _d(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def extract(record: dict) -> list[Any]:
    """The value of every column, in COLUMNS order. Records from other producers may lack any
    part, so every step tolerates a missing or odd-typed object (one pass, no per-column lookups:
    this runs 100,000 times when a large file loads)."""
    run, problem, impl = _d(record.get("run")), _d(record.get("problem")), _d(record.get("implementation"))
    variant = _d(impl.get("variant"))
    kind = record.get("report_type")
    payload = _d(record.get(kind)) if isinstance(kind, str) else {}
    synth = _d(record.get("hls_synth"))
    performance = _d(synth.get("PerformanceEstimates"))
    latency = _d(performance.get("SummaryOfOverallLatency"))
    resources = _d(_d(synth.get("AreaEstimates")).get("Resources"))
    assignments = _d(synth.get("UserAssignments"))
    rtl = _d(record.get("rtl_sim"))
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
        _d(performance.get("SummaryOfTimingAnalysis")).get("EstimatedClockPeriod"),
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
        extension_summary(record) if kind in EXTENSION_TYPES else None,
    ]


BY_KEY = {column.key: column for column in COLUMNS}
KEY_COLUMNS = 8  # type suite group variant origin origin_version target device: the record key
_INTERNED = tuple(n for n, column in enumerate(COLUMNS) if not column.numeric and column.key != "summary")
DEFAULT_VISIBLE = (
    "type",
    "group",
    "variant",
    "target",
    "device",
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
    "summary",
)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value) if not value.is_integer() else f"{value:.1f}"
    return str(value)


def _float_or_nan(value: Any) -> float:
    found = number_or_none(value)
    return NAN if found is None else float(found)  # "undef", "" and the like: no number


class RecordTable:
    """Rows by index; columns as lists of (interned) strings plus float arrays for the numbers."""

    def __init__(self) -> None:
        self.raw: list[str] = []
        self.keys: list[str] = []
        self.sources: list[str] = []
        self.text: dict[str, list[str]] = {c.key: [] for c in COLUMNS}
        self._derived: dict[str, Any] = {}  # number columns and the free-text haystack, built lazily
        self.invalid: set[int] = set()  # rows the schema check refused: never exported as JSONL
        self._intern: dict[str, str] = {}
        self._columns = [self.text[c.key] for c in COLUMNS]
        self._by_key: dict[str, int] = {}
        self._cache: dict[Node, frozenset[int]] = {}
        self._orders: dict[tuple[str, bool], list[int]] = {}

    def __len__(self) -> int:
        return len(self.raw)

    # --- filling ------------------------------------------------------------------------------

    def add(self, raw: str, record: dict, source: str = "", origin: str = "") -> int:
        """Append a record (its original line and parsed form). Its key, which marks hold on to,
        is the record key within `origin` (the file or tree it came from): stable across reloads."""
        values = [v if type(v) is str else _text(v) for v in extract(record)]
        intern = self._intern
        for position in _INTERNED:  # repeated words share one string; numbers are left alone
            values[position] = intern.setdefault(values[position], values[position])
        key = f"{origin}|" + "\x1f".join(values[:KEY_COLUMNS])
        if key in self._by_key:
            key = f"{key}#{len(self.raw)}"  # the same record twice in one file: both are shown
        index = len(self.raw)
        self._by_key[key] = index
        self.raw.append(raw)
        self.keys.append(key)
        self.sources.append(source)
        for column, value in zip(self._columns, values):
            column.append(value)
        self._derived.clear()
        self._cache.clear()
        self._orders.clear()
        return index

    @property
    def haystack(self) -> list[str]:
        """Every value of a row in one lowercase string, for free text (built when first searched)."""
        if "haystack" not in self._derived:
            columns = [self.text[c.key] for c in COLUMNS]
            self._derived["haystack"] = ["\x00".join(row).lower() for row in zip(*columns)]
        return self._derived["haystack"]

    def numbers_of(self, column: str) -> array:
        """A numeric column as floats (NaN where there is no number), built when first needed."""
        if column not in self._derived:
            self._derived[column] = array("d", map(_float_or_nan, self.text[column]))
        return self._derived[column]

    def index_of(self, key: str) -> int | None:
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
            pattern = glob(node.value)
            column = self.text[node.field]
            ok = {v for v in set(column) if pattern.fullmatch(v) or pattern.fullmatch(_short(node.field, v))}
            if node.negated:
                return (i for i, v in enumerate(column) if v not in ok)
            return (i for i, v in enumerate(column) if v in ok)
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

    def order(self, column: str | None, descending: bool = False) -> list[int]:
        """Row indices sorted by a column (missing numbers last either way); None: file order."""
        if column is None:
            return list(range(len(self.raw)))
        key = (column, descending)
        if key not in self._orders:
            if BY_KEY[column].numeric:
                values = self.numbers_of(column)
                present = [i for i in range(len(values)) if not math.isnan(values[i])]
                present.sort(key=values.__getitem__, reverse=descending)
                missing = [i for i in range(len(values)) if math.isnan(values[i])]
                self._orders[key] = present + missing
            else:
                texts = self.text[column]
                self._orders[key] = sorted(range(len(texts)), key=texts.__getitem__, reverse=descending)
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

        lines = [
            "| " + " | ".join(escape(l) for l in labels) + " |",
            "|" + "|".join("---:" if BY_KEY[c].numeric else "---" for c in columns) + "|",
        ]
        lines += ["| " + " | ".join(escape(table.text[c][i]) for c in columns) + " |" for i in rows]
        return "\n".join(lines) + "\n"
    raise ValueError(f"unknown format {fmt!r} (jsonl, csv, md)")
