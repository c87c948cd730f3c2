"""`<top>_cosim.rpt`: the co-simulation summary table, one row per RTL language."""

from __future__ import annotations

import re
from typing import Any

from collectors.files import decode_text
from collectors.numbers import CYCLES, lenient
from collectors.problems import ArtifactError

_ROW = re.compile(r"^\|\s*(VHDL|Verilog|SystemC)\s*\|\s*([A-Za-z]+)\s*\|(.*)\|\s*$")
_STATUS = {"pass": "pass", "fail": "fail"}
# since 2020.1 a ninth column: the whole run's clock cycles (lat.rpt's $TOTAL_EXECUTE_TIME)
TOTAL_COLUMN = "Total Execution Time"
CELLS_WITH_TOTAL = 7


def parse_cosim_rpt(data: bytes) -> dict[str, Any]:
    """Return per-language rows, the overall status (`pass`, `fail`, or None when all NA) and,
    where the report has the column, the clock cycles of the whole run."""
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
    issues: list[str] = []
    cycles = _total_cycles(rows, issues) if TOTAL_COLUMN in text else None
    return {"rows": rows, "status": status, "total_execution_cycles": cycles, "issues": issues}


def _total_cycles(rows: dict[str, dict[str, Any]], issues: list[str]) -> int | None:
    """The last column of the first passing row (Verilog first, as lat.rpt is read)."""
    for language in ("Verilog", "VHDL", "SystemC"):
        row = rows.get(language)
        if row is not None and row["status"].lower() == "pass" and len(row["cells"]) == CELLS_WITH_TOTAL:
            found = lenient(row["cells"][-1], "Total Execution Time (clock cycles)", CYCLES, issues)
            return None if found is None else int(found)
    return None
