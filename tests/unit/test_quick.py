"""A line read straight into a row (quick.py) gives what the general reading gives (the strict
reading, values_of, key_of) for every line it takes, whatever shape the record has; the lines it
takes that the strict reading refuses are named by the load's check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from collectors.records.columns import cells
from collectors.records.jsonl import LineError, LineSplitter, loads_read, read_record, whole_lines
from collectors.records.loader import check_files
from collectors.records.model import EXTENSION_TYPES, REPORT_TYPES, key_fields
from collectors.records.pieces import _one_by_one, prepare_piece
from collectors.records.quick import read_row, read_rows
from collectors.records.table import RecordTable
from collectors.records.validate import Shape, closed_shape

from ..conftest import EXPECTED_TREE

LINES = EXPECTED_TREE.read_text().splitlines()


def general(line: bytes) -> tuple[Any, list[str], dict[str, str]]:
    record = read_record(line)
    values, dynamic = RecordTable().values_of(record)
    return key_fields(record), values, dynamic


def quick(line: bytes) -> tuple[Any, list[str], dict[str, str]] | None:
    row = read_row(line)
    return None if row is None else (row[0], cells(row[1]), row[2])


leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.integers(10**18, 10**25),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "8919", "3.650", "pass", "a/b", "é", "1.0"]),
    st.lists(st.sampled_from(["x", "y", 1]), max_size=2),
    st.dictionaries(st.sampled_from(["a", "b"]), st.integers(0, 2), max_size=2),
)
kinds = st.sampled_from([*REPORT_TYPES * 3, *EXTENSION_TYPES, "hw_run", "run", "", None, 3])


def _object(shape: Shape) -> st.SearchStrategy[Any]:
    """An object of the shape, any key missing, null or odd (objects mostly as objects); now and
    then a key it does not name."""
    known, _prefix, children = shape
    below = dict(children)
    fields = {
        key: (st.one_of(*[_object(below[key])] * 4, leaves) if key in below else leaves)
        for key in sorted(known)
        if key != "report_type"
    }
    extra = st.sampled_from([*[{}] * 15, {"zz_extra": 1}])
    return st.builds(lambda body, more: {**body, **more}, st.fixed_dictionaries({}, optional=fields), extra)


records = st.builds(lambda body, kind: {**body, "report_type": kind}, _object(closed_shape()), kinds)


@settings(max_examples=600, deadline=None)
@given(records, st.booleans())
def test_every_line_it_takes_reads_as_the_general_reading_does(record: dict[str, Any], spaced: bool) -> None:
    line = json.dumps(record, separators=(", ", ": ") if spaced else (",", ":"), ensure_ascii=spaced).encode()
    found = quick(line)
    if found is not None:
        assert found == general(line)


def test_the_collectors_own_records_are_all_taken() -> None:
    for text in LINES:
        line = text.encode()
        assert quick(line) is not None and quick(line) == general(line)


def test_a_failed_synthesis_null_sections_reads_as_empty_objects() -> None:
    record = json.loads(next(line for line in LINES if '"hls_synth"' in line and '"report_type":"hls_synth"' in line))
    record["hls_synth"] = {"status": "fail", "PerformanceEstimates": None, "AreaEstimates": None}
    record["implementation"]["variant"] = None
    line = json.dumps(record).encode()
    key, values, _dynamic = quick(line) or ((), [], {})
    assert (key, values) == general(line)[:2]
    assert values[:4] == [
        "hls_synth",
        record["problem"]["suite"],
        "/".join(record["problem"]["group_path"]),
        "None_None",
    ]
    assert key[4:6] == (-1, "")


def test_what_it_leaves_to_the_general_reading() -> None:
    record = json.loads(LINES[0])
    extra = {**record, "note": "a field the schema does not name"}
    aie = {**record, "report_type": "aie_sim"}
    for value in (extra, aie, [record], "text"):
        assert read_row(json.dumps(value).encode()) is None
    for line in (b"", b"{not json", b'{"run":NaN}', LINES[0].encode() + b"\xff", b'{"report_type":"sw_run"' + b" " * 3):
        assert read_row(line) is None


def test_a_report_type_that_is_no_text_is_left_to_the_general_reading() -> None:
    """A list or an object as the report type: no payload to look for (it raised TypeError, and a
    large file holding one such line failed to load)."""
    for kind in ([], ["sw_run"], {}, {"a": 1}):
        line = json.dumps({**json.loads(LINES[0]), "report_type": kind}).encode()
        assert read_row(line) is None
        data = b"\n".join([LINES[0].encode(), line, LINES[1].encode()]) + b"\n"
        piece = prepare_piece(RecordTable(), "/f", 1, data)
        assert list(piece.lines) == [1, 2, 3] and piece.columns[0].distinct[1] == str(kind)  # (as cells show it)


def test_a_key_given_twice_is_taken_here_and_named_by_the_check(tmp_path: Path) -> None:
    twice = LINES[0].replace('{"schema_version":"1.0",', '{"schema_version":"1.0","schema_version":"1.0",', 1)
    deep = json.loads(LINES[1])
    deep["implementation"]["origin_meta"] = {"m": json.loads("[" * 70 + "]" * 70)}
    lines = [LINES[2], twice, json.dumps(deep, separators=(",", ":"))]
    assert all(read_row(line.encode()) is not None for line in lines)
    for line in lines[1:]:
        try:
            read_record(line.encode())
            raise AssertionError("the strict reading takes it")
        except LineError:
            pass
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n")
    refused, unread, problems = check_files([str(path)])
    assert refused == unread == [f"{path}:2", f"{path}:3"]
    column = lines[2].index("[" * 70) + 62  # (the 65th level: within the record, implementation, origin_meta)
    assert [str(p) for p in problems] == [
        f"{path}:2: invalid JSON at column 25: key 'schema_version' repeated in one object",
        f"{path}:3: invalid JSON at column {column}: nested deeper than 64 levels",
    ]


def test_whole_lines_cuts_as_the_splitter_does() -> None:
    for data in (b"", b"a\n", b"a\r\nb\n\n", b"\r\n", b"x\ry\n", b"abc\ndefgh\n"):
        assert whole_lines(data) == LineSplitter().feed(data)
        assert whole_lines(data, 3) == LineSplitter(3).feed(data)


def test_a_line_read_again_reads_as_json_reads_it() -> None:
    for text in (
        LINES[0],
        '{"a": 123456789012345678901234567890, "b": -0, "c": 1.7976931348623157e308}',
        '{"s": "\\ud800 lone", "t": "\\u00e9", "f": [0.1, -0.0, 5e-324]}',
    ):
        assert loads_read(text) == json.loads(text) and repr(loads_read(text)) == repr(json.loads(text))


@settings(max_examples=300, deadline=None)
@given(st.lists(records, min_size=1, max_size=12), st.booleans())
def test_lines_read_at_once_give_the_piece_one_by_one_gives(found: list[dict[str, Any]], spaced: bool) -> None:
    """pieces.prepare_piece reads a piece whose every line fits column by column (read_rows):
    the piece equals the one read line by line, for any values the fitting lines hold."""
    separators = (", ", ": ") if spaced else (",", ":")
    lines = [line for record in found if read_row(line := json.dumps(record, separators=separators).encode())]
    if not lines:
        return
    data = b"\n".join(lines) + b"\n"
    assert read_rows(lines) is not None
    assert prepare_piece(RecordTable(), "/f", 7, data) == _one_by_one(RecordTable(), "/f", 7, whole_lines(data))


def test_many_lines_with_one_that_does_not_fit_are_read_one_by_one() -> None:
    lines = [line.encode() for line in LINES[:4]]
    assert read_rows(lines) is not None
    extra = json.dumps({**json.loads(LINES[0]), "zz": 1}).encode()
    for odd in (b"{not json", extra, LineSplitter(4).feed(b"12345\n")[0]):
        assert read_rows([*lines, odd]) is None


any_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def _places(value: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every place in a record: the record itself, each key, each key below."""
    below = value.items() if isinstance(value, dict) else []
    return [path, *(place for key, item in below for place in _places(item, (*path, key)))]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LINES), st.integers(0, 999), any_json), min_size=1, max_size=6))
def test_any_value_anywhere_in_a_record_reads_the_same_at_once_or_line_by_line(edits: list[Any]) -> None:
    """A value of any shape put at any place of a real record (a list as the report type raised
    TypeError): reading a piece never raises, and gives what reading it line by line gives."""
    lines = []
    for line, pick, value in edits:
        record = json.loads(line)
        *steps, last = _places(record)[pick % len(_places(record))] or ("",)
        holder = record
        for step in steps:
            holder = holder[step]
        holder[last] = value
        lines.append(json.dumps(record).encode())
    data = b"\n".join(lines) + b"\n"
    assert prepare_piece(RecordTable(), "/f", 1, data) == _one_by_one(RecordTable(), "/f", 1, whole_lines(data))
