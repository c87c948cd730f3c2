"""Validate records and JSON Lines files against the shipped schema-1.0 JSON Schema.

The shipped schema is *closed* (no field beyond the contract's): records this tool writes must
pass it, and `validate --strict` applies it. The contract itself lists required fields and never
forbids others, so by default a line is judged by the *open* variant, derived from the closed
schema when loaded (the two can never drift), and each field the contract does not name is a
warning. One function, `judge`, decides a line's verdict for validate, browse and export.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, BinaryIO

from collectors.problems import Problem
from collectors.records.jsonl import Line, LineError, iter_lines, read_object
from collectors.records.model import EXTENSION_TYPES, REPORT_TYPES, SCHEMA_VERSION, RecordKey, dumps, key_of
from collectors.records.schema import RECORDS_1_0, load_schema
from collectors.text import encodable

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

NOT_IN_SCHEMA = f"not in schema {SCHEMA_VERSION}"


def _schema_name(record: Any) -> str:
    """Extension records (AIE, XRT, LOOM) have schemas of their own; everything else is 1.0."""
    kind = record.get("report_type") if isinstance(record, dict) else None
    return f"ext-{kind}.schema.json" if kind in EXTENSION_TYPES else RECORDS_1_0


def _opened(node: Any) -> Any:
    """The schema with every `additionalProperties: false` removed."""
    if isinstance(node, dict):
        return {k: _opened(v) for k, v in node.items() if not (k == "additionalProperties" and v is False)}
    if isinstance(node, list):
        return [_opened(v) for v in node]
    return node


@cache
def schema(name: str = RECORDS_1_0, strict: bool = True) -> dict[str, Any]:
    closed = load_schema(name)
    if strict:
        return closed
    opened = _opened(closed)
    opened["$id"] = closed["$id"].replace(".schema.json", ".open.schema.json")
    return opened


@cache
def validator(name: str = RECORDS_1_0, strict: bool = True) -> Draft202012Validator:
    """jsonschema words what is wrong; imported when first needed (a tenth of a second of every
    start, where records are valid: the compiled check passes them)."""
    from jsonschema import Draft202012Validator

    checked = schema(name, strict)
    Draft202012Validator.check_schema(checked)
    return Draft202012Validator(checked)


@cache
def _fast(name: str, strict: bool) -> Callable[[Any], bool]:
    """The quick yes/no of the schema (compiled in Rust: 2 microseconds a record, where
    fastjsonschema's Python took 20 and jsonschema's 400); jsonschema words what is wrong.
    Imported when first needed: 25 ms of every browse start and of each of its children, which
    read records without it."""
    import jsonschema_rs

    is_valid: Callable[[Any], bool] = jsonschema_rs.validator_for(schema(name, strict)).is_valid
    return is_valid


def is_valid(record: Any, strict: bool = True) -> bool:
    """Quick yes/no against the schema (compiled); `record_errors` says what is wrong."""
    return _fast(_schema_name(record), strict)(record)


def json_path(parts: Iterable[Any]) -> str:
    path = "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def record_errors(record: Any, strict: bool = True) -> list[str]:
    """Every schema violation of one record, as 'JSON path: message', in a stable order."""
    messages = set()
    name = _schema_name(record)
    if isinstance(record, dict) and name == RECORDS_1_0:
        # The schema forbids these with `false` subschemas, whose errors do not name the key.
        for key in REPORT_TYPES:
            if key in record and key != record.get("report_type"):
                messages.add((f"$.{key}", "payload not allowed here: the one payload must be named by report_type"))
    for error in validator(name, strict).iter_errors(record):
        if error.validator is not None:
            messages.add((json_path(error.absolute_path), error.message))
    return [f"{path}: {message}" for path, message in sorted(messages)]


# --- what collect may write ------------------------------------------------------------------------


def _verdict(record: dict[str, Any]) -> tuple[str | None, str | None]:
    """The record's line where it may be written, else why not (not strict JSON, or rejected by
    its schema)."""
    try:
        text = dumps(record)
    except ValueError:
        return None, "a number that is not finite (NaN or Infinity)"
    if not encodable(text):  # a name from the tree that is not valid UTF-8 (shown escaped)
        return None, "a name that is not valid UTF-8 cannot be written in JSON"
    if is_valid(record):
        return text, None
    errors = record_errors(record)
    return None, errors[0] if errors else "rejected by its schema"


def keep_valid(
    records: list[dict[str, Any]], where: str, problems: list[Problem], lines: list[str] | None = None
) -> list[dict[str, Any]]:
    """The records that may be written; each one that may not becomes a problem of `where`.
    `lines` receives the line of each record kept (serialised for the check: the record set
    need not serialise it again, store.RecordSet.apply)."""
    kept = []
    for record in records:
        line, reason = _verdict(record)
        if line is not None:
            kept.append(record)
            if lines is not None:
                lines.append(line)
            continue
        assert reason is not None
        run = record.get("run") or {}
        label = f"{record.get('report_type')} record of {run.get('target')} on {run.get('device')}"
        problems.append(Problem(where, f"{label} not written: {reason}"))
    return kept


# --- fields the schema does not name ---------------------------------------------------------------

# The closed schema's objects: their known keys, their dotted path, and the shapes of the known
# keys that hold objects (each object of the schema gets its own, so the path is known ahead).
Shape = tuple[frozenset[str], str, tuple[tuple[str, "Shape"], ...]]


def _shape_of(node: Any, root: dict[str, Any], prefix: str = "") -> Shape | None:
    """None for an object that takes any key (origin_meta) or a value that is not an object."""
    while isinstance(node, dict) and "$ref" in node:
        node = _resolve(node["$ref"], root)
    if not isinstance(node, dict) or node.get("additionalProperties") is not False:
        return None
    properties = node.get("properties", {})
    children = ((key, _shape_of(sub, root, f"{prefix}{key}.")) for key, sub in properties.items())
    return frozenset(properties), prefix, tuple((key, shape) for key, shape in children if shape is not None)


def _resolve(ref: str, root: dict[str, Any]) -> Any:
    node: Any = root
    for part in ref.partition("#/")[2].split("/"):
        node = node[part]
    return node


@cache
def _shape(name: str) -> Shape | None:
    closed = load_schema(name)
    return _shape_of(closed, closed)


def extra_fields(record: Any) -> list[tuple[str, Any]]:
    """(dotted path, value) of each field the closed schema does not name (`run.clock_ns`,
    `rtl_sim.error`), in record order. Cheap: one set difference per object (runs on every load)."""
    found: list[tuple[str, Any]] = []
    shape = _shape(_schema_name(record))
    if shape is not None and isinstance(record, dict):
        _walk(record, shape, found)
    return found


def closed_shape() -> Shape:
    """The shape of a schema-1.0 record (not an extension record)."""
    shape = _shape(RECORDS_1_0)
    assert shape is not None  # (the shipped schema is closed at its root)
    return shape


def unknown_fields(record: Any) -> list[str]:
    return [path for path, _value in extra_fields(record)]


def _walk(value: dict[str, Any], shape: Shape, found: list[tuple[str, Any]]) -> None:
    known, prefix, children = shape
    if not known.issuperset(value):
        found += [(prefix + key, item) for key, item in value.items() if key not in known]
    for key, child in children:
        item = value.get(key)
        if type(item) is dict:
            _walk(item, child, found)


# --- the verdict on one line ----------------------------------------------------------------------


@dataclass
class Verdict:
    """What one line is: its text and record (None when it is not a JSON object), the contract's
    errors, and the fields the contract does not name."""

    text: str | None = None
    record: dict[str, Any] | None = None
    errors: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors


def judge_record(record: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(contract errors, unknown field paths): the closed schema passes most lines at once."""
    if is_valid(record):
        return [], []
    unknown = unknown_fields(record)
    return ([] if is_valid(record, strict=False) else record_errors(record, strict=False)), unknown


def judge(line: Line) -> Verdict:
    """The one verdict on a line that validate, browse and export all use."""
    try:
        text, record = read_object(line)
    except LineError as exc:
        return Verdict(errors=[str(exc)])
    errors, unknown = judge_record(record)
    return Verdict(text, record, errors, unknown)


# --- whole files --------------------------------------------------------------------------------------


@dataclass
class FileReport:
    """The verdicts on one file. Without `strict`, fields not in the schema and repeated record
    keys are warnings; with it, they are errors of their lines."""

    name: str
    strict: bool = False
    lines: int = 0
    valid: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)  # (line number, message)
    unknown: Counter[str] = field(default_factory=Counter)  # field path -> lines holding it
    repeats: list[tuple[int, int]] = field(default_factory=list)  # (line, the earlier line with its key)
    seen: dict[RecordKey, int] = field(default_factory=dict, repr=False)

    @property
    def ok(self) -> bool:
        return not self.errors

    def add(self, number: int, line: Line) -> Verdict:
        self.lines = number
        verdict = judge(line)
        problems = list(verdict.errors)
        if verdict.valid and verdict.record is not None:
            key = key_of(verdict.record)
            first = self.seen.setdefault(key, number)
            if first != number:
                self.repeats.append((number, first))
                if self.strict:
                    problems.append(repeat_message(first))
            self.unknown.update(verdict.unknown)
            if self.strict:
                problems += [f"{path}: {NOT_IN_SCHEMA}" for path in verdict.unknown]
        self.errors.extend((number, problem) for problem in problems)
        self.valid += not problems
        return verdict

    def warnings(self) -> list[tuple[int | None, str]]:
        """(line or None, message): 'run.clock_ns: not in schema 1.0 (12 lines)' once per field path,
        then each repeated record key (none under --strict: there they are errors)."""
        if self.strict:
            return []
        fields = [f"{path}: {NOT_IN_SCHEMA} ({count} line{'s' * (count != 1)})" for path, count in self.unknown.items()]
        found: list[tuple[int | None, str]] = [(None, text) for text in sorted(fields)]
        return found + [(line, repeat_message(first)) for line, first in self.repeats]


def repeat_message(first: int) -> str:
    return f"record key repeats line {first}"


def validate_stream(name: str, stream: BinaryIO, strict: bool = False) -> FileReport:
    report = FileReport(name, strict)
    for number, line in iter_lines(stream):
        report.add(number, line)
    return report
