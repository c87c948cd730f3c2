"""The Pareto front marking and the field-by-field record diff, on hand-made inputs."""

from __future__ import annotations

from collectors.compare.diff import field_rows, flatten, pair_records
from collectors.compare.pareto import Point, mark_dominated


def test_dominated_points_lower_is_better() -> None:
    points = [Point("a", 1, 10), Point("b", 2, 5), Point("c", 3, 6), Point("d", 2, 5)]
    marked = {p.label: p.dominated for p in mark_dominated(points)}
    # c is beaten by b (2 <= 3, 5 <= 6); b and d are equal: neither dominates the other
    assert marked == {"a": False, "b": False, "c": True, "d": False}


def test_dominated_points_higher_y_is_better() -> None:
    points = [Point("fast big", 2.0, 5.0), Point("slow small", 0.5, 1.2), Point("slow big", 2.5, 1.0)]
    marked = mark_dominated(points, x_lower=True, y_lower=False)
    assert [(p.label, p.dominated) for p in marked] == [
        ("slow small", False),
        ("fast big", False),
        ("slow big", True),
    ]


def test_flatten_and_field_rows() -> None:
    left = {"a": {"LUT": "150", "list": [1, {"x": "7"}]}, "same": "v", "empty": {}}
    right = {"a": {"LUT": "100"}, "same": "v", "only_right": 0, "flag": True}
    assert flatten(left) == {"a.LUT": "150", "a.list[0]": 1, "a.list[1].x": "7", "same": "v", "empty": {}}
    rows = {r.field: r for r in field_rows(left, right)}
    assert (rows["a.LUT"].delta, rows["a.LUT"].percent) == (50, 50.0)
    assert rows["same"].differs is False and rows["same"].delta is None
    assert (rows["only_right"].left, rows["only_right"].right, rows["only_right"].delta) == (None, 0, None)
    assert rows["flag"].delta is None  # booleans are no numbers
    assert list(rows)[-2:] == ["only_right", "flag"]  # the second record's own fields come last


def test_pair_records_by_type_and_target() -> None:
    synth = {"report_type": "hls_synth", "run": {"target": "vitis.cosim"}}
    cosim = {"report_type": "rtl_sim", "run": {"target": "vitis.cosim"}}
    hw = {"report_type": "rtl_sim", "run": {"target": "vitis.hw_emu"}}
    assert pair_records([synth, cosim], [hw, synth]) == [
        ("hls_synth · vitis.cosim", synth, synth),
        ("rtl_sim · vitis.cosim", cosim, None),
        ("rtl_sim · vitis.hw_emu", None, hw),
    ]
