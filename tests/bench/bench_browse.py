"""Benchmark: the records view on 100,000 records (load, filter keystrokes, memory).

Prints the load time of the file into the records table against a bare `json.loads` of every
line (the floor), the time from app start to a filled view, the time per filter keystroke
while typing a query, and the peak memory. Targets: load < 2 s, keystroke < 100 ms, < 400 MB.

    python tests/bench/bench_browse.py [--records 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from collectors.records.loader import load_files  # noqa: E402
from collectors.records.model import dumps  # noqa: E402
from collectors.records.query import parse  # noqa: E402
from tui.browse import BrowseApp  # noqa: E402

TEMPLATES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "expected_tree.jsonl")
QUERY = "type:hls_synth status:pass group:cfd* lut<30000 -device:xc7*"


def make_file(path: str, count: int) -> None:
    templates = [json.loads(line) for line in open(TEMPLATES, encoding="utf-8")]
    groups = ["cfd/cfd_flux", "cfd/cfd_step_factor", "hotspot", "kmeans", "backprop/forward", "lud", "nw"]
    with open(path, "w", encoding="utf-8") as out:
        for n in range(count):
            record = json.loads(json.dumps(templates[n % len(templates)]))
            record["problem"]["group_path"] = groups[n % len(groups)].split("/")
            record["implementation"]["variant"] = {"index": n // 77, "name": f"v{n % 13}"}
            if record["report_type"] == "hls_synth" and record["hls_synth"]["AreaEstimates"]:
                record["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] = str(1000 + (n * 7919) % 90000)
            out.write(dumps(record) + "\n")


async def app_figures(path: str) -> tuple[float, list[float]]:
    app = BrowseApp([path])
    started = time.perf_counter()
    async with app.run_test(size=(180, 50)) as pilot:
        while not app.loaded:
            await pilot.pause(0.01)
        ready = time.perf_counter() - started
        while not app.checked:
            await pilot.pause(0.05)
        print(f"background schema check of every line done {time.perf_counter() - started:.1f} s after start")
        box = app.query_one("#filter")
        keystrokes = []
        for end in range(1, len(QUERY) + 1):
            began = time.perf_counter()
            box.value = QUERY[:end]
            await pilot.pause()  # the change is handled and the view repainted
            keystrokes.append(time.perf_counter() - began)
        shown = len(app.view.rows)
    print(f"rows matching {QUERY!r}: {shown}")
    return ready, keystrokes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "many.jsonl")
        make_file(path, args.records)
        print(f"file: {args.records} records, {os.path.getsize(path) / 1e6:.0f} MB")
        began = time.perf_counter()
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                json.loads(line)
        floor = time.perf_counter() - began
        began = time.perf_counter()
        table, _followed, problems, _rows = load_files([path])
        load = time.perf_counter() - began
        assert len(table) == args.records and not problems
        print(f"bare json.loads of every line: {floor:.2f} s")
        print(f"load into the records table:   {load:.2f} s  (ratio {load / floor:.1f}; target < 2 s)")
        began = time.perf_counter()
        table.view(parse(QUERY), "lut", False)
        print(f"one cold filter + sort, engine only: {(time.perf_counter() - began) * 1000:.0f} ms")
        del table
        ready, keystrokes = asyncio.run(app_figures(path))
        print(f"browse app start to a filled view: {ready:.2f} s")
        print(
            f"filter keystrokes ({len(keystrokes)}): median {statistics.median(keystrokes) * 1000:.0f} ms, "
            f"max {max(keystrokes) * 1000:.0f} ms (target < 100 ms)"
        )
        print(f"peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB (target < 400 MB)")


if __name__ == "__main__":
    main()
