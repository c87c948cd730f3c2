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
