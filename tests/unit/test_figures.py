"""The runs table's figures: read as the records view's columns are, from the two kinds of record
that hold them (hand-checked against the reports behind tests/fixtures/expected_tree.jsonl)."""

from __future__ import annotations

import json
from collections import defaultdict

from collectors.records.columns import KEYS, extract, rtl_figures, synth_figures
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
    for records in runs_of_expected_tree().values():
        figures = run_figures(records)
        for record in records:
            values = dict(zip(KEYS, extract(record, extras=[]), strict=True))
            if record["report_type"] == "hls_synth":
                for figure, column in VIEW_COLUMN.items():
                    assert figures[figure] == (values[column] or "")
            elif record["report_type"] == "rtl_sim" and values["cycles"] is not None:
                assert figures["RTL"] == f"{values['cycles']} cyc"


def test_each_figure_is_read_by_its_column_key() -> None:
    """The canny run's csynth.xml (tests/fixtures/vitis/...canny_top__hls__syn__report__csynth.xml: Interval-max
    636846, URAM 0) and an rtl_sim record of fft."""
    runs = runs_of_expected_tree()
    synth = next(r for r in runs["canny/canny_top", "vitis.cosim"] if r["report_type"] == "hls_synth")
    assert synth_figures(synth) == {
        "latency": "637031", "interval": "636846", "clock": "3.650", "lut": "19589", "ff": "11523", "dsp": "4",
        "bram": "82", "uram": "0",
    }  # fmt: skip
    rtl = next(r for r in runs["fft", "vitis.cosim"] if r["report_type"] == "rtl_sim")
    assert rtl_figures(rtl)["cycles"] == 74
