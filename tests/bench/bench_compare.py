"""Benchmark: compare on 100,000 records, headless and in the compare screen.

50 problems x 20 arms (one `*_benchmark` arm, 19 AI setups) x 25 variants x 4 report types
(sw_run, hls_synth, rtl_sim of vitis.cosim, rtl_sim of vitis.hw_emu); one candidate in 7 fails
synthesis. Prints, never asserts:
- the time of the headless compare (json.loads of every line, indexing, the comparison) against
  a bare json.loads of the same file (the floor), and their ratio;
- in the compare screen (Textual pilot): the time from the key to a switched metric or baseline
  rule on the screen, and the UI-thread time of one live update (one project's records) on a
  10,000-record tree.
Targets: switch < 200 ms; live update < 50 ms.

    python tests/bench/bench_compare.py [--problems 50] [--arms 20] [--variants 25]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from collectors.compare.comparison import Options  # noqa: E402
from collectors.records.model import dumps  # noqa: E402
from tui.cli import main as cli_main  # noqa: E402

DEVICE = "xcu280-fsvh2892-2L-e"


def _base(kind: str, target: str, problem: int, arm: int, variant: int) -> dict[str, Any]:
    origin = "bench_benchmark" if arm == 0 else f"agent{arm:02d}"
    return {
        "schema_version": "1.0",
        "report_type": kind,
        "run": {"target": target, "device": DEVICE, "vitis_version": "2023.2", "runtime_seconds": 10.0},
        "problem": {"suite": "bench", "group_path": [f"p{problem:02d}", "top"]},
        "implementation": {
            "origin": origin,
            "origin_version": None if arm == 0 else "v1",
            "origin_meta": {} if arm == 0 else {"model": f"model{arm % 5}"},
            "variant": {"index": variant, "name": f"step{variant}"},
        },
    }


def _synth(ok: bool, latency: int, rng: random.Random) -> dict[str, Any]:
    """A contract-valid hls_synth payload (a failed one holds nulls)."""
    if not ok:
        empty = ("ReportVersion", "UserAssignments", "PerformanceEstimates", "AreaEstimates")
        return {"status": "fail", **dict.fromkeys(empty)}
    return {
        "status": "pass",
        "ReportVersion": {"Version": "2023.2"},
        "UserAssignments": {
            "unit": "ns",
            "ProductFamily": "virtexuplusHBM",
            "Part": DEVICE,
            "TopModelName": "top",
            "TargetClockPeriod": "3.33",
            "ClockUncertainty": "0.90",
            "FlowTarget": "vitis",
        },
        "PerformanceEstimates": {
            "SummaryOfTimingAnalysis": {"unit": "ns", "EstimatedClockPeriod": f"{rng.uniform(2, 4):.3f}"},
            "SummaryOfOverallLatency": {
                "unit": "clock cycles",
                "Best-caseLatency": str(latency // 2),
                "Average-caseLatency": str(latency * 3 // 4),
                "Worst-caseLatency": str(latency),
                "Best-caseRealTimeLatency": "undef",
                "Average-caseRealTimeLatency": "undef",
                "Worst-caseRealTimeLatency": "undef",
                "Interval-min": str(latency + 1),
                "Interval-max": str(latency + 1),
            },
        },
        "AreaEstimates": {
            "Resources": {"LUT": str(rng.randint(2_000, 90_000)), "FF": str(rng.randint(2_000, 120_000))}
            | {"DSP": "0", "BRAM_18K": "0", "URAM": "0"},
            "AvailableResources": {"LUT": "1303680", "FF": "2607360", "DSP": "9024", "BRAM_18K": "4032", "URAM": "960"},
        },
    }


def _sim(ok: bool, cycles: int | None, us: float | None) -> dict[str, Any]:
    status = "pass" if ok else "fail"
    return {"status": status, "kernel_runtime_cycles": cycles, "kernel_runtime_us": us, "kernel_clock_freq_mhz": None}


def candidate_records(problem: int, arm: int, variant: int, rng: random.Random) -> list[dict[str, Any]]:
    """sw_run, hls_synth, cosim and hw_emu records of one candidate, each valid by the contract."""
    latency = rng.randint(1_000, 2_000_000)
    synth_ok = rng.random() > 1 / 7
    synth = _base("hls_synth", "vitis.csynth", problem, arm, variant)
    synth["hls_synth"] = _synth(synth_ok, latency, rng)
    sw = _base("sw_run", "vitis.sw_emu", problem, arm, variant)
    sw["sw_run"] = {"status": "pass"}
    cosim = _base("rtl_sim", "vitis.cosim", problem, arm, variant)
    cosim["rtl_sim"] = _sim(synth_ok, latency * 4, None)
    hw = _base("rtl_sim", "vitis.hw_emu", problem, arm, variant)
    hw["rtl_sim"] = _sim(synth_ok, None, round(latency / 300, 3))
    return [sw, synth, cosim, hw]


def make_lines(problems: int, arms: int, variants: int, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    return [
        dumps(record)
        for p in range(problems)
        for a in range(arms)
        for v in range(variants)
        for record in candidate_records(p, a, v, rng)
    ]


def headless(path: str) -> tuple[float, float, float]:
    """Seconds of a bare json.loads of every line, of the same keeping the records (what any
    reader of the whole file pays), and of `vitis-tui compare FILE --format json`."""
    began = time.perf_counter()
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            json.loads(line)
    floor = time.perf_counter() - began
    began = time.perf_counter()
    with open(path, encoding="utf-8") as handle:
        kept = [json.loads(line) for line in handle]
    keeping = time.perf_counter() - began
    del kept
    began = time.perf_counter()
    # (a file beside the input: the output is never written onto a device such as /dev/null)
    assert cli_main(["compare", path, "--format", "json", "-o", path + ".compare.json"]) == 0
    return floor, keeping, time.perf_counter() - began


async def screen_figures(lines: list[str], live_lines: list[str]) -> dict[str, list[float]]:
    from textual.app import App

    from tui.screens.compare import CompareScreen

    records = [json.loads(line) for line in lines]
    screen = CompareScreen(records, Options())
    figures: dict[str, list[float]] = {"metric": [], "baseline": [], "live": []}
    async with App().run_test(size=(200, 60)) as pilot:
        pilot.app.push_screen(screen)
        while not screen.ready:
            await pilot.pause(0.02)
        for key, name in (("m", "metric"), ("b", "baseline")):
            for _ in range(6):
                await pilot.press(key)  # the switch runs in a worker: until it is on the screen
                while not screen.settled:
                    await pilot.pause(0.005)
                figures[name].append(screen.last_update_seconds)
    # a live update on a 10,000-record tree: one candidate's four records change
    live = CompareScreen([json.loads(line) for line in live_lines], Options())
    async with App().run_test(size=(200, 60)) as pilot:
        pilot.app.push_screen(live)
        while not live.ready:
            await pilot.pause(0.02)
        rng = random.Random(9)
        for n in range(10):
            changed = candidate_records(n % 10, 3, 24, rng)
            began = time.perf_counter()
            live.records_changed(changed, [])
            figures["live"].append(time.perf_counter() - began)
            await pilot.pause()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=50)
    parser.add_argument("--arms", type=int, default=20)
    parser.add_argument("--variants", type=int, default=25)
    args = parser.parse_args()
    lines = make_lines(args.problems, args.arms, args.variants)
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "records.jsonl")
        with open(path, "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
        floor, keeping, total = headless(path)
    print(f"{len(lines):,} records, {args.problems} problems x {args.arms} arms x {args.variants} variants x 4 types")
    print(
        f"headless compare (vitis-tui compare --format json): {total:.2f} s; bare json.loads of every line: "
        f"{floor:.2f} s (ratio {total / floor:.1f}); json.loads keeping the records: {keeping:.2f} s "
        f"(ratio {total / keeping:.1f}); peak RSS so far {peak_mb():.0f} MB (the records made here included)"
    )
    figures = asyncio.run(screen_figures(lines, make_lines(10, 10, 25)))
    for name, label in (("metric", "switch metric"), ("baseline", "switch baseline rule")):
        values = figures[name]
        median, worst = statistics.median(values) * 1000, max(values) * 1000
        print(f"{label} ({len(lines):,} records): median {median:.0f} ms, max {worst:.0f} ms")
    live = figures["live"]
    print(
        f"live update (10,000 records, 4 changed): median {statistics.median(live) * 1000:.1f} ms, "
        f"max {max(live) * 1000:.1f} ms of UI-thread work"
    )
    print(f"peak RSS of the whole run (the screen and its 100,000 records included): {peak_mb():.0f} MB")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


if __name__ == "__main__":
    main()
