"""`<top>_cosim.rpt`: the co-simulation summary table, one row per RTL language."""

from __future__ import annotations

import re
from typing import Any

from collectors.files import decode_text
from collectors.problems import ArtifactError

_ROW = re.compile(r"^\|\s*(VHDL|Verilog|SystemC)\s*\|\s*([A-Za-z]+)\s*\|(.*)\|\s*$")
_STATUS = {"pass": "pass", "fail": "fail"}
_FINISHED = re.compile(r"co-simulation finished: (PASS|FAIL)")


def parse_cosim_rpt(data: bytes) -> dict[str, Any]:
    """Return per-language rows and the overall status (`pass`, `fail`, or None when all NA).
    Its Total Execution Time column (2020.1+) gives no cycles: they come only from lat.rpt
    (rules 5: no other figure stands in for it)."""
    rows: dict[str, dict[str, Any]] = {}
    closed = False
    text = decode_text(data)
    for raw in text.splitlines():
        line = raw.strip()
        match = _ROW.match(line)
        if match:
            cells = [cell.strip() for cell in match.group(3).split("|")]
            rows[match.group(1)] = {"status": match.group(2), "cells": cells}
            closed = False
        elif rows and line.startswith("+-"):
            closed = True
    if not rows:
        raise ArtifactError("no RTL result rows (not a cosim report, or cut short)")
    if not closed:
        raise ArtifactError("result table is not closed (file cut short?)")
    statuses = {row["status"].lower() for row in rows.values()}
    status = "fail" if "fail" in statuses else "pass" if "pass" in statuses else None
    return {"rows": rows, "status": status}


_TOTAL_AT = 6  # (2020.1+) Total Execution Time: after latency and interval, min, avg and max


def total_cycles(facts: dict[str, Any]) -> set[str]:
    """The Total Execution Time of each language that ran (none before 2020.1)."""
    return {
        row["cells"][_TOTAL_AT]
        for row in facts.get("rows", {}).values()
        if row["status"].lower() in _STATUS and len(row["cells"]) > _TOTAL_AT
    }


def figureless_passes(facts: dict[str, Any]) -> list[str]:
    """The languages (folder names: `verilog`, `vhdl`) a report says passed with no figure at all
    (every cell `NA`): Vivado HLS writes that after `cosim_design -setup`, which only generates
    the files, and after a simulator that crashed (the simulation's own log then tells)."""
    return [
        language.lower()
        for language, row in facts.get("rows", {}).items()
        if row["status"].lower() == "pass" and all(cell.upper() == "NA" for cell in row["cells"])
    ]


def parse_cosim_sim_log(data: bytes) -> dict[str, Any]:
    """A co-simulation's own log (`sim/report/<language>/<top>.log`): how its last simulation
    ended, `pass` or `fail`; None where none finished (a `-setup` run stops at `C/RTL
    co-simulation file generation completed`)."""
    found = _FINISHED.findall(decode_text(data))
    return {"verdict": found[-1].lower() if found else None}
