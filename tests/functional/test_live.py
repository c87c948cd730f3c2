"""The live session without the dashboard: changes around start-up, failures, roots that go away.

Each test drives a real LiveSession on a real tree and waits, with a deadline, until the output
file says what the tree says; nothing here sleeps and hopes.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

import collectors.collect.engine as engine_module
import collectors.live.inotify as inotify_module
import collectors.live.placement as placement_module
import collectors.live.session as live_module
from collectors.collect.config import Settings
from collectors.live.session import LiveSession, ProjectsChanged, ScanFinished, SessionFailed, WatchState

from .. import trees
from ..conftest import VITIS, place, until

GOOD = "SherlockChristie-FFT__FFT_sol_2__opt1__syn__report__csynth.xml"
CSYNTH = "proj/solution1/syn/report/csynth.xml"
TEMPLATE = (VITIS / GOOD).read_text()
REPO = Path(__file__).resolve().parents[2]


def write_lut(report: Path, lut: int) -> None:
    """Rewrite a csynth.xml atomically with a new LUT, as a build tool would."""
    temporary = report.with_name(f".{report.name}.{threading.get_ident()}.tmp")
    temporary.write_text(TEMPLATE.replace("<LUT>15752</LUT>", f"<LUT>{lut}</LUT>"))
    os.replace(temporary, report)


def luts(output: Path) -> dict[str, str]:
    """Group -> LUT of every hls_synth line in the output."""
    try:
        lines = output.read_text().splitlines()
    except FileNotFoundError:
        return {}
    found = {}
    for line in lines:
        record = json.loads(line)
        if record["report_type"] == "hls_synth":
            found[record["problem"]["group_path"][0]] = record["hls_synth"]["AreaEstimates"]["Resources"]["LUT"]
    return found


def tree_of(root: Path, projects: int) -> list[Path]:
    reports = []
    for n in range(projects):
        project = trees.waiting_solution(root, f"g{n:03d}", f"g{n:03d}_1_base")
        report = place(project, CSYNTH, GOOD)
        reports.append(report)
    return reports


class Writer:
    """Keeps rewriting reports with growing LUTs until stopped; remembers the last of each."""

    def __init__(self, reports: list[Path]) -> None:
        self.reports = reports
        self.last: dict[str, str] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        value = 20000
        while not self.stop.is_set():
            for report in self.reports[::3]:
                value += 1
                write_lut(report, value)
                self.last[report.parts[-7]] = str(value)
            time.sleep(0.02)

    def __enter__(self) -> Writer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


def start(
    root: Path, output: Path, events: queue.Queue | None = None, scanned: threading.Event | None = None
) -> LiveSession:
    """A session started on a thread of its own; its events go to `events`, and `scanned` is set
    once its first output is written."""
    told = (events or queue.Queue()).put

    def notify(event: object) -> None:
        told(event)
        if scanned is not None and isinstance(event, ScanFinished):
            scanned.set()

    session = LiveSession([str(root)], str(output), lambda r: Settings(), notify, rescan_every=3600)
    threading.Thread(target=session.run, daemon=True).start()
    return session


def watched(session: LiveSession, root: Path) -> bool:
    """Whether the session watches `root` (its watches are placed once the first output is out)."""
    watching = session.live.watching
    return watching is not None and watching.covers(str(root))


def drained(events: queue.Queue, told: list[object]) -> list[object]:
    """Every event told so far: those already taken (`told`), and those waiting, taken now."""
    while not events.empty():
        told.append(events.get_nowait())
    return told


def expected(reports: list[Path], writer: Writer) -> dict[str, str]:
    return {report.parts[-7]: writer.last.get(report.parts[-7], "15752") for report in reports}


def test_edits_during_the_initial_scan_reach_the_output(tmp_path: Path) -> None:
    root, output = tmp_path / "suite", tmp_path / "out.jsonl"
    reports = tree_of(root, 60)
    with Writer(reports) as writer:
        session = start(root, output)  # the scan runs while the reports keep changing
        time.sleep(1.0)  # (the writer's time, not a wait for the session)
    try:
        assert until(lambda: luts(output) == expected(reports, writer), 10), (luts(output), writer.last)
    finally:
        session.stop()


def test_a_restart_while_reports_change_converges(tmp_path: Path) -> None:
    root, output = tmp_path / "suite", tmp_path / "out.jsonl"
    reports = tree_of(root, 60)
    with Writer(reports) as writer:
        first = start(root, output)
        assert until(lambda: len(luts(output)) == 60)
        first.stop()  # as after a kill -9: nothing more is written by it
        second = start(root, output)
        time.sleep(2.0)  # the writes go on for 2 s after the restart
    try:
        assert until(lambda: luts(output) == expected(reports, writer), 10), (luts(output), writer.last)
    finally:
        second.stop()


def test_a_failing_project_costs_only_itself_and_watching_goes_on(tmp_path: Path) -> None:
    root, output = tmp_path / "suite", tmp_path / "out.jsonl"
    reports = tree_of(root, 2)
    events: queue.Queue = queue.Queue()
    session = start(root, output, events)
    try:
        # (the reports' folders watched: a change made before that is caught up by a rescan,
        # which does not go through the poisoned re-collection; a fresh CI machine met that)
        assert until(lambda: len(luts(output)) == 2 and all(watched(session, r.parent) for r in reports))
        poisoned = str(reports[0].parents[4])
        original = session.live.engine.recollect

        def recollect(path: str, root: str):
            if path == poisoned:
                raise OverflowError("a number out of range")
            return original(path, root)

        session.live.engine.recollect = recollect  # type: ignore[method-assign]
        write_lut(reports[0], 1)
        write_lut(reports[1], 2)
        assert until(lambda: luts(output).get("g001") == "2")
        assert until(lambda: any("re-collection failed" in p.reason for p in session.live.general_problems()))
        session.live.engine.recollect = original  # type: ignore[method-assign]
        write_lut(reports[0], 3)
        assert until(lambda: luts(output).get("g000") == "3")
        assert session.watcher.revive() is False  # its worker never died
    finally:
        session.stop()


def test_a_batch_that_raises_is_reported_and_the_next_one_is_applied(tmp_path: Path) -> None:
    root, output = tmp_path / "suite", tmp_path / "out.jsonl"
    reports = tree_of(root, 1)
    events: queue.Queue = queue.Queue()
    session = start(root, output, events)
    try:
        assert until(lambda: len(luts(output)) == 1 and session.watcher is not None)
        original = session.live.refresh
        calls = []

        def refresh(projects):
            calls.append(projects)
            if len(calls) == 1:
                raise RuntimeError("poison")
            return original(projects)

        session.live.refresh = refresh  # type: ignore[method-assign]
        write_lut(reports[0], 7)
        assert until(lambda: calls)
        write_lut(reports[0], 8)
        assert until(lambda: luts(output).get("g000") == "8")
        seen = []
        while not events.empty():
            seen.append(events.get())
        assert any(isinstance(e, SessionFailed) and "poison" in e.error and e.alive for e in seen)
    finally:
        session.stop()


def test_a_root_deleted_and_made_again_is_watched_again(tmp_path: Path) -> None:
    root, output = tmp_path / "suite", tmp_path / "out.jsonl"
    tree_of(root, 3)
    events: queue.Queue = queue.Queue()
    session = start(root, output, events)
    try:
        assert until(lambda: len(luts(output)) == 3 and watched(session, root))
        moved = tmp_path / "away"
        root.rename(moved)
        moved.rename(root)  # renamed away and back: the same directory
        shutil.rmtree(root)
        reports = tree_of(root, 2)  # deleted and made again, with other contents
        write_lut(reports[1], 4242)
        assert until(lambda: luts(output) == {"g000": "15752", "g001": "4242"}), luts(output)
        write_lut(reports[0], 99)  # and the new tree is watched: a change shows
        assert until(lambda: luts(output).get("g000") == "99")
        told: list[object] = []
        assert until(lambda: any(isinstance(e, WatchState) and "is back" in e.note for e in drained(events, told)))
    finally:
        session.stop()


def test_an_unwritable_output_is_retried_until_it_can_be_written(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    reports = tree_of(root, 1)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    output = out_dir / "out.jsonl"
    events: queue.Queue = queue.Queue()
    session = start(root, output, events)
    try:
        assert until(lambda: len(luts(output)) == 1 and session.watcher is not None)
        shutil.rmtree(out_dir)  # the output's directory goes away
        write_lut(reports[0], 5)
        assert until(lambda: session.live.write_error is not None)
        out_dir.mkdir()  # and comes back: no change in the tree is needed for the write
        assert until(lambda: luts(output).get("g000") == "5", 10)
        assert session.live.write_error is None
    finally:
        session.stop()


def test_lines_of_the_output_follow_the_reports_exactly(tmp_path: Path) -> None:
    """The file the session writes is the file `collect` writes, byte for byte."""
    from tui.cli import main

    root, output = tmp_path / "suite", tmp_path / "out.jsonl"
    reports = tree_of(root, 5)
    session = start(root, output)
    try:
        assert until(lambda: len(luts(output)) == 5)
        for n, report in enumerate(reports):
            write_lut(report, 100 + n)
        assert until(lambda: sorted(luts(output).values()) == ["100", "101", "102", "103", "104"])
        assert main(["collect", str(root), "-o", str(tmp_path / "collected.jsonl"), "--quiet"]) == 0
        assert until(lambda: output.read_bytes() == (tmp_path / "collected.jsonl").read_bytes())
        assert re.search(rb'"LUT":"104"', output.read_bytes())
    finally:
        session.stop()


def test_poison_files_appearing_while_watching_cost_only_themselves(tmp_path: Path) -> None:
    """A FIFO named like a report, a directory whose name is not UTF-8 and a lat.rpt with an
    out-of-range number appear in a watched tree: each is at most a problem, the watcher keeps
    working (a later edit still reaches the output) and its worker never died."""
    root, output = tmp_path / "suite", tmp_path / "out.jsonl"
    reports = tree_of(root, 2)
    events: queue.Queue = queue.Queue()
    session = start(root, output, events)
    try:
        assert until(lambda: len(luts(output)) == 2 and session.watcher is not None)
        fifo = reports[0].parent / "csynth_fifo" / "csynth.xml"
        fifo.parent.mkdir()
        os.mkfifo(fifo)
        odd = os.path.join(os.fsencode(root / "Benchmarks"), b"gr\xffoup", b"gr\xffoup_1_base")
        os.makedirs(os.path.join(odd, b"proj", b"solution1", b"syn", b"report"))
        with open(os.path.join(odd, b"proj", b"hls.app"), "w") as marker:
            marker.write("<project/>\n")
        lat = reports[1].parents[2] / "sim" / "report" / "verilog" / "lat.rpt"
        lat.parent.mkdir(parents=True)
        lat.write_text('$MAX_LATENCY = "1e309"\n$TOTAL_EXECUTE_TIME = "1e309"\n')
        write_lut(reports[1], 777)
        assert until(lambda: luts(output).get("g001") == "777")
        problems = [p.reason for r in session.results.values() for p in r.problems]
        assert any("not a regular file" in reason for reason in problems), problems
        assert session.watcher.revive() is False  # its worker never died
        failed = []
        while not events.empty():
            event = events.get()
            if isinstance(event, SessionFailed):
                failed.append(event.error)
        assert failed == []
    finally:
        session.stop()


def test_a_rescan_while_the_root_is_renamed_away_keeps_its_records(tmp_path: Path) -> None:
    from collectors.live.session import LiveCollection

    root, output = tmp_path / "suite", tmp_path / "out.jsonl"
    tree_of(root, 2)
    live = LiveCollection([str(root)], str(output), lambda r: Settings())
    live.scan()
    live.write()
    root.rename(tmp_path / "away")  # (a rebuild moves the tree aside, say)
    assert live.scan() == []  # nothing to say: the root is not there to be looked at
    live.write()
    assert sorted(luts(output)) == ["g000", "g001"]


def collect_bytes(root: Path, output: Path) -> bytes:
    from tui.cli import main as cli

    assert cli(["collect", str(root), "-o", str(output), "--quiet"]) == 0
    return output.read_bytes()


def first_output(root: Path, output: Path) -> LiveSession:
    finished = threading.Event()
    session = start(root, output, scanned=finished)
    assert finished.wait(60)
    return session


FORKED_SESSION = """
import sys, threading
import collectors.collect.engine
from collectors.collect.config import Settings
from collectors.live.session import LiveSession, ScanFinished
if __name__ == "__main__":
    collectors.collect.engine.usable_cores = lambda: 2  # (a CI machine may have one core)
    done = threading.Event()
    tell = lambda event: isinstance(event, ScanFinished) and done.set()
    session = LiveSession([sys.argv[1]], sys.argv[2], lambda r: Settings(), tell, rescan_every=3600)
    print(session.live.engine.pool._mp_context.get_start_method())  # made before any other thread
    threading.Thread(target=session.run, daemon=True).start()
    print(done.wait(60), session.live.engine.pool is not None)
    session.stop()
"""


def test_a_session_made_before_other_threads_forks_its_workers(tmp_path: Path) -> None:
    """`watch` makes its session before the interface starts its threads: the workers are forked,
    ready at once (nothing to import); they take every share of the walk, and the output is
    collect's, byte for byte."""
    root = trees.build_all(tmp_path / "tree")
    expected_bytes = collect_bytes(root, tmp_path / "collect.jsonl")
    script = tmp_path / "session.py"
    script.write_text(FORKED_SESSION)
    output = tmp_path / "live.jsonl"
    ran = subprocess.run(
        [sys.executable, str(script), str(root), str(output)], capture_output=True, text=True, timeout=100, cwd=REPO
    )
    assert (ran.returncode, ran.stdout.split(), ran.stderr) == (0, ["fork", "True", "True"], "")
    assert output.read_bytes() == expected_bytes


def test_a_session_made_beside_other_threads_spawns_its_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forking beside other threads is unsafe (a lock one of them holds stays held in the
    child): the workers are spawned; the output is collect's, byte for byte."""
    monkeypatch.setattr(live_module, "usable_cores", lambda: 2)  # (a CI machine may have one core)
    root = trees.build_all(tmp_path / "tree")
    expected_bytes = collect_bytes(root, tmp_path / "collect.jsonl")
    other = threading.Event()
    beside = threading.Thread(target=other.wait)
    beside.start()
    try:
        session = first_output(root, tmp_path / "live.jsonl")
    finally:
        other.set()
    try:
        pool = session.live.engine.pool
        assert isinstance(pool, ProcessPoolExecutor) and pool._mp_context.get_start_method() == "spawn"
        assert {p.pid for p in pool._processes.values()} - {os.getpid()}  # workers of its own
        assert (tmp_path / "live.jsonl").read_bytes() == expected_bytes
    finally:
        session.stop()
    assert session.live.engine.pool is None  # stopped with the session


class BrokenPool(Executor):
    def submit(self, *args: object, **kwargs: object) -> Future:
        raise BrokenProcessPool("a worker was killed")


def test_workers_that_die_leave_the_walk_to_the_session(tmp_path: Path) -> None:
    root = trees.build_all(tmp_path / "tree")
    expected_bytes = collect_bytes(root, tmp_path / "collect.jsonl")

    original = placement_module.start_pool
    placement_module.start_pool = lambda processes, **_: BrokenPool()  # type: ignore[assignment]
    try:
        session = first_output(root, tmp_path / "live.jsonl")
    finally:
        placement_module.start_pool = original
    try:
        assert session.live.engine.pool is None  # given up on: later scans walk here
        assert (tmp_path / "live.jsonl").read_bytes() == expected_bytes
    finally:
        session.stop()


def test_quitting_while_a_worker_is_busy_does_not_wait_for_it(tmp_path: Path) -> None:
    """A pool's running task would otherwise hold the interpreter's exit until it ends."""
    script = tmp_path / "busy.py"
    marker = tmp_path / "busy"
    script.write_text(
        "import os, time\n"
        "from collectors.collect.pool import start_pool, stop_pool\n"
        "def busy():\n"
        f"    open({str(marker)!r}, 'w').close()\n"
        "    time.sleep(120)\n"
        "if __name__ == '__main__':\n"
        "    pool = start_pool(2)\n"
        "    pool.submit(busy)\n"
        f"    while not os.path.exists({str(marker)!r}):\n"  # until the task has reached a worker
        "        time.sleep(0.01)\n"
        "    stop_pool(pool)\n"
    )
    started = time.monotonic()
    subprocess.run([sys.executable, str(script)], check=False, timeout=100, cwd=REPO)
    assert time.monotonic() - started < 60


def test_workers_end_with_a_session_killed_outright(tmp_path: Path) -> None:
    """kill -9 gives the pool no chance to stop its workers, and a worker holds its own queue's
    other end: without a watch on the parent, both would wait forever (with the resource tracker)."""
    script = tmp_path / "killed.py"
    script.write_text(
        "import os, signal, time\n"
        "from collectors.collect.pool import start_pool\n"
        "if __name__ == '__main__':\n"
        "    pool = start_pool(2)\n"
        "    print(*sorted({pool.submit(os.getpid).result() for _ in range(20)}), flush=True)\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=100, cwd=REPO)
    workers = [int(pid) for pid in done.stdout.split()]
    assert done.returncode == -9 and workers
    assert until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers), seconds=10)


def test_changes_made_after_the_walk_looked_reach_the_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk's directories are watched once the output is out: a change where it has already
    looked, made while the scan is still collecting, reaches the output (a changed report, a new
    project beside the others, whose directories are watched from then on)."""
    root = tmp_path / "tree"
    reports = tree_of(root, 6)
    result = engine_module.Engine._result  # each project's result, once every share is back
    changed = threading.Event()

    def change_first(engine: engine_module.Engine, *args: object) -> object:
        if not changed.is_set():
            changed.set()
            write_lut(reports[0], 31337)
            place(trees.waiting_solution(root, "g999", "g999_1_base"), CSYNTH, GOOD)
        return result(engine, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(engine_module.Engine, "_result", change_first)
    output = tmp_path / "out.jsonl"
    scanned = threading.Event()
    session = start(root, output, scanned=scanned)
    try:
        assert scanned.wait(60) and changed.is_set()
        assert isinstance(session.live.engine.pool, ProcessPoolExecutor)
        assert until(lambda: luts(output).get("g000") == "31337" and "g999" in luts(output))
        assert len(luts(output)) == 7
        made = root / "Benchmarks" / "g999"  # (made between the look and the watch: watched since)
        assert until(lambda: watched(session, made / "g999_1_base" / "proj" / "solution1" / "syn" / "report"))
        write_lut(next(made.rglob("csynth.xml")), 4711)
        assert until(lambda: luts(output).get("g999") == "4711")
    finally:
        session.stop()


def test_every_directory_the_scan_lists_is_watched(tmp_path: Path) -> None:
    """One watch per directory walked, placed by the workers once the output is out; pruned
    folders (.git) get none."""
    root = tmp_path / "tree"
    tree_of(root, 5)
    (root / ".git" / "objects").mkdir(parents=True)
    scanned = threading.Event()
    session = start(root, tmp_path / "out.jsonl", scanned=scanned)
    try:
        assert scanned.wait(60)
        walked = sorted(d for d, _dirs, _files in os.walk(root) if ".git" not in Path(d).parts)
        watching = session.live.watching
        assert watching is not None and until(lambda: watching.watched() == len(walked) == session.live.directories)
        assert all(watching.covers(d) for d in walked)
        assert isinstance(session.live.engine.pool, ProcessPoolExecutor)
    finally:
        session.stop()


def test_watches_running_out_turn_the_session_to_polling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """inotify's watches are limited per user: a tree that needs more is polled, and says why."""
    import errno

    def no_more(fd: int, path: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device", path)

    monkeypatch.setattr(live_module, "usable_cores", lambda: 1)  # (the walk in this process)
    monkeypatch.setattr(inotify_module, "place", no_more)
    root = tmp_path / "tree"
    tree_of(root, 2)
    events: queue.Queue = queue.Queue()
    scanned = threading.Event()
    session = start(root, tmp_path / "out.jsonl", events, scanned)
    try:
        assert scanned.wait(60)
        told: list[object] = []
        assert until(lambda: any(isinstance(e, WatchState) and e.mode.kind == "polling" for e in drained(events, told)))
        directories = session.live.directories  # (the root's watch, placed first, failed: polled at once)
        reason = f"1 of {directories} directories got no inotify watch (raise fs.inotify.max_user_watches)"
        assert [(e.mode.kind, e.note) for e in told if isinstance(e, WatchState)][-1] == ("polling", reason)
        assert session.live.watching is None
    finally:
        session.stop()


def test_the_initial_scan_is_told_in_messages_of_bounded_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A listener handles a message in one go: 20,000 projects in one would keep the dashboard
    from taking a keystroke for seconds."""
    monkeypatch.setattr(live_module, "TOLD_AT_ONCE", 2)
    root = tmp_path / "tree"
    tree_of(root, 7)
    events: queue.Queue = queue.Queue()
    session = start(root, tmp_path / "out.jsonl", events)
    told: list[ProjectsChanged] = []
    try:
        while not isinstance(event := events.get(timeout=60), ScanFinished):
            if isinstance(event, ProjectsChanged):
                told.append(event)
    finally:
        session.stop()
    assert all(len(event.changes) <= 2 and event.initial for event in told)
    assert sorted(Path(c.path).name for event in told for c in event.changes) == [f"g{n:03d}_1_base" for n in range(7)]
