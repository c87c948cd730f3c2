"""Benchmark: `collect` on a 2,000-project tree against a bare `os.walk` of the same tree.

Prints, from one run: the time of collect, the time of the bare walk, their ratio, and the
peak memory of the collect process. Targets: ratio <= 1.5, peak memory < 200 MB.

    python tests/bench/bench_collect.py [--projects 2000] [--noise 88] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import json, os, resource, sys, time
mode, root, out = sys.argv[1:4]
started = time.perf_counter()
if mode == "walk":
    files = sum(len(names) for _dirs, _subdirs, names in os.walk(root))
else:
    from tui.cli import main
    assert main(["collect", root, "-o", out, "--quiet"]) == 0
    files = None
elapsed = time.perf_counter() - started
print(json.dumps({"seconds": elapsed, "files": files,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def measure(mode: str, root: str, out: str) -> dict:
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run(
        [sys.executable, "-c", CHILD, mode, root, out], capture_output=True, text=True, cwd=repo, check=True
    )
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--projects", type=int, default=2000)
    parser.add_argument("--noise", type=int, default=88, help="clutter files per project")
    parser.add_argument("--rounds", type=int, default=3, help="best of N for each side")
    parser.add_argument("--keep", help="build the tree here and keep it")
    args = parser.parse_args()

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    from deep_tree import TREE_WRITERS

    from collectors.demo import build_demo_tree

    base = args.keep or tempfile.mkdtemp(prefix="vitis-tui-bench-")
    try:
        started = time.perf_counter()
        root = build_demo_tree(base, projects=args.projects, noise=args.noise, processes=TREE_WRITERS)
        print(f"tree: {args.projects} projects built in {time.perf_counter() - started:.1f} s at {root}")
        out = os.path.join(base, "results.jsonl")
        measure("walk", root, out)  # warm the page cache for both sides alike
        walks, collects = [], []
        for _ in range(args.rounds):  # interleaved, so machine noise hits both sides alike
            walks.append(measure("walk", root, out))
            collects.append(measure("collect", root, out))
        walk = min(walks, key=lambda m: m["seconds"])
        collect = min(collects, key=lambda m: m["seconds"])
        with open(out, encoding="utf-8") as handle:
            records = sum(1 for _ in handle)
        print(f"files in tree:      {walk['files']}")
        print(f"records written:    {records}")
        print(f"bare os.walk:       {walk['seconds']:.3f} s (best of {args.rounds})")
        print(f"collect:            {collect['seconds']:.3f} s (best of {args.rounds})")
        print(f"ratio collect/walk: {collect['seconds'] / walk['seconds']:.2f}  (target <= 1.5)")
        print(
            f"collect peak RSS:   {collect['peak_mb']:.0f} MB  (target < 200 MB; "
            f"bare walk process {walk['peak_mb']:.0f} MB)"
        )
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
