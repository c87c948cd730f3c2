"""The runs table's figures: read as the records view's columns are, from the two kinds of record
that hold them (hand-checked against the reports behind tests/fixtures/expected_tree.jsonl)."""

from __future__ import annotations

import json
from collections import defaultdict

from collectors.records.table import COLUMNS, extract
from tui.widgets.figures import FIGURE_COLUMNS, run_figures

from ..conftest import EXPECTED_TREE

# the records view's column behind each figure (RTL: the cycles, else the microseconds)
VIEW_COLUMN = {"latency": "latency", "clock": "clock", "LUT": "lut", "FF": "ff", "DSP": "dsp", "BRAM": "bram"}


def runs_of_expected_tree() -> dict[tuple[str, str], list[dict]]:
    runs: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for line in EXPECTED_TREE.read_text().splitlines():
        record = json.loads(line)
        runs["/".join(record["problem"]["group_path"]), record["run"]["target"]].append(record)
    return runs


def test_figures_of_real_runs() -> None:
    runs = runs_of_expected_tree()
    assert run_figures(runs["canny/canny_top", "vitis.cosim"]) == {
        "latency": "637031", "clock": "3.650", "LUT": "19589", "FF": "11523", "DSP": "4", "BRAM": "82", "RTL": "",
    }  # fmt: skip
    assert run_figures(runs["fft", "vitis.cosim"])["RTL"] == "74 cyc"
    assert run_figures(runs["topk", "vitis.hw_emu"])["RTL"] == "2024 cyc"  # (6.748 us too: the cycles win)
    assert run_figures(runs["lud", "vitis.csynth"])["LUT"] == ""  # a failed synthesis: no estimate
    assert run_figures([]) == dict.fromkeys(FIGURE_COLUMNS, "")


def test_figures_are_the_records_view_columns() -> None:
    """One reading of the fields: each figure is the value `extract` gives its column."""
    position = {column.key: n for n, column in enumerate(COLUMNS)}
    for records in runs_of_expected_tree().values():
        figures = run_figures(records)
        for record in records:
            values = extract(record, extras=[])
            if record["report_type"] == "hls_synth":
                for figure, column in VIEW_COLUMN.items():
                    assert figures[figure] == (values[position[column]] or "")
            elif record["report_type"] == "rtl_sim" and values[position["cycles"]] is not None:
                assert figures["RTL"] == f"{values[position['cycles']]} cyc"
