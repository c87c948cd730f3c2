"""A record line read straight into a row of the records table, at C speed where it can be.

msgspec decodes the line into structs made from the closed schema 1.0 (each object it names,
with no other field): 1-2 us a line, where a dict of the line costs 2.4 us (orjson) and reading
a row's fields from the dict 7 us more. The fields a row is made of (model.FIELD_PATHS) then
come out of the structs in one attrgetter. A line that does not fit gives None, and the caller
reads it the general way (jsonl.read_record, the table's values_of, key_of), which also says
what is wrong with it: not JSON, a field the schema does not name, an object that is something
else, an extension record, a report type the schema does not name.

Not the strict reading: a key given twice in one object keeps its last value here, and nesting
past jsonl's 64 levels is taken, where jsonl refuses the line. The check that follows a load
reads every line strictly, names such a line (loader.check_files) and the load removes its row.
"""

from __future__ import annotations

import re
from operator import attrgetter, itemgetter
from typing import Any

import msgspec

from collectors.records.columns import ROW_FIELDS, meta_values, row_of
from collectors.records.model import FIELD_PATHS, KEY_FIELDS, REPORT_TYPES, KeyFields, key_fields_of
from collectors.records.validate import Shape, closed_shape

# a row: its key's fields, its values in COLUMNS order (columns.cells gives their text), its
# dynamic values
Row = tuple[KeyFields, list[Any], dict[str, str]]


def _attribute(key: str) -> str:
    """A schema key as a struct attribute (`Worst-caseLatency` -> `f_Worst_caseLatency`)."""
    return "f_" + re.sub(r"\W", "_", key)


Objects = tuple[tuple[str, type[msgspec.Struct], "Objects"], ...]  # (attribute, struct, its objects)


def _struct(shape: Shape, name: str) -> tuple[type[msgspec.Struct], Objects]:
    """The struct of one closed object: every key it names, none other; an object below it is a
    struct too (an empty one when the key is missing, None when it is null). With it, the
    objects it holds."""
    known, _prefix, children = shape
    below = dict(children)
    fields: list[tuple[str, Any, Any]] = []
    objects = []
    for key in sorted(known):
        attribute = _attribute(key)
        if key in below:
            kind, inner = _struct(below[key], f"{name}_{attribute}")
            fields.append((attribute, kind | None, msgspec.field(default_factory=kind, name=key)))
            objects.append((attribute, kind, inner))
        else:
            fields.append((attribute, Any, msgspec.field(default=None, name=key)))
    if len({attribute for attribute, _kind, _field in fields}) != len(fields):
        raise ValueError(f"two keys of {name} read as one attribute")
    return msgspec.defstruct(name, fields, forbid_unknown_fields=True), tuple(objects)


def _getter(names: tuple[str, ...]) -> attrgetter[Any]:
    return attrgetter(*(".".join(map(_attribute, FIELD_PATHS[name])) for name in names))


_RECORD, _OBJECTS = _struct(closed_shape(), "Record")
_DECODER = msgspec.json.Decoder(_RECORD)
_FIELDS = _getter(ROW_FIELDS)
_PAYLOADS = {kind: _attribute(kind) for kind in REPORT_TYPES}
_SLOT = {name: n for n, name in enumerate(ROW_FIELDS)}
_KEY = itemgetter(*(_SLOT[name] for name in KEY_FIELDS))
_KIND, _META = _SLOT["type"], _SLOT["origin_meta"]


def read_row(line: bytes) -> Row | None:
    """The row of a line, or None where the general reading must decide (see above)."""
    try:
        record = _DECODER.decode(line)
    except (msgspec.MsgspecError, ValueError, RecursionError):
        return None  # (not JSON, not one of the structs, invalid UTF-8, nested too deep, ...)
    try:
        fields = _FIELDS(record)
    except AttributeError:  # a null object on the way to a field: read as an empty one, as a dict's
        _fill(record, _OBJECTS)
        fields = _FIELDS(record)
    payload = _PAYLOADS.get(fields[_KIND])
    if payload is None:
        return None
    found = getattr(record, payload)
    status = None if found is None else found.f_status
    return key_fields_of(_KEY(fields)), row_of(fields, status), meta_values(fields[_META])


def _fill(value: msgspec.Struct, below: Objects) -> None:
    for attribute, kind, deeper in below:
        item = getattr(value, attribute)
        if item is None:
            setattr(value, attribute, kind())
        else:
            _fill(item, deeper)
