"""Collect each given build tree and print one Markdown table row per tree.

    python tests/realtrees/run.py TREE... [--problems] [--records DIR]

Per tree: projects (built ones in brackets), runs, schema-1.0 records by report type, extension
records, problems, seconds. The collection is the one `vitis-tui collect` makes (the same
engine, in this process); nothing is written unless --records names a folder, which then gets
`<tree>.jsonl` and `<tree>.problems.txt` per tree.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from collectors.collect.config import load_settings  # noqa: E402
from collectors.collect.engine import Engine  # noqa: E402
from collectors.records.model import REPORT_TYPES  # noqa: E402

HEADER = ("tree", "projects", "runs", *REPORT_TYPES, "extension", "problems", "seconds")


def collect_tree(tree: Path) -> tuple[dict[str, object], list[str], bytes]:
    """(one table row, the problems as lines, the schema-1.0 file's bytes) for a tree."""
    root = str(tree.resolve())
    settings = load_settings(Path(root))
    started = time.perf_counter()
    collection = Engine(lambda _root: settings).scan([root], wait_for_writers=0)
    output = collection.output("", "")
    elapsed = time.perf_counter() - started
    problems = [str(p) for p in collection.problems() + output.clashes()]
    kinds = Counter(key.report_type for key in output.records.keys())  # noqa: SIM118 (a RecordSet)
    built = sum(1 for result in collection.projects.values() if result.built)
    row: dict[str, object] = {
        "tree": tree.name,
        "projects": f"{len(collection.projects)} ({built})",
        "runs": sum(len(result.runs) for result in collection.projects.values()),
        **{kind: kinds[kind] for kind in REPORT_TYPES},
        "extension": len(output.extensions),
        "problems": len(problems),
        "seconds": f"{elapsed:.2f}",
    }
    return row, problems, output.records.render()


def print_table(rows: list[dict[str, object]], out: TextIO) -> None:
    out.write("| " + " | ".join(HEADER) + " |\n")
    out.write("|" + "|".join("---" for _ in HEADER) + "|\n")
    for row in rows:
        out.write("| " + " | ".join(str(row[column]) for column in HEADER) + " |\n")


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--problems", action="store_true", help="print each tree's problems below the table")
    parser.add_argument("--records", type=Path, help="write each tree's records and problems into this folder")
    args = parser.parse_args(argv)
    rows, all_problems = [], {}
    for tree in args.trees:
        if not tree.is_dir():
            print(f"{tree}: not a directory", file=sys.stderr)
            return 2
        row, problems, data = collect_tree(tree)
        rows.append(row)
        all_problems[tree.name] = problems
        if args.records is not None:
            args.records.mkdir(parents=True, exist_ok=True)
            (args.records / f"{tree.name}.jsonl").write_bytes(data)
            (args.records / f"{tree.name}.problems.txt").write_text("".join(p + "\n" for p in problems))
    print_table(rows, out)
    if args.problems:
        for name, problems in all_problems.items():
            out.write(f"\n{name}:\n" + "".join(f"  {p}\n" for p in problems))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
