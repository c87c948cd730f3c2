"""Runner metadata `vitis_run.meta` / `vitis_run.<name>.meta`: `key=value` lines."""

from __future__ import annotations

import math
from typing import Any

from ..files import decode_text
from ..records.model import REPORT_TYPES, TARGET_REPORTS

STATUSES = ("pass", "fail", "timeout")


def parse_runner_meta(data: bytes) -> dict[str, Any]:
    """Return the known facts, unknown keys for display, and one message per malformed line.

    A malformed value is dropped and reported; it never stops the file from being used.
    """
    facts: dict[str, Any] = {}
    extra: dict[str, str] = {}
    issues: list[str] = []
    for number, raw in enumerate(decode_text(data).splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            issues.append(f"line {number}: expected key=value, got {line[:60]!r}")
            continue
        if key == "target":
            target = value if value.startswith("vitis.") else f"vitis.{value}"
            if target in TARGET_REPORTS:
                facts[key] = target
            else:
                issues.append(f"line {number}: unknown target {value!r}")
        elif key in ("device", "vitis_version"):
            if value:
                facts[key] = value
            else:
                issues.append(f"line {number}: empty {key}")
        elif key == "runtime_seconds":
            try:
                seconds = float(value)
            except ValueError:
                seconds = math.nan
            if math.isfinite(seconds) and seconds >= 0:
                facts[key] = seconds
            else:
                issues.append(f"line {number}: runtime_seconds {value!r} is not a non-negative number")
        elif key == "status":
            if value.lower() in STATUSES:
                facts[key] = value.lower()
            else:
                issues.append(f"line {number}: status {value!r} is not pass, fail or timeout")
        elif key == "report_type":
            if value in REPORT_TYPES:
                facts[key] = value
            else:
                issues.append(f"line {number}: unknown report_type {value!r}")
        else:
            extra[key] = value
    return {"facts": facts, "extra": extra, "issues": issues}
