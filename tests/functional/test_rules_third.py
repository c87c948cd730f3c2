"""The collection rules' third edition on trees built in the shapes they describe: several
solutions of one HLS project, DSP primitive names, AI Engine run summaries, mapper snapshot files."""

from __future__ import annotations

from pathlib import Path

import pytest

from collectors.collect.config import load_settings
from collectors.collect.engine import Collection, Engine
from collectors.problems import Problem

from .. import trees_third as t3
from ..conftest import place, records_of
from ..trees import sources


def collect(root: Path) -> Collection:
    return Engine(lambda r: load_settings(Path(r))).scan([str(root)], wait_for_writers=0)


def variant_rows(collection: Collection) -> list[tuple]:
    records, clashes = records_of(collection)
    assert clashes == []
    return [
        (
            r["implementation"]["variant"]["index"],
            r["implementation"]["variant"]["name"],
            r["report_type"],
            r["run"]["target"],
            r["run"]["device"],
            r[r["report_type"]]["status"],
        )
        for r in records
    ]


def test_three_solutions_are_three_variants_and_the_csim_one_keeps_its_verdict(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    t3.three_solutions(root)
    collection = collect(root)
    assert variant_rows(collection) == [
        (1, "solution1", "hls_synth", "vitis.cosim", "xc7z020clg400-1", "pass"),
        (1, "solution1", "rtl_sim", "vitis.cosim", "xc7z020clg400-1", "pass"),
        (2, "solution2", "hls_synth", "vitis.csynth", "xcvu11p-flga2577-1-e", "pass"),
        (3, "solution3", "sw_run", "vitis.csim", "unknown", "pass"),
    ]
    records, _ = records_of(collection)
    assert {r["problem"]["group_path"][0] for r in records} == {"gemm"}
    assert [r["hls_synth"]["AreaEstimates"]["Resources"]["DSP"] for r in records if "hls_synth" in r] == ["3", "8"]
    (result,) = collection.projects.values()
    assert [(run.variant, run.target) for run in result.runs][:1] == [
        ({"index": 1, "name": "solution1"}, "vitis.cosim")
    ]


def test_solutions_without_distinct_numbers_are_ranked_in_natural_order(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    p = t3.three_solutions(root)
    for old, new in (("solution1", "opt10"), ("solution2", "opt2"), ("solution3", "baseline")):
        (p / f"proj/{old}/{old}.aps").rename(p / f"proj/{old}/{new}.aps")
        (p / f"proj/{old}").rename(p / f"proj/{new}")
    rows = [row[:3] for row in variant_rows(collect(root))]
    # baseline ends in no number: ranks, with opt2 before opt10
    assert rows == [
        (0, "baseline", "sw_run"),
        (1, "opt2", "hls_synth"),
        (2, "opt10", "hls_synth"),
        (2, "opt10", "rtl_sim"),
    ]


def test_distinct_trailing_numbers_are_the_indexes(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    p = t3.three_solutions(root)
    (p / "proj/solution1/solution1.aps").rename(p / "proj/solution1/opt10.aps")
    (p / "proj/solution1").rename(p / "proj/opt10")
    rows = [row[:3] for row in variant_rows(collect(root))]
    assert rows == [
        (2, "solution2", "hls_synth"),
        (3, "solution3", "sw_run"),
        (10, "opt10", "hls_synth"),
        (10, "opt10", "rtl_sim"),
    ]


def test_path_gives_the_variant_so_the_other_solution_is_a_problem_line(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    p = t3.path_variant_two_solutions(root)
    collection = collect(root)
    assert variant_rows(collection) == [(2, "tiled", "hls_synth", "vitis.csynth", "xcvu11p-flga2577-1-e", "pass")]
    assert (
        Problem(
            str(p / "proj/solution1"),
            "solution1 not recorded: the path gives the variant (solution2 gives the records)",
        )
        in collection.problems()
    )


@pytest.mark.parametrize("primitive", ["DSP48E1", "DSP48A", "DSP48A1", "DSP48E2", "DSP58"])
def test_every_dsp_primitive_fills_dsp(tmp_path: Path, primitive: str) -> None:
    root = tmp_path / "suite"
    p = root / "Benchmarks/rgb/rgb_1_base"
    sources(p, "run_hls.tcl", "rgb.cpp")
    place_aps = p / "solution1/solution1.aps"
    place_aps.parent.mkdir(parents=True)
    place_aps.write_text("<solution/>\n")
    t3.csynth_with_dsp_name(p, "solution1/syn/report/csynth.xml", primitive)
    (record,), _ = records_of(collect(root))
    area = record["hls_synth"]["AreaEstimates"]
    assert (area["Resources"]["DSP"], area["AvailableResources"]["DSP"]) == ("3", "220")


def test_a_multiplier_primitive_is_not_a_dsp(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    p = root / "Benchmarks/rgb/rgb_1_base"
    sources(p, "run_hls.tcl", "rgb.cpp")
    t3.csynth_with_dsp_name(p, "solution1/syn/report/csynth.xml", "MULT18X18")
    (p / "solution1/solution1.aps").write_text("<solution/>\n")
    (record,), _ = records_of(collect(root))
    assert record["hls_synth"]["AreaEstimates"]["Resources"]["DSP"] is None


def test_aie_device_and_version_come_from_the_run_summary(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    t3.aie_with_run_summary(root)
    collection = collect(root)
    runs = sorted(
        (r["run"]["target"], r["run"]["device"], r["run"]["vitis_version"])
        for result in collection.projects.values()
        for r in result.extension_records
    )
    assert runs == [
        ("vitis.aiesimulator", t3.VCK190, "2023.2"),
        ("vitis.x86simulator", "unknown", None),  # its output folder has no summary
    ]


def test_every_file_in_mapper_snapshots_is_a_snapshot(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    t3.loom_with_snapshot_files(root)
    collection = collect(root)
    (result,) = collection.projects.values()
    (record,) = result.extension_records
    payload = record["cgra_map"]
    assert (payload["dfg"], payload["adg"], payload["state"]) == ("dfg", "fabric", "final")
    assert payload["snapshots"] == [
        {"sequence": 1, "trigger": "negotiated-iter", "ordinal": 1},
        {"sequence": 3, "trigger": "route-repair", "ordinal": 1},
    ]


def synth_rows(collection: Collection) -> list[tuple]:
    records, _ = records_of(collection)
    return [
        (r["report_type"], r["run"]["vitis_version"], r["run"]["runtime_seconds"], r[r["report_type"]]["status"])
        for r in records
    ]


def test_sessions_that_stopped_at_setup_neither_fail_nor_date_the_synthesis(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    t3.sessions_of_other_versions(root)
    (record,), _ = records_of(collect(root))
    assert synth_rows_of(record) == ("hls_synth", "2018.2", "pass")
    assert record["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] == "2224"


def test_without_the_synthesis_session_the_report_gives_the_version(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    p = t3.sessions_of_other_versions(root)
    log = p / "proj/solution1/solution1.log"
    opened = "open_project proj\n", "open_solution solution1\n"
    log.write_text(t3.session(t3.VITIS_HLS_2023, *opened, t3.PART_MISSING))
    (record,), _ = records_of(collect(root))
    assert synth_rows_of(record) == ("hls_synth", "2018.2", "pass")


def test_top_csynth_xml_is_read_when_csynth_xml_is_absent(tmp_path: Path) -> None:
    """A solution that lost its csynth.xml: the log's set_top names image_filter_csynth.xml."""
    root = tmp_path / "suite"
    t3.sessions_of_other_versions(root, report="image_filter_csynth.xml")
    (record,), _ = records_of(collect(root))
    assert synth_rows_of(record) == ("hls_synth", "2018.2", "pass")
    assert record["hls_synth"]["UserAssignments"]["TopModelName"] == "image_filter"


def test_of_two_releases_that_synthesised_the_solution_the_reports_speaks(tmp_path: Path) -> None:
    """Two session logs synthesised the solution on two releases; the report says which wrote it
    (COLLECTION_RULES 4.2: the chosen report's version wins over a log of a session that never
    wrote it). Taken latest release first, the record said the earlier session's 2022.1.2 and
    78.18 s, beside its payload's 2019.2.1 (Crazy-James26/HeteroCL_Transformer)."""
    t3.two_releases_synthesised(tmp_path / "suite")
    (record,), _ = records_of(collect(tmp_path / "suite"))
    assert synth_rows_of(record) == ("hls_synth", "2018.2", "pass")
    assert record["run"]["runtime_seconds"] == 78.07


def synth_rows_of(record: dict) -> tuple:
    return (record["report_type"], record["run"]["vitis_version"], record["hls_synth"]["status"])


def test_setup_errors_are_not_synthesis_errors() -> None:
    from collectors.collect.artifacts.hls_log import errors_by_step, parse_hls_log, sessions, step_versions

    opened = "open_project proj\n", "open_solution solution1\n"
    text = t3.session(t3.VITIS_HLS_2020, *opened, t3.BAD_CONFIG) + t3.session(
        t3.VITIS_HLS_2023, *opened, t3.PART_MISSING
    )
    assert sorted(errors_by_step(text)) == ["setup"]
    assert parse_hls_log(text.encode())["errors"] == []
    failing = t3.session(t3.VIVADO_HLS_2018, *opened, "csynth_design\nERROR: [HLS 200-70] Compilation errors found.")
    assert parse_hls_log((text + failing).encode())["errors"] == ["ERROR: [HLS 200-70] Compilation errors found."]
    assert step_versions(sessions(text + failing)) == {"synthesis": ["2018.2"]}


@pytest.mark.parametrize(
    "echoes",
    [
        # hls4ml's build_prj.tcl on 2018.2 (vinyl5200/A-Comparative-Analysis-of-HLS-Optimizations-for-ML-Models)
        "INFO: [XFORM 203-101] Allowed max sub elements number after partition is 4096.\n"
        "INFO: [XFORM 203-1161] The maximum of name length is set into 80.\n",
        # config_compile and config_dataflow on 2020+ (HLS 200-1464 echoes the command)
        "INFO: [XFORM 203-502] Automatic unrolling disabled.\n"
        "INFO: [XFORM 203-1172] Optimizing floating point zeros and discarding its signedness.\n"
        "INFO: [XFORM 203-701] Set the default channel type in dataflow to FIFO.\n",
        "@I [XFORM-101] Allowed max sub elements number after partition is 4096.\n",
    ],
)
def test_config_echoes_before_any_step_leave_a_setup_error_a_setup_error(echoes: str) -> None:
    """config_* commands answer with XFORM-tagged INFO lines, which are no synthesis under way: a
    setup error after them fails no step. A tagged error is one (the demo's failed synthesis,
    `ERROR: [HLS 207-1398]`, comes before any analysis line), and so is an analysed file."""
    from collectors.collect.artifacts.hls_log import errors_by_step, parse_hls_log

    setup_error = "ERROR: [HLS 200-101] 'config_schedule': Unknown option '-enable_dsp_full_reg=false'.\n"
    text = (
        t3.VIVADO_HLS_2018
        + "INFO: [HLS 200-10] Creating and opening solution '/h/my-hls-test5/myproject_prj/solution1'.\n"
        + echoes
        + "INFO: [HLS 200-10] Setting target device to 'xc7a200tfbg676-2'\n"
        + setup_error
        + "INFO: [Common 17-206] Exiting vivado_hls at Wed Apr 24 11:24:01 2024...\n"
    )
    assert sorted(errors_by_step(text)) == ["setup"]
    assert parse_hls_log(text.encode())["errors"] == []
    analysing = "INFO: [HLS 200-10] Analyzing design file 'firmware/myproject.cpp' ...\n"
    compile_error = "ERROR: [HLS 200-70] Compilation errors found.\n"
    for synthesis_error in (analysing + compile_error, "ERROR: [HLS 207-1398] no member\n"):
        failed = text.replace(setup_error, synthesis_error)
        assert sorted(errors_by_step(failed)) == ["synthesis"], synthesis_error
    # a later session that echoes its config and runs only csim leaves the failed synthesis failed
    # (jorjo's SystemC solution1.log, 2018.3: its synthesis never found a design unit)
    csim_only = t3.VIVADO_HLS_2018 + echoes + "INFO: [SIM 211-2] *************** CSIM start ***************\n"
    failed = text.replace(setup_error, analysing + compile_error) + csim_only
    assert parse_hls_log(failed.encode())["errors"] == [compile_error.strip()]


@pytest.mark.parametrize(
    ("summary", "log"),
    [("CS_FAILED", ""), (None, "ERROR: [HLS 214-124] use of undeclared identifier 'x'\nPre-synthesis failed.\n")],
)
def test_a_failed_unified_compile_gives_a_failed_hls_synth(tmp_path: Path, summary: str | None, log: str) -> None:
    root = tmp_path / "suite"
    p = t3.failed_component(root, summary or "CS_PASSED", log)
    if summary is None:
        (p / "conv_top.hlscompile_summary").unlink()
    (record,), _ = records_of(collect(root))
    assert (record["report_type"], record["run"]["target"], record["run"]["device"]) == (
        "hls_synth",
        "vitis.csynth",
        "xck26-sfvc784-2LV-c",
    )
    assert record["hls_synth"] == {
        "status": "fail",
        **dict.fromkeys(("ReportVersion", "UserAssignments", "PerformanceEstimates", "AreaEstimates")),
    }


def test_a_failed_compile_of_a_work_dir_without_its_json_gives_a_failed_hls_synth(tmp_path: Path) -> None:
    """hlstrack2025's Makefile (tsawke/FPGA): `v++ -c --mode hls --work_dir hls` writes no
    vitis-comp.json; the compile summary is in hls/, no report committed. A failed compile there
    was no run at all (no record); it is an hls_synth fail, as with the JSON."""
    from ..conftest import fixture_bytes

    p = tmp_path / "suite/lz4_compress"
    place(p, "Makefile", text="all:\n\tv++ -c --mode hls --config hls_config.cfg --work_dir hls\n")
    place(p, "lz4_compress_test.cpp", text="int main() { return 0; }\n")
    place(p, "hls_config.cfg", text="syn.top=lz4CompressEngineRun\n")
    text = fixture_bytes("asandeep1-FPGA_ECE8893__2026_Spring__lab0__project_1__project_1.hlscompile_summary").decode()
    made = "vitis-run --mode hls --tcl /nethome/asandeep6/FPGA_ECE8893/2026_Spring/lab0/script.tcl"
    text = text.replace(made, "v++ -c --mode hls --config hls_config.cfg --work_dir hls --part xc7z020clg484-1 ")
    place(p, "hls/hls.hlscompile_summary", text=text.replace("CS_PASSED", "CS_FAILED"))
    place(p, "hls/hls/.autopilot/db/a.xml", text="<a/>\n")
    (record,), _ = records_of(collect(tmp_path / "suite"))
    assert (record["report_type"], record["run"]["target"], record["hls_synth"]["status"]) == (
        "hls_synth",
        "vitis.csynth",
        "fail",
    )
    assert record["run"]["device"] == "xc7z020clg484-1"  # (the part the compile's command line asked for)


def test_ide_workspace_configurations_are_runs_of_the_application(tmp_path: Path) -> None:
    root = tmp_path / "workspace"
    app = t3.ide_workspace(root)
    collection = collect(root)
    assert list(collection.projects) == [str(app)]
    (result,) = collection.projects.values()
    assert [(run.target, run.device) for run in result.runs] == [
        ("vitis.hw", t3.U250),
        ("vitis.hw_emu", t3.U250),
        ("vitis.sw_emu", t3.U250),
    ]
    records, _ = records_of(collection)
    rows = [(r["problem"]["group_path"], r["report_type"], r["run"]["target"], r["run"]["device"]) for r in records]
    assert rows == [
        (["topk"], "hls_synth", "vitis.hw_emu", t3.U250),
        (["topk"], "rtl_sim", "vitis.hw_emu", t3.U250),
    ]
    # the same figures as the v++ build of tests/trees.py hw_emu_build: 6.748 us at 300 MHz
    assert records[1]["rtl_sim"] == {
        "status": "pass",
        "kernel_runtime_cycles": 2024,
        "kernel_runtime_us": 6.748,
        "kernel_clock_freq_mhz": 300.0,
    }
    assert records[0]["hls_synth"]["status"] == "pass"
    assert not [p for p in collection.problems() if "in no project" in p.message]


def test_a_link_output_folder_of_any_name_is_build_output(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    p = t3.link_output_named_after_the_kernel(root)
    collection = collect(root)
    assert list(collection.projects) == [str(p)]
    assert variant_rows(collection) == [(1, "pipeline", "hls_synth", "vitis.csynth", "xc7z020clg400-1", "pass")]
    (result,) = collection.projects.values()
    assert [(run.target, run.device) for run in result.runs] == [
        ("vitis.csynth", "xc7z020clg400-1"),
        ("vitis.hw_emu", t3.U250),
    ]


def test_summary_counts_projects_that_could_yield_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Vivado run folder's .Xil and a kernel folder with a makefile and source are folders a
    build touched, not projects that yield records: the summary line leaves them out, and says how
    many build-output folders the walk pruned."""
    from tui.cli import main

    from ..conftest import place

    root = tmp_path / "suite"
    t3.three_solutions(root)
    place(root, "Benchmarks/gemm/vivado/gemm.runs/impl_1/.Xil/Vivado-1234/dcp/x.xdc", text="\n")
    place(root, "Benchmarks/gemm/kernels/Makefile", text="all:\n")
    place(root, "Benchmarks/gemm/kernels/k.cpp", text="void k() {}\n")
    assert main(["collect", str(root), "-o", str(tmp_path / "out.jsonl")]) == 0
    summary = capsys.readouterr().err.splitlines()[-1]
    # gemm.runs/impl_1 (its .Xil) and gemm's proj folder are the build output
    # (the kernels folder lies in the built gemm project: one of its folders, no project)
    assert summary.startswith("1 project (and 1 not built), 4 runs, 4 records (2 hls_synth, 1 rtl_sim, 1 sw_run), ")
    assert ", 2 build-output folders skipped, " in summary


def test_ide_kernels_project_committed_without_dot_project(tmp_path: Path) -> None:
    root = tmp_path / "workspace"
    app = t3.ide_kernels_project(root)
    collection = collect(root)
    assert list(collection.projects) == [str(app)]
    records, _ = records_of(collection)
    assert [
        (r["problem"]["group_path"], r["report_type"], r["run"]["target"], r["run"]["device"]) for r in records
    ] == [(["vision"], "hls_synth", "vitis.hw_emu", t3.ZCU102)]
    assert records[0]["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] == "2224"  # the solution's, not the copy's
    assert collection.problems() == []


def test_another_hls_projects_solution_in_the_same_run_is_a_problem_line(tmp_path: Path) -> None:
    """teo3300/PII-2022: an HLS project at the root and another in test_loadbytes/, both on one
    part: the pick's solution gives the run's records, the other is a problem line."""
    from ..conftest import place, set_mtime

    root = tmp_path / "PII"
    place(root, "vivado_hls.app", text="<project/>\n")
    place(root, "aead.cpp", text="void aead() {}\n")
    for folder, age in (("", 10), ("test_loadbytes/", 500)):
        place(root, f"{folder}solution1/solution1.aps", text="<solution/>\n")
        set_mtime(place(root, f"{folder}solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml"), age)
    place(root, "test_loadbytes/hls.app", text="<project/>\n")
    collection = collect(root)
    assert [row[2:] for row in variant_rows(collection)] == [("hls_synth", "vitis.csynth", "xc7z020clg400-1", "pass")]
    assert collection.problems() == [
        Problem(
            str(root / "test_loadbytes/solution1"),
            "test_loadbytes/solution1 not recorded: solution1 gives the records of the vitis.csynth run",
        )
    ]


def test_a_vivado_ip_repository_beside_hls_projects_prunes_nothing(tmp_path: Path) -> None:
    """javadsaberlatibari/FPGA_Consensus: a CMake build of an HLS IP library holds iprepo/ beside
    its HLS projects (hls/<ip>/ with a Makefile, a header and <ip>_prj/solution1): each stays a
    project of its own (a bare iprepo/ is no v++ link output)."""
    from ..conftest import place

    root = tmp_path / "consensus"
    stack = root / "build/fpga-network-stack"
    place(stack, "iprepo/toe/component.xml", text="<component/>\n")
    for ip in ("toe", "udp"):
        place(stack, f"hls/{ip}/Makefile", text="all:\n")
        place(stack, f"hls/{ip}/{ip}_config.hpp", text="#define N 1\n")
        place(stack, f"hls/{ip}/{ip}_prj/hls.app", text="<project/>\n")
        place(stack, f"hls/{ip}/{ip}_prj/solution1/solution1.aps", text="<solution/>\n")
        place(stack, f"hls/{ip}/{ip}_prj/solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    collection = collect(root)
    assert [str(Path(p).relative_to(stack)) for p in collection.projects] == ["hls/toe", "hls/udp"]
    assert collection.problems() == []


def test_failed_compile_and_link_summaries_of_other_tries_fail_no_synthesis(tmp_path: Path) -> None:
    """kmisimn76/SparseAccel: a harness folder holds the profile of a hw_emu run that worked, the
    compile summary of a later try that failed (CS_FAILED) and a failed hw link's summary: only a
    unified component's failed compile fails a synthesis, and the hw summary joins no run."""
    from ..conftest import fixture_bytes, place

    root = tmp_path / "sparse"
    p = root / "HW_emu_32x32"
    sources(p, "Makefile", "src/conv.cpp")
    place(p, "profile_kernels.csv", "nmath018-topK_feature__profile_kernels.csv")
    build = "nmath018-topK_feature__build_dir.{}.xilinx_u250_gen3x16_xdma_4_1_202210_1__krnl.link.xclbin.link_summary"
    place(p, "conv.hw_emu.xclbin.link_summary", build.format("hw_emu"))
    failed = fixture_bytes(build.format("hw")).replace(b"CS_PASSED", b"CS_FAILED")
    (p / "conv.hw.xclbin.link_summary").write_bytes(failed)
    compile_summary = "nmath018-topK_feature___x.hw_emu.xilinx_u250_gen3x16_xdma_4_1_202210_1__krnl.xo.compile_summary"
    (p / "conv.hw_emu.xo.compile_summary").write_bytes(
        fixture_bytes(compile_summary).replace(b"CS_PASSED", b"CS_FAILED")
    )
    rows = [row[2:] for row in variant_rows(collect(root))]
    assert rows == [("rtl_sim", "vitis.hw_emu", t3.U250, "pass")]


def test_the_simulation_reports_name_the_top_of_a_solution_nothing_else_names(tmp_path: Path) -> None:
    """Without a script, a project file or a `set_top`, the top is the name Vivado HLS gave the
    solution's C and RTL simulation reports: its `<top>_csynth.xml` gives the synthesis record."""
    t3.solution_named_only_by_its_reports(tmp_path / "suite")
    records, _ = records_of(collect(tmp_path / "suite"))
    synth = next(r for r in records if r["report_type"] == "hls_synth")
    assert synth["hls_synth"]["UserAssignments"]["TopModelName"] == "image_filter"  # (rgb_csynth.xml's)
    assert sorted((r["report_type"], r["run"]["target"]) for r in records) == [
        ("hls_synth", "vitis.cosim"), ("rtl_sim", "vitis.cosim"), ("sw_run", "vitis.csim")
    ]  # fmt: skip


def test_the_top_functions_csim_log_gives_the_verdict_whatever_its_date(tmp_path: Path) -> None:
    t3.csim_logs_of_two_tops(tmp_path / "suite")
    records, _ = records_of(collect(tmp_path / "suite"))
    assert [(r["report_type"], r["sw_run"]["status"]) for r in records] == [("sw_run", "pass")]


def test_an_ide_projects_prj_names_the_platform_whatever_its_folder_is_called(tmp_path: Path) -> None:
    t3.ide_project_cloned_under_another_name(tmp_path / "workspace")
    collection = collect(tmp_path / "workspace")
    records, _ = records_of(collection)
    assert [(r["report_type"], r["run"]["target"], r["run"]["device"]) for r in records] == [
        ("hls_synth", "vitis.hw_emu", t3.AWS_F1)
    ]
    assert collection.problems() == []


@pytest.mark.parametrize("aps_committed", [True, False])
def test_hls_projects_side_by_side_in_a_folder_without_source_are_projects_of_their_own(
    tmp_path: Path, aps_committed: bool
) -> None:
    """Merged into their folder's one project, the two designs shared an identity: qam_fpga's
    passing C simulation spoke for both, and aes_fpga's failure was a problem line. Whether
    the solutions' `.aps` files were committed or not (cgruda/repo's hw_cnn/hls: six projects,
    their records mixed from two designs)."""
    examples = t3.hls_projects_side_by_side(tmp_path / "repo")
    if not aps_committed:
        for aps in examples.glob("*/solution1/solution1.aps"):
            aps.unlink()
    collection = collect(tmp_path / "repo")
    assert list(collection.projects) == [str(examples / "aes_fpga"), str(examples / "qam_fpga")]
    records, _ = records_of(collection)
    assert [(r["problem"]["group_path"], r["report_type"], r[r["report_type"]]["status"]) for r in records] == [
        (["examples", "aes_fpga"], "hls_synth", "pass"),
        (["examples", "aes_fpga"], "sw_run", "fail"),
        (["examples", "qam_fpga"], "hls_synth", "pass"),
        (["examples", "qam_fpga"], "sw_run", "pass"),
    ]
    assert collection.problems() == []


@pytest.mark.parametrize(
    ("log", "text"),
    [
        ("vitis_hls.log", "INFO: [HLS 200-10] Running 'vitis_hls'\n"),
        ("v++_k.log", "INFO: [v++ 60-585] Compiling for hardware emulation target\nERROR: [v++ 60-599] failed\n"),
    ],
)
def test_the_gui_log_beside_hls_projects_side_by_side_keeps_them_apart(tmp_path: Path, log: str, text: str) -> None:
    """The GUI writes vitis_hls.log where it was started: the folder holding the projects
    (Joeyoyog/ADSD, aahwu/AAHLS_labB: 4 and 6 designs were one run); a v++ log there neither
    merges them (one design's verdict would speak for the other)."""
    examples = t3.hls_projects_side_by_side(tmp_path / "repo")
    (examples / log).write_text(text)
    collection = collect(tmp_path / "repo")
    designs = [str(examples / "aes_fpga"), str(examples / "qam_fpga")]
    # (where v++ ran, the folder is a project of its own, beside them)
    assert list(collection.projects) == ([str(examples)] if log.startswith("v++") else []) + designs


def test_a_folder_with_reports_of_its_own_is_a_project_beside_the_hls_projects_in_it(tmp_path: Path) -> None:
    """bol-edu/2022-spring-nthu's Final/hls_nn_exp/IPs: its own solution1 beside four HLS
    projects; one project, four designs were problem lines ('not recorded: solution1 gives the
    records'). A walk of the folder alone (watch) leaves them to themselves."""
    examples = t3.hls_projects_side_by_side(tmp_path / "repo")
    place(examples, "report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    collection = collect(tmp_path / "repo")
    assert list(collection.projects) == [str(examples), str(examples / "aes_fpga"), str(examples / "qam_fpga")]
    assert collection.problems() == []
    engine = Engine(lambda r: load_settings(Path(r)))
    engine.scan([str(tmp_path / "repo")], wait_for_writers=0)
    again = engine.recollect(str(examples), str(tmp_path / "repo"))
    assert again.lines == collection.projects[str(examples)].lines


@pytest.mark.parametrize("work_dir", ["input_doubleconv", "build"])
def test_a_csim_only_component_takes_its_part_from_its_config_and_its_version_from_its_run_summary(
    tmp_path: Path, work_dir: str
) -> None:
    """Its work directory's `hls/hls.aps` naming another part says nothing against the config,
    whatever the work directory is called (`build/` sorts before `hls_config.cfg`)."""
    component = t3.csim_only_component(tmp_path / "ds-trigger")
    if work_dir != "input_doubleconv":
        (component / "input_doubleconv").rename(component / work_dir)
        comp_json = component / "vitis-comp.json"
        comp_json.write_text(
            comp_json.read_text().replace('"work_dir": "input_doubleconv"', f'"work_dir": "{work_dir}"')
        )
    aps = '<solution><targetInfo><TargetInfo value="xc7z020:-clg400:-1"/></targetInfo></solution>\n'
    place(component, f"{work_dir}/hls/hls.aps", text=aps)
    collection = collect(tmp_path / "ds-trigger")
    records, _ = records_of(collection)
    assert [
        (r["report_type"], r["run"]["device"], r["run"]["vitis_version"], r["sw_run"]["status"]) for r in records
    ] == [("sw_run", "xczu15eg-ffvb1156-2-i", "2024.2", "pass")]
    assert collection.problems() == []


# kwt3/HLS-Models' Matrix-Multiplication (2024.1): its step log, the test bench run under the
# Code Analyzer (`csim.code_analyzer=1`); no `CSim done`, and no csim report
CODE_ANALYZER_LOG = """INFO: [HLS 200-1465] Applying ini 'csim.code_analyzer=1' from hls_config.cfg(11)
INFO: [SIM 211-200] Executing Code Analyzer instead of classic HLS C simulation
INFO: [SIM 211-200] Compiling source code ../mat_mult.cpp as hardware code with instrumentation
INFO: [SIM 211-200] Linking executable
8224000 16448000 24672000
INFO: [SIM 211-200] Analyzing trace data
INFO: [SIM 211-208] Running Code Analyzer
INFO: [SIM 211-210] Code Analyzer finished
INFO: [HLS 200-112] Total CPU user time: 2 seconds. Total CPU system time: 1 seconds. Total elapsed time: \
19.261 seconds; peak allocated memory: 229.961 MB.
INFO: [vitis-run 60-791] Total elapsed time: 0h 0m 24s
"""


@pytest.mark.parametrize(("ended", "status"), [("Code Analyzer finished", "pass"), ("Code Analyzer failed", None)])
def test_a_c_simulation_run_under_the_code_analyzer_is_a_sw_run(tmp_path: Path, ended: str, status: str | None) -> None:
    """It passed: a sw_run pass timed by its step log (there was none); a log that says neither
    (an analysis cut short) gives no verdict."""
    component = t3.csim_only_component(tmp_path / "HLS-Models")
    (component / "input_doubleconv/hls/csim/report/_csim.log").unlink()
    log = CODE_ANALYZER_LOG.replace("Code Analyzer finished", ended)
    place(component, "input_doubleconv/logs/hls_run_csim.log", text="  **** HLS Build v2024.2 5238294\n" + log)
    records, _ = records_of(collect(tmp_path / "HLS-Models"))
    assert [(r["run"]["vitis_version"], r["run"]["runtime_seconds"], r["sw_run"]["status"]) for r in records] == (
        [("2024.2", 19.261, "pass")] if status else []
    )


def test_a_code_analyzer_run_speaks_over_an_earlier_classic_report(tmp_path: Path) -> None:
    """The Code Analyzer writes no csim report: one beside its step log is of an earlier classic
    run (NOLKAT/ECE-450-FPGA-Design's Lab3, 2025.1 on Windows: `CSim failed` as the classic run
    could not delete csim/build, then a Code Analyzer run that passed; the sw_run said fail, timed
    by the run that passed)."""
    component = t3.csim_only_component(tmp_path / "HLS-Models")
    stale = "INFO: [SIM 2] *************** CSIM start ***************\nERR: [SIM 100] CSim failed with errors.\n"
    place(component, "input_doubleconv/hls/csim/report/doubleconv_csim.log", text=stale)
    build = "  **** HLS Build v2024.2 5238294\n"
    place(component, "input_doubleconv/logs/hls_run_csim.log", text=build + CODE_ANALYZER_LOG)
    records, _ = records_of(collect(tmp_path / "HLS-Models"))
    assert [(r["run"]["runtime_seconds"], r["sw_run"]["status"]) for r in records] == [(19.261, "pass")]
    classic = CODE_ANALYZER_LOG.replace("Executing Code Analyzer", "Executing classic C simulation")
    place(component, "input_doubleconv/logs/hls_run_csim.log", text=build + classic)
    records, _ = records_of(collect(tmp_path / "HLS-Models"))
    assert [r["sw_run"]["status"] for r in records] == ["fail"]  # (the report speaks for a classic run)


FIGURELESS_PASS = (
    "+----------+----------+------------------------+\n"
    "|      VHDL|        NA|    NA|    NA|    NA|    NA|    NA|    NA|\n"
    "|   Verilog|      Pass|    NA|    NA|    NA|    NA|    NA|    NA|\n"
    "+----------+----------+------------------------+\n"
)


@pytest.mark.parametrize(
    ("log_ends", "status"),
    [
        ("INFO: [COSIM-1] *** C/RTL co-simulation file generation completed. ***\n", None),
        (
            "ERROR: [XSIM 43-3316] Signal SIGSEGV received.\n"
            "ERROR: [COSIM-4] *** C/RTL co-simulation finished: FAIL ***\n",
            "fail",
        ),
        ("INFO: [COSIM-1000] *** C/RTL co-simulation finished: PASS ***\n", "pass"),  # (ap_ctrl_none: no latency)
    ],
)
def test_a_cosim_pass_with_no_figure_is_what_its_simulation_log_says(tmp_path: Path, log_ends: str, status) -> None:
    """Vivado HLS 2019.1 writes `Verilog | Pass | NA ...` after `cosim_design -setup`, which only
    generates the files (Anurag-Gulati-IIITD/DNN_Channel_Estimation: five solutions, each an
    rtl_sim pass), and after a simulator that crashed (BruhP8/FPGA2: SIGSEGV, `finished: FAIL`).
    The simulation's own log, `sim/report/verilog/<top>.log`, says how it ended."""
    p = tmp_path / "Benchmarks/rgb/rgb_1_base"
    sources(p, "run_hls.tcl", "rgb.cpp")
    place(p, "proj/hls.app", text="<project/>\n")
    place(p, "proj/solution1/solution1.aps", text="<solution/>\n")
    place(p, "proj/solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    place(p, "proj/solution1/sim/report/image_filter_cosim.rpt", text=FIGURELESS_PASS)
    generated = "INFO: [COSIM-12] Generating RTL test bench ...\n"
    place(p, "proj/solution1/sim/report/verilog/image_filter.log", text=generated + log_ends)
    collection = collect(tmp_path)
    records, _ = records_of(collection)
    assert [r["rtl_sim"]["status"] for r in records if r["report_type"] == "rtl_sim"] == ([status] if status else [])
    reasons = [problem.reason for problem in collection.problems()]
    setup = "a Pass with every figure NA, and its simulation's log shows none finished (cosim_design -setup)"
    assert reasons == ([] if status else [f"{setup}: no rtl_sim record"])


def test_variants_in_several_folders_of_one_project_are_ranked_together(tmp_path: Path) -> None:
    """hanyax/Vivado_HLS_FIR_CORDIC_DFT-FFT_Implementations commits a course's submissions:
    `<design>/<variant>/` folders with the solution's script.tcl and its `<top>_csynth.xml`, and
    one stray vivado_hls.log at the top, the one project. Each design's variants were ranked
    apart (fir_a and fft_a both variant 0), and a design of one variant kept the default, lost
    to another's (FFT's report: 'not recorded: Interrupt gives the records')."""
    root = tmp_path / "hanyax"
    place(root, "vivado_hls.log", text="INFO: [HLS 200-10] Running 'C:/Xilinx/Vivado/2019.1/bin/vivado_hls.exe'\n")
    report = (t3.VITIS / (t3.RGB + "syn__report__csynth.xml")).read_text()
    for folder in ("FIR/fir_baseline", "FIR/fir_best", "DFT/dft_baseline", "DFT/dft_best", "FFT/fft_best", "Interrupt"):
        place(root, f"{folder}/script.tcl", text="open_project baseline\nset_top image_filter\n")
        place(root, f"{folder}/image_filter_csynth.xml", text=report)
    collection = collect(root)
    records, _ = records_of(collection)
    assert [r["implementation"]["variant"] for r in records] == [
        {"index": n, "name": name}
        for n, name in enumerate(["Interrupt", "dft_baseline", "dft_best", "fft_best", "fir_baseline", "fir_best"])
    ]
    assert not collection.problems()


def test_renamed_aps_copies_in_a_write_up_folder_make_no_solution(tmp_path: Path) -> None:
    """yihuajack/ECE4810J_FA2021's Lab4 holds the student's write-up (PDFs, screenshots) with two
    renamed copies of a solution's `.aps` (`solution3_vitis_hls.aps`): as a folder holding a
    `.aps`, Lab4 was build output, its project Lab4/source_code unseen, and the records went to
    the checkout's root. A solution renamed after it ran (`10ns/solution3.aps` beside its syn/)
    is a solution still."""
    root = tmp_path / "course"
    lab = root / "Lab4"
    place(lab, "solution3_vitis_hls.aps", text="<solution/>\n")
    place(lab, "solution3_vivado_hls.aps", text="<solution/>\n")
    place(lab, "Lab4.pdf", text="%PDF-1.4\n")
    code = lab / "source_code"
    sources(code, "Makefile", "yuv_filter.c")
    place(code, "yuv_filter.prj/hls.app", text="<project/>\n")
    place(code, "yuv_filter.prj/solution1/solution1.aps", text="<solution/>\n")
    place(code, "yuv_filter.prj/solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    place(code, "yuv_filter.prj/10ns/solution3.aps", text="<solution/>\n")
    place(code, "yuv_filter.prj/10ns/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    records, _ = records_of(collect(root))
    assert [(r["problem"]["group_path"], r["implementation"]["variant"]["name"]) for r in records] == [
        (["Lab4", "source_code"], "10ns"),
        (["Lab4", "source_code"], "solution1"),
    ]


def rgb_solution(tmp_path: Path) -> Path:
    """A project whose solution1 holds a synthesis report of 2018.2 for xc7z020clg400-1."""
    p = tmp_path / "Benchmarks/rgb/rgb_1_base"
    sources(p, "run_hls.tcl", "rgb.cpp")
    place(p, "proj/hls.app", text="<project/>\n")
    place(p, "proj/solution1/solution1.aps", text="<solution/>\n")
    place(p, "proj/solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    return p


@pytest.mark.parametrize(("part", "runtime"), [("xcvu9p-flgb2104-1-e", None), ("xc7z020clg400-1", 14.205)])
def test_a_session_on_another_part_times_no_run_of_the_report(tmp_path: Path, part: str, runtime) -> None:
    """freud96/Design_Optimization's lab1: a Windows GUI session's vivado_hls.log (2020.1, no
    banner) opened solution4, set the part xcvu9p and synthesised in 14.205 s; the solution's
    report was written later on Linux, 2022.1, for xcu50 (its own log holds no time). A session
    that set another part than the report's ran another run (the part is in the record's key):
    its time is none of this one's."""
    p = rgb_solution(tmp_path)
    log = (
        "INFO: [HLS 200-10] Running 'C:/Users/k/Vivado/2020.1/bin/unwrapped/win64.o/vivado_hls.exe'\n"
        "INFO: [HLS 200-10] Opening project 'C:/Users/k/rgb_1_base/proj'.\n"
        "INFO: [HLS 200-10] Opening solution 'C:/Users/k/rgb_1_base/proj/solution1'.\n"
        f"INFO: [HLS 200-10] Setting target device to '{part}'\n"
        "INFO: [HLS 200-10] Analyzing design file 'rgb.cpp' ... \n"
        "INFO: [HLS 200-112] Total elapsed time: 14.205 seconds; peak allocated memory: 106.018 MB.\n"
    )
    place(p, "vivado_hls.log", text=log)
    (record,), _ = records_of(collect(tmp_path))
    assert record["run"]["device"] == "xc7z020clg400-1" and record["run"]["vitis_version"] == "2018.2"
    assert record["run"]["runtime_seconds"] == runtime


def test_a_session_that_reset_the_part_to_the_reports_times_its_run(tmp_path: Path) -> None:
    """gabriel-lando/INF01175-TrabalhoFinal (2018.3): the GUI session that wrote the report opened
    the solution on its old part ('Setting target device to xc7s75...'), then the new part was
    set ('WARNING: [HLS 200-40] Resetting target device to xc7k70...') and it synthesised in
    35.752 s. The reset went unread: the session seemed on another part than the report's, and
    the runtime was null."""
    p = rgb_solution(tmp_path)
    log = (
        "****** Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC v2018.2 (64-bit)\n"
        "INFO: [HLS 200-10] Opening and resetting solution 'D:/k/rgb_1_base/proj/solution1'.\n"
        "INFO: [HLS 200-10] Setting target device to 'xc7s75fgga676-2'\n"
        "WARNING: [HLS 200-40] Resetting target device to 'xc7z020clg400-1'\n"
        "INFO: [HLS 200-10] Analyzing design file 'rgb.cpp' ... \n"
        "INFO: [HLS 200-112] Total elapsed time: 35.752 seconds; peak allocated memory: 106.018 MB.\n"
    )
    place(p, "proj/solution1/solution1.log", text=log)
    (record,), _ = records_of(collect(tmp_path))
    assert record["run"]["device"] == "xc7z020clg400-1" and record["run"]["runtime_seconds"] == 35.752


@pytest.mark.parametrize(("part", "runtime"), [("xczu5eg-sfvc784-1-e", None), ("xc7z020clg400-1", 38.542)])
def test_a_session_on_another_part_in_a_log_naming_no_solution_times_no_run(tmp_path: Path, part: str, runtime) -> None:
    """ssfortynine/GraduationDesign's lstm_hls/solution1/solution1.log: a 2018.3 session on
    xc7z020clg400-1 took 38.542 s, then some 130 Vitis HLS 2023.1 GUI sessions on
    xczu5eg-sfvc784-1-e printed no total (none echoes `open_solution`: the log names no solution).
    The 2018.3 session timed a run of another part than the report's: none of its runs."""
    p = tmp_path / "GraduationDesign"
    place(p, "lstm_hls/hls.app", text='<project top="LSTM_Top"/>\n')
    place(p, "lstm_hls/solution1/solution1.aps", text="<solution/>\n")
    place(p, "lstm_hls/solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")  # 2018.2, xc7z020clg400-1
    old_session = (  # (2018.3 in the real log, of the 2023.1 report; here the report's release)
        "****** Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC v2018.2 (64-bit)\n"
        f"INFO: [HLS 200-10] Setting target device to '{part}'\n"
        "INFO: [HLS 200-10] Analyzing design file 'mnist_lstm_hls/rnn.cpp' ... \n"
        "INFO: [HLS 200-112] Total elapsed time: 38.542 seconds; peak allocated memory: 106.018 MB.\n"
    )
    later = (
        "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.1 (64-bit)\n"
        "INFO: [HLS 200-1510] Running: set_part xczu5eg-sfvc784-1-e \n"
        "INFO: [HLS 200-1510] Running: csynth_design \n"
        "INFO: [HLS 200-111] Finished Command csynth_design CPU user time: 50 seconds. Elapsed time: 51.068 seconds\n"
    )
    place(p, "lstm_hls/solution1/solution1.log", text=old_session + later)
    (record,), _ = records_of(collect(tmp_path))
    assert record["run"]["device"] == "xc7z020clg400-1"
    assert record["run"]["runtime_seconds"] == runtime


def test_a_renamed_report_copy_beside_a_component_is_no_solution_with_results(tmp_path: Path) -> None:
    """hijoouzc/UpConv_Block_HLS keeps `report_syn/<work>_hls_syn_report_csynth.xml`, its
    component's csynth.xml under a flattened name. Out of syn/report/ and named for no top the
    project names, it gives no record: the folder is no solution with results (rules 3), the
    component's records keep the variant `implementation` (they took `hls`, its folder's name),
    and the copy is the run's, left out for the component's own."""
    component = t3.csim_only_component(tmp_path / "UpConv")
    report = "Crinstaniev-ParticleCoverHLS__solution1__syn__report__csynth.xml"
    place(component, "input_doubleconv/hls/syn/report/csynth.xml", fixture=report)
    place(component, "report_syn/input_doubleconv_hls_syn_report_csynth.xml", fixture=report)
    collection = collect(tmp_path / "UpConv")
    records, _ = records_of(collection)
    assert [(r["report_type"], r["implementation"]["variant"]["name"]) for r in records] == [
        ("hls_synth", "implementation"),
        ("sw_run", "implementation"),
    ]
    (problem,) = collection.problems()
    assert problem.path.endswith("/UpConv/input_doubleconv/report_syn")
    assert problem.reason == "report_syn not recorded: input_doubleconv/hls gives the records of the vitis.csynth run"
    # a per-module report named for the top (a 2016 solution's syn/report/<top>_csynth.xml copied
    # out) is a result still: two such folders are two variants
    place(component, "report_syn/InputDoubleConv_csynth.xml", fixture=report)
    records, _ = records_of(collect(tmp_path / "UpConv"))
    assert {r["implementation"]["variant"]["name"] for r in records} == {"hls", "report_syn"}


def test_a_component_beside_a_classic_solution_lends_it_no_version(tmp_path: Path) -> None:
    """kwt3/HLS-Models' Full_adder/int: a classic project whose solution1 passed its C simulation on
    2023.2, and a unified component beside it (work directory full_adder) whose Code Analyzer run
    failed on 2024.1: one run, solution1's. Its sw_run said pass on 2024.1, the component's
    summary's version; the component's result was lost without a line."""
    project = tmp_path / "Full_adder/int"
    place(
        project,
        "hls.app",
        text='<project top="full_adder" name="int"><solutions><solution name="solution1"/></solutions></project>\n',
    )
    place(project, "full_adder.cpp", text="int full_adder(int a, int b) { return a + b; }\n")
    place(project, "solution1/solution1.aps", text="<solution/>\n")
    banner = "Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.2 (64-bit)\n"
    csim = "INFO: [HLS 200-1510] Running: csim_design -quiet \nINFO: [SIM 211-1] CSim done with 0 errors.\n"
    place(
        project,
        "solution1/solution1.log",
        text=banner + "INFO: [HLS 200-1611] Setting target device to 'xcvu11p-flga2577-1-e'\n" + csim,
    )
    place(project, "solution1/csim/report/full_adder_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    component = project / "hls_component"
    place(
        component,
        "vitis-comp.json",
        text='{"name": "hls_component", "type": "HLS", "configuration":'
        ' {"componentType": "HLS", "configFiles": ["hls_config.cfg"], "work_dir": "full_adder"}}\n',
    )
    place(component, "hls_config.cfg", text="part=xcvu11p-flga2577-1-e\n\n[hls]\nsyn.top=full_adder\n")
    summary = (
        '<ENTRY>\n{\n "type": "ET_Status",\n "status": {"state": "CS_FAILED"}\n}\n</ENTRY>\n<ENTRY>\n{\n'
        ' "type": "ET_Header",\n "toolVersion": "2024.1"\n}\n</ENTRY>\n'
    )
    place(component, "full_adder/full_adder.hlsrun_csim_summary", text=summary)
    place(component, "full_adder/hls/csim/cfg.ini", text="[csim]\n")
    failed = "ERROR: [SIM 211-200] Code Analyzer execution failed\nERROR: Problem running csim: child process exited\n"
    place(component, "full_adder/logs/hls_run_csim.log", text="  **** HLS Build v2024.1 5069499\n" + failed)
    collection = collect(tmp_path / "Full_adder")
    records, _ = records_of(collection)
    assert [(r["run"]["vitis_version"], r["sw_run"]["status"]) for r in records] == [("2023.2", "pass")]
    assert [p.reason for p in collection.problems()] == [
        "int/hls_component/full_adder/hls not recorded: int/solution1 gives the records of the vitis.csim run"
    ]


def test_an_sdx_builds_xocc_logs_name_its_target_and_device(tmp_path: Path) -> None:
    app = t3.sdx_workspace(tmp_path / "workspace")
    collection = collect(tmp_path / "workspace")
    (result,) = collection.projects.values()
    assert [(run.target, run.device, run.runtime_seconds) for run in result.runs] == [
        ("vitis.sw_emu", t3.AWS_F1_SDX, 11.0)
    ]
    assert list(collection.projects) == [str(app)]


def test_a_cosim_report_without_its_latency_report_gives_no_cycles(tmp_path: Path) -> None:
    """Ariqfadh/FAST-HLS committed reports/hls_cosim.rpt and not hls/sim/: the cycles come only
    from lat.rpt (rules 5: no other figure stands in for it), whatever the report's Total
    Execution Time column (2020.1+) says (SherlockChristie/FFT's: 132)."""
    p = tmp_path / "suite/Benchmarks/fft/fft_1_base"
    sources(p, "run_hls.tcl", "fft.cpp")
    place(p, "proj/solution1/solution1.aps", text="<solution/>\n")
    place(p, "proj/solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    place(
        p,
        "proj/solution1/sim/report/fft32_cosim.rpt",
        "SherlockChristie-FFT__FFT_sol_2__opt1__sim__report__fft32_cosim.rpt",
    )
    records, _ = records_of(collect(tmp_path / "suite"))
    rtl = next(r for r in records if r["report_type"] == "rtl_sim")
    assert (rtl["rtl_sim"]["status"], rtl["rtl_sim"]["kernel_runtime_cycles"]) == ("pass", None)


def test_the_tops_unfinished_csim_is_no_verdict_and_another_functions_is_none_either(tmp_path: Path) -> None:
    t3.csim_of_the_top_never_finished(tmp_path / "pFFT")
    collection = collect(tmp_path / "pFFT")
    (result,) = collection.projects.values()
    assert [run.target for run in result.runs] == ["vitis.csim"]  # (the run is there: no verdict)
    records, _ = records_of(collection)
    assert [r["report_type"] for r in records] == []  # (was: sw_run "pass", positAdd's verdict)


def test_hls_projects_side_by_side_in_a_campaigns_implementation_folder_stay_its_one(tmp_path: Path) -> None:
    """`Benchmarks/fft/fft_1_base/{proj_a,proj_b}`: the folder's name gives the implementation
    (variant 1 base); its two HLS projects are its builds, as the path rule has it (the other
    one's solution is a problem line), never two problems of their own."""
    implementation = tmp_path / "suite/Benchmarks/fft/fft_1_base"
    sources(implementation, "run_hls.tcl", "fft.cpp")
    for name in ("proj_a", "proj_b"):
        place(implementation, f"{name}/hls.app", text='<project top="image_filter"/>\n')
        place(implementation, f"{name}/solution1/solution1.aps", text="<solution/>\n")
        place(implementation, f"{name}/solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    collection = collect(tmp_path / "suite")
    assert list(collection.projects) == [str(implementation)]
    records, _ = records_of(collection)
    assert {(tuple(r["problem"]["group_path"]), r["implementation"]["variant"]["index"]) for r in records} == {
        (("fft",), 1)
    }


@pytest.mark.parametrize("session", ["vitis_hls.log", "logs/hls_run_tcl.log"])
def test_a_designers_folder_named_solution_something_is_no_hls_solution(tmp_path: Path, session: str) -> None:
    """Joseph-Luke-04/Program-Synthesis-for-Efficient-ML's results/HLS/solution_addition_alignment,
    solution_multiplication_mant, ...: a design each (its hls.tcl, vitis_hls.log and project),
    named `solution_*`. Read as HLS solutions (rules 1.1's `solution*`), they were pruned and
    their designs merged: one record, the others problem lines. An HLS solution holds a `.aps`
    or a solution's folders (syn, csim, sim, impl, .autopilot), never a build script or session
    log of its own; these hold those."""
    results = tmp_path / "repo/results/HLS"
    for name, top in (("solution_alignment", "image_filter"), ("solution_mant", "qam_runner")):
        if session == "vitis_hls.log":  # (solution_addition_overflow: vitis.tcl, logs/hls_run_tcl.log)
            place(results, f"{name}/hls.tcl", text=f"open_project prj\nset_top {top}\ncsynth_design\n")
        place(results, f"{name}/{session}", text="INFO: [HLS 200-10] Running 'vitis_hls'\n")
        place(results, f"{name}/prj/hls.app", text=f'<project top="{top}" name="prj"/>\n')
        place(results, f"{name}/prj/solution1/solution1.aps", text="<solution/>\n")
        place(results, f"{name}/prj/solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    collection = collect(tmp_path / "repo")
    assert list(collection.projects) == [str(results / "solution_alignment"), str(results / "solution_mant")]
    records, _ = records_of(collection)
    assert [(r["problem"]["group_path"], r["report_type"]) for r in records] == [
        (["results", "HLS", "solution_alignment"], "hls_synth"),
        (["results", "HLS", "solution_mant"], "hls_synth"),
    ]
    assert collection.problems() == []


def test_a_solution_with_its_own_session_log_and_a_folder_of_copied_reports_stay_build_output(
    tmp_path: Path,
) -> None:
    """What stays an HLS solution: one holding its `.aps` beside a vivado_hls.log of its own
    (hls_taus's solution1), one with a solution's folders but no `.aps`; and a `solution_report/`
    of copied reports (WES237C's OFDM_receiver) is its project's."""
    root = tmp_path / "repo"
    place(root, "proj/hls.app", text='<project top="image_filter" name="proj"/>\n')
    place(root, "proj/solution1/solution1.aps", text="<solution/>\n")
    place(root, "proj/solution1/vivado_hls.log", text="INFO: [HLS 200-10] Running 'vivado_hls'\n")
    place(root, "proj/solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    place(root, "proj/solution2/run_hls.tcl", text="open_project proj\n")
    place(root, "proj/solution2/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    place(root, "ofdm/script.tcl", text="open_project ofdm\n")
    place(root, "ofdm/ofdm.cpp", text="void ofdm() {}\n")
    place(root, "ofdm/solution_report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    collection = collect(root)
    assert list(collection.projects) == [str(root), str(root / "ofdm")]
    records, _ = records_of(collection)
    assert [(r["problem"]["group_path"], r["implementation"]["variant"]["name"]) for r in records] == [
        (["ofdm"], "implementation"),
        (["repo"], "solution1"),
        (["repo"], "solution2"),
    ]


def test_a_vpp_temp_dir_of_any_name_is_the_builds_not_a_project(tmp_path: Path) -> None:
    """Its packaged HLS session was a project of its own with a spurious vitis.csynth record;
    it is the hw build's (which writes no hls_synth record), on the device its log names."""
    project = t3.vpp_temp_dir_named_build(tmp_path / "repo")
    collection = collect(tmp_path / "repo")
    assert list(collection.projects) == [str(project)]
    (result,) = collection.projects.values()
    assert [(run.target, run.device, run.vitis_version) for run in result.runs] == [("vitis.hw", t3.U55C, "2022.2")]
    assert records_of(collection)[0] == []


def test_a_solutions_set_directive_top_names_its_top_over_the_projects_set_top(tmp_path: Path) -> None:
    """songqij/ESE5320hw's hw7: the project's script says `set_top Filter_HW`, the solution's
    directives `set_directive_top -name Filter_horizontal_HW` (its log echoes it): the top's
    csim log failed; an older stray `_csim.log` passed and was taken, by date, for the top's."""
    from ..conftest import set_mtime

    p = tmp_path / "hw7"
    sources(p, "filter.cpp")
    place(p, "proj/solution1/solution1.aps", text="<solution/>\n")
    place(p, "proj/solution1/script.tcl", text="open_project proj\nset_top Filter_HW\nopen_solution solution1\n")
    place(
        p,
        "proj/solution1/solution1.log",
        text='INFO: [HLS 200-1510] Running: set_directive_top -name Filter_horizontal_HW "Filter_horizontal_HW" \n',
    )
    failed = "double free or corruption\nERR: [SIM 100] CSim failed with errors.\n"
    top = place(p, "proj/solution1/csim/report/Filter_horizontal_HW_csim.log", text=failed)
    place(p, "proj/solution1/csim/report/_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    set_mtime(top, 3600)
    records, _ = records_of(collect(p))
    assert [(r["report_type"], r["sw_run"]["status"]) for r in records] == [("sw_run", "fail")]


def test_a_failed_unified_compile_gives_a_failed_hls_synth_beside_its_c_simulation(tmp_path: Path) -> None:
    """raulest50/dti_core_ovr: the compile failed (CS_FAILED, `Pre-synthesis failed`) after a C
    simulation ran; the csim verdict made the component a csim run only, and the failed
    synthesis was lost."""
    root = tmp_path / "suite"
    p = t3.failed_component(root, "CS_FAILED", "ERROR: [HLS 200-70] Pre-synthesis failed.\n")
    place(p, "hls/csim/report/conv_top_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["target"], r[r["report_type"]]["status"]) for r in records] == [
        ("hls_synth", "vitis.csynth", "fail"),
        ("sw_run", "vitis.csim", "pass"),
    ]
