"""The demo tree (and the benchmarks' trees built with it) is the same whether one process
writes it or several."""

from __future__ import annotations

import shutil
from pathlib import Path

from collectors.demo import build_demo_tree


def contents(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def test_the_demo_tree_is_the_same_written_by_several_processes(tmp_path: Path) -> None:
    root = Path(build_demo_tree(str(tmp_path), projects=30, noise=4))
    written_by_one = contents(root)
    # 20 v++ hw_emu builds of 8 files, 10 vitis_hls projects of 9; each with 4 noise files
    assert len(written_by_one) == 20 * (8 + 4) + 10 * (9 + 4)
    shutil.rmtree(tmp_path / "rodinia-hls")
    assert build_demo_tree(str(tmp_path), projects=30, noise=4, processes=3) == str(root)
    assert contents(root) == written_by_one


def test_the_played_builds_end_as_the_demo_says(tmp_path: Path) -> None:
    """The builds `vitis-tui demo` plays: srad's synthesis fails, pathfinder's run times out, the
    others pass, and nw's report is rewritten with its latency halved (the demo's figures are
    seeded: the same on every run)."""
    import json
    import threading

    from collectors.collect.config import Settings
    from collectors.collect.engine import Engine
    from collectors.demo import PLAYED, play_builds

    root = play_builds(str(tmp_path), threading.Event(), pace=0.0)
    output = Engine(lambda _root: Settings()).scan([root]).output("", "")
    played = {group for group, _name in PLAYED}
    synth = {}
    for line in output.records.render().splitlines():
        record = json.loads(line)
        if record["report_type"] == "hls_synth" and record["problem"]["group_path"][0] in played:
            payload = record["hls_synth"]
            latency = (payload["PerformanceEstimates"] or {}).get("SummaryOfOverallLatency", {})
            synth[record["problem"]["group_path"][0]] = (payload["status"], latency.get("Worst-caseLatency"))
    assert synth == {
        "lud": ("pass", "484354"),
        "nw": ("pass", "104563"),
        "srad": ("fail", None),
        "pathfinder": ("timeout", None),
        "lavaMD": ("pass", "484999"),
    }
