"""Key figures of a run for the tables: pulled from its records, shown exactly as reported."""

from __future__ import annotations

from typing import Any

FIGURE_COLUMNS = ("latency", "clock", "LUT", "FF", "DSP", "BRAM", "RTL")
SHORT_TYPE = {"hls_synth": "synth", "rtl_sim": "rtl", "sw_run": "sw"}


def _dig(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def run_figures(records: list[dict[str, Any]]) -> dict[str, str]:
    """Worst-case latency, estimated clock, resources and RTL runtime, as strings ('' if none)."""
    out = {name: "" for name in FIGURE_COLUMNS}
    for record in records:
        if record["report_type"] == "hls_synth":
            synth = record["hls_synth"]
            out["latency"] = _dig(synth, "PerformanceEstimates", "SummaryOfOverallLatency", "Worst-caseLatency") or ""
            out["clock"] = _dig(synth, "PerformanceEstimates", "SummaryOfTimingAnalysis", "EstimatedClockPeriod") or ""
            for column, key in (("LUT", "LUT"), ("FF", "FF"), ("DSP", "DSP"), ("BRAM", "BRAM_18K")):
                out[column] = _dig(synth, "AreaEstimates", "Resources", key) or ""
        elif record["report_type"] == "rtl_sim":
            rtl = record["rtl_sim"]
            if rtl["kernel_runtime_cycles"] is not None:
                out["RTL"] = f"{rtl['kernel_runtime_cycles']} cyc"
            elif rtl["kernel_runtime_us"] is not None:
                out["RTL"] = f"{rtl['kernel_runtime_us']:g} us"
    return out


def statuses(records: list[dict[str, Any]]) -> str:
    """'synth:pass rtl:fail' for a run's records, or 'waiting' when it has none yet."""
    return " ".join(f"{SHORT_TYPE[r['report_type']]}:{r[r['report_type']]['status']}" for r in records) or "waiting"


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
        return (f"{verdict}, {len(warnings)} schema warnings, {payload.get('runs')} runs in "
                f"{payload.get('cpu_runlists')} cpu + {payload.get('npu_runlists')} npu runlists")
    if kind == "cgra_map":
        edges = payload.get("edges") or {}
        timing = payload.get("timing") or {}
        config = payload.get("config") or {}
        snapshots = payload.get("snapshots") or []
        parts = [f"{payload.get('state')}: {payload.get('mapped_nodes')} nodes mapped",
                 f"edges {edges.get('routed', 0)} routed / {edges.get('unrouted', 0)} unrouted"]
        if timing:
            parts.append(f"II {timing.get('initiation_interval')}")
        if config:
            complete = "" if config.get("complete") else " (incomplete)"
            parts.append(f"{config.get('word_count')} config words{complete}")
        if snapshots:
            parts.append(f"snapshot #{snapshots[-1]['sequence']} {snapshots[-1]['trigger']}")
        return ", ".join(parts)
    return ""
