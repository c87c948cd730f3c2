"""What users and their tools do to a watched tree: rewrites that keep size and time, clocks
that run ahead, directories made readable later, an output removed or replaced, a configuration
edited, a report turned into a link out of the roots."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from collectors.collect.config import Settings, load_settings
from collectors.collect.engine import Engine
from collectors.live.looks import ConfigWatch
from collectors.live.poller import StatPoller
from collectors.live.session import LiveCollection, LiveSession, ScanFinished, Totals, WatchState

from .. import trees
from ..conftest import EXPECTED_TREE as EXPECTED
from ..conftest import VITIS, place, until

GOOD = "SherlockChristie-FFT__FFT_sol_2__opt1__syn__report__csynth.xml"
CSYNTH = "proj/solution1/syn/report/csynth.xml"
TEMPLATE = (VITIS / GOOD).read_text()


def lut_of(live: LiveCollection) -> list[str]:
    lines = live.output.records.render().decode().splitlines()
    return [
        json.loads(line)["hls_synth"]["AreaEstimates"]["Resources"]["LUT"]
        for line in lines
        if json.loads(line)["report_type"] == "hls_synth"
    ]


def one_report(tmp_path: Path) -> tuple[Path, Path, LiveCollection]:
    root = tmp_path / "suite"
    project = trees.waiting_solution(root, "fft", "fft_1_base")
    report = place(project, CSYNTH, GOOD)
    live = LiveCollection([str(root)], str(tmp_path / "out.jsonl"), lambda r: Settings())
    live.scan()
    assert lut_of(live) == ["15752"]
    return project, report, live


def same_size_and_time(report: Path, lut: int, in_place: bool) -> None:
    """Rewrite `report` with another LUT of the same width, its size and times as they were
    (what `cp -p` and `rsync -t` do), in place or by a rename onto it."""
    before = report.stat()
    text = TEMPLATE.replace("<LUT>15752</LUT>", f"<LUT>{lut}</LUT>")
    assert len(text) == before.st_size
    target = report if in_place else report.with_name(".csynth.xml.part")
    target.write_text(text)
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    if not in_place:
        os.replace(target, report)
    after = report.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


# --- a rewrite that keeps the size and the modification time ------------------------------------


def test_a_rewrite_in_place_with_the_same_size_and_time_is_read_again(tmp_path: Path) -> None:
    project, report, live = one_report(tmp_path)
    same_size_and_time(report, 24680, in_place=True)
    live.refresh([str(project)])
    assert lut_of(live) == ["24680"]


def test_a_rename_onto_a_report_with_the_same_size_and_time_is_read_again(tmp_path: Path) -> None:
    project, report, live = one_report(tmp_path)
    same_size_and_time(report, 13579, in_place=False)
    live.refresh([str(project)])
    assert lut_of(live) == ["13579"]


def test_an_unchanged_report_is_not_parsed_again(tmp_path: Path) -> None:
    project, _report, live = one_report(tmp_path)
    parses = live.engine.parses
    live.refresh([str(project)])
    live.refresh([str(project)])
    assert live.engine.parses == parses


def test_the_poller_sees_a_rewrite_with_the_same_size_and_time(tmp_path: Path) -> None:
    for in_place in (True, False):
        root = tmp_path / f"suite{in_place}"
        project = trees.waiting_solution(root, "fft", "fft_1_base")
        report = place(project, CSYNTH, GOOD)
        noted: list[str] = []
        poller = StatPoller([str(root)], 3600, noted.append)
        poller.start()  # (its first look; the thread waits an hour)
        try:
            poller.poll_once()
            assert noted == []
            same_size_and_time(report, 11111, in_place)
            poller.poll_once()
            assert str(report) in noted
        finally:
            poller.stop()


# --- times in the future or far past --------------------------------------------------------------


def broken_reports(root: Path, count: int, when: float) -> list[Path]:
    reports = []
    for n in range(count):
        project = trees.waiting_solution(root, f"g{n:03d}", f"g{n:03d}_1_base")
        report = place(project, CSYNTH, text="<profile><broken")
        os.utime(report, (when, when))
        reports.append(report)
    return reports


def test_broken_reports_dated_in_the_future_are_not_still_being_written(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    broken_reports(root, 30, time.time() + 3 * 3600)  # a build host whose clock runs 3 h ahead
    engine = Engine(lambda r: Settings())
    started = time.monotonic()
    collection = engine.scan([str(root)])  # (it waits up to 5 s for files still being written)
    assert time.monotonic() - started < 4
    assert [r.unsettled for r in collection.projects.values()] == [[]] * 30
    assert len(collection.problems()) >= 30  # each broken report is a problem at once


def test_broken_reports_dated_far_in_the_past_are_settled(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    broken_reports(root, 3, 86400.0)  # 2 January 1970
    collection = Engine(lambda r: Settings()).scan([str(root)], wait_for_writers=0)
    assert [r.unsettled for r in collection.projects.values()] == [[]] * 3


def test_a_broken_report_written_just_now_is_still_looked_at_again(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    broken_reports(root, 1, time.time())
    collection = Engine(lambda r: Settings()).scan([str(root)], wait_for_writers=0)
    assert [len(r.unsettled) for r in collection.projects.values()] == [1]


# --- a report that becomes a link leaving the roots ----------------------------------------------


def test_a_report_turned_into_a_link_out_of_the_roots_is_a_problem_at_once(tmp_path: Path) -> None:
    project, report, live = one_report(tmp_path)
    outside = place(tmp_path, "elsewhere/csynth.xml", GOOD)
    report.unlink()
    os.symlink(outside, report)
    live.refresh([str(project)])
    assert lut_of(live) == []  # the value outside is never read
    problems = [str(p) for p in live.results[str(project)].problems]
    assert f"{report}: symbolic link to {outside}, outside the roots: not followed (--follow-outside allows it)" in (
        problems
    )
    assert live.totals().problems >= 1
    shutil.rmtree(tmp_path / "elsewhere")


# --- sessions: helpers ---------------------------------------------------------------------------


def session_on(root: Path, output: Path, events: queue.Queue, **extra) -> LiveSession:
    session = LiveSession(
        [str(root)], str(output), extra.pop("settings_for", lambda r: Settings()), events.put, **extra
    )
    session.start()
    return session


def told(events: queue.Queue, seen: list[object]) -> list[object]:
    while not events.empty():
        seen.append(events.get_nowait())
    return seen


def notes(events: queue.Queue, seen: list[object]) -> list[str]:
    return [e.note for e in told(events, seen) if isinstance(e, WatchState)]


def test_an_idle_session_over_future_dated_broken_reports_looks_at_nothing_again(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    broken_reports(root, 30, time.time() + 3 * 3600)
    events: queue.Queue = queue.Queue()
    session = session_on(root, tmp_path / "out.jsonl", events, rescan_every=3600)
    try:
        seen: list[object] = []
        assert until(lambda: any(isinstance(e, ScanFinished) for e in told(events, seen)))
        assert session.watcher._pending == {}  # nothing to look at again "once it settled"
    finally:
        session.stop()


# --- the output removed or replaced behind the session's back ------------------------------------


def test_an_output_removed_or_replaced_is_written_again_within_seconds(tmp_path: Path) -> None:
    root = trees.build_all(tmp_path / "rodinia-hls")
    output = tmp_path / "out.jsonl"
    events: queue.Queue = queue.Queue()
    session = session_on(root, output, events, rescan_every=3600)
    try:
        assert until(lambda: output.exists() and output.read_bytes() == EXPECTED.read_bytes())
        first = session.live.last_write
        output.unlink()
        assert until(lambda: output.exists() and output.read_bytes() == EXPECTED.read_bytes(), 5)
        assert session.live.last_write is not None and first is not None and session.live.last_write >= first
        output.write_text("foreign\n")  # another program writes over it, in place
        assert until(lambda: output.read_bytes() == EXPECTED.read_bytes(), 5)
        replacement = tmp_path / "other.jsonl"
        replacement.write_text("{}\n")
        os.replace(replacement, output)  # or renames its own file onto it
        assert until(lambda: output.read_bytes() == EXPECTED.read_bytes(), 5)
        seen: list[object] = []
        assert until(lambda: sum("writing it again" in note for note in notes(events, seen)) == 3)
        assert all(str(output) in note for note in notes(events, seen) if "writing it again" in note)
    finally:
        session.stop()


def test_an_output_removed_just_before_a_batch_is_said_as_well(tmp_path: Path) -> None:
    """A batch's own write puts a removed output back before the look between batches sees
    it gone (CI saw it: a recheck of a just-written report came first): it is said all the same."""
    root = trees.build_all(tmp_path / "rodinia-hls")
    output = tmp_path / "out.jsonl"
    events: queue.Queue = queue.Queue()
    session = LiveSession([str(root)], str(output), lambda r: Settings(), events.put, rescan_every=3600)
    try:
        session.batch_due(set(), rescan=True)  # (the scan, on this thread: no watcher running)
        assert output.read_bytes() == EXPECTED.read_bytes()
        output.unlink()
        session.batch_due(set(), rescan=False)
        assert output.read_bytes() == EXPECTED.read_bytes()
        seen: list[object] = []
        assert [n for n in notes(events, seen) if "writing it again" in n] == [
            f"{output} was removed or replaced by another program: writing it again"
        ]
    finally:
        session.stop()


def test_the_totals_never_claim_a_write_that_is_not_there(tmp_path: Path) -> None:
    root = trees.build_all(tmp_path / "rodinia-hls")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    output = out_dir / "out.jsonl"
    events: queue.Queue = queue.Queue()
    session = session_on(root, output, events, rescan_every=3600)
    try:
        assert until(lambda: output.exists())
        # nothing can be written there now; a rename is atomic where rmtree could race a write
        out_dir.rename(tmp_path / "gone")
        seen: list[object] = []
        last = lambda: [e for e in told(events, seen) if isinstance(e, Totals)][-1]  # noqa: E731
        assert until(lambda: last().write_error is not None, 5)
        assert last().output_written is None  # not "written 04:22:07"
        out_dir.mkdir()
        assert until(lambda: output.exists() and output.read_bytes() == EXPECTED.read_bytes(), 5)
        assert until(lambda: last().output_written is not None and last().write_error is None)
    finally:
        session.stop()


# --- the configuration edited while watching ------------------------------------------------------


def configured(tmp_path: Path, version: str) -> tuple[Path, Path]:
    root = trees.build_all(tmp_path / "rodinia-hls")
    config = root / "vitis-tui.toml"
    config.write_text(f'origin_version = "{version}"\n')
    return root, config


def versions(output: Path) -> set[str | None]:
    try:
        return {json.loads(line)["implementation"]["origin_version"] for line in output.read_text().splitlines()}
    except (FileNotFoundError, json.JSONDecodeError):
        return set()


def watched_config(root: Path) -> ConfigWatch:
    def load():
        return {str(root): load_settings(root)}.__getitem__

    return ConfigWatch.of([str(root)], load)


def test_a_configuration_edited_while_watching_maps_the_records_again(tmp_path: Path) -> None:
    root, config = configured(tmp_path, "v1")
    output = tmp_path / "out.jsonl"
    events: queue.Queue = queue.Queue()
    watch = watched_config(root)
    session = session_on(root, output, events, settings_for=watch.settings_for, rescan_every=3600, config=watch)
    try:
        assert until(lambda: versions(output) == {"v1"})
        config.write_text('origin_version = "v2"\n')
        assert until(lambda: versions(output) == {"v2"}, 10)  # no change in the tree needed
        seen: list[object] = []
        assert until(lambda: any(f"{config} changed" in note for note in notes(events, seen)))
        config.write_text("origin_version = [\n")  # broken: the one in use is kept, and that is said
        assert until(lambda: any(f"{config}" in n and "restart" in n for n in notes(events, seen)), 10)
        assert versions(output) == {"v2"}
    finally:
        session.stop()


def test_a_nearer_configuration_made_while_watching_is_found(tmp_path: Path) -> None:
    root = trees.build_all(tmp_path / "rodinia-hls")
    output = tmp_path / "out.jsonl"
    events: queue.Queue = queue.Queue()
    watch = watched_config(root)
    session = session_on(root, output, events, settings_for=watch.settings_for, rescan_every=3600, config=watch)
    try:
        assert until(lambda: versions(output) == {None})
        (root / "vitis-tui.toml").write_text('origin_version = "v9"\n')
        assert until(lambda: versions(output) == {"v9"}, 10)
    finally:
        session.stop()


# --- directories unreadable when watching starts, made readable later ----------------------------

UNPRIVILEGED = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="needs root and setpriv to run the session as an unprivileged user (root reads anything)",
)
SESSION_SCRIPT = """
import sys, time
from collectors.collect.config import Settings
from collectors.live.session import LiveSession, Totals
root, out = sys.argv[1], sys.argv[2]
def told(event):
    if isinstance(event, Totals):
        print("problems", event.problems, flush=True)
session = LiveSession([root], out, lambda r: Settings(), told, rescan_every=3600)
session.start()
session._thread.join()  # (its start-up is over: the scan written, its directories watched)
print("ready", flush=True)
sys.stdin.read()  # until the test closes it
session.stop()
"""


@UNPRIVILEGED
def test_directories_made_readable_while_watching_are_scanned_and_watched() -> None:
    base = Path(tempfile.mkdtemp(prefix="vitis-tui-hostile-"))  # pytest's tmp_path is root-only
    closed: list[Path] = []
    try:
        os.chmod(base, 0o755)
        root = trees.build_all(base / "rodinia-hls")
        out_dir = base / "out"
        out_dir.mkdir()
        os.chmod(out_dir, 0o777)
        output = out_dir / "out.jsonl"
        closed = sorted({p.parents[2] for p in root.rglob("*.aps")})[:2]  # two HLS projects
        assert len(closed) == 2
        for directory in closed:
            os.chmod(directory, 0)
        child = subprocess.Popen(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-c", SESSION_SCRIPT]
            + [str(root), str(output)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        try:
            lines = iter(child.stdout)  # type: ignore[arg-type]
            first = next(lines).split()
            assert first[0] == "problems" and int(first[1]) >= 2
            assert next(lines) == "ready\n"
            before = output.read_text().count("\n")
            for directory in closed:
                os.chmod(directory, 0o755)  # as on shared hosts whose group rights are fixed later
            assert until(lambda: output.read_bytes() == EXPECTED.read_bytes(), 10)
            later = next(lines).split()
            # the two unreadable directories' problems go; the readable tree's one comes (fft_2_opt
            # keeps its solution1 out: its path gives the variant)
            assert later[0] == "problems" and int(later[1]) == int(first[1]) - len(closed) + 1
            assert before < output.read_text().count("\n")
            report = closed[0] / "proj/solution2/syn/report/csynth.xml"  # (fft_2_opt's newer solution)
            part = report.with_name(".csynth.xml.part")
            part.write_text(report.read_text().replace("<LUT>15752</LUT>", "<LUT>12121</LUT>"))
            os.replace(part, report)  # an edit inside it is seen: it is watched now
            assert until(lambda: '"LUT":"12121"' in output.read_text(), 10)
        finally:
            child.stdin.close()  # type: ignore[union-attr]
            child.wait(20)
    finally:
        for path in [base, *base.rglob("*")]:
            if not path.is_symlink():
                os.chmod(path, 0o755)
        shutil.rmtree(base)


@pytest.mark.parametrize("poll", [None, 0.2])
def test_a_watched_report_rewritten_with_its_size_and_time_reaches_the_output(tmp_path: Path, poll) -> None:
    root = tmp_path / "suite"
    report = place(trees.waiting_solution(root, "fft", "fft_1_base"), CSYNTH, GOOD)
    output = tmp_path / "out.jsonl"
    session = session_on(root, output, queue.Queue(), rescan_every=3600, poll=poll)
    try:
        assert until(lambda: '"LUT":"15752"' in (output.read_text() if output.exists() else ""))
        assert until(lambda: session.watcher._thread.is_alive())  # (watching from now on)
        same_size_and_time(report, 24680, in_place=True)  # cp -p
        assert until(lambda: '"LUT":"24680"' in output.read_text(), 10)
        same_size_and_time(report, 13579, in_place=False)  # rsync -t: a rename onto it
        assert until(lambda: '"LUT":"13579"' in output.read_text(), 10)
    finally:
        session.stop()


def test_a_link_out_of_the_roots_is_said_once_when_its_project_is_collected_again(tmp_path: Path) -> None:
    """`collect` collects a project with a report still being written again, alone: the walk's
    problem of its link out of the roots is not said twice."""
    root = tmp_path / "suite"
    project = trees.waiting_solution(root, "fft", "fft_1_base")
    broken = place(project, CSYNTH, text="<profile><broken")  # written just now: collected again
    place(tmp_path, "elsewhere/csynth.xml", GOOD)
    os.symlink(tmp_path / "elsewhere", project / "vendor")  # a folder linked in from outside
    collection = Engine(lambda r: Settings()).scan([str(root)], wait_for_writers=1.5)
    said = [str(p) for p in collection.problems()]
    assert len([line for line in said if "outside the roots" in line]) == 1, said
    assert any(str(broken) in line for line in said)


def test_a_link_out_of_the_roots_found_by_the_scan_is_said_once_after_its_project_changes(tmp_path: Path) -> None:
    project, _report, _live = one_report(tmp_path)
    place(tmp_path, "elsewhere/csynth.xml", GOOD)
    os.symlink(tmp_path / "elsewhere", project / "vendor")
    live = LiveCollection([str(tmp_path / "suite")], str(tmp_path / "out.jsonl"), lambda r: Settings())
    live.scan()
    assert live.totals().problems == 1  # (the walk's)
    live.refresh([str(project)])  # the project changed: walked alone, it says it itself
    said = [str(p) for p in live.general_problems()] + [str(p) for p in live.results[str(project)].problems]
    assert len([line for line in said if "outside the roots" in line]) == 1, said
    assert live.totals().problems == 1


def test_the_configuration_of_a_root_given_through_a_link_is_watched_where_it_was_found(tmp_path: Path) -> None:
    trees.build_all(tmp_path / "scratch" / "run42")
    (tmp_path / "project").mkdir()
    root = tmp_path / "project" / "builds"
    os.symlink("../scratch/run42", root)
    config = tmp_path / "project" / "vitis-tui.toml"  # beside the link, not above its target
    config.write_text('origin_version = "v1"\n')
    output = tmp_path / "out.jsonl"
    events: queue.Queue = queue.Queue()
    watch = watched_config(root)
    session = session_on(root, output, events, settings_for=watch.settings_for, rescan_every=3600, config=watch)
    try:
        assert until(lambda: versions(output) == {"v1"})
        config.write_text('origin_version = "v2"\n')
        assert until(lambda: versions(output) == {"v2"}, 10)
    finally:
        session.stop()
