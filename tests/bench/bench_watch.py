"""Benchmark: the live pipeline of `vitis-tui watch` on a 2,000-project tree, headless.

Prints, for inotify and for polling: the time from a report's file being closed to its line
being in the JSONL output (median and 95th percentile over N reports), the CPU used while idle,
and the peak memory. Targets: p95 under 1 s with inotify, idle CPU under 2 % of a core.

    python tests/bench/bench_watch.py [--projects 2000] [--reports 50] [--idle 60] [--poll 1]
"""

from __future__ import annotations

import argparse
import os
import queue
import re
import resource
import shutil
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from collectors.config import Settings  # noqa: E402
from collectors.demo import PLATFORM, build_demo_tree  # noqa: E402
from collectors.live import LiveSession, Updated, Watching  # noqa: E402


def report_paths(root: str) -> list[str]:
    """The canonical csynth.xml of every hw_emu project in the demo tree."""
    found = []
    for directory, _dirs, files in os.walk(root):
        if "csynth.xml" in files and f"_x.hw_emu.{PLATFORM}" in directory and "/link/" not in directory:
            found.append(os.path.join(directory, "csynth.xml"))
    return sorted(found)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def run_mode(root: str, output: str, poll: float | None, reports: list[str], idle: float) -> None:
    events: queue.Queue = queue.Queue()
    session = LiveSession([root], output, lambda r: Settings(), events.put, poll=poll, rescan_every=3600)
    started = time.perf_counter()
    threading.Thread(target=session.run, daemon=True).start()
    mode = None
    while mode is None:
        event = events.get(timeout=600)
        if isinstance(event, Watching):
            mode = event.mode
    print(f"\n== {mode}")
    print(f"initial scan and watch setup: {time.perf_counter() - started:.1f} s")
    latencies = []
    for number, path in enumerate(reports):
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        value = f"{900000 + number + (0 if poll is None else 50000)}"
        text = re.sub(r"<LUT>\d+</LUT>", f"<LUT>{value}</LUT>", text, count=1)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        closed = time.time()
        deadline = time.monotonic() + 120
        while True:
            event = events.get(timeout=max(0.1, deadline - time.monotonic()))
            if isinstance(event, Updated) and event.output_written and event.output_written >= closed:
                with open(output, encoding="utf-8") as handle:
                    if f'"LUT":"{value}"' in handle.read():
                        latencies.append(event.output_written - closed)
                        break
    print(
        f"close -> JSONL line over {len(latencies)} reports: median {statistics.median(latencies) * 1000:.0f} ms, "
        f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms"
    )
    cpu0, wall0 = time.process_time(), time.monotonic()
    time.sleep(idle)
    cpu = (time.process_time() - cpu0) / (time.monotonic() - wall0)
    print(f"idle CPU over {idle:.0f} s: {cpu * 100:.2f} % of a core")
    print(f"peak RSS so far: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    session.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--projects", type=int, default=2000)
    parser.add_argument("--noise", type=int, default=88)
    parser.add_argument("--reports", type=int, default=50)
    parser.add_argument("--idle", type=float, default=60.0, help="seconds of idle CPU measurement per mode")
    parser.add_argument("--poll", type=float, default=1.0, help="polling interval for the polling run")
    parser.add_argument("--modes", default="inotify,polling")
    args = parser.parse_args()
    base = tempfile.mkdtemp(prefix="vitis-tui-bench-watch-")
    try:
        root = build_demo_tree(base, projects=args.projects, noise=args.noise)
        reports = report_paths(root)[: args.reports]
        print(
            f"tree: {args.projects} projects, {sum(len(f) for _, _, f in os.walk(root))} files; "
            f"{len(reports)} reports rewritten per mode, one at a time"
        )
        for mode in args.modes.split(","):
            run_mode(
                root, os.path.join(base, f"{mode}.jsonl"), None if mode == "inotify" else args.poll, reports, args.idle
            )
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
