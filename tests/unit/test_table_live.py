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


QUERIES = (
    "",
    "type:hls_synth",
    "-type:hls_synth",
    "status!=pass",
    "lut<20000",
    "lut<=15752 or cycles>1000",
    "lut>=15752",
    "lut=15752",
    "lut!=15752",
    "not lut>1",
    "cfd hls",
    "(type:rtl_sim or type:sw_run) -device:xc7*",
)


def test_answers_asked_between_batches_take_the_new_rows() -> None:
    """Query answers and sort orders are kept across appends and extended by the new rows: every
    answer, asked after each batch, is the one a table built from scratch gives."""
    batched = RecordTable()
    for end in range(3, len(LINES) + 3, 3):
        batched.append([batched.prepare(line, json.loads(line)) for line in LINES[end - 3 : end]])
        fresh = RecordTable()
        fresh.append([fresh.prepare(line, json.loads(line)) for line in LINES[:end]])
        for query in QUERIES:
            for column, descending in ((None, False), ("lut", False), ("lut", True), ("group", True), ("type", False)):
                got = batched.view(parse(query), column, descending)
                assert got == fresh.view(parse(query), column, descending), (end, query, column, descending)
    assert batched.view(parse("type:rtl_sim"), None, False) == [2, 4, 8, 10]  # the file's lines 3, 5, 9, 11
    assert batched.view(parse("lut<20000"), "lut", True) == [1, 3, 9]  # LUT 19589, 15752, 7295


def test_sources_read_file_and_line_and_keep_any_other_text() -> None:
    table = RecordTable()
    record = json.loads(LINES[0])
    sources = ["/r/a.jsonl:1", "/r/a.jsonl:2", "/r/b:c.jsonl:10", "/project/x", "a.jsonl:07", "x:", "a.jsonl:0"]
    for source in sources:
        table.add(LINES[0], record, source, origin="o")
    assert list(table.sources) == sources
    assert [table.sources[i] for i in range(-len(sources), 0)] == sources
    table.put(LINES[0], record, "/p/changed:5", origin="o")  # the dashboard's replace: the first row
    table.sources[3] = "/r/a.jsonl:99"
    assert table.sources[0] == "/p/changed:5" and table.sources[3] == "/r/a.jsonl:99"
    assert table.sources.rows_of(["/r/a.jsonl:2", "a.jsonl:07", "/r/b:c.jsonl:10", "/nowhere:1"]) == [1, 2, 4]


def test_put_all_replaces_and_appends_as_puts_one_by_one_would() -> None:
    first, *rest = LINES
    one_by_one, together = RecordTable(key_order=True), RecordTable(key_order=True)
    for table in (one_by_one, together):
        table.put(first, json.loads(first), "/p/a")
    raw, record = with_lut(synth_lines()[0], "31337")
    items = [(line, json.loads(line), "/p/b") for line in rest] + [(raw, record, "/p/c")]
    expected = [one_by_one.put(line, rec, source) for line, rec, source in items]
    assert together.put_all(items) == expected
    assert list(together.raw) == list(one_by_one.raw) and together.keys == one_by_one.keys
    assert [str(s) for s in together.sources] == [str(s) for s in one_by_one.sources]
    assert together.order(None) == one_by_one.order(None)
    assert together.view(parse("lut=31337"), "lut", False) == one_by_one.view(parse("lut=31337"), "lut", False)


def five_variants_of_each_line() -> RecordTable:
    table = RecordTable()
    for n in range(5):
        for line in LINES:
            record = json.loads(line)
            record["implementation"]["variant"]["index"] = n
            table.add(json.dumps(record), record)
    return table


def test_an_export_in_pieces_is_the_export_in_any_order(monkeypatch) -> None:
    """A JSONL export is handed on in pieces (a million records are never held three times over):
    in file order and in a sorted order, the pieces make exactly the whole export."""
    from collectors.records import rawlines, writers
    from collectors.records.table import export, plan_export, plan_pieces

    monkeypatch.setattr(writers, "PIECE_ROWS", 3)
    monkeypatch.setattr(rawlines, "BLOCK_ROWS", 4)  # lines over several compressed blocks
    table = five_variants_of_each_line()
    for rows in (table.view(parse(""), None, False), table.view(parse(""), "lut", True)):
        pieces = list(plan_pieces(plan_export(table, rows, ["type"], "jsonl")))
        assert len(pieces) == -(-len(rows) // 3) and "".join(pieces) == export(table, rows, ["type"], "jsonl")
        assert "".join(pieces).splitlines() == [table.raw[i] for i in rows]


def test_a_table_export_in_pieces_is_the_whole_table(monkeypatch) -> None:
    """CSV and Markdown are handed on in pieces too (a worker writes them, looking between two at
    whether it was stopped), taken from a plan made on the table's own thread: the pieces make
    the table the rows and columns give, its header once."""
    from collectors.records import writers
    from collectors.records.table import plan_export, plan_pieces

    table = five_variants_of_each_line()
    rows = table.view(parse(""), "lut", True)
    columns = ["type", "group", "lut"]
    whole = {fmt: "".join(plan_pieces(plan_export(table, rows, columns, fmt))) for fmt in ("csv", "md")}
    monkeypatch.setattr(writers, "PIECE_ROWS", 3)
    for fmt in ("csv", "md"):
        pieces = list(plan_pieces(plan_export(table, rows, columns, fmt)))
        assert len(pieces) == 1 + -(-len(rows) // 3) and "".join(pieces) == whole[fmt]
    lines = whole["csv"].splitlines()
    assert lines[0] == "type,group,LUT" and len(lines) == 1 + len(rows)
    assert [line.split(",")[2] for line in lines[1:]] == [table.column("lut")[i] for i in rows]


def test_a_table_export_makes_each_distinct_cell_once(monkeypatch) -> None:
    """Neutralising a cell (formula starts, control characters, Markdown's pipes) is done once per
    distinct value of a column, not per row: a Markdown copy of 100,000 rows made 1,600,000 cells
    one by one, 3 s (9 s profiled) with the keys held up. The text is the same either way."""
    from collectors.records import writers
    from collectors.records.table import plan_export, plan_pieces

    table = five_variants_of_each_line()
    rows = table.view(parse(""), "lut", True)
    columns = ["type", "group", "lut"]
    expected = {fmt: "".join(plan_pieces(plan_export(table, rows, columns, fmt))) for fmt in ("csv", "md")}
    made: list[str] = []
    safe_cell = writers.safe_cell

    def counted(text: str, numeric: bool = False) -> str:
        made.append(text)
        return safe_cell(text, numeric)

    monkeypatch.setattr(writers, "safe_cell", counted)
    distinct = sum(len({table.column(c)[i] for i in rows}) for c in columns)
    for fmt in ("csv", "md"):
        made.clear()
        assert "".join(plan_pieces(plan_export(table, rows, columns, fmt))) == expected[fmt]
        header = len(columns)
        assert len(made) <= distinct + header < len(rows) * len(columns), fmt
