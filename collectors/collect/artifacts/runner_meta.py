"""Runner metadata `vitis_run.meta` / `vitis_run.<name>.meta`: `key=value` lines."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from collectors.files import decode_text
from collectors.numbers import SECONDS, NumberError, checked
from collectors.records.model import REPORT_TYPES, TARGET_REPORTS

STATUSES = ("pass", "fail", "timeout")
MAX_ISSUES = 3  # a file that is not runner metadata at all must not be echoed line by line
EXCERPT = 40  # characters of an offending line quoted


def _target(value: str) -> tuple[str | None, str | None]:
    target = value if value.startswith("vitis.") else f"vitis.{value}"
    return (target, None) if target in TARGET_REPORTS else (None, f"unknown target {value!r}")


def _named(key: str) -> Callable[[str], tuple[str | None, str | None]]:
    return lambda value: (value, None) if value else (None, f"empty {key}")


def _seconds(value: str) -> tuple[float | None, str | None]:
    try:
        return checked(value, "runtime_seconds", SECONDS), None
    except NumberError as exc:
        return None, str(exc)


def _status(value: str) -> tuple[str | None, str | None]:
    if value.lower() in STATUSES:
        return value.lower(), None
    return None, f"status {value!r} is not pass, fail or timeout"


def _report_type(value: str) -> tuple[str | None, str | None]:
    return (value, None) if value in REPORT_TYPES else (None, f"unknown report_type {value!r}")


# each known key's reading: (the fact, or None) and (what is wrong, or None)
READERS: dict[str, Callable[[str], tuple[Any, str | None]]] = {
    "target": _target,
    "device": _named("device"),
    "vitis_version": _named("vitis_version"),
    "runtime_seconds": _seconds,
    "status": _status,
    "report_type": _report_type,
}


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
        elif key not in READERS:
            extra[key] = value
        else:
            fact, wrong = READERS[key](value)
            if wrong is not None:
                issues.append(f"line {number}: {wrong}")
            elif fact is not None:
                facts[key] = fact
    if len(issues) > MAX_ISSUES:
        issues[MAX_ISSUES:] = [f"{len(issues) - MAX_ISSUES} more malformed lines not shown"]
    return {"facts": facts, "extra": extra, "issues": issues}
