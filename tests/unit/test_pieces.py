"""A piece of a file prepared apart (pieces.py) gives the table exactly what the same lines read
one by one give: keys, column values, fields beyond the schema, lines, sources and problems."""

from __future__ import annotations

import json

from collectors.aliases import NO_ALIASES, Aliases
from collectors.records.jsonl import LineSplitter
from collectors.records.loader import add_lines
from collectors.records.pieces import prepare_piece
from collectors.records.table import RecordTable

from ..conftest import EXPECTED_TREE

LINES = EXPECTED_TREE.read_text().splitlines()


def _odd_lines() -> list[str]:
    extra = json.loads(LINES[0])
    extra["implementation"]["origin_meta"] = {"model": "gpt", "attempt": 3}
    extra["run"]["clock_ns"] = 4.5  # a field the schema does not name
    return [*LINES[:3], "{not json", "[1, 2]", json.dumps(extra), LINES[0], *LINES[3:]]


def _both(lines: list[str], aliases: Aliases = NO_ALIASES) -> tuple[RecordTable, RecordTable, list[str], list[str]]:
    """The same lines read one by one into a table, and as one piece into another."""
    data = ("\n".join(lines) + "\n").encode()
    path = "/runs/results.jsonl"
    one_by_one, pieced = RecordTable(aliases), RecordTable(aliases)
    problems: list = []
    add_lines(one_by_one, path, list(enumerate(LineSplitter().feed(data), 1)), problems)
    piece = prepare_piece(RecordTable(), path, 1, data)
    assert pieced.append_piece(piece) == list(range(len(one_by_one.raw)))
    return one_by_one, pieced, [str(p) for p in problems], [str(p) for p in piece.problems]


def test_a_piece_fills_the_table_as_lines_read_one_by_one_do() -> None:
    lines = _odd_lines()
    one_by_one, pieced, problems, piece_problems = _both(lines)
    assert pieced.keys == one_by_one.keys and pieced.keys[-len(LINES) + 2][2] != 0  # the repeated key: both shown
    assert pieced.text == one_by_one.text
    assert pieced.dynamic == one_by_one.dynamic and pieced.dynamic["meta.model"] == {3: "gpt"}
    assert pieced.dynamic["run.clock_ns"] == {3: "4.5"}
    assert list(pieced.raw) == list(one_by_one.raw) == [line for line in lines if line.startswith('{"')]
    assert list(pieced.sources) == list(one_by_one.sources)
    assert list(pieced.sources)[3] == "/runs/results.jsonl:6"
    assert (
        piece_problems
        == problems
        == [
            "/runs/results.jsonl:4: invalid JSON at column 2: Expecting property name enclosed in double quotes",
            "/runs/results.jsonl:5: not a JSON object",
        ]
    )


def test_aliases_apply_where_the_piece_is_appended() -> None:
    first = json.loads(LINES[0])
    aliases = Aliases(suites={first["problem"]["suite"]: "renamed"}, devices={first["run"]["device"]: "board"})
    one_by_one, pieced, _, _ = _both(LINES, aliases)
    assert pieced.text == one_by_one.text
    assert pieced.text["suite"][0] == "renamed" and pieced.text["device"][0] == "board"


def test_an_empty_piece_appends_nothing() -> None:
    table = RecordTable()
    assert table.append_piece(prepare_piece(RecordTable(), "/x", 1, b"")) == []
    assert len(table) == 0 and all(column == [] for column in table.text.values())


def test_numbers_of_two_kinds_keep_each_its_own_text() -> None:
    """A column is coded by its values as found only where no two that read differently are one
    key of a dict: 1 and 1.0 are, so are 0.0 and -0.0 (pieces._coded)."""
    lines = []
    for n, runtime in enumerate([1, 1.0, 0.0, -0.0, 2, 1]):
        record = json.loads(LINES[0])
        record["implementation"]["variant"]["name"] = f"r{n}"
        record["run"]["runtime_seconds"] = runtime
        lines.append(json.dumps(record))
    one_by_one, pieced, _, _ = _both(lines)
    assert pieced.text == one_by_one.text
    assert pieced.text["runtime"] == ["1", "1.0", "0.0", "-0.0", "2", "1"]
    ints, _, _, _ = _both([lines[0], lines[4], lines[5]])  # one kind: coded as found
    assert ints.text["runtime"] == ["1", "2", "1"]


def test_a_key_an_earlier_piece_holds_is_shown_again_as_one_by_one() -> None:
    """The keys of a piece are added at once where all are new (table._add_keys); a key the table
    holds already, or one given twice in the piece, is added as one by one adds it."""
    first, again = LINES[:5], [LINES[2], *LINES[5:]]
    one_by_one = RecordTable()
    add_lines(one_by_one, "/f", list(enumerate(LineSplitter().feed(("\n".join(first + again) + "\n").encode()), 1)), [])
    pieced = RecordTable()
    pieced.append_piece(prepare_piece(RecordTable(), "/f", 1, ("\n".join(first) + "\n").encode()))
    pieced.append_piece(prepare_piece(RecordTable(), "/f", len(first) + 1, ("\n".join(again) + "\n").encode()))
    assert pieced.keys == one_by_one.keys and pieced.keys[len(first)] == ("/f", pieced.keys[2][1], len(first))
    assert pieced.index_of(pieced.keys[2]) == 2 and pieced.index_of(pieced.keys[len(first) + 1]) == len(first) + 1
