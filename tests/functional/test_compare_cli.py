"""`vitis-tui compare` through tui.cli.main: formats, exit codes, bad lines, a build tree as input."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tui.cli import main

from ..compare_records import synth

PRODUCERS = Path(__file__).resolve().parents[1] / "fixtures" / "producers"
SONNET = PRODUCERS / "c2hls__u280_sonnet_vs_gold__first35.jsonl"
HW_EMU = PRODUCERS / "c2hls__references__hw_emu_u280.jsonl"


def test_json_output_shape_and_numbers(capsys: pytest.CaptureFixture) -> None:
    assert main(["compare", str(SONNET), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["metric"], data["baseline"], data["pick"], data["policy"]) == (
        "csynth.worst",
        "benchmark",
        "final",
        "exclude",
    )
    assert data["inputs"] == [{"path": str(SONNET), "sha256": hashlib.sha256(SONNET.read_bytes()).hexdigest()}]
    assert len(data["rows"]) == 8 and len(data["arms"]) == 2
    row = next(r for r in data["rows"] if r["group_path"] == ["2mm"] and r["origin_version"].endswith("no_skills"))
    assert (row["value"], row["baseline_value"], row["status"]) == (52627, 1200415, "pass")
    assert row["speedup"] == pytest.approx(1200415 / 52627)  # 22.8099
    arm = next(a for a in data["arms"] if a["origin_version"].endswith("no_skills"))
    # (22.8099 * 26.5909 * 1.29285 * 1.29367) ** (1/4) = 5.6436, 4 compared of 4
    assert arm["geomean"] == pytest.approx(5.6436, abs=1e-4)
    assert (arm["problems"], arm["compared"], arm["fast_1"], arm["status_counts"]) == (4, 4, 1.0, {"pass": 4})


def test_markdown_when_not_a_terminal_and_options_in_the_header(capsys: pytest.CaptureFixture) -> None:
    assert (
        main(
            ["compare", str(HW_EMU), "--metric", "hwemu.us", "--baseline", "rodinia_hls_benchmark#0", "--policy", "one"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("**metric hwemu.us")
    assert "baseline rodinia_hls_benchmark#0" in out
    assert "policy one" in out
    # 6 compared of 11 problems with a baseline
    assert "(6/11)" in out
    assert "| rodinia_hls/knn |" in out and "2.09×" in out  # 3496.756 / 1673.361 = 2.0897


def test_csv_to_a_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "cmp.csv"
    assert main(["compare", str(SONNET), "--metric", "lut", "-o", str(out)]) == 0  # the ending picks csv
    lines = out.read_text().splitlines()
    assert lines[0].startswith("suite,group_path,arm,origin,origin_version,variant_index")
    assert len(lines) == 9


def test_unknown_metric_or_rule_exits_2_with_the_valid_ones(capsys: pytest.CaptureFixture) -> None:
    assert main(["compare", str(SONNET), "--metric", "latency"]) == 2
    assert (
        "valid metrics: csynth.worst, csynth.avg, csynth.best, csynth.time, cosim.cycles, hwemu.us, "
        "hwemu.cycles, fmax, ii, adp, lut, ff, dsp, bram, uram" in capsys.readouterr().err
    )
    assert main(["compare", str(SONNET), "--baseline", "x#"]) == 2
    assert "valid rules: benchmark, best, ORIGIN[@VERSION][#VARIANT]" in capsys.readouterr().err
    assert main(["compare", str(SONNET) + ".missing"]) == 3


def test_invalid_lines_are_skipped_with_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    lines = SONNET.read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines[:6] + ["{not json", "[1, 2]"] + lines[6:9]) + "\n")
    assert main(["compare", str(bad), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"{bad}:7: invalid JSON at column 2: Expecting property name enclosed in double quotes",
        f"{bad}:8: not a JSON object",
        "9 records compared of 11 lines (2 refused by the schema left out)",
    ]
    assert len(json.loads(captured.out)["rows"]) == 2  # the 2mm rows of the two AI setups


def test_aliases_of_a_config_pair_spellings(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The ground truth says `fdtd-2d`, the AI arm `fdtd_2d`: with the default loose groups and a
    suite alias they are one problem, and the AI arm gets a speedup (2000 / 500 = 4.0)."""

    def record(suite: str, group: str, origin: str, latency: int) -> str:
        found = synth(group, origin, worst=latency)
        found["problem"]["suite"] = suite
        return json.dumps(found)

    data = tmp_path / "two.jsonl"
    data.write_text(
        record("hlsfactory", "fdtd-2d", "hlsfactory_benchmark", 2000)
        + "\n"
        + record("hlsfactory_polybench_float_small", "fdtd_2d", "agent", 500)
        + "\n"
    )
    config = tmp_path / "vitis-tui.toml"
    config.write_text('[aliases.suite]\n"hlsfactory" = "hlsfactory_polybench_float_small"\n')
    assert main(["compare", str(data), "--format", "json"]) == 0
    unpaired = json.loads(capsys.readouterr().out)
    assert [row["status"] for row in unpaired["rows"]] == ["no baseline"]
    assert main(["compare", str(data), "--format", "json", "--config", str(config)]) == 0
    [row] = json.loads(capsys.readouterr().out)["rows"]
    assert (row["origin"], row["status"], row["speedup"]) == ("agent", "pass", 4.0)


def test_a_build_tree_is_collected_first(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from collectors.demo import build_demo_tree

    root = build_demo_tree(str(tmp_path / "demo"))
    collected = tmp_path / "collected.jsonl"
    assert main(["collect", root, "-o", str(collected), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["compare", root, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # the digest is that of what `collect` writes for the same tree
    assert data["inputs"] == [{"path": root, "sha256": hashlib.sha256(collected.read_bytes()).hexdigest()}]
    assert data["rows"]


def test_the_headless_demo_holds_an_ai_arm(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "demo.jsonl"
    assert main(["demo", "--headless", str(tmp_path / "demo"), "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["compare", str(out), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    agent = next(a for a in data["arms"] if a["origin"] == "demo_agent")
    # hotspot (3 steps), kmeans, StreamCluster, cfd/cfd_flux attempted; 6 benchmark problems with a baseline
    assert (agent["origin_version"], agent["problems"], agent["compared"], agent["baselines"]) == ("v1", 4, 4, 6)
    hotspot = [r for r in data["rows"] if r["origin"] == "demo_agent" and r["group_path"] == ["hotspot"]]
    assert [(r["variant"]["name"], r["status"], r["answer"]) for r in hotspot] == [
        ("attempt", "pass", False),
        ("pipeline", "fail", False),
        ("unroll", "pass", True),
    ]
    final = hotspot[2]
    assert final["speedup"] == final["baseline_value"] / final["value"]
