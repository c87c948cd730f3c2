"""The record set: applying project results one by one always gives the bytes of a whole write."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from collectors.records.model import dumps, key_of
from collectors.records.store import RecordSet


def record(group: str, variant: int, report_type: str, value: int, device: str = "xcu50") -> dict[str, Any]:
    return {
        "schema_version": "1.0",
        "report_type": report_type,
        "run": {"target": "vitis.hw_emu", "device": device, "vitis_version": "2023.2", "runtime_seconds": None},
        "problem": {"suite": "s", "group_path": [group]},
        "implementation": {"origin": "o", "origin_version": None, "variant": {"index": variant, "name": "v"}},
        report_type: {"status": "pass", "value": value},
    }


def whole(projects: dict[str, list[dict[str, Any]]]) -> bytes:
    """What a single write of every project gives: first project in path order wins a key."""
    chosen: dict[Any, dict[str, Any]] = {}
    for path in sorted(projects):
        for r in projects[path]:
            chosen.setdefault(key_of(r), r)
    return "".join(dumps(chosen[k]) + "\n" for k in sorted(chosen, key=lambda k: k.order)).encode()


records_strategy = st.lists(
    st.builds(
        record,
        st.sampled_from(["a", "b", "c"]),
        st.integers(0, 2),
        st.sampled_from(["hls_synth", "rtl_sim"]),
        st.integers(0, 5),
    ),
    max_size=5,
)
# (project, its records or None: removed, whether the file is rendered after the step: the set
# orders its keys when first asked, then keeps them in order)
steps = st.lists(
    st.tuples(st.sampled_from(["/p1", "/p2", "/p3"]), st.none() | records_strategy, st.booleans()), max_size=25
)


@settings(max_examples=300, deadline=None)
@given(steps)
def test_applying_in_any_order_gives_the_bytes_of_one_whole_write(sequence) -> None:
    live = RecordSet()
    state: dict[str, list[dict[str, Any]]] = {}
    for project, records, rendered in sequence:
        if records is None:
            live.remove(project)
            state.pop(project, None)
        else:
            live.apply(project, records)
            state[project] = records
        if rendered:
            assert live.render() == whole(state)
    assert live.render() == whole(state) and len(live) == len(whole(state).splitlines())


def test_delta_names_added_changed_and_removed_lines() -> None:
    live = RecordSet()
    first = live.apply("/p", [record("a", 0, "hls_synth", 1), record("a", 0, "rtl_sim", 1)])
    assert sorted(k.report_type for k in first.added) == ["hls_synth", "rtl_sim"]
    second = live.apply("/p", [record("a", 0, "hls_synth", 2)])
    assert [k.report_type for k in second.changed] == ["hls_synth"]
    assert json.loads(next(iter(second.changed.values())))["hls_synth"]["value"] == 2
    assert [k.report_type for k in second.removed] == ["rtl_sim"]
    assert not live.apply("/p", [record("a", 0, "hls_synth", 2)])  # nothing changed: an empty delta


def test_a_key_two_projects_make_is_written_once_and_reported() -> None:
    live = RecordSet()
    live.apply("/b", [record("a", 0, "hls_synth", 2)])
    delta = live.apply("/a", [record("a", 0, "hls_synth", 1)])  # /a sorts first: its line wins
    assert len(delta.changed) == 1
    assert [(p.path, p.reason) for p in live.clashes()] == [
        ("/b", "same record key as /a; this project's record not written")
    ]
    assert json.loads(live.render())["hls_synth"]["value"] == 1
    back = live.remove("/a")  # the other claim takes over
    assert json.loads(next(iter(back.changed.values())))["hls_synth"]["value"] == 2
    assert list(back.owners.values()) == ["/b"]  # the line now written is /b's, not /a's
    assert live.clashes() == []


def test_lines_serialised_already_are_written_as_given_and_a_mismatch_is_serialised_again() -> None:
    """The schema check's lines are written as they are (their order is the records'); lines
    that do not match the records one for one are ignored."""
    records = [record("a", 0, "hls_synth", 1), record("a", 0, "rtl_sim", 1), record("a", 0, "hls_synth", 9)]
    given = RecordSet()
    given.apply("/p", records, [dumps(r) for r in records])
    plain = RecordSet()
    plain.apply("/p", records)
    assert given.render() == plain.render() and len(given.clashes()) == 1  # (the repeated key: reported)
    marked = RecordSet()
    marked.apply("/p", records[:2], ["first", "second"])
    assert marked.render() == b"first\nsecond\n"  # (hls_synth sorts first)
    short = RecordSet()
    short.apply("/p", records[:2], ["only one"])
    assert short.render() == b"".join((dumps(r) + "\n").encode() for r in records[:2])


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["/p1", "/p2", "/p3", "/p4"]), records_strategy))
def test_filling_a_fresh_set_at_once_is_applying_each_project_in_path_order(projects) -> None:
    """`collect`'s one write: the same bytes, clashes and repeats as applying project by project,
    and the set goes on taking changes as if it had been built so."""
    applied, filled = RecordSet(), RecordSet()
    for project in sorted(projects):
        applied.apply(project, projects[project])
    filled.fill((project, projects[project], (), ()) for project in sorted(projects))
    assert filled.render() == applied.render() == whole(projects)
    assert filled.clashes() == applied.clashes()
    change = [record("a", 0, "hls_synth", 99)]
    assert filled.apply("/p2", change) == applied.apply("/p2", change)
    assert filled.render() == applied.render()
