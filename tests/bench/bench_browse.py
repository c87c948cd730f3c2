"""Benchmark: the records view on 100,000 records (load, filter keystrokes, memory).

Prints the load time of the file into the records table against a bare `json.loads` of every
line (the floor), the time from app start to the first screen and to every record, the time per
filter keystroke while the rest streams in and after, and the peak memory. Targets: first
screen < 1 s, keystrokes < 50 ms median and < 150 ms at worst (also while loading), < 300 MB.

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


async def type_query(app: BrowseApp, pilot) -> list[float]:
    """Type the query one keystroke at a time; the time of each, repaint included."""
    box = app.query_one("#filter")
    keystrokes = []
    for end in range(1, len(QUERY) + 1):
        began = time.perf_counter()
        box.value = QUERY[:end]
        await pilot.pause()  # the change is handled and the view repainted
        keystrokes.append(time.perf_counter() - began)
    return keystrokes


async def app_figures(path: str) -> dict[str, object]:
    app = BrowseApp([path])
    started = time.perf_counter()
    figures: dict[str, object] = {}
    async with app.run_test(size=(180, 50)) as pilot:
        while not len(app.view.rows):
            await pilot.pause(0.005)
        figures["first screen"] = time.perf_counter() - started
        figures["during load"] = await type_query(app, pilot)  # while the rest streams in
        figures["loaded while typing"] = app.loaded
        while not app.loaded:
            await pilot.pause(0.01)
        figures["loaded"] = time.perf_counter() - started
        box = app.query_one("#filter")
        box.value = ""
        await pilot.pause()
        figures["after load"] = await type_query(app, pilot)
        while not app.checked:
            await pilot.pause(0.05)
        figures["checked"] = time.perf_counter() - started
        print(f"rows matching {QUERY!r}: {len(app.view.rows)}")
    return figures


def keystroke_line(label: str, keystrokes: list[float]) -> str:
    return (
        f"filter keystrokes {label} ({len(keystrokes)}): median {statistics.median(keystrokes) * 1000:.0f} ms, "
        f"max {max(keystrokes) * 1000:.0f} ms (targets: median < 50 ms, max < 150 ms)"
    )


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
        figures = asyncio.run(app_figures(path))
        print(f"browse start to the first screen: {figures['first screen']:.2f} s (target < 1 s)")
        print(f"browse start to every record loaded: {figures['loaded']:.2f} s")
        print(f"background schema check done {figures['checked']:.1f} s after start")
        print(
            keystroke_line(
                "while loading" if not figures["loaded while typing"] else "(load over)", figures["during load"]
            )
        )
        print(keystroke_line("after the load", figures["after load"]))
        print(f"peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB (target < 300 MB)")


if __name__ == "__main__":
    main()
