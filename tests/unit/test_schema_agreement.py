"""The quick schema check (jsonschema-rs) says yes exactly where jsonschema, which words the
errors, does: on real records and on records changed at any place to any kind of value."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from collectors.records import validate

from ..conftest import EXPECTED_TREE

RECORDS = [json.loads(line) for line in EXPECTED_TREE.read_text().splitlines()]
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.just(1.0),
    st.text(max_size=5),
    st.lists(st.text(max_size=3), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def _places(value: Any, path: tuple = ()) -> list[tuple]:
    places = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            places += _places(item, (*path, key))
    return places


def _agree(record: dict[str, Any]) -> None:
    name = validate._schema_name(record)
    for strict in (True, False):
        assert validate.is_valid(record, strict) == validate.validator(name, strict).is_valid(record)


def test_every_real_record_passes_both() -> None:
    for record in RECORDS:
        assert validate.is_valid(record)
        _agree(record)


@settings(max_examples=300, deadline=None)
@given(st.data(), VALUES, st.booleans())
def test_a_record_changed_anywhere_is_judged_alike(data: st.DataObject, value: Any, beside: bool) -> None:
    record = copy.deepcopy(data.draw(st.sampled_from(RECORDS)))
    *parents, last = data.draw(st.sampled_from(_places(record)))
    holder = record
    for key in parents:
        holder = holder[key]
    if beside:
        holder[f"{last}_extra"] = value  # a field the schema does not name
    else:
        holder[last] = value
    _agree(record)
