"""Benchmark: the live dashboard (`vitis-tui watch`) driven headless, on two trees side by side.

Trees: the 2,000-project demo tree (realistic reports and clutter) and a light 20,000-project
tree (one small real csynth.xml per project). For each tree, in a process of its own:

- start-up, in rounds (`--rounds`, each step a fresh process, so that each dashboard pays
  Textual's import as `watch` does): `collect` on the tree (the baseline), then the time from
  making the session (its worker processes start with it) to its first complete output
  (ScanFinished of the initial scan), headless (a bare LiveSession) and under the dashboard,
  and the time until the dashboard shows that scan (its tables filled, "scanning" gone).
  The machine is noisy: the ratio is given per round (median and range);
- through the Textual pilot, once the dashboard counts its first scan, N reports rewritten one
  at a time (a new LUT value, atomically): the time from the file closed to (a) its line in
  the JSONL (the session writes the file before it tells of the change; the line is checked in
  the file afterwards) and (b) the changed row in the runs table, median and p95; the UI
  thread's busy time per event (the panel updates the handler makes) and the session thread's
  (re-collect, write). The first few edits are made right after the output is first complete.
- peak RSS of the tree's process.

Targets: p95 of (a) and (b) < 300 ms at 2,000 projects and < 600 ms at 20,000, also
for the early edits; per-event UI work independent of tree size; first output at 20,000
projects <= 2x collect. It prints figures and never asserts them.

    python tests/bench/bench_watch.py [--trees demo,light] [--projects 2000] [--light 20000]
                                      [--rounds 3] [--edits 30] [--early 5] [--in-place]
                                      [--no-headless]

The demo tree alone by default (about 70 s); `--trees demo,light` adds the 20,000-project tree
(about five minutes in all).
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import gc
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, REPO)

from deep_tree import TREE_WRITERS, write_light_projects  # noqa: E402

from collectors.collect.config import Settings  # noqa: E402
from collectors.demo import PLATFORM, build_demo_tree  # noqa: E402
from collectors.live.session import LiveSession, ProjectsChanged, ScanFinished  # noqa: E402

SMALL_CSYNTH = os.path.join(
    REPO,
    "tests/fixtures/vitis/zakk-h-PartitionAcceleratorHLS__master__Vivado_Information__HLSIPs__proj0__solution1__syn__report__csynth.xml",
)
LUT = re.compile(r"<LUT>\d+</LUT>")
TARGETS = {"demo": 0.300, "light": 0.600}  # p95 of close -> JSONL line and close -> row


# --- trees --------------------------------------------------------------------------------------


def build_light_tree(base: str, projects: int) -> str:
    """`projects` vitis_hls projects, each a solution marker and one small real csynth.xml."""
    with open(SMALL_CSYNTH, encoding="utf-8") as handle:
        csynth = handle.read()
    suite = os.path.join(base, "light")
    write_light_projects(suite, 0, projects, csynth)
    return suite


def reports_of(tree: str, root: str) -> list[str]:
    """The reports an edit may rewrite: every project's canonical csynth.xml."""
    found = []
    for directory, _dirs, files in os.walk(root):
        if "csynth.xml" not in files or "/link/" in directory:
            continue
        if tree == "light" or f"_x.hw_emu.{PLATFORM}" in directory or "/solution" in directory:
            found.append(os.path.join(directory, "csynth.xml"))
    return sorted(found)


def spread(paths: list[str], count: int) -> list[str]:
    """`count` paths spread evenly over the tree (not all in its first directory)."""
    step = max(1, len(paths) // max(1, count))
    return paths[::step][:count]


def rewrite(path: str, value: str, in_place: bool) -> float:
    """Give the report's first LUT a new value; returns the perf_counter time it was closed."""
    with open(path, encoding="utf-8") as handle:
        text = LUT.sub(f"<LUT>{value}</LUT>", handle.read(), count=1)
    if in_place:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
        return time.perf_counter()
    temporary = os.path.join(os.path.dirname(path), ".bench.tmp")
    with open(temporary, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(temporary, path)
    return time.perf_counter()


# --- figures ------------------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def summary(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"median": statistics.median(values), "p95": percentile(values, 0.95), "max": max(values)}


class Clock:
    """Sums the time spent in the wrapped methods (one bucket per name)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}

    def wrap(self, owner: Any, name: str, bucket: str) -> None:
        original: Callable[..., Any] = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.spent[bucket] = self.spent.get(bucket, 0.0) + time.perf_counter() - started

        setattr(owner, name, timed)

    def snapshot(self) -> dict[str, float]:
        return dict(self.spent)


class GcPauses:
    """The full (generation 2) garbage collections from now on, and how long each held every thread."""

    def __init__(self) -> None:
        self.full: list[float] = []
        self._started = 0.0
        gc.callbacks.append(self._note)

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif info["generation"] == 2:
            self.full.append(time.perf_counter() - self._started)

    def stop(self) -> None:
        gc.callbacks.remove(self._note)


def since(before: dict[str, float], after: dict[str, float], buckets: tuple[str, ...]) -> float:
    return sum(after.get(b, 0.0) - before.get(b, 0.0) for b in buckets)


# --- the measurements -----------------------------------------------------------------------------


def time_collect(root: str, output: str) -> float:
    from tui.cli import main as cli

    started = time.perf_counter()
    status = cli(["collect", root, "-o", output, "--quiet"])
    elapsed = time.perf_counter() - started
    if status != 0:
        print(f"collect exited {status}", file=sys.stderr)
    return elapsed


def time_headless_start(root: str, output: str) -> float:
    """Session made (its workers start with it) -> its first complete output, with no dashboard."""
    finished = threading.Event()

    def notify(event: object) -> None:
        if isinstance(event, ScanFinished) and event.initial:
            finished.set()

    started = time.perf_counter()
    session = LiveSession([root], output, lambda _root: Settings(), notify, rescan_every=3600)
    threading.Thread(target=session.run, daemon=True).start()
    finished.wait(timeout=900)
    elapsed = time.perf_counter() - started
    session.stop()
    return elapsed


async def time_dashboard_start(root: str, output: str) -> tuple[float, float]:
    """Session made -> its first complete output, under the dashboard (the session started
    before Textual is imported, as `watch` does), and -> that scan shown in the tables."""
    started = time.perf_counter()
    session = LiveSession([root], output, lambda _root: Settings(), rescan_every=3600)
    probe = Probe(session)  # (in place before the session starts: nothing it tells is missed)
    session.start()
    from tui.app import Dashboard

    app = Dashboard(session)
    async with app.run_test(size=(200, 50)):
        deadline = started + 900
        while app.scans < 1 and time.perf_counter() < deadline:
            await asyncio.sleep(0.01)
        shown = time.perf_counter()
    return (probe.first_output or float("nan")) - started, shown - started


STARTS: dict[str, Callable[[str, str], float | tuple[float, float]]] = {
    "collect": time_collect,
    "headless": time_headless_start,
    "dashboard": lambda root, output: asyncio.run(time_dashboard_start(root, output)),
}


def time_start_apart(kind: str, root: str, output: str) -> list[float]:
    """One start-up measurement in a fresh process (the dashboard's: its output, then on screen)."""
    command = [sys.executable, os.path.abspath(__file__), "--start", kind, root, output]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO)
    if done.returncode != 0:
        sys.stderr.write(done.stderr[-4000:])
        raise SystemExit(f"{kind}: the start-up measurement failed ({done.returncode})")
    return [float(value) for value in done.stdout.strip().splitlines()[-1].split()]


# the handler's panel updates (the runs table's sort included)
UI_BUCKETS = ("runs.show_all", "_patch_records", "put_prepared", "extensions.apply", "problems.replace", "data_changed")
SESSION_BUCKETS = ("refresh", "write")


class Probe:
    """What the dashboard's session tells, with the time it tells it (on the session's thread)."""

    def __init__(self, session: LiveSession) -> None:
        self.first_output: float | None = None
        self.expect: tuple[str, str] | None = None  # (project, LUT value) awaited
        self.told: float | None = None
        forward = session.notify

        def notify(event: object) -> None:
            if isinstance(event, ScanFinished) and event.initial:
                self.first_output = time.perf_counter()
            elif isinstance(event, ProjectsChanged) and not event.initial and self.expect is not None:
                self._look(event)
            forward(event)

        session.notify = notify

    def _look(self, event: ProjectsChanged) -> None:
        assert self.expect is not None
        project, value = self.expect
        needle = f'"LUT":"{value}"'
        for change in event.changes:
            lines = (*change.records.added.values(), *change.records.changed.values())
            if change.path == project and any(needle in line for line in lines):
                self.told = time.perf_counter()


def lut_shown(app: Any, project: str, value: str) -> bool:
    for key in app.runs.rows_of.get(project, ()):
        try:
            if app.runs.cells[key][app.runs.COLUMNS.index("LUT")] == value:
                return True
        except Exception:  # the row is being replaced
            pass
    return False


async def edit_once(pilot: Any, probe: Probe, clock: Clock, report: str, value: str, in_place: bool) -> dict:
    app = pilot.app
    project = app.session.live.project_for(report)
    probe.expect, probe.told = (project, value), None
    before = clock.snapshot()
    closed = rewrite(report, value, in_place)
    deadline = closed + 120
    while not lut_shown(app, project, value) and time.perf_counter() < deadline:
        await pilot.pause(0.005)
    shown = time.perf_counter()
    await pilot.pause(0.05)  # the totals that follow the change are part of its UI work
    after = clock.snapshot()
    with open(app.output, encoding="utf-8") as handle:
        in_file = f'"LUT":"{value}"' in handle.read()
    return {
        "jsonl": None if probe.told is None or not in_file else probe.told - closed,
        "row": shown - closed if shown < deadline else None,
        "ui": since(before, after, UI_BUCKETS),
        "records panel": since(before, after, ("data_changed",)),
        "session": since(before, after, SESSION_BUCKETS),
        "write": since(before, after, ("write",)),
    }


async def drive_dashboard(root: str, output: str, reports: list[str], early: int, in_place: bool) -> dict:
    from tui.app import Dashboard

    made = time.perf_counter()  # (the session, and its workers, start with the dashboard)
    app = Dashboard(LiveSession([root], output, lambda _root: Settings(), rescan_every=3600))
    pool = app.session.live.engine.pool
    workers = "none" if pool is None else pool._mp_context.get_start_method()
    probe = Probe(app.session)
    clock = Clock()
    clock.wrap(app.session.live, "refresh", "refresh")
    clock.wrap(app.session.live, "write", "write")
    async with app.run_test(size=(200, 50)) as pilot:
        for owner, name, bucket in (
            (app, "_patch_records", "_patch_records"),
            (app.records_view.table, "put_prepared", "put_prepared"),
            (app.runs, "show_all", "runs.show_all"),
            (app.extensions, "apply", "extensions.apply"),
            (app.problems, "replace", "problems.replace"),
            (app.records_view, "data_changed", "data_changed"),
        ):
            clock.wrap(owner, name, bucket)
        deadline = time.perf_counter() + 900
        while app.scans < 1 and time.perf_counter() < deadline:
            # (not pilot.pause: it sends every widget a callback and waits for them, each time;
            # every 10 ms through a 20,000-project scan that was seconds of the interface's CPU)
            await asyncio.sleep(0.02)
        shown_at = time.perf_counter()
        pauses = GcPauses()
        edits = []
        for number, report in enumerate(reports):
            if number >= early:
                await pilot.pause(0.3)  # steady state: edits a little apart
            edits.append(await edit_once(pilot, probe, clock, report, str(900_000 + number), in_place))
        pauses.stop()
    return {
        "workers": workers,
        "first_shown": shown_at - made,
        "edits": edits,
        "gc_full": pauses.full,
    }


def measure_tree(
    tree: str, projects: int, noise: int, rounds: int, edits: int, early: int, in_place: bool, headless: bool
) -> dict:
    base = tempfile.mkdtemp(prefix=f"vitis-tui-bench-watch-{tree}-")
    try:
        started = time.perf_counter()
        if tree == "demo":
            root = build_demo_tree(base, projects=projects, noise=noise, processes=TREE_WRITERS)
        else:
            root = build_light_tree(base, projects)
        built = time.perf_counter() - started
        files = sum(len(names) for _d, _s, names in os.walk(root))
        reports = spread(reports_of(tree, root), edits)
        figures: dict[str, Any] = {"tree": tree, "projects": projects, "files": files, "build": built}
        kinds = ["collect", "headless", "dashboard"] if headless else ["collect", "dashboard"]
        starts: dict[str, list[float]] = {kind: [] for kind in [*kinds, "on screen"]}
        for _round in range(rounds):
            for kind in kinds:
                measured = time_start_apart(kind, root, os.path.join(base, f"{kind}.jsonl"))
                starts[kind].append(measured[0])
                if kind == "dashboard":
                    starts["on screen"].append(measured[1])
        figures["starts"] = starts
        driven = asyncio.run(drive_dashboard(root, os.path.join(base, "watch.jsonl"), reports, early, in_place))
        figures.update(first_shown=driven["first_shown"], workers=driven["workers"])
        figures["edits"] = driven["edits"]
        figures["gc_full"] = driven["gc_full"]
        figures["early"] = early
        figures["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return figures
    finally:
        shutil.rmtree(base, ignore_errors=True)


# --- the table ------------------------------------------------------------------------------------


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.0f}"


def rows_for(figures: dict) -> dict[str, str]:
    edits, early = figures["edits"], figures["early"]
    out = {
        "projects / files": f"{figures['projects']} / {figures['files']}",
        "tree built (s)": f"{figures['build']:.1f}",
    }
    starts = figures["starts"]
    for label, kind in (
        ("collect (s)", "collect"),
        ("first output, headless session (s)", "headless"),
        ("first output, dashboard (s)", "dashboard"),
        ("initial scan on screen, dashboard (s)", "on screen"),
    ):
        out[f"{label} med [range]"] = spread_of(starts[kind], "{:.2f}") if kind in starts else "-"
    for label, kind in (
        ("first output / collect, headless", "headless"),
        ("first output / collect, dashboard", "dashboard"),
        ("on screen / collect, dashboard", "on screen"),
    ):
        ratios = [own / base for own, base in zip(starts.get(kind, []), starts["collect"])]
        out[f"{label} (per round)"] = spread_of(ratios, "{:.2f}x") if ratios else "-"
    out["dashboard session's workers"] = figures["workers"]
    out["first scan counted on screen, edit run (s)"] = f"{figures['first_shown']:.1f}"
    for label, part in (
        (f"early edits ({early})", edits[:early]),
        (f"later edits ({len(edits) - early})", edits[early:]),
    ):
        for what, key in (("close -> JSONL line", "jsonl"), ("close -> row on screen", "row")):
            values = [e[key] for e in part if e[key] is not None]
            found = summary(values)
            missed = len(part) - len(values)
            text = "-" if found is None else f"{ms(found['median'])} / {ms(found['p95'])} / {ms(found['max'])}"
            out[f"{label}: {what} ms (med/p95/max)"] = text + (f" ({missed} missed)" if missed else "")
    for what, key in (
        ("UI busy per edit", "ui"),
        ("  of which records panel", "records panel"),
        ("session per edit", "session"),
        ("  of which write", "write"),
    ):
        found = summary([e[key] for e in edits])
        out[f"{what} ms (med/p95)"] = "-" if found is None else f"{ms(found['median'])} / {ms(found['p95'])}"
    full = figures["gc_full"]
    out["full GCs during the edits: count / max ms"] = f"{len(full)} / {ms(max(full, default=0.0))}"
    out["peak RSS (MB)"] = f"{figures['peak_mb']:.0f}"
    return out


def spread_of(values: list[float], form: str) -> str:
    """Median [lowest-highest]."""
    low, high = min(values), max(values)
    return f"{form.format(statistics.median(values))} [{form.format(low)}-{form.format(high)}]"


def print_table(results: list[dict]) -> None:
    columns = [rows_for(r) for r in results]
    names = [f"{r['tree']} ({r['projects']})" for r in results]
    width = max(len(k) for k in columns[0])
    cells = [max(len(n), *(len(v) for v in c.values())) for n, c in zip(names, columns)]
    print()
    print(" " * width + " | " + " | ".join(n.rjust(w) for n, w in zip(names, cells)))
    for key in columns[0]:
        print(key.ljust(width) + " | " + " | ".join(c[key].rjust(w) for c, w in zip(columns, cells)))
    print()
    print("targets: p95 close -> JSONL line and close -> row < 300 ms at 2,000 projects, < 600 ms at 20,000")
    print("         (early edits included); UI busy per edit independent of the tree's size;")
    print("         first output at 20,000 projects <= 2x collect")


def compile_project() -> None:
    """Byte-compile the project as an installation does: where PYTHONDONTWRITEBYTECODE is set (as
    on these machines), each fresh process would compile it from source (0.07 s), which users do
    not pay; Textual's own modules were compiled when it was installed."""
    for package in ("collectors", "tui"):
        compileall.compile_dir(os.path.join(REPO, package), quiet=1)


def run_child(tree: str, args: argparse.Namespace) -> dict:
    """One tree in a process of its own: its peak RSS is its own."""
    command = [sys.executable, os.path.abspath(__file__), "--child", tree, *sys.argv[1:]]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO)
    if done.returncode != 0:
        sys.stderr.write(done.stderr[-4000:])
        raise SystemExit(f"{tree}: the measurement failed ({done.returncode})")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--trees",
        default="demo",
        help="demo (realistic) and/or light (many small projects): demo,light takes about five minutes",
    )
    parser.add_argument("--projects", type=int, default=2000, help="projects in the demo tree")
    parser.add_argument("--noise", type=int, default=88, help="clutter files per demo project")
    parser.add_argument("--light", type=int, default=20000, help="projects in the light tree")
    parser.add_argument("--rounds", type=int, default=3, help="start-up measurements of each kind, alternated")
    parser.add_argument("--edits", type=int, default=30, help="reports rewritten, one at a time")
    parser.add_argument("--early", type=int, default=5, help="of those, made right after the first output")
    parser.add_argument("--in-place", action="store_true", help="rewrite reports in place, not atomically")
    parser.add_argument("--no-headless", action="store_true", help="skip the headless session's start-up")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--start", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.start:
        kind, root, output = args.start
        measured = STARTS[kind](root, output)
        print(*(measured if isinstance(measured, tuple) else (measured,)))
        return
    if args.child:
        projects = args.projects if args.child == "demo" else args.light
        figures = measure_tree(
            args.child, projects, args.noise, args.rounds, args.edits, args.early, args.in_place, not args.no_headless
        )
        print(json.dumps(figures))
        return
    compile_project()
    results = []
    for tree in args.trees.split(","):
        started = time.perf_counter()
        results.append(run_child(tree, args))
        print(f"{tree}: measured in {time.perf_counter() - started:.0f} s", flush=True)
    print_table(results)


if __name__ == "__main__":
    main()
