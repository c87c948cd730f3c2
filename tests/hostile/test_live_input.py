"""What users and their tools do to a watched tree: rewrites that keep size and time, clocks
that run ahead, directories made readable later, an output removed or replaced, a configuration
edited, a report turned into a link out of the roots."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from collectors.collect.config import Settings
from collectors.collect.engine import Engine
from collectors.live.poller import StatPoller
from collectors.live.session import LiveCollection

from .. import trees
from ..conftest import VITIS, place

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
