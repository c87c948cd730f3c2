"""Key figures of a run for the tables: pulled from its records, shown exactly as reported."""

from __future__ import annotations

from typing import Any

from collectors.records.columns import rtl_figures, synth_figures

FIGURE_COLUMNS = ("latency", "clock", "LUT", "FF", "DSP", "BRAM", "RTL")
SYNTH_FIGURES = {"latency": "latency", "clock": "clock", "LUT": "lut", "FF": "ff", "DSP": "dsp", "BRAM": "bram"}
SHORT_TYPE = {"hls_synth": "synth", "rtl_sim": "rtl", "sw_run": "sw"}


def run_figures(records: list[dict[str, Any]]) -> dict[str, str]:
    """Worst-case latency, estimated clock, resources and RTL runtime, as strings ('' if none);
    read as the records view's columns are (only the two kinds of record that hold them)."""
    out = {name: "" for name in FIGURE_COLUMNS}
    for record in records:
        if record["report_type"] == "hls_synth":
            figures = synth_figures(record)  # by column key: nothing matched by position
            out.update((name, figures[key] or "") for name, key in SYNTH_FIGURES.items())
        elif record["report_type"] == "rtl_sim":
            rtl = rtl_figures(record)
            cycles, us = rtl["cycles"], rtl["us"]
            if cycles is not None:
                out["RTL"] = f"{cycles} cyc"
            elif us is not None:
                out["RTL"] = f"{us:g} us"
    return out


def statuses(records: list[dict[str, Any]]) -> str:
    """'synth:pass rtl:fail' for a run's records, or 'waiting' when it has none yet."""
    return " ".join(f"{SHORT_TYPE[r['report_type']]}:{r[r['report_type']]['status']}" for r in records) or "waiting"
