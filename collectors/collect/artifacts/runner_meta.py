"""Runner metadata `vitis_run.meta` / `vitis_run.<name>.meta`: `key=value` lines."""

from __future__ import annotations

from typing import Any

from collectors.files import decode_text
from collectors.numbers import SECONDS, NumberError, checked
from collectors.records.model import REPORT_TYPES, TARGET_REPORTS

STATUSES = ("pass", "fail", "timeout")
MAX_ISSUES = 3  # a file that is not runner metadata at all must not be echoed line by line
EXCERPT = 40  # characters of an offending line quoted


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
            issues.append(f"line {number}: expected key=value, got {line[:EXCERPT]!r}")
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
                seconds = checked(value, "runtime_seconds", SECONDS)
            except NumberError as exc:
                issues.append(f"line {number}: {exc}")
                continue
            if seconds is not None:
                facts[key] = seconds
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
    if len(issues) > MAX_ISSUES:
        issues[MAX_ISSUES:] = [f"{len(issues) - MAX_ISSUES} more malformed lines not shown"]
    return {"facts": facts, "extra": extra, "issues": issues}
