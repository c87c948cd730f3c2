"""A record line read straight into a row of the records table, at C speed where it can be.

msgspec decodes the line into structs made from the closed schema 1.0 (each object it names,
with no other field): 1-2 us a line, where a dict of the line costs 2.4 us (orjson) and reading
a row's fields from the dict 7 us more. The fields a row is made of (model.FIELD_PATHS) then
come out of the structs by a reader written from those paths. A line that does not fit gives
None, and the caller reads it the general way (jsonl.read_record, the table's values_of, key_of), which also says
what is wrong with it: not JSON, a field the schema does not name, an object that is something
else, an extension record, a report type the schema does not name.

Not the strict reading: a key given twice in one object keeps its last value here, and nesting
past jsonl's 64 levels is taken, where jsonl refuses the line. The check that follows a load
reads every line strictly, names such a line (loader.check_files) and the load removes its row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

import msgspec

from collectors.records.columns import ROW_FIELDS, columns_of, meta_values, row_of
from collectors.records.model import FIELD_PATHS, KEY_FIELDS, REPORT_TYPES, KeyFields, key_fields_of, keys_of_many
from collectors.records.validate import Shape, closed_shape

# a row: its key's fields, its values in COLUMNS order (columns.cells gives their text), its
# dynamic values
Row = tuple[KeyFields, list[Any], dict[str, str]]


def _attribute(key: str) -> str:
    """A schema key as a struct attribute (`Worst-caseLatency` -> `f_Worst_caseLatency`)."""
    return "f_" + re.sub(r"\W", "_", key)


def _struct(shape: Shape, name: str) -> type[msgspec.Struct]:
    """The struct of one closed object: every key it names, none other; an object below it is a
    struct too, None when it is missing or null (an empty struct made for every missing object
    cost a third of the decode)."""
    known, _prefix, children = shape
    below = dict(children)
    fields: list[tuple[str, Any, Any]] = []
    for key in sorted(known):
        kind = _struct(below[key], f"{name}_{_attribute(key)}") | None if key in below else Any
        fields.append((_attribute(key), kind, msgspec.field(default=None, name=key)))
    if len({attribute for attribute, _kind, _field in fields}) != len(fields):
        raise ValueError(f"two keys of {name} read as one attribute")
    return msgspec.defstruct(name, fields, forbid_unknown_fields=True)


def _reader(names: tuple[str, ...]) -> Callable[[msgspec.Struct], list[Any]]:
    """A function that reads the named fields (FIELD_PATHS) of a decoded record, in that order,
    None below a missing object: its source is written out here (each object looked into once,
    a test on the way down), 4x faster than one attrgetter over the paths and a fallback."""
    tree: dict[str, Any] = {}
    for slot, name in enumerate(names):
        *steps, last = FIELD_PATHS[name]
        node = tree
        for step in steps:
            node = node.setdefault(step, {})
        node[last] = slot
    source = [f"def read(o0):\n    found = [None] * {len(names)}"]

    def walk(node: dict[str, Any], holder: str, indent: str) -> None:
        for key, below in node.items():
            if isinstance(below, int):
                source.append(f"{indent}found[{below}] = {holder}.{_attribute(key)}")
                continue
            inner = f"o{len(source)}"
            source.append(f"{indent}{inner} = {holder}.{_attribute(key)}\n{indent}if {inner} is not None:")
            walk(below, inner, indent + "    ")

    walk(tree, "o0", "    ")
    source.append("    return found")
    scope: dict[str, Any] = {}
    exec("\n".join(source), scope)  # noqa: S102 (source made above from the model's paths)
    return scope["read"]


_DECODER = msgspec.json.Decoder(_struct(closed_shape(), "Record"))
_FIELDS = _reader(ROW_FIELDS)
_PAYLOADS = {kind: _attribute(kind) for kind in REPORT_TYPES}
_SLOT = {name: n for n, name in enumerate(ROW_FIELDS)}
_KEY = itemgetter(*(_SLOT[name] for name in KEY_FIELDS))
_KIND, _META = _SLOT["type"], _SLOT["origin_meta"]


# many rows: their keys' fields, each column's values (in COLUMNS order), each record's origin_meta
Rows = tuple[list[KeyFields], list[Sequence[Any]], Sequence[Any]]


def read_rows(lines: Sequence[Any]) -> Rows | None:
    """The rows of many lines at once, column by column: what read_row gives for each, with no
    row of Python calls per line (a piece in 15 % fewer instructions); None where any line does
    not fit, or is no bytes (each is then read as read_row reads it)."""
    try:
        records = list(map(_DECODER.decode, lines))
        by_field = list(zip(*map(_FIELDS, records))) or [()] * len(ROW_FIELDS)
        payloads = list(map(_PAYLOADS.__getitem__, by_field[_KIND]))
    except (msgspec.MsgspecError, ValueError, RecursionError, KeyError, TypeError):
        return None  # (KeyError: no report type the schema names; TypeError: a list or an object, a line no bytes)
    statuses = [
        None if (found := getattr(record, payload)) is None else found.f_status
        for record, payload in zip(records, payloads)
    ]
    return keys_of_many(_KEY(by_field)), columns_of(by_field, statuses), by_field[_META]


def read_row(line: bytes) -> Row | None:
    """The row of a line, or None where the general reading must decide (see above)."""
    try:
        record = _DECODER.decode(line)
    except (msgspec.MsgspecError, ValueError, RecursionError):
        return None  # (not JSON, not one of the structs, invalid UTF-8, nested too deep, ...)
    fields = _FIELDS(record)
    kind = fields[_KIND]
    payload = _PAYLOADS.get(kind) if type(kind) is str else None  # (a list or an object is no report type)
    if payload is None:
        return None
    found = getattr(record, payload)
    status = None if found is None else found.f_status
    return key_fields_of(_KEY(fields)), row_of(fields, status), meta_values(fields[_META])
