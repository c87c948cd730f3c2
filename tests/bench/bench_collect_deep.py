"""Benchmark: `collect` on deep v++ hw_emu trees, against two others in the same run.

- baseline: one process walks the tree, stats every file and reads every report and log once
  (every file ending in .xml, .rpt, .log, .csv, .json, .meta or _summary, whatever collect
  makes of it): the least any collector must do;
- naive: a collector built from the contract's own example functions: `rglob` for each report
  name, the contract's `parse_csynth` (ElementTree) on every copy of csynth.xml, its
  `choose_csynth`, the profile and system diagram parsers, v++ logs read for the run's facts.

Prints each one's time (best of N, interleaved), the ratios and the peak memory of each process
(collect's includes its worker). Targets: collect <= 1.2x baseline, naive >= 3x collect, peak
memory < 200 MB.

    python tests/bench/bench_collect_deep.py [--projects 1000] [--log-lines 2000] [--rounds 2] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
READ_ENDINGS = (".xml", ".rpt", ".log", ".csv", ".json", ".meta", "_summary")


# --- the three sides, each run in a process of its own --------------------------------------------


def baseline(root: str) -> int:
    """Walk, stat every file, read every report and log once; returns the bytes read."""
    read = 0
    stack = [root]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                    continue
                os.stat(entry.path)
                if entry.name.endswith(READ_ENDINGS):
                    with open(entry.path, "rb") as handle:
                        read += len(handle.read())
    return read


CANONICAL_PATH_PENALTIES = {"impl", "ip", "ip_repo", "hls_files", "link", "int", "temp", "sys_link"}


def choose_csynth(paths: list[Path]) -> Path:  # the contract's example
    def score(path: Path) -> tuple[int, int, int, str]:
        parts = path.parts
        penalty_count = sum(1 for part in parts if part in CANONICAL_PATH_PENALTIES)
        suffix_penalty = 0 if parts[-4:] == ("solution", "syn", "report", "csynth.xml") else 1
        return (penalty_count, suffix_penalty, len(parts), path.as_posix())

    return min(paths, key=score)


def xml_node_to_dict(node: ET.Element | None) -> Any:  # the contract's example
    if node is None:
        return None
    children = list(node)
    if not children:
        return (node.text or "").strip()
    return {child.tag: xml_node_to_dict(child) for child in children}


def parse_csynth(csynth_xml: Path) -> dict[str, Any]:  # the contract's example
    root = ET.parse(csynth_xml).getroot()
    performance = root.find("PerformanceEstimates")
    return {
        "status": "pass",
        "ReportVersion": xml_node_to_dict(root.find("ReportVersion")),
        "UserAssignments": xml_node_to_dict(root.find("UserAssignments")),
        "PerformanceEstimates": {
            "SummaryOfTimingAnalysis": xml_node_to_dict(
                None if performance is None else performance.find("SummaryOfTimingAnalysis")
            ),
            "SummaryOfOverallLatency": xml_node_to_dict(
                None if performance is None else performance.find("SummaryOfOverallLatency")
            ),
        },
        "AreaEstimates": xml_node_to_dict(root.find("AreaEstimates")),
    }


def kernel_runtime_us(path: Path) -> float | None:  # the contract's example, condensed
    total, rows, in_section, header = 0.0, 0, False, None
    for raw in path.read_text(encoding="utf-8", errors="ignore").splitlines():
        line = raw.strip()
        if line == "Compute Units: Running Time and Stalls":
            in_section, header = True, None
        elif in_section and not line and header is not None:
            break
        elif in_section and line:
            row = [cell.strip() for cell in raw.split(",")]
            if header is None:
                header = row
                continue
            try:
                total, rows = total + float(row[1]), rows + 1
            except (IndexError, ValueError):
                pass
    return total if rows else None


def clock_mhz(path: Path) -> float | None:  # the contract's example, condensed
    data = json.loads(path.read_text(encoding="utf-8"))
    for clock in data.get("system_diagram_metadata", {}).get("xsa", {}).get("clocks", []):
        if isinstance(clock, dict) and clock.get("id") == 0:
            return float(clock["spec_frequency"])
    return None


VPP_FACTS = re.compile(r"Compiler Version string: (\S+)|Target device: (\S+)|Total elapsed time: (\d+)h (\d+)m (\d+)s")


def naive(root: str, out: str) -> int:
    """rglob for every report name, parse every copy, pick, write sorted records; returns the count."""
    projects: dict[Path, dict[str, list[Path]]] = {}
    for name in ("csynth.xml", "profile_kernels.csv", "systemDiagramModel.json", "lat.rpt", "v++*.log"):
        for path in Path(root).rglob(name):
            cut = next((i for i, part in enumerate(path.parts) if part.startswith("_x")), len(path.parts) - 1)
            projects.setdefault(Path(*path.parts[:cut]), {}).setdefault(name, []).append(path)
    lines = []
    for project, found in sorted(projects.items()):
        copies = {path: parse_csynth(path) for path in found.get("csynth.xml", [])}  # every copy
        synth = copies[choose_csynth(list(copies))] if copies else None
        device, version, seconds = None, None, 0
        for log in found.get("v++*.log", []):
            for match in VPP_FACTS.finditer(log.read_text(encoding="utf-8", errors="ignore")):
                version = match.group(1) or version
                device = match.group(2) or device
                if match.group(3):
                    seconds += int(match.group(3)) * 3600 + int(match.group(4)) * 60 + int(match.group(5))
        us = kernel_runtime_us(found["profile_kernels.csv"][0]) if "profile_kernels.csv" in found else None
        mhz = clock_mhz(found["systemDiagramModel.json"][0]) if "systemDiagramModel.json" in found else None
        run = {"target": "vitis.hw_emu", "device": device, "vitis_version": version, "runtime_seconds": seconds}
        where = {"suite": Path(root).name, "group_path": list(project.relative_to(root).parts)}
        cycles = round(us * mhz) if us is not None and mhz is not None else None
        rtl = {"status": "pass", "kernel_runtime_cycles": cycles, "kernel_runtime_us": us, "kernel_clock_freq_mhz": mhz}
        lines.append(json.dumps({"report_type": "hls_synth", "run": run, "problem": where, "hls_synth": synth}))
        lines.append(json.dumps({"report_type": "rtl_sim", "run": run, "problem": where, "rtl_sim": rtl}))
    Path(out).write_text("".join(line + "\n" for line in sorted(lines)), encoding="utf-8")
    return len(lines)


def child(mode: str, root: str, out: str) -> None:
    sys.path.insert(0, REPO)
    started = time.perf_counter()
    if mode == "baseline":
        count = baseline(root)
    elif mode == "naive":
        count = naive(root, out)
    else:
        from tui.cli import main

        assert main(["collect", root, "-o", out, "--quiet"]) == 0
        with open(out, encoding="utf-8") as handle:
            count = sum(1 for _ in handle)
    elapsed = time.perf_counter() - started
    peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    print(json.dumps({"seconds": elapsed, "count": count, "peak_mb": peak / 1024}))


# --- the driver --------------------------------------------------------------------------------


def measure(mode: str, root: str, out: str) -> dict:
    done = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--child", mode, root, out],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    return json.loads(done.stdout)


def _build_slice(base: str, first: int, count: int, log_lines: int) -> str:
    sys.path.insert(0, REPO)
    from deep_tree import build_deep_tree

    return build_deep_tree(base, projects=count, log_lines=log_lines, first=first)


def build(base: str, projects: int, log_lines: int) -> str:
    """The tree, written by one process per core (it is hundreds of thousands of small files)."""
    from deep_tree import TREE_WRITERS

    share = -(-projects // TREE_WRITERS)
    slices = [(first, min(share, projects - first)) for first in range(0, projects, share)]
    with ProcessPoolExecutor(TREE_WRITERS) as pool:
        roots = list(pool.map(_build_slice, *zip(*[(base, f, n, log_lines) for f, n in slices])))
    return roots[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--projects", type=int, default=1000)
    parser.add_argument("--log-lines", type=int, default=2000, help="lines of a project's largest log")
    parser.add_argument("--rounds", type=int, default=2, help="best of N for each side")
    parser.add_argument("--keep", help="build the tree here and keep it (an existing tree is reused)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    base = args.keep or tempfile.mkdtemp(prefix="vitis-tui-bench-deep-")
    try:
        started = time.perf_counter()
        root = os.path.join(base, "deep-hw-emu")
        if not os.path.isdir(root):
            root = build(base, args.projects, args.log_lines)
        print(f"tree: {args.projects} projects built in {time.perf_counter() - started:.1f} s at {root}")
        results: dict[str, list[dict]] = {mode: [] for mode in ("baseline", "collect", "naive")}
        outs = {mode: os.path.join(base, f"{mode}.jsonl") for mode in results}
        measure("baseline", root, outs["baseline"])  # warm the page cache for every side alike
        for _ in range(args.rounds):  # interleaved, so machine noise hits every side alike
            for mode, found in results.items():
                found.append(measure(mode, root, outs[mode]))
        best = {mode: min(found, key=lambda m: m["seconds"]) for mode, found in results.items()}
        report(best, args.rounds)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


def report(best: dict[str, dict], rounds: int) -> None:
    base, collect, naive_ = best["baseline"], best["collect"], best["naive"]
    print(f"report and log bytes:  {base['count'] / 1e6:.1f} MB")
    print(f"records written:       {collect['count']} (naive: {naive_['count']})")
    print(f"baseline walk+stat+read: {base['seconds']:.3f} s (best of {rounds})")
    print(f"collect:               {collect['seconds']:.3f} s")
    print(f"naive collector:       {naive_['seconds']:.3f} s")
    print(f"ratio collect/baseline: {collect['seconds'] / base['seconds']:.2f}  (target <= 1.2)")
    print(f"ratio naive/collect:    {naive_['seconds'] / collect['seconds']:.2f}  (target >= 3)")
    print(
        f"peak RSS: collect {collect['peak_mb']:.0f} MB (target < 200 MB), "
        f"baseline {base['peak_mb']:.0f} MB, naive {naive_['peak_mb']:.0f} MB"
    )


if __name__ == "__main__":
    main()
