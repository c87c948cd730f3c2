"""The record model: envelope, payload shapes, record key, sort order and JSON form."""

from __future__ import annotations

import json
from typing import Any

SCHEMA_VERSION = "1.0"
REPORT_TYPES = ("sw_run", "hls_synth", "rtl_sim")
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


def make_record(report_type: str, run: dict[str, Any], identity: Any, payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "report_type": report_type,
        "run": run,
        "problem": identity.problem,
        "implementation": identity.implementation,
        report_type: payload,
    }


def hls_synth_payload(status: str, sections: dict[str, Any] | None) -> dict[str, Any]:
    if sections is None:
        return {"status": status, **{name: None for name in HLS_SECTIONS}}
    return {"status": status, **{name: sections[name] for name in HLS_SECTIONS}}


def rtl_sim_payload(status: str, cycles: int | None, us: float | None, mhz: float | None) -> dict[str, Any]:
    return {"status": status, "kernel_runtime_cycles": cycles, "kernel_runtime_us": us, "kernel_clock_freq_mhz": mhz}


def record_key(record: dict[str, Any]) -> tuple:
    """The identity of a line (rules, section 6), ordered as the file is sorted.

    A null origin_version sorts before any string; strings compare by code point.
    """
    problem, impl, run = record["problem"], record["implementation"], record["run"]
    version = impl.get("origin_version")
    variant = impl["variant"]
    return (
        problem["suite"],
        tuple(problem["group_path"]),
        impl["origin"],
        (0, "") if version is None else (1, version),
        variant["index"],
        variant["name"],
        record["report_type"],
        run["target"],
        run["device"],
    )


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
