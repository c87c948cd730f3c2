"""Benchmark: `collect` on a campaign-shaped tree (many small projects) against the I/O floor.

The light tree: `--projects` vitis_hls projects (20,000 by default; `--projects 100000` for the
large one), each a solution marker and one small real csynth.xml: the shape of an AI-for-HLS
campaign (problems x models x attempts), the tree `bench_watch.py` builds. `--deep N` adds the
deep hw_emu tree of `bench_collect_deep.py` with N projects.

In one run, alternated round by round so that the machine's noise (other processes, page-cache
trimming) hits both alike:

- the floor: one process walks the tree, stats every file and reads every report and log once
  (bench_collect_deep.baseline), pinned to one core;
- `collect`, its process (and so its workers) pinned to the first N usable cores, for each N
  of `--cores` (os.sched_setaffinity).

Prints per tree and core count: collect's time (median and range), its ratio to the floor of
the same round (median and range), the peak memory of collect's processes, and whether every
core count wrote the same bytes (sha256). Targets on two cores: collect <= 2.0x the floor, peak
< 200 MB; on 16 cores at least 8x faster than on one. It prints figures and never asserts them.

    python tests/bench/bench_collect_light.py [--projects 20000] [--cores 1,2] [--rounds 3]
                                              [--deep 0] [--keep DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
SMALL_CSYNTH = os.path.join(
    REPO,
    "tests/fixtures/vitis/zakk-h-PartitionAcceleratorHLS__master__Vivado_Information__HLSIPs__proj0__solution1__syn__report__csynth.xml",
)
WRITERS = max(1, min(os.cpu_count() or 1, 8))  # processes that write a tree (many small files)


# --- the trees ----------------------------------------------------------------------------------


def _write_light(suite: str, first: int, count: int) -> None:
    """Projects first..first+count-1 of the light tree (bench_watch.build_light_tree's shape)."""
    from deep_tree import write_light_projects

    with open(SMALL_CSYNTH, encoding="utf-8") as handle:
        write_light_projects(suite, first, count, handle.read())


def build_light(base: str, projects: int) -> str:
    suite = os.path.join(base, f"light-{projects}")
    if os.path.isdir(suite):
        return suite  # (kept from an earlier run: --keep)
    share = -(-projects // WRITERS)
    slices = [(first, min(share, projects - first)) for first in range(0, projects, share)]
    with ProcessPoolExecutor(WRITERS) as pool:
        list(pool.map(_write_light, [suite] * len(slices), *zip(*slices)))
    return suite


def build_deep(base: str, projects: int) -> str:
    sys.path.insert(0, HERE)
    from bench_collect_deep import build

    root = os.path.join(base, "deep-hw-emu")
    return root if os.path.isdir(root) else build(base, projects, 2000)


# --- the two sides, each in a process of its own --------------------------------------------------


def child(mode: str, cores: int, root: str, out: str) -> None:
    allowed = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, allowed[:cores])  # (collect's workers inherit it, and count it)
    sys.path.insert(0, REPO)
    sys.path.insert(0, HERE)
    started = time.perf_counter()
    digest = ""
    if mode == "floor":
        from bench_collect_deep import baseline

        count = baseline(root)
    else:
        from tui.cli import main

        assert main(["collect", root, "-o", out, "--quiet"]) == 0
        with open(out, "rb") as handle:
            data = handle.read()
        count, digest = data.count(b"\n"), hashlib.sha256(data).hexdigest()
    elapsed = time.perf_counter() - started
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    peak = max(use.ru_maxrss for use in usage)
    cpu = sum(use.ru_utime + use.ru_stime for use in usage)  # (steadier than the time where others run)
    print(json.dumps({"seconds": elapsed, "count": count, "peak_mb": peak / 1024, "cpu": cpu, "sha256": digest}))


def measure(mode: str, cores: int, root: str, out: str) -> dict:
    done = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--child", mode, str(cores), root, out],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    return json.loads(done.stdout)


# --- the driver --------------------------------------------------------------------------------


def spread(values: list[float], digits: int = 2) -> str:
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def run_tree(name: str, root: str, cores: list[int], rounds: int, base: str) -> None:
    out = os.path.join(base, f"{name}.jsonl")
    measure("floor", 1, root, out)  # warm the page cache for every side alike
    floors: list[float] = []
    floor_cpu: list[float] = []
    runs: dict[int, list[dict]] = {n: [] for n in cores}
    ratios: dict[int, list[float]] = {n: [] for n in cores}
    for _ in range(rounds):  # alternated: the floor, then collect on each core count, again
        measured = measure("floor", 1, root, out)
        floor = measured["seconds"]
        floors.append(floor)
        floor_cpu.append(measured["cpu"])
        for n in cores:
            got = measure("collect", n, root, out)
            runs[n].append(got)
            ratios[n].append(got["seconds"] / floor)
    records = runs[cores[0]][0]["count"]
    print(f"\n{name}: {records} records; floor (1 process) {spread(floors)} s, CPU {spread(floor_cpu)} s")
    print("| cores | collect (s) | speedup vs 1st | collect / floor | peak MB | CPU s (all processes) |")
    print("|---|---|---|---|---|---|")
    first = statistics.median(m["seconds"] for m in runs[cores[0]])
    for n in cores:
        seconds = [m["seconds"] for m in runs[n]]
        peak = max(m["peak_mb"] for m in runs[n])
        speedup = first / statistics.median(seconds)
        cpu = spread([m["cpu"] for m in runs[n]])
        print(f"| {n} | {spread(seconds)} | {speedup:.1f}x | {spread(ratios[n])} | {peak:.0f} | {cpu} |")
    digests = {m["sha256"] for found in runs.values() for m in found}
    print(f"outputs byte-identical across core counts and rounds: {len(digests) == 1} ({sorted(digests)[0][:16]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--projects", type=int, default=20000, help="light tree size (100000: the large one)")
    parser.add_argument("--cores", default="2", help="core counts to pin collect to, e.g. 1,2,4,8,16")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deep", type=int, default=0, help="also the deep hw_emu tree with N projects")
    parser.add_argument("--keep", help="build the trees here and keep them (existing ones are reused)")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, cores, root, out = args.child
        child(mode, int(cores), root, out)
        return
    usable = len(os.sched_getaffinity(0))
    cores = [n for n in (int(c) for c in args.cores.split(",")) if n <= usable]
    base = args.keep or tempfile.mkdtemp(prefix="vitis-tui-bench-light-")
    try:
        started = time.perf_counter()
        trees = [("light", build_light(base, args.projects))]
        if args.deep:
            trees.append(("deep", build_deep(base, args.deep)))
        print(f"trees built in {time.perf_counter() - started:.1f} s; {usable} usable cores; cores {cores}")
        for name, root in trees:
            run_tree(name, root, cores, args.rounds, base)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
