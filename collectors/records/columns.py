"""Column extraction: the one reader of a record's figures for the records table, the runs
table (tui/widgets/figures.py) and every export. Each column's value is found by its key (see
fields.py for the list), so that no list of values is ever matched by position.
"""

from __future__ import annotations

import json
from operator import itemgetter
from typing import Any

from collectors.numbers import number_or_none
from collectors.records.fields import FIELDS, META_PREFIX
from collectors.records.model import EXTENSION_TYPES, as_dict
from collectors.records.validate import extra_fields

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


COLUMNS = FIELDS  # the columns, in the order `extract` gives their values
KEYS = tuple(column.key for column in COLUMNS)
_IN_ORDER = itemgetter(*KEYS)


def note(record: dict, extras: list[tuple[str, Any]]) -> str | None:
    """What a producer wrote in its payload beyond the contract, as text (a failed build's `error`)."""
    kind = record.get("report_type")
    texts = [value for path, value in extras if path.startswith(f"{kind}.") and isinstance(value, str) and value]
    return "; ".join(texts) if texts else None


# Where an hls_synth payload holds its figures (csynth.xml's own section names): the table, the
# runs table and compare's metrics all read them through these and `section`.
LATENCY = ("PerformanceEstimates", "SummaryOfOverallLatency")
TIMING = ("PerformanceEstimates", "SummaryOfTimingAnalysis")
AREA = "AreaEstimates"  # its "Resources" (used) and "AvailableResources" (the part's)


def section(payload: Any, path: tuple[str, ...]) -> dict[str, Any]:
    """The dict at `path` inside a payload; empty where any step is missing or not a dict (a
    record from another producer may lack any part)."""
    for name in path:
        payload = as_dict(payload).get(name)
    return as_dict(payload)


def synth_figures(record: dict) -> dict[str, Any]:
    """An hls_synth record's worst-case latency, maximum interval, estimated clock, LUT, FF, DSP,
    BRAM_18K and URAM (None where missing), by column key; also the runs table's figures."""
    synth = as_dict(record.get("hls_synth"))
    performance = as_dict(synth.get(LATENCY[0]))  # (LATENCY and TIMING, one step at a time: every line of a file)
    latency = as_dict(performance.get(LATENCY[1]))
    resources = as_dict(as_dict(synth.get(AREA)).get("Resources"))
    return {
        "latency": latency.get("Worst-caseLatency"),
        "interval": latency.get("Interval-max"),
        "clock": as_dict(performance.get(TIMING[1])).get("EstimatedClockPeriod"),
        "lut": resources.get("LUT"),
        "ff": resources.get("FF"),
        "dsp": resources.get("DSP"),
        "bram": resources.get("BRAM_18K"),
        "uram": resources.get("URAM"),
    }


def rtl_figures(record: dict) -> dict[str, Any]:
    """An rtl_sim record's kernel runtime in cycles and in microseconds and its clock, by column key."""
    rtl = as_dict(record.get("rtl_sim"))
    return {
        "cycles": rtl.get("kernel_runtime_cycles"),
        "us": rtl.get("kernel_runtime_us"),
        "mhz": rtl.get("kernel_clock_freq_mhz"),
    }


def extract(record: dict, extras: list[tuple[str, Any]] | None = None) -> tuple[Any, ...]:
    """The value of every column, in COLUMNS order, each found by its column key (never by its
    place in a list). Records from other producers may lack any part, so every step tolerates a
    missing or odd-typed object (one pass: this runs for every line of a large file). `extras`:
    the record's fields the schema does not name, when the caller has them already."""
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
    values = synth_figures(record)
    values.update(rtl_figures(record))
    values.update(
        type=kind,
        suite=problem.get("suite"),
        group="/".join(map(str, group)) if isinstance(group, list) else group,
        variant=f"{variant.get('index')}_{variant.get('name')}",
        origin=impl.get("origin"),
        origin_version=impl.get("origin_version"),
        target=run.get("target"),
        device=run.get("device"),
        vitis=run.get("vitis_version"),
        status=payload.get("status"),
        runtime=run.get("runtime_seconds"),
        part=assignments.get("Part"),
        top=assignments.get("TopModelName"),
        index=variant.get("index"),
        summary=extension_summary(record) if kind in EXTENSION_TYPES else None,
        note=note(record, extra_fields(record) if extras is None else extras),
    )
    return _IN_ORDER(values)


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
    return cell_text(value)


POSITION = {column.key: n for n, column in enumerate(COLUMNS)}
# repeated values share one string (numbers too: a report's figures repeat across variants)
INTERNED = frozenset(n for n, column in enumerate(COLUMNS) if column.key not in ("summary", "note"))
ALIASED = {"suite": POSITION["suite"], "group": POSITION["group"], "device": POSITION["device"]}


def cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value) if not value.is_integer() else f"{value:.1f}"
    return str(value)


def float_or_nan(value: Any) -> float:
    if type(value) is str and value.isascii() and value.isdigit():
        return float(value)  # the common cell (cycles, LUT), at C speed
    found = number_or_none(value)
    return NAN if found is None else float(found)  # "undef", "" and the like: no number
