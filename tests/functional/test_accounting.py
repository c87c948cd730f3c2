"""Nothing disappears without a trace: every report file of every tree the suite builds ends as the
source of a record, a copy the pick passed over, or a problem line; `collect --explain` says which."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from collectors.collect.accounting import tree_accounts
from collectors.collect.artifacts import REPORT_KINDS, classify
from collectors.collect.config import load_settings
from collectors.collect.discovery import NEVER_WALKED
from collectors.collect.engine import Engine
from collectors.demo import build_agent_tree, build_demo_tree
from tui.cli import main

from .. import trees
from .. import trees_third as t3
from ..conftest import place, set_mtime
from .test_realtree_discovery import component_with_work_dir, mode_hls_component
from .test_realtree_runs import fft_project, swiglu_component


def csim_log_copied_out(root: Path, copied_to: str = "report") -> Path:
    """Trouvaille1/MD5-Accelerator: the designer copied the solution's csim log to report/
    (RicardoUCSD/WES237C: to a folder of their own, fft1024_Best/)."""
    project = root / "md5"
    trees.sources(project, "run_hls.tcl", "md5.cpp")
    place(project, "md5_hls_prj/hls.app", text='<project top="md5_wrap"/>\n')
    place(project, "md5_hls_prj/solution1/solution1.aps", text="<solution/>\n")
    for folder in ("md5_hls_prj/solution1/csim/report", copied_to):
        place(project, f"{folder}/md5_wrap_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    return project


BUILDERS: list[Callable[[Path], object]] = [
    csim_log_copied_out,
    *trees.ALL,
    trees.aie_project,
    trees.xrt_project,
    trees.loom_project,
    t3.three_solutions,
    t3.path_variant_two_solutions,
    t3.aie_with_run_summary,
    t3.loom_with_snapshot_files,
    t3.sessions_of_other_versions,
    t3.failed_component,
    t3.ide_workspace,
    t3.ide_kernels_project,
    t3.link_output_named_after_the_kernel,
    mode_hls_component,
    component_with_work_dir,
    swiglu_component,
    lambda root: fft_project(root, "solution1.log", "opt1"),
    lambda root: build_demo_tree(str(root), projects=6),
    lambda root: build_agent_tree(str(root)),
]
# where a report may end (unwritten: a run whose target is shown, never written, or yields no
# record of that report's type: a hw build's reports, a sw_emu build's system diagram)
REPORTED = {"record", "copy", "problem", "unwritten"}


def report_files(root: Path) -> dict[str, str]:
    """Every file below the root that the registry claims as a report, found by a walk of its own."""
    found = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in NEVER_WALKED]
        for name in files:
            path = os.path.join(folder, name)
            kind = classify(name, os.path.basename(folder), path)
            if kind in REPORT_KINDS:
                found[path] = kind
    return found


@pytest.mark.parametrize("build", BUILDERS, ids=lambda b: getattr(b, "__name__", "builder"))
def test_every_report_file_is_accounted_for(tmp_path: Path, build: Callable[[Path], object]) -> None:
    root = tmp_path / "tree"
    build(root)
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(root)], wait_for_writers=0)
    accounts = tree_accounts({p: r.accounts for p, r in collection.projects.items()}, collection.walk_problems)
    reports = report_files(root)
    missing = sorted(set(reports) - set(accounts))
    assert missing == []
    unaccounted = {path: accounts[path] for path in reports if accounts[path].split(":")[0] not in REPORTED}
    assert unaccounted == {}
    assert [line for line in accounts.values() if line.startswith("unused")] == []


def test_a_report_whose_record_lost_its_key_is_a_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two projects whose names give one key (Teymoor-Ali/KRIA_KV260_Projects: Vivado's runs
    `kria_starter_kit_v_demosaic_0_0_synth_1` and `..._v_gamma_lut_0_0_synth_1`, both variant
    0 `synth_1`): one line is written, and the other's report fed nothing written (`--explain`
    called it the source of the record, whose values are another file's)."""
    root = tmp_path / "suite"
    for ip in ("v_demosaic", "v_gamma_lut"):
        project = root / f"runs/kit_{ip}_0_0_synth_1"
        place(project, "prj/sol/sol.aps", text="<solution/>\n")
        place(
            project,
            "prj/sol/syn/report/csynth.xml",
            "zakk-h-PartitionAcceleratorHLS__master__Vivado_Information__HLSIPs__proj0__solution1__syn__report__csynth.xml",
        )
    out = tmp_path / "out.jsonl"
    main(["collect", str(root), "-o", str(out), "--explain"])
    captured = capsys.readouterr()
    owner, loser = (root / f"runs/kit_{ip}_0_0_synth_1/prj" for ip in ("v_demosaic", "v_gamma_lut"))
    told = dict(line.split(": ", 1) for line in captured.out.splitlines() if "csynth.xml: " in line)
    assert told[f"{owner}/sol/syn/report/csynth.xml"].startswith(
        "record: suite/runs/prj suite_benchmark 0_synth_1 hls_synth"
    )
    assert told[f"{loser}/sol/syn/report/csynth.xml"] == (
        f"problem: same record key as {owner}; this project's record not written"
    )
    assert len(out.read_text().splitlines()) == 1


def test_explain_prints_one_line_per_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "suite"
    project = trees.hw_emu_build(root)
    trees.hls_two_solutions(root)
    out = tmp_path / "out.jsonl"
    x = project / f"_x.hw_emu.{trees.U250}"
    assert main(["collect", str(root), "-o", str(out), "--quiet", "--explain", str(x)]) == 0
    lines = capsys.readouterr().out.splitlines()
    chosen = x / "krnl/topKQueryScores/topKQueryScores/solution/syn/report/csynth.xml"
    copy = x / "link/vivado/vpl/prj/prj.gen/sources_1/ip/topK/hls_files/syn/report/csynth.xml"
    hw_emu = f"vitis.hw_emu {trees.U250}"
    assert lines == [
        f"{x}/krnl.xo.compile_summary: facts: read for the vitis.hw_emu on {trees.U250} run",
        f"{chosen}: record: suite/topk suite_benchmark 1_pipeline hls_synth {hw_emu}",
        f"{x}/link/int/systemDiagramModel.json: record: suite/topk suite_benchmark 1_pipeline rtl_sim {hw_emu}",
        f"{copy}: copy: passed over for hls_synth by the vitis.hw_emu on {trees.U250} run (used: {chosen})",
        f"{x}/logs/krnl/v++.log: facts: read for the vitis.hw_emu on {trees.U250} run",
        f"{x}/logs/link/v++.log: facts: read for the vitis.hw_emu on {trees.U250} run",
    ]
    main(["collect", str(root), "-o", str(out), "--quiet", "--explain"])
    every = capsys.readouterr().out.splitlines()
    solution1 = root / "Benchmarks/fft/fft_2_opt/proj/solution1"
    assert f"{solution1}/syn/report/csynth.xml: problem: solution1 not recorded: the path gives the variant " in (
        line.partition("(solution2")[0] for line in every
    )
    assert len(every) == 22  # 9 files of the v++ build, 13 of the HLS project (its run_hls.tcl too)


async def test_run_detail_lists_the_files_used_and_passed_over(tmp_path: Path) -> None:
    from collectors.collect.config import Settings
    from collectors.live.session import LiveSession
    from tui.app import Dashboard
    from tui.widgets.runs_table import RunsTable

    from ..conftest import wait_until

    root = tmp_path / "suite"
    project = trees.hw_emu_build(root)
    app = Dashboard(LiveSession([str(root)], str(tmp_path / "out.jsonl"), lambda r: Settings(), rescan_every=3600))
    async with app.run_test(size=(200, 50)) as pilot:
        runs = app.query_one(RunsTable)
        await wait_until(pilot, lambda: app.scans == 1)
        runs.focus()
        await pilot.press("home", "down", "enter")  # the runs are hw, then hw_emu
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "DetailScreen")
        shown = str(app.screen.query_one("#detail-files").render())
        x = project / f"_x.hw_emu.{trees.U250}"
        copy = x / "link/vivado/vpl/prj/prj.gen/sources_1/ip/topK/hls_files/syn/report/csynth.xml"
        assert f"used    {x}/link/int/systemDiagramModel.json" in shown.splitlines()
        assert any(line.startswith(f"passed  {copy}: copy: passed over for hls_synth") for line in shown.splitlines())
        headers = [str(w.render()) for w in app.screen.query("Static")]
        assert "Files (3 used, 5 passed over)" in headers  # csynth, diagram, profile; a copy, 3 logs, a summary


def test_another_tools_config_json_in_a_build_is_skipped_not_a_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The AI Engine compiler's `aie.control.config.json` in a hw_emu package (AkshayMalige/
    rtda_demo) is named as a LOOM configuration is: once read, it is another tool's file."""
    root = tmp_path / "suite"
    project = trees.hw_emu_build(root)
    config = project / f"_x.hw_emu.{trees.U250}/package/libadf/cfg/aie.control.config.json"
    config.parent.mkdir(parents=True)
    config.write_text('{"schema_version": {"major": "1"}, "aie_metadata": {"driver_config": {"hw_gen": 2}}}\n')
    out = tmp_path / "out.jsonl"
    assert main(["collect", str(root), "-o", str(out), "--strict", "--explain", str(config)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{config}: skipped: another tool's file of the same name, not a loom_config"
    ]


def test_an_empty_log_is_said_to_be_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """psiddire/VivadoHLSProjects's HT/solution4/solution4.log is empty: --explain called it
    another tool's file of the same name."""
    root = tmp_path / "suite"
    trees.hls_two_solutions(root)
    log = next((root / "Benchmarks").rglob("solution2.aps")).parent / "solution2.log"
    log.write_text("")
    out = tmp_path / "out.jsonl"
    assert main(["collect", str(root), "-o", str(out), "--quiet", "--explain", str(log)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{log}: skipped: an empty hls_log, nothing in it to read"]


@pytest.mark.parametrize("copied_to", ["report", "fft1024_Best"])
def test_a_report_in_no_run_is_a_problem_line(tmp_path: Path, copied_to: str) -> None:
    project = csim_log_copied_out(tmp_path, copied_to)
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(tmp_path)], wait_for_writers=0)
    copied = project / copied_to
    assert [str(p) for p in collection.problems() if p.path.startswith(str(copied))] == [
        f"{copied}/md5_wrap_csim.log: report that no run of this project takes: not collected"
    ]


def test_a_broken_report_no_run_takes_is_one_problem_line(tmp_path: Path) -> None:
    project = csim_log_copied_out(tmp_path)
    (project / "report/md5_wrap_csim.log").write_bytes(b"\x00\x01binary")
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(tmp_path)], wait_for_writers=0)
    copied = str(project / "report")
    assert len([p for p in collection.problems() if p.path.startswith(copied)]) == 1


def test_a_csim_log_without_a_verdict_is_said_so_not_a_copy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Jasmine-Mao's ECE423_Lab2: the top's only csim log holds no verdict (`csim_design -setup`
    built the test bench and ran nothing). It was 'copy: passed over for sw_run ... (no record
    yet)': no copy was passed over; it is read, and says no verdict."""
    project = csim_log_copied_out(tmp_path)
    log = project / "md5_hls_prj/solution1/csim/report/md5_wrap_csim.log"
    log.write_text("INFO: [SIM 4] CSIM will launch GCC as the compiler.\nCSim file generation done with 0 errors.\n")
    out = tmp_path / "out.jsonl"
    other = place(log.parent, "helper_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    main(["collect", str(tmp_path), "-o", str(out), "--explain", str(log.parent)])
    shown = capsys.readouterr().out.splitlines()
    assert shown == [  # (another function's verdict is none of the top's: passed over, and said so)
        f"{other}: copy: passed over for sw_run by the vitis.csim on unknown run (no record yet)",
        f"{log}: skipped: no C simulation verdict in it: the vitis.csim on unknown run has no sw_run record",
    ]


def test_each_other_kernel_of_a_vpp_build_is_a_problem_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """stjohnd777/my-xilinx-vision: a hw_emu build of eight kernels, each synthesised in the
    build (<kernel>/<kernel>/solution), makes one hls_synth record; the seven others were
    'copy: passed over', never said. Each other kernel is a problem line (one record a run)."""
    project = trees.hw_emu_build(tmp_path)
    build = project / f"_x.hw_emu.{trees.U250}/krnl"
    chosen = build / "topKQueryScores/topKQueryScores/solution/syn/report/csynth.xml"
    other = place(build, "sortScores/sortScores/solution/syn/report/csynth.xml", text=chosen.read_text())
    set_mtime(other, 500)  # (older: the pick keeps topKQueryScores's)
    out = tmp_path / "out.jsonl"
    main(["collect", str(tmp_path), "-o", str(out), "--explain", str(other)])
    said = "kernel sortScores's synthesis not recorded: the vitis.hw_emu run on "
    said += f"{trees.U250}'s hls_synth record is topKQueryScores's "
    said += "(a record key names no kernel: one hls_synth record a run)"
    assert capsys.readouterr().out.splitlines() == [f"{other}: problem: {said} ({build}/sortScores/sortScores)"]


def test_a_report_of_a_vpp_build_whose_target_nothing_names_says_so(tmp_path: Path) -> None:
    """S12P/sisyphus-fpga24-artifact: Merlin's runs keep each kernel's HLS report in a plain `_x`
    with no v++ log, summary or target in its name: no run exists to take it. Each of the 292
    was 'report that no run of this project takes'; the line says what is missing."""
    project = tmp_path / "only_nlp1"
    trees.sources(project)
    report = place(
        project, "_x/Cnn/Cnn/Cnn/solution/syn/report/csynth.xml", "DGGua-IGCN__solution1__syn__report__csynth.xml"
    )
    collection = Engine(lambda r: load_settings(Path(r))).scan([str(tmp_path)], wait_for_writers=0)
    assert [p.reason for p in collection.problems() if p.path == str(report)] == [
        "report of the v++ build folder _x whose target no v++ log, summary or folder name says: not collected"
    ]
