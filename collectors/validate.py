"""Validate JSON Lines files against the shipped schema-1.0 JSON Schema."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TextIO

import fastjsonschema
from jsonschema import Draft202012Validator

from .extensions import EXTENSION_TYPES, extension_key
from .problems import Problem
from .records.model import REPORT_TYPES, dumps, record_key
from .schema import RECORDS_1_0, load_schema
from .text import encodable


def _schema_name(record: Any) -> str:
    """Extension records (AIE, XRT, LOOM) have schemas of their own; everything else is 1.0."""
    kind = record.get("report_type") if isinstance(record, dict) else None
    return f"ext-{kind}.schema.json" if kind in EXTENSION_TYPES else RECORDS_1_0


@cache
def validator(name: str = RECORDS_1_0) -> Draft202012Validator:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@cache
def _fast(name: str) -> Callable[[Any], Any]:
    return fastjsonschema.compile(load_schema(name))


def is_valid(record: Any) -> bool:
    """Quick yes/no against the schema (compiled); `record_errors` says what is wrong."""
    try:
        _fast(_schema_name(record))(record)
        return True
    except fastjsonschema.JsonSchemaException:
        return False


def json_path(parts: Iterable[Any]) -> str:
    path = "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def record_errors(record: Any) -> list[str]:
    """Every schema violation of one record, as 'JSON path: message', in a stable order."""
    messages = set()
    name = _schema_name(record)
    if isinstance(record, dict) and name == RECORDS_1_0:
        # The schema forbids these with `false` subschemas, whose errors do not name the key.
        for key in REPORT_TYPES:
            if key in record and key != record.get("report_type"):
                messages.add((f"$.{key}", "payload not allowed here: the one payload must be named by report_type"))
    for error in validator(name).iter_errors(record):
        if error.validator is not None:
            messages.add((json_path(error.absolute_path), error.message))
    return [f"{path}: {message}" for path, message in sorted(messages)]


def why_not_written(record: dict[str, Any]) -> str | None:
    """Why a record must not be written: not strict JSON, or rejected by its schema; None if fine."""
    try:
        text = dumps(record)
    except ValueError:
        return "a number that is not finite (NaN or Infinity)"
    if not encodable(text):  # a name from the tree that is not valid UTF-8 (shown escaped)
        return "a name that is not valid UTF-8 cannot be written in JSON"
    if is_valid(record):
        return None
    errors = record_errors(record)
    return errors[0] if errors else "rejected by its schema"


def keep_valid(records: list[dict[str, Any]], where: str, problems: list[Problem]) -> list[dict[str, Any]]:
    """The records that may be written; each one that may not becomes a problem of `where`."""
    kept = []
    for record in records:
        reason = why_not_written(record)
        if reason is None:
            kept.append(record)
            continue
        run = record.get("run") or {}
        label = f"{record.get('report_type')} record of {run.get('target')} on {run.get('device')}"
        problems.append(Problem(where, f"{label} not written: {reason}"))
    return kept


@dataclass
class FileReport:
    name: str
    lines: int = 0
    valid: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)  # (line number, message)

    @property
    def ok(self) -> bool:
        return not self.errors


def validate_stream(name: str, stream: TextIO) -> FileReport:
    report = FileReport(name)
    seen: dict[tuple, int] = {}
    for number, line in enumerate(stream, 1):
        report.lines = number
        text = line.rstrip("\n").rstrip("\r")
        if not text.strip():
            report.errors.append((number, "empty line (one JSON object per line)"))
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            report.errors.append((number, f"invalid JSON at column {exc.colno}: {exc.msg}"))
            continue
        problems = [] if is_valid(record) else record_errors(record)
        if not problems:
            key = extension_key(record) if record.get("report_type") in EXTENSION_TYPES else record_key(record)
            if key in seen:
                problems = [f"duplicate record key (same as line {seen[key]})"]
            else:
                seen[key] = number
        report.errors.extend((number, problem) for problem in problems)
        if not problems:
            report.valid += 1
    return report
