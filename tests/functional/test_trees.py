"""Whole trees, collected and compared record by record with the expected JSONL."""

from __future__ import annotations

import json
import os
import sys
import threading
import traceback
from pathlib import Path

import pytest

from collectors.collect import walk as walk_module
from collectors.collect.config import load_settings
from collectors.collect.engine import Engine
from collectors.collect.pool import start_pool, stop_pool
from collectors.records.model import key_of as record_key
from collectors.records.validate import record_errors

from .. import trees
from ..conftest import EXPECTED_TREE as EXPECTED
from ..conftest import place, records_of, until


def collect(root: Path, engine: Engine | None = None):
    engine = engine or Engine(lambda r: load_settings(Path(r)))
    return engine.scan([str(root)], wait_for_writers=0)


@pytest.fixture
def built(tmp_path: Path) -> Path:
    return trees.build_all(tmp_path / "rodinia-hls")


def test_tree_matches_expected_jsonl_record_by_record(built: Path) -> None:
    records, clashes = records_of(collect(built))
    assert clashes == []
    expected = [json.loads(line) for line in EXPECTED.read_text().splitlines()]
    assert [record_key(r) for r in records] == [record_key(r) for r in expected]
    for got, want in zip(records, expected):
        assert got == want, record_key(want)
    assert all(record_errors(r) == [] for r in records)


def test_expected_values_spelled_out(built: Path) -> None:
    records = {
        (tuple(r["problem"]["group_path"]), r["report_type"], r["run"]["target"]): r
        for r in records_of(collect(built))[0]
    }
    topk = records[(("topk",), "rtl_sim", "vitis.hw_emu")]
    assert topk["rtl_sim"] == {
        "status": "pass",
        "kernel_runtime_cycles": 2024,
        "kernel_runtime_us": 6.748,
        "kernel_clock_freq_mhz": 300.0,
    }
    # compile 2m0s + link 8m18s; the link log copied into the working directory counts once
    assert topk["run"] == {
        "target": "vitis.hw_emu",
        "device": trees.U250,
        "vitis_version": "2022.2",
        "runtime_seconds": 618.0,
    }
    synth = records[(("topk",), "hls_synth", "vitis.hw_emu")]["hls_synth"]
    assert synth["AreaEstimates"]["Resources"]["LUT"] == "7295"  # not the packaged copy's "1"
    fft = records[(("fft",), "rtl_sim", "vitis.cosim")]
    assert fft["rtl_sim"]["kernel_runtime_cycles"] == 74  # the newer solution2's lat.rpt
    assert records[(("fft",), "hls_synth", "vitis.cosim")]["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] == "15752"
    assert records[(("fft",), "sw_run", "vitis.csim")]["sw_run"] == {"status": "pass"}
    canny = records[(("canny", "canny_top"), "rtl_sim", "vitis.cosim")]
    assert canny["rtl_sim"]["status"] == "fail" and canny["run"]["vitis_version"] == "2025.2"
    lud = records[(("lud",), "hls_synth", "vitis.csynth")]
    assert lud["hls_synth"] == {
        "status": "fail",
        "ReportVersion": None,
        "UserAssignments": None,
        "PerformanceEstimates": None,
        "AreaEstimates": None,
    }
    assert lud["run"]["runtime_seconds"] == 15.57 and lud["run"]["device"] == "xc7z020-clg400-1"
    srad = records[(("srad",), "rtl_sim", "vitis.hw_emu")]
    assert srad["rtl_sim"]["status"] == "timeout" and srad["run"]["runtime_seconds"] == 72000.0
    sw = records[(("beamform",), "sw_run", "vitis.sw_emu")]
    assert sw["run"] == {
        "target": "vitis.sw_emu",
        "device": trees.U50,
        "vitis_version": "2022.1",
        "runtime_seconds": 12.5,
    }
    assert not any(key[0] == ("nw",) for key in records)  # not built: no record
    assert not any(key[2] == "vitis.hw" for key in records)  # hw builds are never written


def test_two_collections_give_identical_bytes(built: Path) -> None:
    first = collect(built).output("", "").records.render()
    second = collect(built).output("", "").records.render()
    assert first == second and first.count(b"\n") == len(EXPECTED.read_text().splitlines())


def test_recollect_reuses_unchanged_parses(built: Path) -> None:
    engine = Engine(lambda r: load_settings(Path(r)))
    collection = collect(built, engine)
    before = engine.parses
    project = str(built / "Benchmarks/topk/topk_1_pipeline")
    again = engine.recollect(project, str(built))
    assert engine.parses == before  # nothing changed: nothing re-read
    assert again.records == collection.projects[project].records
    profile = Path(project) / ".run/1585848/hw_em/device0/binary_0/behav_waveform/xsim/profile_kernels.csv"
    profile.write_text(profile.read_text().replace("6.748", "10.000"))
    changed = engine.recollect(project, str(built))
    assert engine.parses == before + 1
    rtl = next(r for r in changed.records if r["report_type"] == "rtl_sim")
    assert rtl["rtl_sim"]["kernel_runtime_us"] == 10.0 and rtl["rtl_sim"]["kernel_runtime_cycles"] == 3000


def in_shares(monkeypatch: pytest.MonkeyPatch) -> None:
    """The split stops at the test tree's seven benchmark folders: every project lies in a
    worker's share (with more shares per process it goes down into the projects themselves)."""
    monkeypatch.setattr(walk_module, "SHARES_PER_PROCESS", 1)


def test_projects_collected_by_workers_are_collected_again_without_reading_their_files(
    built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker sends the parses of the projects it collected pickled in one piece; the engine
    unpickles them when the project is first collected again, and rereads nothing unchanged."""
    in_shares(monkeypatch)
    engine = Engine(lambda r: load_settings(Path(r)), processes=2)
    engine.pool = start_pool(2)
    assert engine.pool is not None
    try:
        collection = collect(built, engine)
    finally:
        stop_pool(engine.pool)
    assert len(engine._shelved) == 6  # every built project (the seventh, nw, is not built)
    before = engine.parses
    for path, result in collection.projects.items():
        assert engine.recollect(path, str(built)).records == result.records
    assert engine.parses == before and engine._shelved == {}


def test_removed_report_removes_its_record(built: Path) -> None:
    engine = Engine(lambda r: load_settings(Path(r)))
    collect(built, engine)
    project = built / "Benchmarks/fft/fft_2_opt"
    for sol in ("solution1", "solution2"):
        for rel in ("sim/report/verilog/lat.rpt", "sim/report/fft32_cosim.rpt"):
            os.unlink(project / "proj" / sol / rel)
    result = engine.recollect(str(project), str(built))
    assert sorted((r["report_type"], r["run"]["target"]) for r in result.records) == [
        ("hls_synth", "vitis.csynth"),
        ("sw_run", "vitis.csim"),
    ]


def test_metadata_without_target_applies_to_every_run_and_bad_values_are_reported(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    project = trees.hls_two_solutions(root)
    place(project, "vitis_run.meta", text="origin_note=x\nruntime_seconds=abc\nstatus=pass\nnonsense line\n")
    collection = collect(root)
    records, _ = records_of(collection)
    assert {r["run"]["runtime_seconds"] for r in records} == {51.173}  # the malformed value is ignored
    reasons = [p.reason for p in collection.problems()]
    assert "line 2: runtime_seconds 'abc' is not a number" in reasons
    assert "line 4: expected key=value, got 'nonsense line'" in reasons


def test_unknown_device_is_written_as_unknown_and_reported(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    project = root / "Benchmarks/x/x_1_a"
    trees.sources(project)
    place(project, "vitis_run.meta", text="target=vitis.hw_emu\nstatus=fail\n")
    collection = collect(root)
    records, _ = records_of(collection)
    assert {r["run"]["device"] for r in records} == {"unknown"}
    assert {r["run"]["vitis_version"] for r in records} == {"unknown"}
    assert any("device unknown" in p.reason for p in collection.problems())


def test_group_makefile_does_not_hide_variants(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    trees.sources(root / "Benchmarks/hotspot", "Makefile", "hotspot.cpp")
    trees.hw_emu_build(root)
    place(
        root,
        "Benchmarks/hotspot/hotspot_0_baseline/vitis_run.meta",
        text="target=vitis.sw_emu\nstatus=pass\ndevice=d\nvitis_version=2023.2\n",
    )
    trees.sources(root / "Benchmarks/hotspot/hotspot_0_baseline")
    projects = sorted(collect(root).projects)
    assert [os.path.relpath(p, root) for p in projects] == [
        "Benchmarks/hotspot/hotspot_0_baseline",
        "Benchmarks/topk/topk_1_pipeline",
    ]


def other_threads() -> str:
    """The threads beside this one, each with where it is."""
    frames = sys._current_frames()
    return "\n\n".join(
        f"{t.name}:\n{''.join(traceback.format_stack(frames[t.ident]))}"
        for t in threading.enumerate()
        if t is not threading.current_thread() and t.ident in frames
    )


def test_walk_split_over_two_processes_finds_the_same(built: Path) -> None:
    """collect walks half of the root's subdirectories in a second process: same result as one walk."""
    (built / "Benchmarks" / "topk" / "vitis_hls.log").write_text("ERROR: [HLS 200-1] group-level log, not a project\n")
    # seven groups below Benchmarks: the walk is split there, whether the root is above it or it;
    # forking beside threads is unsafe (earlier tests' sessions end their threads)
    assert until(lambda: threading.active_count() == 1), other_threads()
    for root in (built, built / "Benchmarks"):
        split = Engine(lambda r: load_settings(Path(r)), processes=2).scan([str(root)], wait_for_writers=0)
        single = Engine(lambda r: load_settings(Path(r)), processes=1).scan([str(root)], wait_for_writers=0)
        assert sorted(split.projects) == sorted(single.projects)
        assert records_of(split) == records_of(single)
        assert split.problems() == single.problems()
        assert (split.directories, split.files) == (single.directories, single.files)
        assert split.output("", "").records.render() == EXPECTED.read_bytes()


def test_split_walk_goes_down_until_it_has_enough_directories(built: Path, tmp_path: Path) -> None:
    from collectors.collect.walk import EXPANDED_AT_MOST, start_split

    _walker, stack = start_split(str(built), [], wanted=8)  # seven benchmark folders are too few
    variants = {str(p) for p in built.glob("Benchmarks/*/*") if p.is_dir() and p.name != "data"}  # (shared)
    assert {owner for _path, _real, owner, _discovery in stack} == variants
    assert len(stack) >= 8 and {os.path.dirname(path) for path, _real, _owner, _discovery in stack} == variants
    wide = tmp_path / "wide"
    for number in range(EXPANDED_AT_MOST + 1):
        (wide / f"d{number}" / "below").mkdir(parents=True)
    _walker, stack = start_split(str(wide), [], wanted=10_000)  # too many to visit here: shared as they are
    assert len(stack) == EXPANDED_AT_MOST + 1


def test_split_walk_goes_down_single_directories(built: Path) -> None:
    from collectors.collect.walk import start_split

    walker, stack = start_split(str(built), [])
    assert {owner for _path, _real, owner, _discovery in stack} == {str(built / "Benchmarks")}
    assert sorted(os.path.basename(entry[0]) for entry in stack) == [
        "beamform",
        "canny",
        "fft",
        "lud",
        "nw",
        "srad",
        "topk",
    ]


def test_a_project_whose_collection_fails_in_a_worker_costs_the_pool_nothing(
    built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A project a worker cannot collect (a bug on strange input) is left to the engine: the
    scan goes on with its workers, and the engine meets the failure as it would alone."""
    in_shares(monkeypatch)
    collect_parsed = walk_module.collect_parsed
    here = os.getpid()
    fft = str(built / "Benchmarks/fft/fft_2_opt")

    def failing_in_workers(project, *args):  # type: ignore[no-untyped-def]
        if os.getpid() != here and project.path == fft:
            raise ValueError("a bug on strange input")
        return collect_parsed(project, *args)

    monkeypatch.setattr(walk_module, "collect_parsed", failing_in_workers)
    engine = Engine(lambda r: load_settings(Path(r)), processes=2)
    engine.pool = pool = start_pool(2)
    if pool is None or pool._mp_context.get_start_method() != "fork":  # type: ignore[attr-defined]
        pytest.skip("the workers must inherit the failing function")
    try:
        collection = collect(built, engine)
        assert engine.pool is pool  # still lent: the scan did not turn to walking alone
    finally:
        stop_pool(pool)
    assert set(engine._shelved) == {str(p) for p in collection.projects} - {
        fft,
        str(built / "Benchmarks/nw/nw_0_baseline"),
    }
    assert collection.output("", "").records.render() == EXPECTED.read_bytes()
