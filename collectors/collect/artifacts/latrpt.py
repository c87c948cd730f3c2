"""`lat.rpt` from C/RTL co-simulation: `$NAME = "value"` lines."""

from __future__ import annotations

import re
from typing import Any

from collectors.files import decode_text
from collectors.numbers import CYCLES, lenient
from collectors.problems import ArtifactError

_LINE = re.compile(r'^\$(\w+)\s*=\s*"([^"]*)"$')


def parse_lat_rpt(data: bytes) -> dict[str, Any]:
    """Return every `$NAME` value and `total_execute_time` (int, or None before 2020.1).

    A total that is not a number (or out of range) is null and an issue; `NA` is silently null."""
    values: dict[str, str] = {}
    for number, raw in enumerate(decode_text(data).splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        match = _LINE.match(line)
        if match is None:
            raise ArtifactError(f"line {number} is not a '$NAME = \"value\"' line (file cut short?)")
        values[match.group(1)] = match.group(2)
    if not values:
        raise ArtifactError("no latency values")
    issues: list[str] = []
    cycles = lenient(values.get("TOTAL_EXECUTE_TIME"), "$TOTAL_EXECUTE_TIME", CYCLES, issues)
    return {"values": values, "total_execute_time": cycles, "issues": issues}
