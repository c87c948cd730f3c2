"""The filter language: parsing, errors with positions, round trips, evaluation on real records."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collectors.records.query import (
    NUMBER_FIELDS,
    TEXT_FIELDS,
    And,
    Compare,
    Everything,
    Match,
    Not,
    Or,
    QueryError,
    Text,
    parse,
    unparse,
)
from collectors.records.table import RecordTable, export

from ..conftest import EXPECTED_TREE as EXPECTED


def test_parse_examples() -> None:
    assert parse("") == Everything()
    assert parse("type:hls_synth status:pass group:cfd/* lut<30000") == And(
        (Match("type", "hls_synth"), Match("status", "pass"), Match("group", "cfd/*"), Compare("lut", "<", 30000.0))
    )
    assert parse("type:rtl_sim cycles>1e6") == And((Match("type", "rtl_sim"), Compare("cycles", ">", 1e6)))
    assert parse("target:hw_emu or target:cosim") == Or((Match("target", "hw_emu"), Match("target", "cosim")))
    assert parse("-status:pass not device:xcu*") == And((Not(Match("status", "pass")), Not(Match("device", "xcu*"))))
    assert parse('(a or b) "memory coalescing"') == And((Or((Text("a"), Text("b"))), Text("memory coalescing")))
    assert parse("status!=pass lut:5 LUT>=1") == And(
        (Match("status", "pass", True), Compare("lut", "=", 5.0), Compare("lut", ">=", 1.0))
    )


@pytest.mark.parametrize(
    "query,position,message",
    [
        ("lut<abc", 4, "'abc' is not a number"),
        ("type:rtl_sim foo:bar", 13, "unknown field 'foo'"),
        ("status<3", 6, "'status' is text"),
        ("(type:hls_synth", 0, "'(' is never closed"),
        ("type:hls_synth)", 14, "unexpected ')'"),
        ("a or", 2, "'or' needs a term after it"),
        ("not", 0, "'not' needs a term after it"),
        ('group:"abc', 6, "unclosed quote"),
        ("group:", 6, "'group' needs a value"),
    ],
)
def test_errors_say_where(query: str, position: int, message: str) -> None:
    with pytest.raises(QueryError) as error:
        parse(query)
    assert error.value.position == position
    assert error.value.message.startswith(message)
    assert error.value.pointer(query).splitlines()[1].index("^") == position


values = st.text(
    alphabet=st.characters(blacklist_characters='"', blacklist_categories=("Cs",)), min_size=1, max_size=12
).filter(lambda v: v.strip() == v and v)
leaves = st.one_of(
    st.builds(Text, values),
    st.builds(Match, st.sampled_from(TEXT_FIELDS), values, st.booleans()),
    st.builds(
        Compare,
        st.sampled_from(NUMBER_FIELDS),
        st.sampled_from(["<", "<=", ">", ">=", "=", "!="]),
        st.floats(allow_nan=False, allow_infinity=False, width=32),
    ),
)
nodes = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.builds(Not, inner),
        st.builds(lambda ts: And(tuple(ts)), st.lists(inner, min_size=2, max_size=3)),
        st.builds(lambda ts: Or(tuple(ts)), st.lists(inner, min_size=2, max_size=3)),
    ),
    max_leaves=8,
)


def normal(node):
    """And/Or nested in the same kind flatten when written and read back: compare flattened."""
    if isinstance(node, (And, Or)):
        kind = type(node)
        terms = []
        for term in map(normal, node.terms):
            terms.extend(term.terms if isinstance(term, kind) else [term])
        return kind(tuple(terms))
    if isinstance(node, Not):
        return Not(normal(node.term))
    return node


@settings(max_examples=300, deadline=None)
@given(nodes)
def test_round_trip(node) -> None:
    text = unparse(node)
    assert normal(parse(text)) == normal(node)
    assert unparse(parse(text)) == unparse(parse(unparse(parse(text))))


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=40))
def test_never_crashes_on_arbitrary_text(text: str) -> None:
    try:
        parsed = parse(text)
    except QueryError as error:
        assert 0 <= error.position <= len(text)
    else:
        assert normal(parse(unparse(parsed))) == normal(parsed)  # what parses is written back as itself


@pytest.fixture(scope="module")
def table() -> RecordTable:
    table = RecordTable()
    for number, line in enumerate(EXPECTED.read_text().splitlines(), 1):
        table.add(line, json.loads(line), f"expected:{number}")
    return table


def groups(table: RecordTable, query: str, sort: str | None = None, descending: bool = False) -> list[str]:
    return [f"{table.text['group'][i]}/{table.text['type'][i]}" for i in table.view(parse(query), sort, descending)]


def test_filters_on_real_records(table: RecordTable) -> None:
    assert len(table) == 11
    assert groups(table, "type:hls_synth status:pass lut<10000") == ["topk/hls_synth"]
    assert groups(table, "type:rtl_sim cycles>100", "cycles") == ["topk/rtl_sim"]
    assert groups(table, "type:rtl_sim -cycles>100") == ["canny/canny_top/rtl_sim", "fft/rtl_sim", "srad/rtl_sim"]
    assert groups(table, "target:hw_emu type:rtl_sim") == ["srad/rtl_sim", "topk/rtl_sim"]
    assert groups(table, "status:timeout or status:fail", "group") == [
        "canny/canny_top/rtl_sim",
        "lud/hls_synth",
        "srad/hls_synth",
        "srad/rtl_sim",
    ]
    assert groups(table, "group:c*/* variant:implementation") == [
        "canny/canny_top/hls_synth",
        "canny/canny_top/rtl_sim",
    ]
    assert groups(table, "xck26 type:hls_synth") == ["canny/canny_top/hls_synth"]  # free text
    assert groups(table, "device:XCK26*") == ["canny/canny_top/hls_synth", "canny/canny_top/rtl_sim"]
    assert groups(table, "runtime>=72000") == ["srad/hls_synth", "srad/rtl_sim"]
    assert groups(table, "", "lut", True)[:2] == ["canny/canny_top/hls_synth", "fft/hls_synth"]


def test_sort_by_number_puts_missing_last_both_ways(table: RecordTable) -> None:
    ascending = groups(table, "type:hls_synth", "lut")
    descending = groups(table, "type:hls_synth", "lut", True)
    assert ascending[:3] == ["topk/hls_synth", "fft/hls_synth", "canny/canny_top/hls_synth"]
    assert descending[:3] == ["canny/canny_top/hls_synth", "fft/hls_synth", "topk/hls_synth"]
    assert set(ascending[3:]) == set(descending[3:]) == {"lud/hls_synth", "srad/hls_synth"}


def test_a_cycle_count_of_minus_one_is_no_number(table: RecordTable) -> None:
    """`<Interval-max>-1</Interval-max>`: a dataflow interval Vitis could not bound
    (YaoTengqi/Prediction_Model_Accelerator), as compare reads it (numbers.NO_BOUND): no number,
    so `interval<5` does not match it and it sorts with the missing, last both ways."""
    unbounded = RecordTable()
    for number, line in enumerate(EXPECTED.read_text().splitlines(), 1):
        record = json.loads(line)
        if record["problem"]["group_path"] == ["topk"] and record["report_type"] == "hls_synth":
            record["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Interval-max"] = "-1"
            line = json.dumps(record)
        unbounded.add(line, record, f"expected:{number}")
    assert "topk/hls_synth" not in groups(unbounded, "type:hls_synth interval<100000000")
    assert groups(unbounded, "type:hls_synth", "interval")[-1] == "topk/hls_synth"
    assert groups(unbounded, "type:hls_synth", "interval", True)[-1] == "topk/hls_synth"


def test_exports(table: RecordTable) -> None:
    rows = table.view(parse("type:rtl_sim"), "group", False)
    jsonl = export(table, rows, ["group"], "jsonl")
    originals = [l for l in EXPECTED.read_text().splitlines() if '"report_type":"rtl_sim"' in l]
    assert sorted(jsonl.splitlines()) == sorted(originals)  # byte for byte
    assert export(table, rows, ["group", "cycles", "us"], "csv").splitlines() == [
        "group,cycles,us",
        "canny/canny_top,,",
        "fft,74,",
        "srad,,",
        "topk,2024,6.748",
    ]
    assert export(table, [], ["group", "lut"], "csv") == "group,LUT\n"  # a header even for zero rows
    assert export(table, rows[-1:], ["group", "us"], "md") == "| group | us |\n|---|---:|\n| topk | 6.748 |\n"
