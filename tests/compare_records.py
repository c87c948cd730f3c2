"""Contract-valid records for the comparison's tests: one hls_synth, rtl_sim or sw_run line each,
with the figures a test names and everything else the schema requires."""

from __future__ import annotations

import json
from typing import Any

from collectors.records.model import rtl_sim_payload


def _envelope(
    kind: str,
    target: str,
    group: str,
    origin: str,
    index: int,
    name: str,
    version: str | None = None,
    meta: dict | None = None,
) -> dict[str, Any]:
    return {
        "schema_version": "1.0",
        "report_type": kind,
        "run": {"target": target, "device": "xcu280", "vitis_version": "2023.2", "runtime_seconds": None},
        "problem": {"suite": "s", "group_path": [group]},
        "implementation": {
            "origin": origin,
            "origin_version": version,
            "origin_meta": meta or {},
            "variant": {"index": index, "name": name},
        },
    }


def synth(
    group: str,
    origin: str,
    index: int = 0,
    worst: Any = None,
    status: str = "pass",
    lut: str = "100",
    clock: str = "2.5",
    name: str = "v",
    interval: Any = None,
    **identity: Any,
) -> dict[str, Any]:
    record = _envelope("hls_synth", "vitis.csynth", group, origin, index, name, **identity)
    if status != "pass":
        record["hls_synth"] = {
            "status": status,
            "ReportVersion": None,
            "UserAssignments": None,
            "PerformanceEstimates": None,
            "AreaEstimates": None,
        }
        return record
    record["hls_synth"] = {
        "status": "pass",
        "ReportVersion": {"Version": "2023.2"},
        "UserAssignments": {
            "unit": "ns",
            "ProductFamily": "virtexuplusHBM",
            "Part": "xcu280-fsvh2892-2L-e",
            "TopModelName": "k",
            "TargetClockPeriod": "3.33",
            "ClockUncertainty": "0.90",
            "FlowTarget": "vitis",
        },
        "PerformanceEstimates": {
            "SummaryOfTimingAnalysis": {"unit": "ns", "EstimatedClockPeriod": clock},
            "SummaryOfOverallLatency": {
                "unit": "clock cycles",
                "Worst-caseLatency": str(worst),
                "Average-caseLatency": str(worst),
                "Best-caseLatency": str(worst),
                "Best-caseRealTimeLatency": "undef",
                "Average-caseRealTimeLatency": "undef",
                "Worst-caseRealTimeLatency": "undef",
                "Interval-min": str(interval if interval is not None else worst),
                "Interval-max": str(interval if interval is not None else worst),
            },
        },
        "AreaEstimates": {
            "Resources": {"LUT": lut, "FF": "0", "DSP": "0", "BRAM_18K": "0", "URAM": "0"},
            "AvailableResources": {"LUT": "1000", "FF": "1", "DSP": "1", "BRAM_18K": "1", "URAM": "1"},
        },
    }
    return record


def cosim(
    group: str, origin: str, index: int = 0, cycles: int | None = None, status: str = "pass", **identity: Any
) -> dict[str, Any]:
    record = _envelope("rtl_sim", "vitis.cosim", group, origin, index, "v", **identity)
    record["rtl_sim"] = rtl_sim_payload(status, cycles, None, None)
    return record


def csim(group: str, origin: str, index: int = 0, status: str = "pass") -> dict[str, Any]:
    record = _envelope("sw_run", "vitis.csim", group, origin, index, "v")
    record["sw_run"] = {"status": status}
    return record


def hwemu(group: str, origin: str, index: int = 0, cycles: int | None = None, status: str = "pass") -> dict[str, Any]:
    record = _envelope("rtl_sim", "vitis.hw_emu", group, origin, index, "v")
    record["rtl_sim"] = rtl_sim_payload(status, cycles, None, None)
    return record


def lines(records: list[dict[str, Any]]) -> str:
    """The records as a JSONL file's text."""
    return "".join(json.dumps(r) + "\n" for r in records)
