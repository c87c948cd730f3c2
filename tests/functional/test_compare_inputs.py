"""What `vitis-tui compare` reads: lines judged as `validate` judges them, `--filter`, standard input."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from tui.cli import main

from ..compare_records import csim, lines, synth

PRODUCERS = Path(__file__).resolve().parents[1] / "fixtures" / "producers"
SONNET = PRODUCERS / "c2hls__u280_sonnet_vs_gold__first35.jsonl"


def refused_line() -> dict:
    """An hls_synth record without UserAssignments.Part: the contract refuses it."""
    record = synth("p", "ai", 1, worst=12)
    del record["hls_synth"]["UserAssignments"]["Part"]
    return record


def test_a_refused_line_is_left_out_and_named(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    data = tmp_path / "r.jsonl"
    data.write_text(lines([synth("p", "x_benchmark", worst=1200), synth("p", "ai", 0, worst=600), refused_line()]))
    assert main(["compare", str(data), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"{data}:3: $.hls_synth.UserAssignments: 'Part' is a required property",
        "2 records compared of 3 lines (1 refused by the schema left out)",
    ]
    [arm] = [a for a in json.loads(captured.out)["arms"] if a["origin"] == "ai"]
    assert arm["geomean"] == 2.0  # 1200 / 600: the refused variant 1 (12 cycles, 100x) is not the answer


def test_compare_of_a_file_and_of_its_export_agree(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "r.jsonl"
    data.write_text(SONNET.read_text() + json.dumps(refused_line()) + "\n")
    assert main(["compare", str(data), "--format", "json"]) == 0
    direct = json.loads(capsys.readouterr().out)
    assert main(["export", str(data)]) == 0
    exported = capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(exported.encode())))
    assert main(["compare", "-", "--format", "json"]) == 0
    piped = json.loads(capsys.readouterr().out)
    assert direct["rows"] == piped["rows"] and direct["arms"] == piped["arms"]
    assert {tuple(r["group_path"]) for r in direct["rows"]} == {("2mm",), ("3mm",), ("atax",), ("bicg",)}
    assert piped["inputs"][0]["path"] == "-"


def test_filter_with_a_leading_negation(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    data = tmp_path / "r.jsonl"
    records = [synth(g, "x_benchmark", worst=1000) for g in ("a", "b")]
    records += [synth("a", "ai", worst=500), synth("b", "ai", worst=250), csim("a", "ai")]
    data.write_text(lines(records))
    assert main(["compare", str(data), "--format", "json", "--filter", "-group:b"]) == 0
    captured = capsys.readouterr()
    rows = json.loads(captured.out)["rows"]
    assert [(r["group_path"], r["speedup"]) for r in rows] == [(["a"], 2.0)]
    assert captured.err.splitlines() == ["3 records compared of 5 lines (2 not matching --filter)"]
    assert main(["export", str(data), "--filter", "-type:hls_synth"]) == 0
    assert [json.loads(line)["report_type"] for line in capsys.readouterr().out.splitlines()] == ["sw_run"]
    assert main(["compare", str(data), "--filter", "type:("]) == 2
    assert "bad --filter" in capsys.readouterr().err


def test_oracle_fast_p_and_samples_flags(capsys: pytest.CaptureFixture) -> None:
    assert main(["compare", str(SONNET), "--format", "json", "--oracle", "--fast-p", "1,20", "--samples"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["oracle"], data["fast_p"], data["samples"]) == (True, ["1", "20"], True)
    no_skills = next(a for a in data["arms"] if a["arm"].endswith("no_skills"))
    # 22.81, 26.59, 1.293, 1.294 of 4: above 1 all four, above 20 two
    assert no_skills["fast_p"] == {"1": 1.0, "20": 0.5}
    assert no_skills["pass_at_k"]["hls_synth"] == {"1": 1.0}  # one attempt per problem: only k = 1
    # 2mm 22.8 > 18.7 and 3mm 26.6 > 0.8: no_skills; atax and bicg equal: the first arm by label
    base = no_skills["arm"].replace("no_skills", "base_skills")
    assert [c["arm"] for c in data["oracle_cells"]] == [no_skills["arm"]] * 2 + [base] * 2
    assert data["arms"][-1]["arm"] == "virtual best"
    assert main(["compare", str(SONNET), "--fast-p", "x"]) == 2
    assert "fast_p threshold 'x' is not a positive number" in capsys.readouterr().err


def test_dash_output_is_standard_output_and_collect_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`-o -` prints, as the shell's tools read it (it once wrote a file named '-'); collect,
    whose output is a locked file replaced whole, refuses it and says how to print."""
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "r.jsonl"
    data.write_text(lines([synth("p", "x_benchmark", worst=1200), synth("p", "ai", 0, worst=600)]))
    assert main(["export", str(data), "-o", "-"]) == 0
    assert capsys.readouterr().out == data.read_text()
    assert main(["compare", str(data), "--format", "json", "-o", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["arms"]
    (tmp_path / "tree").mkdir()
    assert main(["collect", str(tmp_path / "tree"), "-o", "-"]) == 2
    assert "vitis-tui export FILE" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl", "tree"]  # no file named '-'
