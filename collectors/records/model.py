"""The record model: envelope, payload shapes, record key, sort order and JSON form."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from itertools import repeat
from sys import intern
from typing import Any, NamedTuple, NotRequired, TypedDict

SCHEMA_VERSION = "1.0"
REPORT_TYPES = ("sw_run", "hls_synth", "rtl_sim")
EXTENSION_TYPES = ("aie_sim", "xrt_recipe", "cgra_map")  # written to the second file
TARGET_REPORTS: dict[str, tuple[str, ...]] = {
    "vitis.sw_emu": ("sw_run",),
    "vitis.csim": ("sw_run",),
    "vitis.csynth": ("hls_synth",),
    "vitis.hw_emu": ("hls_synth", "rtl_sim"),
    "vitis.cosim": ("hls_synth", "rtl_sim"),
    "vitis.hw": (),  # hw_build / hw_run are TBD in schema 1.0: shown, never written
}
VPP_TARGETS = ("vitis.sw_emu", "vitis.hw_emu", "vitis.hw")  # v++ builds; the others are HLS runs
HLS_SECTIONS = ("ReportVersion", "UserAssignments", "PerformanceEstimates", "AreaEstimates")
# Where an hls_synth payload holds its figures (csynth.xml's own section names): the table, the
# runs table and compare's metrics all read them through these
LATENCY = ("PerformanceEstimates", "SummaryOfOverallLatency")
TIMING = ("PerformanceEstimates", "SummaryOfTimingAnalysis")
AREA = "AreaEstimates"  # its "Resources" (used) and "AvailableResources" (the part's)


class RunFacts(TypedDict):
    target: str
    device: str
    vitis_version: str
    runtime_seconds: float | None


class ProblemId(TypedDict):
    suite: str
    group_path: list[str]


class Variant(TypedDict):
    index: int
    name: str


class Implementation(TypedDict):
    origin: str
    origin_version: str | None
    origin_meta: NotRequired[dict[str, Any] | None]
    variant: Variant


class Envelope(TypedDict):
    """The part of a record every report type shares; the payload sits beside it under the
    report type's own name (`"hls_synth": {...}`), which a TypedDict cannot spell."""

    schema_version: str
    report_type: str
    run: RunFacts
    problem: ProblemId
    implementation: Implementation


def make_record(report_type: str, run: RunFacts, identity: Any, payload: dict[str, Any]) -> dict[str, Any]:
    envelope = Envelope(
        schema_version=SCHEMA_VERSION,
        report_type=report_type,
        run=run,
        problem=identity.problem,
        implementation=identity.implementation,
    )
    return {**envelope, report_type: payload}


def hls_synth_payload(status: str, sections: dict[str, Any] | None) -> dict[str, Any]:
    if sections is None:
        return {"status": status, **{name: None for name in HLS_SECTIONS}}
    return {"status": status, **{name: sections[name] for name in HLS_SECTIONS}}


def rtl_sim_payload(status: str, cycles: int | None, us: float | None, mhz: float | None) -> dict[str, Any]:
    return {"status": status, "kernel_runtime_cycles": cycles, "kernel_runtime_us": us, "kernel_clock_freq_mhz": mhz}


class RecordKey(NamedTuple):
    """The identity of a record: one line per key in a file, and the handle that dedupe, sort
    order, marks and detail look-ups all use. Extension records add their subject (the port
    file, recipe or DFG inside the project). A tuple: made, hashed and compared at C speed (a
    browse of 100,000 records makes one per row; a frozen dataclass cost 8 us a row to make and
    hash); ordered by `order`, never as a plain tuple (a null origin_version sorts first)."""

    suite: str
    group_path: tuple[str, ...]
    origin: str
    origin_version: str | None
    variant_index: int
    variant_name: str
    report_type: str
    target: str
    device: str
    subject: str = ""

    @property
    def order(self) -> tuple[Any, ...]:
        """The file's sort order, as a plain tuple so that sorting compares at C speed: a null
        origin_version first; strings by code point."""
        suite, group, origin, version, *rest = self
        return (suite, group, origin, (0, "") if version is None else (1, version), *rest)

    def __lt__(self, other: tuple[Any, ...]) -> bool:
        return self.order < _order_of(other)

    def __le__(self, other: tuple[Any, ...]) -> bool:
        return self.order <= _order_of(other)

    def __gt__(self, other: tuple[Any, ...]) -> bool:
        return self.order > _order_of(other)

    def __ge__(self, other: tuple[Any, ...]) -> bool:
        return self.order >= _order_of(other)

    def label(self) -> str:
        """The key as one line of text (for row keys and messages)."""
        version = "" if self.origin_version is None else f"@{self.origin_version}"
        subject = f" {self.subject}" if self.subject else ""
        return (
            f"{self.suite}/{'/'.join(self.group_path)} {self.origin}{version} "
            f"{self.variant_index}_{self.variant_name} {self.report_type} {self.target} {self.device}{subject}"
        )


def sort_order(key: RecordKey) -> tuple[Any, ...]:
    return key.order


def _order_of(other: tuple[Any, ...]) -> tuple[Any, ...]:
    return other.order if isinstance(other, RecordKey) else other


def _text(value: Any) -> str:
    """A key's string field, interned: the many keys of a large file share each spelling."""
    return intern(value) if type(value) is str else "" if value is None else intern(str(value))


_GROUPS: dict[tuple[str, ...], tuple[str, ...]] = {}  # group paths seen: one tuple per spelling
_GROUPS_KEPT = 4096  # a bound, for a long session's many trees


def _group(parts: tuple[str, ...]) -> tuple[str, ...]:
    found = _GROUPS.get(parts)
    if found is None:
        if len(_GROUPS) >= _GROUPS_KEPT:
            _GROUPS.clear()
        found = _GROUPS[parts] = parts
    return found


# Where each field that keys, lists and compares a record lies in it: the one list that the
# readers of a parsed record (`fields_reader`) and of a line decoded straight into structs
# (collectors/records/quick.py) follow. The payload's own fields are under its report type.
FIELD_PATHS: dict[str, tuple[str, ...]] = {
    "type": ("report_type",),
    "suite": ("problem", "suite"),
    "group_path": ("problem", "group_path"),
    "origin": ("implementation", "origin"),
    "origin_version": ("implementation", "origin_version"),
    "origin_meta": ("implementation", "origin_meta"),
    "index": ("implementation", "variant", "index"),
    "variant_name": ("implementation", "variant", "name"),
    "target": ("run", "target"),
    "device": ("run", "device"),
    "vitis": ("run", "vitis_version"),
    "runtime": ("run", "runtime_seconds"),
    "latency": ("hls_synth", *LATENCY, "Worst-caseLatency"),
    "interval": ("hls_synth", *LATENCY, "Interval-max"),
    "clock": ("hls_synth", *TIMING, "EstimatedClockPeriod"),
    "lut": ("hls_synth", AREA, "Resources", "LUT"),
    "ff": ("hls_synth", AREA, "Resources", "FF"),
    "dsp": ("hls_synth", AREA, "Resources", "DSP"),
    "bram": ("hls_synth", AREA, "Resources", "BRAM_18K"),
    "uram": ("hls_synth", AREA, "Resources", "URAM"),
    "part": ("hls_synth", "UserAssignments", "Part"),
    "top": ("hls_synth", "UserAssignments", "TopModelName"),
    "cycles": ("rtl_sim", "kernel_runtime_cycles"),
    "us": ("rtl_sim", "kernel_runtime_us"),
    "mhz": ("rtl_sim", "kernel_clock_freq_mhz"),
}
KeyFields = tuple[str, tuple[str, ...], str, str | None, int, str, str, str, str, str]  # RecordKey's, in order
KEY_FIELDS = ("suite", "group_path", "origin", "origin_version", "index", "variant_name", "type", "target", "device")


def fields_reader(names: tuple[str, ...]) -> Callable[[Any], list[Any]]:
    """A function that reads the named fields (FIELD_PATHS) of a parsed record, in that order:
    None where a step is missing or not an object (records from other producers may hold any
    shape). Each object on the way is looked into once, whatever number of fields lie below."""
    slots = {name: n for n, name in enumerate(names)}
    tree: dict[str, Any] = {}
    for name in names:
        *steps, last = FIELD_PATHS[name]
        node = tree
        for step in steps:
            node = node.setdefault(step, {})
        node[last] = slots[name]
    visit = _visitor(tree)

    def read(record: Any) -> list[Any]:
        found: list[Any] = [None] * len(names)
        if isinstance(record, dict):
            visit(record, found)
        return found

    return read


def _visitor(tree: dict[str, Any]) -> Callable[[dict[str, Any], list[Any]], None]:
    leaves = [(name, slot) for name, slot in tree.items() if isinstance(slot, int)]
    below = [(name, _visitor(sub)) for name, sub in tree.items() if isinstance(sub, dict)]

    def visit(value: dict[str, Any], found: list[Any]) -> None:
        get = value.get
        for name, slot in leaves:
            found[slot] = get(name)
        for name, deeper in below:
            item = get(name)
            if isinstance(item, dict):
                deeper(item, found)

    return visit


_KEY_FIELDS = fields_reader(KEY_FIELDS)
_KIND = KEY_FIELDS.index("type")


def key_of(record: dict[str, Any]) -> RecordKey:
    """The key of any record, ours or another producer's: missing or odd-typed parts give empty
    values (a line the schema refuses still has a key, so that it can be shown and marked)."""
    return RecordKey(*key_fields(record))


def key_fields(record: dict[str, Any]) -> KeyFields:
    """The fields of a record's key, as RecordKey takes them."""
    found = _KEY_FIELDS(record)
    kind = found[_KIND]
    subject = as_dict(record.get(kind)).get("subject") if kind in EXTENSION_TYPES else ""
    return key_fields_of(found, subject)


def key_fields_of(found: list[Any] | tuple[Any, ...], subject: Any = "") -> KeyFields:
    """The fields of a key from the KEY_FIELDS of a record as found (any JSON value, in that
    order) and its subject. A plain tuple: what a child process hands back for each row.
    keys_of_many gives the same over many records at once: a change here is a change there."""
    suite, group, origin, version, index, name, kind, target, device = found
    try:  # the usual record: text where text belongs (intern refuses anything else)
        return (
            intern(suite),
            _group(tuple(map(intern, group)) if type(group) is list else (intern(group),)),
            intern(origin),
            None if version is None else intern(version),
            index if type(index) is int else -1,
            intern(name),
            intern(kind),
            intern(target),
            intern(device),
            intern(subject),
        )
    except TypeError:
        pass
    return (
        _text(suite),
        _group(tuple(map(_text, group)) if isinstance(group, list) else (_text(group),)),
        _text(origin),
        None if version is None else _text(version),
        index if isinstance(index, int) and not isinstance(index, bool) else -1,
        _text(name),
        _text(kind),
        _text(target),
        _text(device),
        _text(subject),
    )


def keys_of_many(found: Sequence[Sequence[Any]]) -> list[KeyFields]:
    """key_fields_of over many records at once (none of them an extension record), from their
    KEY_FIELDS as columns (each a value per record, in KEY_FIELDS order): each distinct spelling
    interned once, at C speed, where every field holds text where text belongs; one by one
    otherwise."""
    suite, group, origin, version, index, name, kind, target, device = found
    try:
        return list(
            zip(
                _interned(suite),
                _groups(group),
                _interned(origin),
                _interned(version, nullable=True),
                [number if type(number) is int else -1 for number in index],
                _interned(name),
                _interned(kind),
                _interned(target),
                _interned(device),
                repeat(""),
            )
        )
    except TypeError:  # (intern refuses anything but text; a list is no key of a dict)
        return [key_fields_of(fields) for fields in zip(*found)]


def _interned(values: Sequence[Any], nullable: bool = False) -> list[Any]:
    """Each value interned (TypeError where one is not text, or null where `nullable`)."""
    spelled: dict[Any, Any] = dict.fromkeys(values)
    for value in spelled:
        if value is not None or not nullable:
            spelled[value] = intern(value)
    return list(map(spelled.__getitem__, values))


def _groups(groups: Sequence[Any]) -> list[tuple[str, ...]]:
    """Each group path as key_fields_of gives it (TypeError where a part is not text)."""
    parts = [tuple(group) if type(group) is list else (group,) for group in groups]
    spelled: dict[tuple[Any, ...], Any] = dict.fromkeys(parts)
    for value in spelled:
        spelled[value] = _group(tuple(map(intern, value)))
    return list(map(spelled.__getitem__, parts))


def as_dict(value: Any) -> dict[str, Any]:
    """A JSON object, or {} for anything else: records from other producers may hold any shape."""
    return value if isinstance(value, dict) else {}


# (one encoder for every record: json.dumps with options makes a new one each call)
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def dumps(record: dict[str, Any]) -> str:
    """Strict JSON: NaN and Infinity raise ValueError instead of writing what JSON does not allow."""
    return _ENCODER.encode(record)
