"""The record model: envelope, payload shapes, record key, sort order and JSON form."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from sys import intern
from typing import Any, NotRequired, TypedDict

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


@dataclass(frozen=True, slots=True)
class RecordKey:
    """The identity of a record: one line per key in a file, and the handle that dedupe, sort
    order, marks and detail look-ups all use. Extension records add their subject (the port
    file, recipe or DFG inside the project). Slotted: a browse of 100,000 records holds one per row."""

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
    _order: tuple[Any, ...] | None = field(default=None, init=False, repr=False, compare=False, hash=False)
    _hash: int | None = field(default=None, init=False, repr=False, compare=False, hash=False)

    def __hash__(self) -> int:
        """Kept once made: a large file's rows are looked up by key (dedupe, marks) many times."""
        found = self._hash
        if found is None:
            found = hash(self._fields())
            object.__setattr__(self, "_hash", found)
        return found

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.suite,
            self.group_path,
            self.origin,
            self.origin_version,
            self.variant_index,
            self.variant_name,
            self.report_type,
            self.target,
            self.device,
            self.subject,
        )

    def __reduce__(self) -> tuple[type[RecordKey], tuple[Any, ...]]:
        # made afresh in another process: string hashes differ between processes
        return RecordKey, self._fields()

    @property
    def order(self) -> tuple[Any, ...]:
        """The file's sort order, as a plain tuple so that sorting compares at C speed: a null
        origin_version first; strings by code point. Made when first asked for (a browse that
        keeps file order never needs it), then kept."""
        order = self._order
        if order is None:
            suite, group, origin, _version, *rest = self._fields()
            version = (0, "") if self.origin_version is None else (1, self.origin_version)
            order = (suite, group, origin, version, *rest)
            object.__setattr__(self, "_order", order)
        return order

    def __lt__(self, other: RecordKey) -> bool:
        return self.order < other.order

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


def key_of(record: dict[str, Any]) -> RecordKey:
    """The key of any record, ours or another producer's: missing or odd-typed parts give empty
    values (a line the schema refuses still has a key, so that it can be shown and marked)."""
    problem, impl, run = (
        as_dict(record.get("problem")),
        as_dict(record.get("implementation")),
        as_dict(record.get("run")),
    )
    variant = as_dict(impl.get("variant"))
    report_type = _text(record.get("report_type"))
    group = problem.get("group_path")
    index = variant.get("index")
    version = impl.get("origin_version")
    subject = as_dict(record.get(report_type)).get("subject") if report_type in EXTENSION_TYPES else ""
    return RecordKey(
        suite=_text(problem.get("suite")),
        group_path=_group(tuple(map(_text, group)) if isinstance(group, list) else (_text(group),)),
        origin=_text(impl.get("origin")),
        origin_version=None if version is None else _text(version),
        variant_index=index if isinstance(index, int) and not isinstance(index, bool) else -1,
        variant_name=_text(variant.get("name")),
        report_type=report_type,
        target=_text(run.get("target")),
        device=_text(run.get("device")),
        subject=_text(subject),
    )


def as_dict(value: Any) -> dict[str, Any]:
    """A JSON object, or {} for anything else: records from other producers may hold any shape."""
    return value if isinstance(value, dict) else {}


def dumps(record: dict[str, Any]) -> str:
    """Strict JSON: NaN and Infinity raise ValueError instead of writing what JSON does not allow."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
