"""The fast paths of a scan write the same bytes as the plain one: the walk, the parsing and the
collection of whole projects shared out between 1 to 4 processes, on the benchmark's deep hw_emu
tree and on the test trees."""

from __future__ import annotations

import gc
import json
import os
import threading
import weakref
from dataclasses import replace
from pathlib import Path

import pytest

from collectors.collect import pool as pool_module
from collectors.collect.artifacts import ARTIFACTS
from collectors.collect.config import load_settings
from collectors.collect.discovery import find_projects, finish_walk
from collectors.collect.engine import Engine
from collectors.collect.projects import Project, assign, fold_settled
from collectors.collect.walk import (
    Brought,
    WalkSpec,
    balance_split,
    merge_part,
    start_split,
    walk_part,
    walk_tree,
)

from .. import trees
from .. import trees_third as t3
from ..bench.deep_tree import build_deep_tree
from ..conftest import EXPECTED_TREE, place, set_mtime, until


def collect(root: Path, processes: int, cache: bool = True) -> tuple[bytes, list[str]]:
    engine = Engine(lambda r: load_settings(Path(r)), processes=processes, cache=cache)
    collection = engine.scan([str(root)], wait_for_writers=0)
    problems = [str(p) for p in collection.problems()]
    return collection.output("", "").records.render(), problems


def collect_in_one_walk(root: Path) -> tuple[bytes, list[str]]:
    """The plain path: in one process a scan is one walk, one walker sees everything."""
    return collect(root, processes=1)


@pytest.fixture(scope="module")
def deep_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return Path(build_deep_tree(str(tmp_path_factory.mktemp("deep")), projects=9, log_lines=60))


def test_the_deep_tree_gives_the_same_bytes_by_every_path(deep_tree: Path) -> None:
    plain, plain_problems = collect_in_one_walk(deep_tree)
    lines = [json.loads(line) for line in plain.splitlines()]
    assert len(lines) == 18 and plain_problems == []
    # the canonical report wins over its packaged copies (they hold 999 more LUTs)
    first = lines[0]
    assert first["problem"]["group_path"] == ["group00", "design_00000"]
    canonical = next(deep_tree.glob("group00/design_00000/_x.*/*/*/*/solution/syn/report/csynth.xml"))
    lut = canonical.read_text().split("<LUT>")[1].split("<")[0]
    assert first["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] == lut
    for processes in (1, 2, 3, 4):
        assert collect(deep_tree, processes) == (plain, plain_problems), processes
        assert collect(deep_tree, processes, cache=False) == (plain, plain_problems), processes
    # as `collect` scans (no cache), the workers' results come without their records: the keys
    # and lines written are all that comes back (and the bytes above are the same)
    lean = Engine(lambda r: load_settings(Path(r)), processes=2, cache=False).scan([str(deep_tree)], wait_for_writers=0)
    sent = [result for result in lean.projects.values() if result.keys and not result.records]
    assert sent and all(result.accounts for result in sent)  # (kept for --explain)
    bare = Engine(lambda r: load_settings(Path(r)), processes=2, cache=False, accounts=False)
    scanned = bare.scan([str(deep_tree)], wait_for_writers=0)
    assert any(result.keys and not result.accounts for result in scanned.projects.values())
    assert scanned.output("", "").records.render() == plain
    # they come without their runs too (what `collect` says of them is counted)
    alone = Engine(lambda r: load_settings(Path(r)), cache=False).scan([str(deep_tree)], wait_for_writers=0)
    assert any(not result.runs and result.run_count for result in scanned.projects.values())
    assert {p: r.run_count for p, r in scanned.projects.items()} == {p: len(r.runs) for p, r in alone.projects.items()}


def test_the_test_trees_give_the_expected_file_by_every_path(tmp_path: Path) -> None:
    root = trees.build_all(tmp_path / "rodinia-hls")
    assert collect_in_one_walk(root)[0] == EXPECTED_TREE.read_bytes()
    for processes in (1, 2, 3, 4):
        assert collect(root, processes)[0] == EXPECTED_TREE.read_bytes(), processes
        assert collect(root, processes, cache=False)[0] == EXPECTED_TREE.read_bytes(), processes


def root_project_tree(root: Path) -> Path:
    """A root that is a project itself (a Makefile, source and a report of its own) with, below
    it: a built HLS project; a folder with its own build output (so a project); a Makefile with
    source and no build (it yields to the root); and a report in a folder of no project (it
    is the root's)."""
    trees.sources(root)
    place(root, "reports/csynth.xml", "Achilisnard-Fibonacci__solution1__syn__report__csynth.xml")
    hls = trees.waiting_solution(root, "k", "k_1_a")
    place(hls, "proj/solution1/syn/report/csynth.xml", "DGGua-IGCN__solution1__syn__report__csynth.xml")
    place(root, "loose/reports/csynth.xml", "Crinstaniev-ParticleCoverHLS__solution1__syn__report__csynth.xml")
    trees.sources(root / "idle")
    place(
        root,
        "misc/syn/report/csynth.xml",
        "Eldorado7621-contrast-adjustment-hls__doContrastIP__solution1__syn__report__csynth.xml",
    )
    return root


def test_a_share_collects_only_the_projects_nothing_above_it_can_change(tmp_path: Path) -> None:
    root = root_project_tree(tmp_path / "suite")
    whole = find_projects([str(root)]).projects
    assert [p.path for p in whole] == [str(root), str(root / "Benchmarks/k/k_1_a"), str(root / "loose")]
    assert (str(root / "misc/syn/report/csynth.xml"), "csynth") in whole[0].artifacts
    _walker, stack = start_split(str(root), [])
    share = walk_part(stack, [])  # every subdirectory of the root: all but the root
    # the idle folder would be a project if the share decided (it cannot see the root above it)
    assert [p.path for p in assign(share.nodes, built_only=True)[0]] == [p.path for p in whole[1:]]
    assert assign(share.nodes, built_only=True)[0] == whole[1:]  # with the same reports
    plain, problems = collect_in_one_walk(root)
    assert [json.loads(line)["problem"]["group_path"] for line in plain.splitlines()] == [
        ["k"],
        ["loose"],
        ["suite"],
        ["suite"],  # the root's own report and the one in misc/ (another top function)
    ]
    for processes in (1, 2, 3, 4):
        assert collect(root, processes) == (plain, problems), processes


def _inventory(project: Project) -> tuple[str, list[tuple[str, str]], list[str]]:
    return project.path, sorted(project.artifacts), sorted(project.build_dirs)


def test_a_share_sends_each_settled_project_as_one_folder_and_the_walk_finds_the_same(tmp_path: Path) -> None:
    """A share's settled projects come back as one node each (fold_settled): the whole walk's
    assignment reads them instead of every folder below, and finds the same projects, files,
    problems and pruned folders as one walker does, on shapes whose projects depend on what
    lies around them: a root that is a project itself, IDE companions in other shares, two HLS
    projects side by side, a link output beside a kernel's project, a folder with reports of its
    own above another project (both settled in one share), a project built by a report alone
    below the root's."""
    root = root_project_tree(tmp_path / "suite")
    outer = root / "nest" / "outer"
    trees.sources(outer)
    place(outer, "reports/csynth.xml", "DGGua-IGCN__solution1__syn__report__csynth.xml")
    inner = trees.solution_at(outer / "inner")
    place(inner, "proj/solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    trees.sources(root / "results_only")  # (built by a report alone, below the root's project)
    place(root, "results_only/out/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    t3.ide_workspace(root / "ws")
    t3.hls_projects_side_by_side(root / "repo")
    t3.link_output_named_after_the_kernel(root)
    plain = find_projects([str(root)])
    spec = WalkSpec([], None, load_settings(root), keep_parses=False)
    for processes in (2, 3, 4):
        walked = walk_tree(str(root), spec, processes).result
        # (in the order each walk found them: the IDE companions' files come in another order)
        assert list(map(_inventory, walked.projects)) == list(map(_inventory, plain.projects)), processes
        assert (walked.problems, walked.skipped, walked.files) == (plain.problems, plain.skipped, plain.files)
    # one share of every directory the split (of the root alone) left, merged as the walk does
    walker, stack = start_split(str(root), [])
    part = walk_part(stack, [])
    settled, folded = fold_settled(part.nodes)
    assert settled == assign(walk_part(stack, []).nodes, built_only=True)[0]
    standing = {node.path: [p.path for p in node.settled.projects] for node in folded if node.settled}
    assert standing[str(outer)] == [str(outer), str(outer / "inner")]
    assert standing[str(root / "results_only")] == [str(root / "results_only")]
    assert len(folded) < len(part.nodes) and all(node.artifacts == [] for node in folded if node.settled)
    part.nodes = folded
    merge_part(walker, part, {node.path: node for node in walker.nodes})
    whole = finish_walk(walker)
    assert list(map(_inventory, whole.projects)) == list(map(_inventory, plain.projects))
    assert (whole.problems, whole.skipped) == (plain.problems, plain.skipped)


def test_a_folder_of_many_projects_is_split_further_and_gives_the_same_bytes(tmp_path: Path) -> None:
    """Twenty projects side by side and a folder of forty more: the folder would be one share of
    two thirds of the tree; the split visits it and shares out its projects."""
    root = tmp_path / "suite"
    alone = [root / f"a_{number}" for number in range(20)]
    many = [root / "many" / f"m_{number}" for number in range(40)]
    report = "DGGua-IGCN__solution1__syn__report__csynth.xml"
    for project in alone + many:
        place(trees.solution_at(project), "proj/solution1/syn/report/csynth.xml", report)
    walker, stack = start_split(str(root), [], wanted=16)
    assert sorted(entry[0] for entry in stack) == sorted(map(str, [*alone, root / "many"]))
    if os.stat(root / "many").st_nlink != 42:
        pytest.skip("this file system does not count subdirectories in a directory's link count")
    balanced = balance_split(walker, stack, wanted=16)
    assert sorted(entry[0] for entry in balanced) == sorted(map(str, alone + many))
    owners = {entry[0]: entry[2] for entry in balanced}
    assert {owners[str(project)] for project in many} == {str(root / "many")}  # (its node: the split's)
    plain, problems = collect_in_one_walk(root)
    assert len(plain.splitlines()) == 60 and problems == []
    for processes in (1, 2, 3, 4):
        assert collect(root, processes) == (plain, problems), processes


def test_a_result_brought_with_another_inventory_is_collected_again(tmp_path: Path) -> None:
    """A share's result is used only where the share saw the project as the whole walk does."""
    root = root_project_tree(tmp_path / "suite")
    engine = Engine(lambda r: load_settings(Path(r)))
    project = find_projects([str(root)]).projects[1]
    right = engine.collect_project(project, str(root))
    wrong = Project(project.path, project.artifacts[:1], [])
    stale = engine.collect_project(wrong, str(root))
    assert engine._result(project, str(root), {project.path: (project, stale)}) is stale
    brought: Brought = {project.path: (wrong, stale)}
    assert engine._result(project, str(root), brought).records == right.records != stale.records


# --- csynth.xml copies are read only when the pick needs them --------------------------------


def collect_reading_every_copy(root: Path) -> tuple[bytes, list[str]]:
    """The straightforward path: every csynth.xml read and parsed as the walk finds it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(ARTIFACTS, "csynth", replace(ARTIFACTS["csynth"], deferred=None))
        return collect(root, processes=1)


def csynth_reads(root: Path) -> tuple[list[str], bytes, list[str]]:
    """The csynth.xml files a one-process scan read (relative), its records and its problems
    (the same on a second scan by the same engine, from its cache)."""
    engine = Engine(lambda r: load_settings(Path(r)), processes=1)
    collection = engine.scan([str(root)], wait_for_writers=0)
    read = [e.parsed.path for e in engine._cache.values() if e.parsed.kind == "csynth" and e.parsed.loaded]
    problems = [str(p) for p in collection.problems()]
    assert [str(p) for p in engine.scan([str(root)], wait_for_writers=0).problems()] == problems
    return sorted(os.path.relpath(p, root) for p in read), collection.output("", "").records.render(), problems


def test_the_deep_tree_reads_one_csynth_copy_per_project_and_writes_the_same_bytes(deep_tree: Path) -> None:
    read, records, problems = csynth_reads(deep_tree)
    assert (records, problems) == collect_reading_every_copy(deep_tree)
    assert len(list(deep_tree.rglob("csynth.xml"))) == sum(1 + 2 + n % 4 for n in range(9))  # 39 copies
    assert len(read) == 9 and all(p.endswith("/solution/syn/report/csynth.xml") for p in read)


def test_a_broken_copy_is_read_only_when_the_pick_needs_it(tmp_path: Path) -> None:
    root = Path(build_deep_tree(str(tmp_path / "deep"), projects=2, log_lines=20))
    trees.unified_component(root)
    passed_over = next(root.glob("group00/design_00000/_x.*/reports/*/hls_reports/csynth.xml"))
    chosen = next(root.glob("group01/design_00001/_x.*/*/*/*/solution/syn/report/csynth.xml"))
    component = next(root.glob("**/hls/syn/report/csynth.xml"))  # the part then comes from its impl copy
    # a second kernel's report, older: read during the walk (it looks canonical), but the pick passes it over
    older = next(root.glob("group00/design_00000/_x.*")) / "fft/fft/fft/solution/syn/report/csynth.xml"
    older.parent.mkdir(parents=True)
    for broken in (passed_over, chosen, component, older):
        broken.write_text("<profile><UserAssignments>")
    set_mtime(older, 3600)
    read, records, problems = csynth_reads(root)
    eager_records, eager_problems = collect_reading_every_copy(root)
    assert records == eager_records  # the same copies speak for every run, broken or not
    unused = (f"{passed_over}:", f"{older}:")
    assert [p for p in eager_problems if not p.startswith(unused)] == problems
    assert len(eager_problems) == len(problems) + 2
    assert f"{chosen}: broken XML at line 1: " in "\n".join(problems)
    assert str(passed_over.relative_to(root)) not in read and str(older.relative_to(root)) in read
    impl = str(component.relative_to(root)).replace("hls/syn/report", "hls/impl/ip/hls_files/hls/syn/report")
    assert impl in read  # the next candidate, read because the best one gave no part
    lines = [json.loads(line) for line in records.splitlines()]
    # a broken chosen report with no error in the logs: no hls_synth record yet (no other copy speaks)
    assert [r["report_type"] for r in lines if r["problem"]["group_path"][-1] == "design_00001"] == ["rtl_sim"]


def test_what_other_threads_leave_while_the_shares_come_back_is_collected_not_frozen() -> None:
    """Garbage collection pauses while the shares come back, and what was made meanwhile is
    frozen after: beside an interface (the scan on a thread of its own), a reference cycle
    dropped meanwhile is collected first; alone on the main thread (`collect`), nothing else
    made garbage, and the results are not walked once more for nothing."""

    class Node:
        pass

    def dropping() -> weakref.ref:
        node = Node()
        node.itself = node  # type: ignore[attr-defined]
        return weakref.ref(node)

    def scan(found: list) -> None:
        with pool_module.collection_paused():
            found.append(dropping())
            assert found[0]() is not None and not gc.isenabled()

    frozen = gc.get_freeze_count()
    beside: list[weakref.ref] = []
    try:
        scanning = threading.Thread(target=scan, args=(beside,))
        scanning.start()
        scanning.join()
        assert beside[0]() is None and gc.isenabled() and gc.get_freeze_count() > frozen
        alone: list[weakref.ref] = []
        scan(alone)
        assert alone[0]() is not None and gc.isenabled()  # (kept: frozen with the results)
    finally:
        gc.unfreeze()
        gc.collect()


def test_what_the_shares_brought_is_frozen_before_the_collector_runs_again() -> None:
    """Alone (`collect`), the objects made while the shares came back are frozen before garbage
    collection resumes: re-enabled first, the collector ran at the next allocation and walked
    every result once (0.2 s of the main process on 20,000 projects)."""
    collections: list[int] = []

    def seen(phase: str, info: dict) -> None:
        collections.append(info["generation"])

    kept: list[list] = []
    gc.callbacks.append(seen)
    try:
        with pool_module.collection_paused():
            kept.extend([] for _ in range(50_000))  # (each a tracked object, as results are)
        assert collections == [] and gc.isenabled()
    finally:
        gc.callbacks.remove(seen)
        gc.unfreeze()
        gc.collect()


# --- a rescan collects again only what changed --------------------------------------------------


def alone() -> None:
    """Forking beside threads is unsafe: earlier tests' sessions end theirs."""
    assert until(lambda: threading.active_count() == 1)


@pytest.mark.parametrize("processes", [1, 2])
def test_a_rescan_of_an_unchanged_tree_reads_nothing_and_keeps_every_result(tmp_path: Path, processes: int) -> None:
    root = trees.build_all(tmp_path / "rodinia-hls")
    alone()
    engine = Engine(lambda r: load_settings(Path(r)), processes=processes)
    first = engine.scan([str(root)], wait_for_writers=0)
    parses = engine.parses
    again = engine.scan([str(root)], wait_for_writers=0)
    assert engine.parses == parses  # not one file read again
    assert again.projects.keys() == first.projects.keys()
    assert all(again.projects[path] is result for path, result in first.projects.items())
    assert again.output("", "").records.render() == EXPECTED_TREE.read_bytes()


@pytest.mark.parametrize("processes", [1, 2])
def test_a_rescan_collects_again_what_changed_even_at_the_same_size(tmp_path: Path, processes: int) -> None:
    """A report rewritten at the same size (a later mtime), a report removed (the inventory
    changed), and the settings of the root: each is collected again; the rest is kept."""
    root = trees.build_all(tmp_path / "rodinia-hls")
    alone()
    settings = {"suite": None}
    engine = Engine(lambda r: load_settings(Path(r), settings), processes=processes)
    first = engine.scan([str(root)], wait_for_writers=0)
    fft, canny = str(root / "Benchmarks/fft/fft_2_opt"), str(root / "Benchmarks/canny/canny_top")
    report = next(Path(fft).glob("proj/solution1/syn/report/csynth.xml"))
    text = report.read_text()
    lut = text.split("<LUT>")[1].split("<")[0]
    report.write_text(text.replace(f"<LUT>{lut}<", f"<LUT>{'9' * len(lut)}<", 1))
    set_mtime(report, -5)  # (a later mtime than the scan saw, whatever the clock's resolution)
    os.unlink(next(Path(canny).glob("hls/impl/ip/hls_files/hls/syn/report/csynth.xml")))
    again = engine.scan([str(root)], wait_for_writers=0)
    changed = {path for path, result in again.projects.items() if result is not first.projects[path]}
    assert changed == {fft, canny}
    fresh = Engine(lambda r: load_settings(Path(r), settings), processes=1).scan([str(root)], wait_for_writers=0)
    assert again.output("", "").records.render() == fresh.output("", "").records.render()
    assert "9" * len(lut) in json.dumps(again.projects[fft].records)
    settings["suite"] = "renamed"
    renamed = engine.scan([str(root)], wait_for_writers=0)
    assert not any(renamed.projects[path] is result for path, result in again.projects.items())
    lines = renamed.output("", "").records.render().splitlines()
    assert {json.loads(line)["problem"]["suite"] for line in lines} == {"renamed"}


def test_components_whose_work_dir_holds_its_own_vitis_comp_give_the_same_bytes(tmp_path: Path) -> None:
    """NOLKAT/ECE-450-FPGA-Design: each lab's vitis-comp.json names `"work_dir": "<lab>"`, and
    2025.x writes one more `vitis-comp.json` (`"work_dir": "."`) in that folder. Walked by a worker,
    a lab's folder had a stand-in owner that said no vitis-comp.json was beside it: the work
    directory became a component of its own (group path doubled) on a machine of 2 cores, not 1."""
    from .test_realtree_discovery import LAB0

    root = tmp_path / "ece450"
    for lab in ("Lab1", "Lab3", "Lab4", "lab0", "Lab2"):
        component = root / f"KhanhTran_{lab}"
        work = component / f"KhanhTran_{lab}"
        place(component, "vitis-comp.json", text=f'{{"configuration": {{"work_dir": "KhanhTran_{lab}"}}}}\n')
        place(component, "hls_config.cfg", text="part=xczu3eg-sbva484-1-e\n")
        place(work, "vitis-comp.json", text='{"configuration": {"work_dir": "."}}\n')
        place(work, f"KhanhTran_{lab}.hlscompile_summary", LAB0 + "project_1.hlscompile_summary")
        place(work, "hls/syn/report/csynth.xml", LAB0 + "hls__syn__report__csynth.xml")
        place(component, "compute_c.cpp", text="void compute() {}\n")
        for folder in (
            ".cache/clangd",
            "VivadoRTL/VivadoRTL.srcs",
            "VivadoRTL/VivadoRTL.runs",
            "VivadoRTL/VivadoRTL.hw",
        ):
            place(component, f"{folder}/index.txt", text="")  # (folders enough that the split goes below the labs)
    plain, problems = collect_in_one_walk(root)
    assert {tuple(json.loads(line)["problem"]["group_path"]) for line in plain.splitlines()} == {
        (f"KhanhTran_{lab}",) for lab in ("Lab1", "Lab3", "Lab4", "lab0", "Lab2")
    }
    for processes in (2, 3, 4):
        assert collect(root, processes) == (plain, problems), processes
