"""`vitis-tui demo`: a simulated build tree, watched while builds play into it (or collected, headless)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from collectors.text import visible

from .collect import collect
from .common import has_terminal, no_terminal, number_between
from .watch import watch


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    demo = subparsers.add_parser(
        "demo",
        help="watch a simulated build tree: builds play for about a minute (no Vitis needed)",
        description="Create a temporary Rodinia-like tree and play realistic builds into it while the "
        "dashboard watches it: projects appear, reports are written in pieces and rewritten, "
        "one synthesis fails and one run times out. With --headless, build a finished demo "
        "tree and run 'collect' on it instead.",
    )
    demo.add_argument("directory", nargs="?", help="where to create the tree (default: a temporary directory)")
    demo.add_argument("-o", "--output", default="results.jsonl", help="output JSONL file")
    demo.add_argument("--headless", action="store_true", help="no dashboard: build the tree and collect it")
    demo.add_argument(
        "--pace",
        type=number_between(0.01, 100.0, "times"),
        default=1.0,
        help="stretch (>1) or squeeze (<1) the build timeline (0.01 to 100)",
    )
    return demo


def run(args: argparse.Namespace) -> int:
    import tempfile
    import threading

    from collectors.demo import agent_root, build_agent_tree, build_demo_tree, play_builds

    directory = args.directory or tempfile.mkdtemp(prefix="vitis-tui-demo-")
    if args.headless:
        root = build_demo_tree(directory)
        agent = build_agent_tree(directory)
        print(visible(f"demo tree: {root}; AI arm: {agent}"), file=sys.stderr)
        return collect([root, agent], args.output, args)
    if not has_terminal():
        return no_terminal("demo")
    root = os.path.join(os.path.abspath(directory), "rodinia-hls", "Benchmarks")
    os.makedirs(root, exist_ok=True)
    agent = agent_root(directory)
    stop = threading.Event()
    player = threading.Thread(target=play_builds, args=(directory, stop, args.pace), daemon=True)
    try:
        return watch([root, agent], args.output, args, before_start=player.start)
    finally:
        stop.set()
