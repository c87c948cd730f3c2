"""The session log of the folder an HLS project lies in (docs/collection.md, "Where a run's
facts come from"), the folder's or no project's: it times the solution it opened by its path,
in a whole scan, a walk in several processes and a project's re-collection alike, and no other."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from collectors.collect.config import load_settings
from collectors.collect.discovery import find_projects
from collectors.collect.engine import Engine
from collectors.collect.walk import WalkSpec, walk_tree

from .. import trees_third as t3
from ..conftest import records_of, set_mtime


def runtimes(root: Path) -> dict[str, float | None]:
    """Each record's runtime, by its group's last name, of a scan of `root`."""
    records, _ = records_of(Engine(lambda r: load_settings(Path(r))).scan([str(root)], wait_for_writers=0))
    return {r["problem"]["group_path"][-1]: r["run"]["runtime_seconds"] for r in records}


@pytest.mark.parametrize("tcl", [False, True], ids=["vitis_hls.log", "logs/hls_run_tcl.log"])
def test_the_session_log_beside_hls_projects_times_the_one_it_opened(tmp_path: Path, tcl: bool) -> None:
    """Split into two designs, the folder's session log was no project's: Testing's synthesis,
    which it timed (434.083 s in Varsenaiga/VitisOptimization, 12.41 s in j1hye0n/for_ironman),
    lost its time, though with one project beside the log the same run had it."""
    folder = t3.session_log_beside_hls_projects(tmp_path / "repo", tcl)
    engine = Engine(lambda r: load_settings(Path(r)))
    collection = engine.scan([str(tmp_path / "repo")], wait_for_writers=0)
    assert list(collection.projects) == [str(folder / "Testing"), str(folder / "Tutorial")]
    assert runtimes(tmp_path / "repo") == {"Testing": 31.25, "Tutorial": None}
    assert collection.problems() == []
    for name in ("Testing", "Tutorial"):  # (what watch does when a file of the project changes)
        again = engine.recollect(str(folder / name), str(tmp_path / "repo"))
        assert again.records == collection.projects[str(folder / name)].records
    shutil.rmtree(folder / "Tutorial")  # one project beside the log: the folder is the project
    assert runtimes(tmp_path / "repo") == {"Vitis": 31.25}


def test_a_session_log_beside_hls_projects_that_opened_none_times_none(tmp_path: Path) -> None:
    """The log of a session that opened no solution (the GUI started there, closed at once) names
    none of them: it times neither."""
    folder = t3.session_log_beside_hls_projects(tmp_path / "repo")
    (folder / "vitis_hls.log").write_text(t3.session(t3.VIVADO_HLS_2018, t3.SYNTHESIS))
    assert runtimes(tmp_path / "repo") == {"Testing": None, "Tutorial": None}


def test_a_project_collected_from_its_own_folder_reads_nothing_above_it(tmp_path: Path) -> None:
    """Collected alone (its folder the root), Testing reads no log outside the root."""
    folder = t3.session_log_beside_hls_projects(tmp_path / "repo")
    assert runtimes(folder / "Testing") == {"Testing": None}


def test_explain_says_which_run_read_the_session_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The log is each project's beside it; `--explain` says the run that read it, not that
    the other project's runs did not (whichever project came last)."""
    from tui.cli import main

    folder = t3.session_log_beside_hls_projects(tmp_path / "repo")
    log = folder / "vitis_hls.log"
    assert (
        main(["collect", str(tmp_path / "repo"), "-o", str(tmp_path / "out.jsonl"), "--quiet", "--explain", str(log)])
        == 0
    )
    assert capsys.readouterr().out.splitlines() == [f"{log}: facts: read for the vitis.csynth on xc7z020clg400-1 run"]


def test_the_session_log_above_a_project_whose_app_was_not_committed_times_it(tmp_path: Path) -> None:
    """Warrior-li/SDMA: the project (its `.app` git-ignored) is spmm_prj, and the root's session
    log, in no project, timed nothing; it is the session that synthesised spmm_prj/sol1. A walk
    in several processes finds the same, and so does the project re-collected alone."""
    repo = t3.session_log_above_a_project_without_app(tmp_path)
    engine = Engine(lambda r: load_settings(Path(r)))
    collection = engine.scan([str(repo)], wait_for_writers=0)
    assert list(collection.projects) == [str(repo / "spmm_prj")]
    assert runtimes(repo) == {"spmm_prj": 31.25}
    again = engine.recollect(str(repo / "spmm_prj"), str(repo))
    assert again.records == collection.projects[str(repo / "spmm_prj")].records
    plain = find_projects([str(repo)]).projects
    spec = WalkSpec([], None, load_settings(repo), keep_parses=False)
    for processes in (2, 3):
        assert [sorted(p.artifacts) for p in walk_tree(str(repo), spec, processes).result.projects] == [
            sorted(p.artifacts) for p in plain
        ]


def test_a_walk_in_processes_takes_a_log_two_projects_share(tmp_path: Path) -> None:
    """In a share of a parallel walk, the session log beside two projects is each one's: the
    share collected the first and dropped the log's parse, and the second raised KeyError (the
    whole scan failed). Found on a tree of many such folders; the same bytes in 1, 2 and 4
    processes, and on a rescan."""
    root = tmp_path / "campaign"
    for group in range(6):
        for n in range(3):
            t3.session_log_beside_hls_projects(root / f"g{group}" / f"s{n}")
            t3.session_log_above_a_project_without_app(root / f"g{group}" / f"r{n}")
    rendered = []
    for processes in (1, 2, 4):
        engine = Engine(lambda r: load_settings(Path(r)), processes=processes)
        collection = engine.scan([str(root)], wait_for_writers=0)
        records, _ = records_of(collection)
        assert len(records) == 54 and sum(r["run"]["runtime_seconds"] == 31.25 for r in records) == 36
        rendered.append(collection.output("", "").records.render())
        assert engine.scan([str(root)], wait_for_writers=0).output("", "").records.render() == rendered[-1]
        # one of the two changed since (its solution's log written again): the log they share
        # is read for it, though the other one's files are as the engine knows them
        log = root / "g0/s0/Vitis/Tutorial/solution1/solution1.log"
        log.write_text(log.read_text())
        set_mtime(log, -5)  # (5 s from now: a stamp the engine has not seen)
        assert engine.scan([str(root)], wait_for_writers=0).output("", "").records.render() == rendered[-1]
    assert rendered[0] == rendered[1] == rendered[2]


def test_watch_looks_again_at_every_project_a_changed_session_log_is_of(tmp_path: Path) -> None:
    """Where the folder holding the log is a project too (a solution of its own beside the two
    HLS projects), a change of the log re-collected that project alone, and Testing kept the
    old time until a rescan: the change asks for a rescan instead (the log is theirs too)."""
    from collectors.collect.config import Settings
    from collectors.live.collection import LiveCollection

    folder = t3.session_log_beside_hls_projects(tmp_path / "repo")
    t3.place(folder, "solution1/solution1.aps", text="<solution/>\n")
    t3.place(folder, "solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    live = LiveCollection([str(tmp_path / "repo")], str(tmp_path / "out.jsonl"), lambda r: Settings())
    live.scan()
    assert sorted(live.results) == [str(folder), str(folder / "Testing"), str(folder / "Tutorial")]
    assert live.project_for(str(folder / "vitis_hls.log")) is None
    assert live.project_for(str(folder / "solution1" / "solution1.aps")) == str(folder)
    assert live.project_for(str(folder / "Testing" / "hls.app")) == str(folder / "Testing")
