"""Hostile lines given to `vitis-tui compare`: every one is judged as `validate` judges it, left
out, named on one line of stderr with its control characters visible, and counted; the rest is
compared as if those lines were not there."""

from __future__ import annotations

import json
from pathlib import Path

from ..compare_records import lines, synth

GOOD = [synth("p", "x_benchmark", worst=1200), synth("p", "ai", worst=600)]


def test_each_bad_line_is_one_named_refusal(tmp_path: Path, cli) -> None:
    hostile = [
        b"",  # an empty line
        b"\xff\xfe{}",  # not UTF-8
        b'{"a": NaN}',  # NaN is not JSON
        b'{"a": 1, "a": 2}',  # a repeated key
        b"[" * 200 + b"]" * 200,  # deep nesting
        json.dumps({**GOOD[1], "report_type": "hls_synth\x1b[2J"}).encode(),  # a terminal escape in a value
        json.dumps({**GOOD[1], "schema_version": "2.0"}).encode(),
    ]
    data = tmp_path / "h.jsonl"
    data.write_bytes(lines(GOOD).encode() + b"\r\n".join(hostile) + b"\r\n")
    ran = cli("compare", str(data), "--format", "json")
    assert ran.code == 0
    errors = ran.err.splitlines()
    assert errors[-1] == "2 records compared of 9 lines (7 refused by the schema left out)"
    named = {int(line.split(":")[1]) for line in errors[:-1]}
    assert named == set(range(3, 10))  # each hostile line, by its number
    assert all("\x1b" not in line for line in errors) and any("\\x1b[2J" in line for line in errors)
    [row] = json.loads(ran.out)["rows"]
    assert row["speedup"] == 2.0  # 1200 / 600, as without the hostile lines


def test_only_refused_lines_compare_nothing_and_say_so(tmp_path: Path, cli) -> None:
    data = tmp_path / "h.jsonl"
    data.write_text("{}\n[]\n")
    ran = cli("compare", str(data), "--format", "json")
    assert ran.code == 0 and json.loads(ran.out)["rows"] == [] and json.loads(ran.out)["arms"] == []
    assert ran.err.splitlines()[-1] == "0 records compared of 2 lines (2 refused by the schema left out)"
    html = cli("compare", str(data), "--format", "html")
    assert html.code == 0 and "No arm has a geomean to plot." in html.out
    latex = cli("compare", str(data), "--format", "latex")
    assert latex.code == 0 and latex.out.splitlines()[-1] == r"\end{tabular}"
