"""The records table patched in place (the dashboard) and grown in batches (browse): derived
indexes (free text, numbers, key order) must answer exactly as a table built afresh."""

from __future__ import annotations

import json

from collectors.records.query import parse
from collectors.records.table import RecordTable

from ..conftest import EXPECTED_TREE

LINES = EXPECTED_TREE.read_text().splitlines()


def with_lut(line: str, lut: str) -> tuple[str, dict]:
    record = json.loads(line)
    record["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] = lut
    return json.dumps(record), record


def synth_lines() -> list[str]:
    return [line for line in LINES if '"report_type":"hls_synth"' in line and '"Resources"' in line]


def test_a_put_row_is_found_by_its_new_values_only() -> None:
    table = RecordTable(key_order=True)
    for line in LINES:
        table.put(line, json.loads(line))
    assert table.view(parse("lut<100000"), None, False)  # the number and text indexes are built now
    assert table.haystack
    line = synth_lines()[0]
    raw, record = with_lut(line, "424242")
    index = table.put(raw, record)
    assert table.view(parse("lut=424242"), None, False) == [index]
    assert table.view(parse("424242"), None, False) == [index]
    fresh = RecordTable(key_order=True)
    for other in [raw if item == line else item for item in LINES]:
        fresh.put(other, json.loads(other))
    for query in ("lut<10000", "lut>10000", "type:hls_synth", "15752", ""):
        assert [table.keys[i] for i in table.view(parse(query), None, False)] == [
            fresh.keys[i] for i in fresh.view(parse(query), None, False)
        ]


def test_dropped_rows_are_never_shown_and_key_order_holds() -> None:
    table = RecordTable(key_order=True)
    for line in reversed(LINES):  # arrive in any order: shown in the file's (key) order
        table.put(line, json.loads(line))
    assert [table.raw[i] for i in table.view(parse(""), None, False)] == LINES
    _origin, key, _n = table.keys[table.view(parse(""), None, False)[3]]
    table.drop("", key)
    assert [table.raw[i] for i in table.view(parse(""), None, False)] == LINES[:3] + LINES[4:]
    assert len(table) == len(LINES) - 1


def test_batches_appended_answer_as_one_load() -> None:
    whole, batched = RecordTable(), RecordTable()
    whole.append([whole.prepare(line, json.loads(line)) for line in LINES])
    assert batched.haystack == [] and len(batched.numbers_of("lut")) == 0  # indexes built early
    for start in range(0, len(LINES), 4):
        batched.append([batched.prepare(line, json.loads(line)) for line in LINES[start : start + 4]])
    assert batched.haystack == whole.haystack
    assert list(map(repr, batched.numbers_of("lut"))) == list(map(repr, whole.numbers_of("lut")))  # NaN too
