"""Runs and their facts in real build trees.

Small trees in the shapes of public repositories (named per test), with real report files
from tests/fixtures/vitis.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from collectors.collect.engine import Collection

from .. import trees_third as t3
from ..conftest import place, records_of, set_mtime
from .test_realtree_discovery import CHOOCIE, LAB0, collect, mode_hls_component, projects, summary

HW_EMU_LINK = "AkshayMalige-rtda_demo__design_hw_emu.xsa.link_summary"  # TT_HW_EMU, vek280, 2024.2
SW_EMU_LINK = (
    "s095339-Adaptive_Beamforming__build_dir.sw_emu.xilinx_u50_gen3x16_xdma_5_202210_1__Top_Kernel.xclbin.link_summary"
)
HW_LINK = "nmath018-topK_feature__build_dir.hw.xilinx_u250_gen3x16_xdma_4_1_202210_1__krnl.link.xclbin.link_summary"
VEK280 = "xilinx_vek280_base_202420_1"


def harness_results(folder: Path, profile: bool = True) -> None:
    """kmisimn76/SparseAccel HW_emu_*: the Makefile and the copied outputs of a hw_emu run, no _x."""
    place(folder, "Makefile", text="all: host\n")
    place(folder, "conv.hw_emu.xclbin.link_summary", HW_EMU_LINK)
    place(folder, "conv.sw_emu.xclbin.link_summary", SW_EMU_LINK)
    if profile:
        place(folder, "profile_kernels.csv", "nmath018-topK_feature__profile_kernels.csv")


def test_profile_beside_link_summary_is_a_hw_emu_run(tmp_path: Path) -> None:
    root = tmp_path / "SparseAccel"
    harness_results(root / "HW_emu_16x16-8-8")
    harness_results(root / "HW_emu_32x32-1-16")
    harness_results(root / "HW_300_32x32-4-8_opt", profile=False)  # a hw build's summaries only
    collection = collect(root)
    assert projects(collection, root) == ["HW_300_32x32-4-8_opt", "HW_emu_16x16-8-8", "HW_emu_32x32-1-16"]
    assert summary(collection) == [
        (("HW_emu_16x16-8-8",), "rtl_sim", "vitis.hw_emu", VEK280, "pass"),
        (("HW_emu_32x32-1-16",), "rtl_sim", "vitis.hw_emu", VEK280, "pass"),
    ]
    records, _ = records_of(collection)
    assert records[0]["run"] == {
        "target": "vitis.hw_emu",
        "device": VEK280,
        "vitis_version": "2024.2",
        "runtime_seconds": None,
    }
    assert records[0]["rtl_sim"] == {
        "status": "pass",
        "kernel_runtime_cycles": None,  # no system diagram: no clock
        "kernel_runtime_us": 6.748,
        "kernel_clock_freq_mhz": None,
    }
    assert collection.problems() == []


GEMM_RUN = "ronaldprasad1-GEMM_opt__.run__{pid}__hw_emu__device0__binary_0__behav_waveform__xsim__profile_kernels.csv"
U250 = "xilinx_u250_gen3x16_xdma_4_1_202210_1"


def emulation_run_folder(
    root: Path,
    pid: str,
    profile: str,
    emu: str = "hw_emu",
    trace: bool = True,
    xsim: str = "2023.1",
    started: str = "",
) -> None:
    """XRT's own folder of a hardware emulation run, where the host program ran: its profile, the
    simulator's log (its banner, and when its session started where `started` says) and the head
    of its kernel trace, whose events name the device as `<platform>-<index>`."""
    folder = root / ".run" / pid / emu / "device0/binary_0/behav_waveform/xsim"
    place(folder, "profile_kernels.csv", profile)
    banner = f"#-----\n# xsim v{xsim} (64-bit)\n# SW Build 3865809 on Sun May  7 15:04:56 MDT 2023\n"
    banner += f"# Start of session at: {started}\n" if started else ""
    place(folder, "simulate.log", text=banner + "# start\nrun all\n")
    place(folder, f"simulate_{pid}.backup.log", text=banner.replace(xsim, "2019.2"))  # (an older session's)
    if trace:
        place(
            folder,
            "timeline_kernels.csv",
            text="Kernel trace events\n"
            "Device, Binary, Kernel, Compute Unit, Function, Data Type, Index, Start Time (ms), End Time (ms), Value\n"
            f"{U250}-0,mmul.link,mmul,mmul_1,top,top,0,0.273513,0.275830,0\n",
        )


def test_a_profile_in_xrts_emulation_run_folder_is_a_hw_emu_run(tmp_path: Path) -> None:
    """ronaldprasad1/GEMM_opt@312df10 committed seven `.run/<pid>/hw_emu/...` folders of its
    hardware emulation runs and no build (its Makefile builds elsewhere): each profile was 'report
    that no run of this project takes'. The run is the profile's, on the platform the kernel trace
    beside it names, of the release its simulator's log does; of the runs' profiles the newest
    (rules 5), the others copies."""
    root = tmp_path / "GEMM_opt"
    place(root, "Makefile", text="PLATFORM ?= xilinx_u250_gen3x16_xdma_4_1_202210_1\n")
    place(root, "src/mmul.cpp", text="void mmul() {}\n")
    emulation_run_folder(root, "574089", GEMM_RUN.format(pid="574089"))
    emulation_run_folder(root, "1585848", GEMM_RUN.format(pid="1585848"))
    newest = root / ".run/574089/hw_emu/device0/binary_0/behav_waveform/xsim/profile_kernels.csv"
    newest.write_text(newest.read_text().replace("mmul_1,2.317,", "mmul_1,2.5,"))
    set_mtime(root / ".run/1585848/hw_emu/device0/binary_0/behav_waveform/xsim/profile_kernels.csv", 3600)
    collection = collect(root)
    assert summary(collection) == [(("GEMM_opt",), "rtl_sim", "vitis.hw_emu", U250, "pass")]
    records, _ = records_of(collection)
    assert records[0]["rtl_sim"] == {
        "status": "pass",
        "kernel_runtime_cycles": None,
        "kernel_runtime_us": 2.5,
        "kernel_clock_freq_mhz": None,
    }
    assert records[0]["run"]["vitis_version"] == "2023.1"
    assert collection.problems() == []


def test_the_newest_emulation_run_is_the_one_whose_simulator_started_last(tmp_path: Path) -> None:
    """superneyluj/ALVEOU280: seven `.run/<pid>/hw_em/` folders; a checkout writes files in path
    order, so the newest profile by its file's time was .run/88573's (session of May 12, 572.021
    us a compute unit), where .run/238014's simulator started on September 1. Rules 5's newest
    profile is the run whose simulator's session started last, where each says when; else the
    file's time."""
    root = tmp_path / "convfix_julien_3CU"
    place(root, "Makefile", text="all: host\n")
    emulation_run_folder(root, "238014", GEMM_RUN.format(pid="574089"), emu="hw_em", started="Wed Sep  1 08:54:02 2021")
    emulation_run_folder(root, "88573", GEMM_RUN.format(pid="574089"), emu="hw_em", started="Wed May 12 08:53:57 2021")
    older = root / ".run/88573/hw_em/device0/binary_0/behav_waveform/xsim"
    (older / "profile_kernels.csv").write_text(
        (older / "profile_kernels.csv").read_text().replace("mmul_1,2.317,", "mmul_1,2.5,")
    )
    set_mtime(root / ".run/238014/hw_em/device0/binary_0/behav_waveform/xsim/profile_kernels.csv", 3600)
    records, _ = records_of(collect(root))
    assert [r["rtl_sim"]["kernel_runtime_us"] for r in records] == [2.317]
    log = older / "simulate.log"
    log.write_text(log.read_text().replace("# Start of session at: Wed May 12 08:53:57 2021\n", ""))
    records, _ = records_of(collect(root))  # (one says no time: the files' times decide)
    assert [r["rtl_sim"]["kernel_runtime_us"] for r in records] == [2.5]


def test_an_emulation_run_folder_before_2023_and_one_with_no_trace(tmp_path: Path) -> None:
    """darrenang2/R-Tree-Testbed@c38f03b: `.run/5752/hw_em/` (the folder's older name). Without
    the kernel trace the run's device is unknown, a problem line; beside a hw_emu build the
    folder's profile is that build's (its run names the device)."""
    root = tmp_path / "R-Tree-Testbed"
    place(root, "Makefile", text="all: host\n")
    rtree = "darrenang2-R-Tree-Testbed__.run__5752__hw_em__device0__binary_0__behav_waveform__xsim__profile_kernels.csv"
    emulation_run_folder(root, "5752", rtree, emu="hw_em", trace=False, xsim="2022.2")
    collection = collect(root)
    records, _ = records_of(collection)
    assert [(r["run"]["device"], r["run"]["vitis_version"], r["rtl_sim"]["kernel_runtime_us"]) for r in records] == [
        ("unknown", "2022.2", 0.317)
    ]
    assert "device unknown" in " ".join(p.reason for p in collection.problems())
    place(root, f"_x.hw_emu.{VEK280}/link/conv.hw_emu.xclbin.link_summary", HW_EMU_LINK)
    records, _ = records_of(collect(root))
    assert [(r["run"]["device"], r["rtl_sim"]["kernel_runtime_us"]) for r in records] == [(VEK280, 0.317)]


@pytest.mark.parametrize(("summary_file", "expected"), [(HW_EMU_LINK, [("vitis.hw_emu", VEK280)]), (HW_LINK, [])])
def test_a_plain_x_with_no_log_is_the_build_of_the_link_summary_beside_it(
    tmp_path: Path, summary_file: str, expected: list
) -> None:
    """hannahxy13/finn: `*.log` git-ignored, a plain `_x/` kept beside `vmk180_thin.xsa.link_summary`
    (a hw link). Its kernel's HLS reports were three lines 'whose target no v++ log, summary or
    folder name says'; the summary does say it: a hw build's files are unwritten, a hw_emu
    build's kernel gives its hls_synth."""
    build = tmp_path / "repo/vitis"
    place(build, "platform.xsa.link_summary", summary_file)
    kernel = "_x/link/int/xo/wrapper/wrapper/hls/project_wrapper/sol1"
    place(build, f"{kernel}/sol1.aps", text="<solution/>\n")
    place(build, f"{kernel}/syn/report/csynth.xml", FFT + "syn__report__csynth.xml")
    collection = collect(tmp_path / "repo")
    records, _ = records_of(collection)
    assert [(r["run"]["target"], r["run"]["device"]) for r in records] == expected
    assert not [p for p in collection.problems() if "whose target" in p.reason]


def test_a_simulator_log_of_an_emulation_run_with_no_profile_is_read_by_no_run(tmp_path: Path) -> None:
    """tinaba96/master (SDx 2019.1): `.run/<pid>/hw_em/device<n>/.../simulate.log` of runs that kept
    no profile, each `INFO: Scripts generated successfully...` (2019.x writes no banner there):
    13 lines 'no xsim banner', though only a profile beside it has the log read. A profile's
    folder still has its log read, and a bannerless one beside a profile is a problem."""
    root = tmp_path / "eight"
    place(root, "Makefile", text="all: host\n")
    place(root, "src/host/host.cpp", text="int main() {}\n")
    for device in range(3):
        folder = root / f".run/8781/hw_em/device{device}/binary_0/behav_gdb/xsim"
        place(folder, "simulate.log", text="INFO: Scripts generated successfully. Please see the 'Tcl Console'.\n")
    collection = collect(root)
    assert not [p.reason for p in collection.problems() if "banner" in p.reason]
    rtree = "darrenang2-R-Tree-Testbed__.run__5752__hw_em__device0__binary_0__behav_waveform__xsim__profile_kernels.csv"
    emulation_run_folder(root, "5752", rtree, emu="hw_em", trace=False, xsim="2022.2")
    collection = collect(root)
    records, _ = records_of(collection)
    assert [(r["run"]["vitis_version"], r["rtl_sim"]["kernel_runtime_us"]) for r in records] == [("2022.2", 0.317)]
    assert not [p.reason for p in collection.problems() if "banner" in p.reason]
    place(root, ".run/5752/hw_em/device0/binary_0/behav_waveform/xsim/simulate.log", text="INFO: Scripts generated.\n")
    assert [p.path.endswith("simulate.log") for p in collect(root).problems() if "banner" in p.reason] == [True]


def test_an_hls_project_of_another_top_inside_one_is_a_design_of_its_own(tmp_path: Path) -> None:
    """kmisimn76/SparseAccel: the root is an HLS project (hls.app, top Conv_sysarr; its solution1
    simulated: CSim done) and AdderTree_example/ one of its own (hls.app, top adder_tree_large,
    synthesised). The nested one's solution gave the root's records and the root's own
    simulation was a problem line. The root's vitis_hls.log, a session of the nested design,
    times the nested one's synthesis, whose solution it opened by its path (the session log of
    the folder it lies in: test_session_logs_above), and not the root's run."""
    root = tmp_path / "SparseAccel"
    place(root, "hls.app", text='<project name="Systolic_Array_TEST_PCNN_based" top="Conv_sysarr"/>\n')
    place(root, "solution1/solution1.aps", text="<solution/>\n")
    place(root, "solution1/csim/report/Conv_sysarr_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    synthesised_solution(root / "AdderTree_example", "AdderTree_example", top="adder_tree_large")
    place(
        root,
        "vitis_hls.log",
        text="INFO: [HLS 200-1510] Running: set_top adder_tree_large \n"
        "INFO: [HLS 200-10] Opening solution '/home/a/SparseAccel/AdderTree_example/solution1'.\n"
        "INFO: [HLS 200-1510] Running: csynth_design \n" + ELAPSED.format("24.37"),
    )
    collection = collect(root)
    assert projects(collection, root) == [".", "AdderTree_example"]
    records, _ = records_of(collection)
    found = [(r["problem"]["group_path"], r["report_type"], r["run"]["runtime_seconds"]) for r in records]
    assert found == [(["AdderTree_example"], "hls_synth", 24.37), (["SparseAccel"], "sw_run", None)]
    # of one top, the project inside is a copy of the design: one design (ValdecirDesenv/FPGA_picoZed)
    (root / "hls.app").write_text('<project name="Systolic_Array_TEST_PCNN_based" top="adder_tree_large"/>\n')
    assert projects(collect(root), root) == ["."]


def test_hls_projects_of_other_tops_made_inside_a_lab_project_are_designs_of_their_own(tmp_path: Path) -> None:
    """namratamantri/ECE527_SIKEHW: a lab's HLS project sikehls/ (top eval_4_isog) holds, right in
    it, the projects koa_mult/ and rdc_mont/ of their own tops (the GUI offers the current
    project's folder). Walked from above (the root is not sikehls/), they were one project, and
    their syntheses two 'not recorded' lines: the rule held only where the outer project was
    the root. The same project made again inside (its own top) stays one design."""
    root = tmp_path / "ECE527"
    lab = root / "sikehls"
    synthesised_solution(lab, "sikehls", top="eval_4_isog")
    synthesised_solution(lab / "koa_mult", "koa_mult", top="koa_mult_h1")
    synthesised_solution(lab / "rdc_mont", "rdc_mont", top="rdc_mont")
    collection = collect(root)
    assert projects(collection, root) == [".", "sikehls/koa_mult", "sikehls/rdc_mont"]
    records, _ = records_of(collection)
    assert [r["problem"]["group_path"] for r in records] == [
        ["ECE527"],
        ["sikehls", "koa_mult"],
        ["sikehls", "rdc_mont"],
    ]
    assert not collection.problems()
    (lab / "koa_mult/hls.app").write_text('<project name="koa_mult" top="eval_4_isog"/>\n')
    assert projects(collect(root), root) == [".", "sikehls/rdc_mont"]


def test_an_hls_project_of_another_top_folders_down_inside_one_is_a_design_of_its_own(tmp_path: Path) -> None:
    """arjunmenonv/HW-Spectrum-Analyzer (2020.1): the HLS project SpecAnalv2/ (top FFT, its
    solution synthesised) keeps, in 01-fft/build/perf_ctr/, an HLS project of top `counter`.
    Only one right in it was a design of its own: two folders down, the counter's synthesis
    (LUT 143, latency 0) was the FFT design's (a 'not recorded' line where the targets agree,
    an hls_synth beside the FFT's own where they did not). Walked from SpecAnalv2/ itself, the
    folder holding perf_ctr/ was a project already, as any HLS project's folder is."""
    root = tmp_path / "spec2"
    lab = root / "SpecAnalv2"
    synthesised_solution(lab, "SpecAnalv2", top="FFT")
    synthesised_solution(lab / "01-fft/build/perf_ctr", "perf_ctr", top="counter")
    place(lab, "01-fft/fft.cpp", text="void FFT() {}\n")
    collection = collect(root)
    assert projects(collection, root) == [".", "SpecAnalv2/01-fft/build/perf_ctr"]
    records, _ = records_of(collection)
    found = [(r["problem"]["group_path"], r["hls_synth"]["UserAssignments"]["TopModelName"]) for r in records]
    assert found == [(["SpecAnalv2", "01-fft", "build", "perf_ctr"], "fft32"), (["spec2"], "fft32")]
    assert not collection.problems()
    (lab / "01-fft/build/perf_ctr/hls.app").write_text('<project name="perf_ctr" top="FFT"/>\n')  # a copy: one design
    assert projects(collect(root), root) == ["."]


@pytest.mark.parametrize("configuration", ["Emulation-HW", "Emulation-CPU"])
def test_an_sdx_ide_project_names_the_platform_of_its_configurations(tmp_path: Path, configuration: str) -> None:
    """Xilinx/SME-Developer-Labs (SDx 2017.1): the IDE project Filter2D/ (project.sdx, platform
    xilinx:aws-vu9p-f1:4ddr-xpr-2pr:4.0) kept Emulation-HW/ with the kernel's HLS solution in
    `_xocc_compile_*`, and no xocc log (SDx 2017.1 wrote `*.steps.log`). Only `<name>.prj` was
    read for an IDE project's platform: the device was 'unknown', with a line saying nothing
    names it. The platform is named as its `.xpfm` is, the name v++ logs give it. SDx 2016-2017
    called the software emulation configuration Emulation-CPU (no hls_synth: none is written)."""
    app = tmp_path / "workspace/Filter2D"
    place(
        app,
        "project.sdx",
        text='<?xml version="1.0" encoding="ASCII"?>\n<openclProject:OpenCLProject xmi:version="2.0" '
        'xmlns:openclProject="http://www.xilinx.com/openclproject" name="Filter2D" '
        'platform="xilinx:aws-vu9p-f1:4ddr-xpr-2pr:4.0" sysConfig="linux_x86" cpu="" os="linux">\n'
        '  <configuration name="Emulation-CPU" id="com.xilinx.sdx.opencl.config.sw_emu.796712516">\n',
    )
    place(app, ".project", text="<projectDescription><name>Filter2D</name></projectDescription>\n")
    place(app, "src/kernel/filter2d.cpp", text="void Filter2DKernel() {}\n")
    place(app, f"{configuration}/makefile", text="SDX_PLATFORM = xilinx:aws-vu9p-f1:4ddr-xpr-2pr:4.0\n")
    kernel = (
        f"{configuration}/_xocc_compile_binary_container_1_Filter2DKernel/impl/kernels/Filter2DKernel/Filter2DKernel"
    )
    synthesised_solution(
        app / kernel, "Filter2DKernel", top="fft32", solution="solution_OCL_REGION_0", app="vivado_hls.app"
    )
    place(app, f"{configuration}/_xocc_link_binary_container_1/impl/build/link.steps.log", text="xocc link\n")
    collection = collect(tmp_path / "workspace")
    (result,) = collection.projects.values()
    target = "vitis.hw_emu" if configuration == "Emulation-HW" else "vitis.sw_emu"
    assert [(run.target, run.device) for run in result.runs] == [(target, "xilinx_aws-vu9p-f1_4ddr-xpr-2pr_4_0")]
    records, _ = records_of(collection)
    assert [(r["report_type"], r["run"]["device"]) for r in records] == (
        [("hls_synth", "xilinx_aws-vu9p-f1_4ddr-xpr-2pr_4_0")] if configuration == "Emulation-HW" else []
    )
    assert not [p for p in collection.problems() if "device unknown" in p.reason]


@pytest.mark.parametrize(("timed", "runtime"), [("v2022.1", None), ("v2023.1", 20.423)])
def test_an_older_releases_time_before_untimed_steps_times_no_run(tmp_path: Path, timed: str, runtime) -> None:
    """jnowaczek/estimation_accel: solution1.log holds Vitis HLS 2022.1 sessions, the last an
    export_design of 20.423 s, then 64 sessions of 2023.1 that synthesised, simulated and
    co-simulated again and wrote every report (2023.1), none with a total. The 2023.1 records
    had the 2022.1 export's 20.423 s. A time of another release than the report's, before the
    last session that ran a step, is another run's; of the same release, it stands (rules 4.2)."""
    root = tmp_path / "Byte_Count"
    synthesised_solution(root, "Byte_Count", top="fft32")  # (the report: 2023.1)
    old = "Vitis HLS - High-Level Synthesis from C, C++ and OpenCL {} (64-bit)\n"
    export = "INFO: [HLS 200-1510] Running: export_design -rtl verilog -format ip_catalog \n"
    steps = "".join(
        old.format("v2023.1") + f"INFO: [HLS 200-1510] Running: {step} \n"
        for step in ("csynth_design", "csim_design -quiet")
    )
    log = old.format(timed) + export + ELAPSED.format("20.423") + steps
    place(root, "solution1/solution1.log", text=log)
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", runtime)]


@pytest.mark.parametrize(("csim", "runtime"), [("csim_design -setup -quiet", None), ("csim_design -quiet", 14.43)])
def test_a_session_that_only_set_the_c_simulation_up_times_no_run(tmp_path: Path, csim: str, runtime) -> None:
    """CNStanLee/LSTM_HLS (2022.2): the project's vitis_hls.log is a session whose one step was
    `csim_design -setup` (the test bench built, `CSim file generation done`, nothing run), 14.43 s;
    the solution's own log holds untimed sessions. The co-simulation run had 14.43 s. A session
    that only set the C simulation up set the project up: it times nothing; one that simulated
    times the run, as before (rules 4.2)."""
    root = tmp_path / "hlsprj"
    project = root / "clstm/clstm"
    synthesised_solution(project, "clstm", solution="clstm")
    place(project, "clstm/sim/report/fft32_cosim.rpt", FFT + "sim__report__fft32_cosim.rpt")
    banner = "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.1 (64-bit)\n"
    place(project, "clstm/clstm.log", text=banner + banner)
    session = (
        banner + "INFO: [HLS 200-10] Opening solution '/home/c/LSTM_HLS/hlsprj/clstm/clstm/clstm'.\n"
        f"INFO: [HLS 200-1510] Running: {csim} \n"
        "INFO: [SIM 211-2] *************** CSIM start ***************\n"
        "INFO: [SIM 211-1] CSim file generation done with 0 errors.\n"
        + ("INFO: [SIM 211-1] CSim done with 0 errors.\n" if runtime else "")
        + ELAPSED.format("14.43")
    )
    place(root, "clstm/vitis_hls.log", text=session)
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records if r["report_type"] != "sw_run"] == [
        ("hls_synth", runtime),
        ("rtl_sim", runtime),
    ]


def test_hls_project_keeps_its_solution_beside_harness_folders(tmp_path: Path) -> None:
    """kmisimn76/SparseAccel: the root is a Vitis HLS project (hls.app, solution1) and its
    HW_emu_* result folders below are projects of their own: neither hides the other."""
    root = tmp_path / "SparseAccel"
    harness_results(root / "HW_emu_16x16-8-8")
    place(root, "hls.app", text="<project/>\n")
    place(root, "conv.cpp", text="void conv() {}\n")
    place(root, "solution1/solution1.aps", text="<solution/>\n")
    place(root, "solution1/syn/report/csynth.xml", "DGGua-IGCN__solution1__syn__report__csynth.xml")
    collection = collect(root)
    assert projects(collection, root) == [".", "HW_emu_16x16-8-8"]
    assert [s[:3] for s in summary(collection)] == [
        (("HW_emu_16x16-8-8",), "rtl_sim", "vitis.hw_emu"),
        (("SparseAccel",), "hls_synth", "vitis.csynth"),
    ]


# --- item 5: Vivado HLS 2015.x/2016.x write only <top>_csynth.xml ------------------------------

MARSEE = "marsee101-multi_axim__solution1__"
SOLUTION_LOG_2015 = """==============================================================
File generated by Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC
Version: 2015.2
Copyright (C) 2015 Xilinx Inc. All rights reserved.

==============================================================

@I [SYN-201] Setting up clock 'default' with a period of 10ns.
@I [HLS-10] Setting target device to 'xc7z010clg400-1'
"""


def solution_2015(project: Path, top_in: str = "app") -> None:
    """marsee101/multi_axim: vivado_hls.app names the top; only per-module reports in syn/report."""
    app_top = ' top="multi_axim"' if top_in == "app" else ""
    app = f'<project xmlns="com.autoesl.autopilot.project"{app_top} name="multi_axim"/>\n'
    if top_in == "prefixed_app":  # Vivado HLS 2013.2 (Oliver-Ren/Real-Time-Vocal-Processor)
        app = (
            '<AutoPilot:project xmlns:AutoPilot="com.autoesl.autopilot.project" projectType="C/C++" '
            'name="multi_axim" top="multi_axim">\n</AutoPilot:project>\n'
        )
    place(project, "vivado_hls.app", text=app)
    place(project, "multi_axim_tb.c", text="int main() { return 0; }\n")
    place(project, "solution1/solution1.aps", text="<solution/>\n")
    if top_in == "script":  # bigbrett/wsaes-cbc_hls: the solution's script.tcl says set_top
        place(project, "solution1/script.tcl", text="open_project multi_axim\nset_top multi_axim\n")
    place(project, "solution1/solution1.log", text=SOLUTION_LOG_2015)
    place(project, "solution1/syn/report/multi_axim_csynth.xml", MARSEE + "syn__report__multi_axim_csynth.xml")
    # another module's report beside it, shallower in name order: never the solution's report
    module = place(project, "solution1/syn/report/a_loop_csynth.xml", MARSEE + "syn__report__multi_axim_csynth.xml")
    module.write_text(module.read_text().replace("<Worst-caseLatency>28<", "<Worst-caseLatency>5<"))
    place(project, "solution1/sim/report/multi_axim_cosim.rpt", MARSEE + "sim__report__multi_axim_cosim.rpt")
    place(project, "solution1/sim/report/verilog/lat.rpt", MARSEE + "sim__report__verilog__lat.rpt")


@pytest.mark.parametrize("top_in", ["app", "script"])
def test_2015_solution_uses_the_top_functions_csynth(tmp_path: Path, top_in: str) -> None:
    root = tmp_path / "multi_axim"
    solution_2015(root, top_in)
    collection = collect(root)
    records, _ = records_of(collection)
    assert [s[1:] for s in summary(collection)] == [
        ("hls_synth", "vitis.cosim", "xc7z010clg400-1", "pass"),
        ("rtl_sim", "vitis.cosim", "xc7z010clg400-1", "pass"),
    ]
    synth = records[0]
    assert synth["run"]["vitis_version"] == "2015.2"
    assert synth["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseLatency"] == "28"
    (result,) = collection.projects.values()
    assert result.runs[0].sources["hls_synth"] == [str(root / "solution1/syn/report/multi_axim_csynth.xml")]
    assert collection.problems() == []


def test_a_script_top_without_reports_gives_way_to_the_name_the_reports_carry(tmp_path: Path) -> None:
    """tkgit-make/tanishPatchMakerHLS's solutionTEST: script.tcl and the .app say `MPSQ`, but
    the solution's directives made another function the top, whose name its simulation reports
    and its `<top>_csynth.xml` carry; no MPSQ report exists. Its synthesis was lost ('nothing
    names the top function')."""
    root = tmp_path / "multi_axim"
    solution_2015(root, top_in="script")
    script = root / "solution1/script.tcl"
    script.write_text(script.read_text().replace("set_top multi_axim", "set_top MPSQ"))
    records, _ = records_of(collect(root))
    assert [r["report_type"] for r in records] == ["hls_synth", "rtl_sim"]
    assert records[0]["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseLatency"] == "28"


def test_a_top_its_simulation_reports_spell_in_two_cases_is_one_name(tmp_path: Path) -> None:
    """CitBremen/vivado_vector_adder (2015.4, made on Windows): the script names another top
    (complex2DAdder, no report); the csim log says `topAdder`, the cosim report and the per-module
    report `TopAdder`. Two spellings were no one name: the synthesis was lost ('none is the top
    function's (complex2DAdder)')."""
    root = tmp_path / "multi_axim"
    solution_2015(root, top_in="script")
    script = root / "solution1/script.tcl"
    script.write_text(script.read_text().replace("set_top multi_axim", "set_top complex2DAdder"))
    place(root, "solution1/csim/report/Multi_axim_csim.log", text="@I [SIM-1] CSim done with 0 errors.\n")
    records, _ = records_of(collect(root))
    assert [r["report_type"] for r in records] == ["hls_synth", "rtl_sim", "sw_run"]
    assert records[0]["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseLatency"] == "28"


def test_the_top_its_own_log_synthesised_names_a_solutions_report(tmp_path: Path) -> None:
    """CitBremen/vivado_vector_adder's `unoptimized` (2015.4): every solution's script.tcl says
    set_top complex2DAdder (the project's, regenerated); this one holds only the per-module
    report of TopAdder, the function its own log synthesised (`Synthesizing 'TopAdder'`). Its
    synthesis was lost ('none is the top function's (complex2DAdder)')."""
    root = tmp_path / "multi_axim"
    solution_2015(root, top_in="script")
    script = root / "solution1/script.tcl"
    script.write_text(script.read_text().replace("set_top multi_axim", "set_top complex2DAdder"))
    for report in ("sim/report/multi_axim_cosim.rpt", "sim/report/verilog/lat.rpt", "syn/report/a_loop_csynth.xml"):
        (root / "solution1" / report).unlink()
    log = root / "solution1/solution1.log"
    log.write_text(log.read_text() + "@I [HLS-10] Synthesizing 'multi_axim' ...\n")
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["target"]) for r in records] == [("hls_synth", "vitis.csynth")]
    assert records[0]["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseLatency"] == "28"


def reasons_for(collection: Collection, path: Path) -> list[str]:
    """What the collection's problem lines say of one path."""
    return [p.reason for p in collection.problems() if p.path == str(path)]


def test_a_top_named_without_its_report_is_said(tmp_path: Path) -> None:
    """sergiududa/lic's nnet: script.tcl and the .app name `nnet`, but a synthesis cut short
    wrote only other modules' reports: the problem line names the top it lacks."""
    root = tmp_path / "multi_axim"
    solution_2015(root, top_in="script")
    (root / "solution1/syn/report/multi_axim_csynth.xml").rename(root / "solution1/syn/report/b_loop_csynth.xml")
    (root / "solution1/sim/report/multi_axim_cosim.rpt").unlink()
    said = reasons_for(collect(root), root / "solution1/syn/report")
    assert (
        "2 per-module reports (a_loop, b_loop), no csynth.xml, and none is the top function's (multi_axim): "
        "no hls_synth record"
    ) in said


def test_a_directive_top_of_an_old_session_names_no_top(tmp_path: Path) -> None:
    """MiiKiyoshi/spi_to_hls: one solution reused for several tops; old sessions of its log echo
    `set_directive_top -name arith arith`, the later ones that simulated echo none, and
    script.tcl says `set_top divide_sum`. arith_csim.log (an old simulation of another function)
    spoke for the run."""
    project = tmp_path / "vitis_hls"
    place(project, "hls.app", text='<project top="divide_sum" name="vitis_hls"/>\n')
    place(project, "solution1/solution1.aps", text="<solution/>\n")
    place(project, "solution1/script.tcl", text="open_project vitis_hls\nset_top divide_sum\n")
    banner = "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.2 (64-bit)\n"
    place(
        project,
        "solution1/solution1.log",
        text=banner
        + "INFO: [HLS 200-1510] Running: set_directive_top -name arith arith \n"
        + "INFO: [HLS 200-1510] Running: csim_design \nINFO: [SIM 211-1] CSim done with 0 errors.\n"
        + banner
        + "INFO: [HLS 200-1510] Running: csim_design \nERROR: [SIM 211-100] CSim failed with errors.\n",
    )
    place(project, "solution1/csim/report/arith_csim.log", text="INFO: [SIM 211-1] CSim done with 0 errors.\n")
    divide = place(
        project, "solution1/csim/report/divide_sum_csim.log", text="ERROR: [SIM 211-100] CSim failed with errors.\n"
    )
    set_mtime(divide, 500)  # (older than arith's by its date: only the top decides)
    collection = collect(tmp_path)
    records, _ = records_of(collection)
    assert [(r["report_type"], r["sw_run"]["status"]) for r in records] == [("sw_run", "fail")]
    (result,) = collection.projects.values()
    assert result.runs[0].sources["sw_run"] == [str(divide)]


def test_the_tools_empty_scratch_log_in_a_solution_is_no_problem(tmp_path: Path) -> None:
    """kmisimn76/reuse_test (and NTU 2022's labs): Vitis HLS leaves `solution1/.temp11.log`, empty,
    in a solution folder: not the solution's log, and no 'empty file' problem line."""
    root = tmp_path / "multi_axim"
    solution_2015(root, top_in="script")
    place(root, "solution1/.temp11.log", text="")
    assert collect(root).problems() == []


def test_2013_app_with_its_namespace_prefix_names_the_top(tmp_path: Path) -> None:
    """Vivado HLS 2013.2 writes `<AutoPilot:project ... top="...">`: with no cosim report to name
    it either, the top was unknown and no synthesis was written (Real-Time-Vocal-Processor)."""
    root = tmp_path / "multi_axim"
    solution_2015(root, top_in="prefixed_app")
    shutil.rmtree(root / "solution1/sim")
    assert [s[1:] for s in summary(collect(root))] == [("hls_synth", "vitis.csynth", "xc7z010clg400-1", "pass")]


def test_2015_solution_without_a_known_top_writes_no_synthesis(tmp_path: Path) -> None:
    root = tmp_path / "multi_axim"
    solution_2015(root, top_in="none")
    (root / "solution1/sim/report/multi_axim_cosim.rpt").unlink()  # (it would name the top)
    collection = collect(root)
    records, _ = records_of(collection)
    assert [r["report_type"] for r in records] == ["rtl_sim"]  # a module report is not the design's
    # never a silent loss (chl218/DCNN-on-FPGA's 2017.1 solutions: syn/report and nothing else)
    assert (
        "2 per-module reports (a_loop, multi_axim), no csynth.xml, and nothing names the top function "
        "(a script's or log's set_top, the project's .app, a simulation report): no hls_synth record"
    ) in reasons_for(collection, root / "solution1/syn/report")


def test_a_cosim_report_of_a_solution_copied_without_its_report_folders_names_the_top(tmp_path: Path) -> None:
    """A solution copied flattened (`<X>/syn/*.xml`, `<X>/sim/<top>_cosim.rpt`), nothing else naming
    the top: its cosim report, taken as the solution's, names it all the same (it said 'nothing
    names the top function (... a simulation report)' and wrote no synthesis)."""
    root = tmp_path / "multi_axim"
    solution_2015(root, top_in="none")
    (root / "solution1/sim/report/multi_axim_cosim.rpt").rename(root / "solution1/sim/multi_axim_cosim.rpt")
    collection = collect(root)
    records, _ = records_of(collection)
    assert [r["report_type"] for r in records] == ["hls_synth", "rtl_sim"]
    assert records[0]["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseLatency"] == "28"


@pytest.mark.parametrize("script", ["run.tcl", "run_hls.tcl", "hls.tcl"])
def test_a_projects_run_script_names_the_top_of_copied_module_reports(tmp_path: Path, script: str) -> None:
    """Arthur-Chang016/ECE5775_Project_benchmark: reports/<variant>/ each hold a Vivado HLS 2016.2
    synthesis's per-module reports, no csynth.xml; the project's run.tcl says `set_top digitrec`.
    Only `script.tcl` was read for set_top: no record, and a problem line saying nothing names
    the top."""
    root = tmp_path / "digitrec"
    place(root, "Makefile", text="all:\n")
    place(root, "digitrec.cpp", text="void digitrec() {}\n")
    place(root, script, text="open_project digitrec.prj -reset\nset_top digitrec\n# set_top top\n")
    for variant, latency in (("no_opt", "16860"), ("pipelined", "276")):
        top = place(root, f"reports/{variant}/digitrec_csynth.xml", MARSEE + "syn__report__multi_axim_csynth.xml")
        top.write_text(top.read_text().replace("<Worst-caseLatency>28<", f"<Worst-caseLatency>{latency}<"))
        place(root, f"reports/{variant}/digitrec_DotProd_csynth.xml", MARSEE + "syn__report__multi_axim_csynth.xml")
    collection = collect(root)
    records, _ = records_of(collection)
    names = [r["implementation"]["variant"]["name"] for r in records]
    worst = [r["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseLatency"] for r in records]
    assert list(zip(names, worst)) == [("no_opt", "16860"), ("pipelined", "276")]
    assert collection.problems() == []


def test_2015_solution_whose_cosim_report_alone_names_the_top(tmp_path: Path) -> None:
    """Vivado HLS names `<top>_cosim.rpt` after the top function: with nothing else naming it,
    that name picks `multi_axim_csynth.xml` (latency 28), never the other module's (5)."""
    root = tmp_path / "multi_axim"
    solution_2015(root, top_in="none")
    records, _ = records_of(collect(root))
    assert [r["report_type"] for r in records] == ["hls_synth", "rtl_sim"]
    assert records[0]["hls_synth"]["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseLatency"] == "28"


# --- items 6 and 7: the step that failed decides which record fails ---------------------------

# The end of a real failed C simulation in a session log (Marui-9/swiglu logs/hls_run_csim_*.log):
# the "ERROR: 4" after it carries no tag but belongs to the simulation too.
CSIM_FAILED_2025 = """  **** HLS Build v2025.1 6135595
INFO: [HLS 200-1611] Setting target device to 'xck26-sfvc784-2LV-c'
INFO: [SYN 201-201] Setting up clock 'default' with a period of 4ns.
INFO: [SIM 211-2] *************** CSIM start ***************
INFO: [SIM 211-4] CSIM will launch CLANG as the compiler.
FAILED: 1 error(s) across all tests.
@E Simulation failed: Function 'main' returns nonzero value '1'.
ERROR: [SIM 211-100] 'csim_design' failed: nonzero return value.
INFO: [SIM 211-3] *************** CSIM finish ***************
ERROR: 4
INFO: [HLS 200-112] Total CPU user time: 1 seconds. Total CPU system time: 1 seconds. \
Total elapsed time: 85.922 seconds; peak allocated memory: 179.395 MB.
"""
# The csim report of the same run (hls/csim/report/swiglu_csim.log): the 2025 short form.
CSIM_REPORT_2025 = """T5: FAILED  (batch=1, 10 error(s))

FAILED: 20 error(s) across all tests.
ERR: [SIM 100] 'csim_design' failed: nonzero return value.
INFO: [SIM 3] *************** CSIM finish ***************
"""
# A classic session that simulated, then failed in synthesis (asandeep1/FPGA_ECE8893 FLAT-acceleration).
CSYNTH_FAILED = """INFO: [HLS 200-1510] Running: csim_design
INFO: [SIM 211-1] CSim done with 0 errors.
INFO: [HLS 200-1510] Running: csynth_design
INFO: [HLS 200-10] Analyzing design file 'flat.cpp' ...
ERROR: [HLS 207-1398] unexpected ';' before ')': flat.cpp:48:97
ERROR: [HLS 200-70] Compilation errors found: 1 error generated.
"""


def classic_csim_only(project: Path, session_log: str) -> None:
    place(project, "run_hls.tcl", text="open_project proj\nset_top top\ncsim_design\ncsynth_design\n")
    place(project, "top.cpp", text="void top() {}\n")
    place(project, "proj/hls.app", text='<project top="top" name="proj"/>\n')
    place(project, "proj/solution1/solution1.aps", text="<solution/>\n")
    place(project, "vitis_hls.log", text=session_log)


def test_failed_csim_fails_the_sw_run_not_a_synthesis_that_never_ran(tmp_path: Path) -> None:
    root = tmp_path / "swiglu_classic"
    classic_csim_only(root, CSIM_FAILED_2025)
    assert [s[1:] for s in summary(collect(root))] == [("sw_run", "vitis.csim", "xck26-sfvc784-2LV-c", "fail")]


def test_failed_synthesis_after_a_passing_csim(tmp_path: Path) -> None:
    root = tmp_path / "flat"
    classic_csim_only(root, "INFO: [HLS 200-1611] Setting target device to 'xc7z020-clg400-1'\n" + CSYNTH_FAILED)
    assert sorted(s[1:] for s in summary(collect(root))) == [
        ("hls_synth", "vitis.csynth", "xc7z020-clg400-1", "fail"),
        ("sw_run", "vitis.csim", "xc7z020-clg400-1", "pass"),
    ]


APS_2018 = """<?xml version="1.0" encoding="UTF-8"?>
<AutoPilot:solution xmlns:AutoPilot="com.autoesl.autopilot.solution">
    <flowTarget value="vivado"/>
    <targetInfo>
        <TargetInfo value="xc7a100t:-csg324:-1"/>
    </targetInfo>
</AutoPilot:solution>
"""


@pytest.mark.parametrize(("log", "device"), [("", "xc7a100t-csg324-1"), (CSYNTH_FAILED, "xc7z020-clg400-1")])
def test_a_simulated_solution_takes_its_part_from_its_aps(tmp_path: Path, log: str, device: str) -> None:
    """DouglasWWolf/hls_controller, linkuri267/cnn_accelerator: a solution that only ran its C
    simulation, no log naming the device; its `.aps` names the part (`xc7a100t:-csg324:-1`, the
    spelling csynth.xml's Part takes without the colons). A log that names one still comes first."""
    root = tmp_path / "hls_controller"
    place(root, "hls.app", text='<project top="top" name="hls_controller"/>\n')
    place(root, "solution1/solution1.aps", text=APS_2018)
    place(root, "solution1/csim/report/top_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    if log:
        place(root, "vitis_hls.log", text="INFO: [HLS 200-1611] Setting target device to 'xc7z020-clg400-1'\n" + log)
    found = [s[1:] for s in summary(collect(root)) if s[1] == "sw_run"]
    assert found == [("sw_run", "vitis.csim", device, "pass")]


def test_a_simulated_solutions_part_is_spelled_as_its_projects_reports_spell_it(tmp_path: Path) -> None:
    """A `.aps` keeps the part as typed (`xc7z020:-clg400:-1`, or `xc7z010:clg400:-1` where
    csynth.xml says `xc7z010-clg400-1`: contrast's doContrastIP): the solution that only
    simulated wrote a second device for the part its synthesised sibling reports."""
    root = tmp_path / "proj"
    place(root, "hls.app", text='<project top="image_filter" name="proj"/>\n')
    aps = '<solution><targetInfo><TargetInfo value="xc7z020:-clg400:-1"/></targetInfo></solution>\n'
    place(root, "solution1/solution1.aps", text=aps)
    place(root, "solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")  # Part xc7z020clg400-1
    place(root, "solution2/solution2.aps", text=aps)
    place(root, "solution2/csim/report/image_filter_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    found = {
        (r["report_type"], r["implementation"]["variant"]["name"], r["run"]["device"])
        for r in records_of(collect(root))[0]
    }
    assert found == {("hls_synth", "solution1", "xc7z020clg400-1"), ("sw_run", "solution2", "xc7z020clg400-1")}


@pytest.mark.parametrize("with_session_log", [True, False])
def test_a_repository_whose_root_is_a_solution_is_that_solutions_project(
    tmp_path: Path, with_session_log: bool
) -> None:
    """NhatAnhNguyen2906/Convolution2D commits its solution1's contents at the repository's top
    (solution1.aps, solution1.log, syn/, csim/, vivado_hls.log): its csim log was a report 'no
    run of this project takes' (and without vivado_hls.log, every report was in no project)."""
    root = tmp_path / "Convolution2D"
    place(root, "solution1.aps", text="<solution/>\n")
    place(root, "syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    place(root, "csim/report/image_filter_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    if with_session_log:
        place(root, "vivado_hls.log", text="INFO: [HLS 200-10] Running 'vivado_hls'\n")
    collection = collect(root)
    records, _ = records_of(collection)
    assert [(r["report_type"], r["run"]["device"]) for r in records] == [
        ("hls_synth", "xc7z020clg400-1"), ("sw_run", "xc7z020clg400-1")
    ]  # fmt: skip
    assert not [p for p in collection.problems() if "report" in p.reason]


def test_an_empty_aps_is_still_a_solution_and_no_problem(tmp_path: Path) -> None:
    """The `.aps` is a marker first: empty (or unreadable), it still says a solution is there,
    and names no part; reading it for the part is no problem line of its own."""
    root = tmp_path / "hls_controller"
    place(root, "hls.app", text='<project top="top" name="hls_controller"/>\n')
    place(root, "solution1/solution1.aps", text="")
    place(root, "solution1/csim/report/top_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    collection = collect(root)
    assert [s[1:] for s in summary(collection)] == [("sw_run", "vitis.csim", "unknown", "pass")]
    assert not [p for p in collection.problems() if p.path.endswith(".aps")]


HLS4ML_TCL_SESSION = "".join(
    line + "\n"
    for line in (
        "  **** HLS Build v2025.1 6135595",
        "Sourcing Tcl script '/media/u/iris/projeto_iris_hls_ip_axi/build_prj.tcl'",
        "INFO: [HLS 200-1510] Running: open_project myproject_prj ",
        "INFO: [HLS 200-10] Creating and opening solution '/media/u/iris/projeto_iris_hls_ip_axi/myproject_prj'.",
        "INFO: [HLS 200-1510] Running: set_top myproject ",
        "INFO: [HLS 200-1510] Running: open_solution solution1 ",
        "INFO: [HLS 200-10] Creating and opening solution "
        "'/media/u/iris/projeto_iris_hls_ip_axi/myproject_prj/solution1'.",
        "INFO: [HLS 200-1510] Running: set_part xc7z020clg400-1 ",
        "INFO: [HLS 200-1611] Setting target device to 'xc7z020-clg400-1'",
        "***** C/RTL SYNTHESIS *****",
        "INFO: [HLS 200-1510] Running: csynth_design ",
        "INFO: [HLS 200-112] Total CPU user time: 32.42 seconds. Total CPU system time: 5.18 seconds. "
        "Total elapsed time: 55.08 seconds; peak allocated memory: 450.273 MB.",
        "INFO: [vitis-run 60-791] Total elapsed time: 0h 0m 56s",
    )
)


def test_a_tcl_session_run_by_vitis_run_times_its_solution(tmp_path: Path) -> None:
    """Thifjj/Iris_hls4ml_pynqZ2: hls4ml's Vitis backend (2025.1) runs `vitis-run --mode hls --tcl
    build_prj.tcl`, whose session log is `logs/hls_run_tcl.log` beside the project (no
    vitis_hls.log): it opened myproject_prj/solution1 and synthesised in 55.08 s; the runtime
    was null (the log a 'hls_step_log that no run reads')."""
    root = tmp_path / "projeto_iris_hls_ip_axi"
    place(root, "build_prj.tcl", text="open_project myproject_prj\ncsynth_design\n")
    place(root, "firmware/myproject.cpp", text="void myproject() {}\n")
    place(root, "logs/hls_run_tcl.log", text=HLS4ML_TCL_SESSION)
    place(root, "myproject_prj/hls.app", text='<project top="myproject" name="myproject_prj"/>\n')
    place(root, "myproject_prj/solution1/solution1.aps", text="<solution/>\n")
    place(root, "myproject_prj/solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 55.08)]


def test_the_synthesis_of_a_tcl_session_set_aside_times_the_run_the_last_one_did_not(tmp_path: Path) -> None:
    """seanlipps/ECE226_CoDesign (hls4ml, 2024.1): the last `vitis-run --tcl build_prj.tcl` ran
    only hls4ml's Vivado synthesis (312.03 s, no HLS step); vitis-run set each earlier session's log
    aside as `logs/hls_run_tcl_<n>.backup.log`, the newest the synthesis that wrote the report
    (22.6 s). The runtime was null. Where the Tcl session log ran no step of the solution, the
    newest of those that ran one times it; an older one does not when a newer ran it untimed."""
    root = tmp_path / "hls4ml_prj"
    place(root, "build_prj.tcl", text="open_project myproject_prj\ncsynth_design\n")
    place(root, "firmware/myproject.cpp", text="void myproject() {}\n")
    place(root, "myproject_prj/hls.app", text='<project top="myproject" name="myproject_prj"/>\n')
    place(root, "myproject_prj/solution1/solution1.aps", text="<solution/>\n")
    place(root, "myproject_prj/solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    opened = HLS4ML_TCL_SESSION.split("***** C/RTL SYNTHESIS *****")[0]
    vivado = "***** VIVADO SYNTHESIS *****\n" + ELAPSED.format("312.03")
    place(root, "logs/hls_run_tcl.log", text=opened + vivado)
    started = "  **** Start of session at: Wed Mar 18 {} 2026\n"
    synthesis = "INFO: [HLS 200-1510] Running: csynth_design \n"
    for number, at, seconds in (("2335464", "13:57:40", "22.6"), ("2313302", "13:53:44", "22.87")):
        session = started.format(at) + opened + synthesis + ELAPSED.format(seconds)
        place(root, f"logs/hls_run_tcl_{number}.backup.log", text=session)
    place(root, "logs/hls_run_tcl_2332418.backup.log", text=started.format("13:54:08") + opened + vivado)
    collection = collect(root)
    records, _ = records_of(collection)
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 22.6)]
    newest = root / "logs/hls_run_tcl_2335464.backup.log"
    told = {path: line for result in collection.projects.values() for path, line in result.accounts.items()}
    assert told[str(newest)].startswith("facts: read for the vitis.csynth")
    assert told[str(root / "logs/hls_run_tcl_2313302.backup.log")].startswith("skipped: ")
    newest.write_text(started.format("13:57:40") + opened + synthesis)  # (cut short: no total)
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", None)]
    for backup in (root / "logs").glob("*.backup.log"):  # (no start said: the greater number is newer)
        backup.write_text(backup.read_text().split("\n", 1)[1])
    place(root, "logs/hls_run_tcl_999.backup.log", text=opened + synthesis + ELAPSED.format("9.99"))
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", None)]


OPEN_COMPONENT_SESSION = (
    "  **** HLS Build v2025.1 6135595\n"
    "INFO: [HLS 200-1510] Running: open_component -reset comp -flow_target vivado \n"
    "INFO: [HLS 200-10] Creating and opening component '/home/u/ws/comp'.\n"
    "INFO: [HLS 200-1510] Running: export_design -format ip_catalog \n"
    "INFO: [HLS 200-112] Total CPU user time: 210 seconds. Total CPU system time: 5 seconds. "
    "Total elapsed time: 251.75 seconds; peak allocated memory: 500.0 MB.\n"
)


def test_a_tcl_session_that_opened_no_solution_times_none(tmp_path: Path) -> None:
    """A vitis-run Tcl session that opened a component (`open_component`: how 2025 scripts work)
    names no solution: it is not the session of every solution below its folder (the classic
    prj/solution1 beside it took its 251.75 s)."""
    root = tmp_path / "ws"
    place(root, "logs/hls_run_tcl.log", text=OPEN_COMPONENT_SESSION)
    place(root, "prj/hls.app", text='<project top="image_filter" name="prj"/>\n')
    place(root, "prj/solution1/solution1.aps", text="<solution/>\n")
    place(root, "prj/solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", None)]


def cosim_report(status: str, total: str) -> str:
    """A 2020.1+ `<top>_cosim.rpt`'s table: one Verilog row with its Total Execution Time."""
    rule = "+----------+----------+------+------+------+------+------+------+------+\n"
    return (
        "Report time       : Wed Aug  7 18:41:47 EDT 2024.\n"
        + rule
        + "|      VHDL|        NA|    NA|    NA|    NA|    NA|    NA|    NA|    NA|\n"
        + f"|   Verilog|{status:>10}|     2|     9|    25|     3|    10|    26|{total:>6}|\n"
        + rule
    )


def test_of_other_functions_cosim_reports_the_one_lat_rpt_comes_from_gives_the_status(tmp_path: Path) -> None:
    """minsikky/PDES-FPGA-VITIS: the top (simulation_top) was never co-simulated; four cosim
    reports of functions that were the top before, and one lat.rpt, the last simulation's (2056
    cycles: event_queue_kernel_cosim.rpt's Total Execution Time). The status came from another
    report (the newest by file date, in a checkout any of them), so one record mixed two
    simulations; the report whose total lat.rpt gives now speaks for the run."""
    root = tmp_path / "pdes"
    place(root, "hls.app", text='<project top="image_filter" name="pdes"/>\n')
    place(root, "solution1/solution1.aps", text="<solution/>\n")
    place(root, "solution1/syn/report/csynth.xml", t3.RGB + "syn__report__csynth.xml")
    place(root, "solution1/sim/report/verilog/lat.rpt", text='$TOTAL_EXECUTE_TIME = "2056"\n')
    set_mtime(place(root, "solution1/sim/report/event_queue_kernel_cosim.rpt", text=cosim_report("Fail", "2056")), 50)
    set_mtime(place(root, "solution1/sim/report/test_state_buffer_cosim.rpt", text=cosim_report("Pass", "766")), 10)
    records, _ = records_of(collect(root))
    rtl = [r["rtl_sim"] for r in records if r["report_type"] == "rtl_sim"]
    assert [(p["status"], p["kernel_runtime_cycles"]) for p in rtl] == [("fail", 2056)]


def swiglu_component(root: Path) -> Path:
    """Marui-9/swiglu: a 2025.1 component (vitis-comp.json, work_dir ".") whose csim failed."""
    component = root / "swiglu"
    place(component, "vitis-comp.json", text='{"name": "swiglu", "configuration": {"work_dir": "."}}\n')
    place(component, "swiglu.hlscompile_summary", LAB0 + "project_1.hlscompile_summary")
    place(component, "hls/csim/report/swiglu_csim.log", text=CSIM_REPORT_2025)
    place(component, "hls/.autopilot/db/a.xml", text="<a/>\n")
    place(component, "logs/hls_run_csim.log", text=CSIM_FAILED_2025)
    return component


def test_2025_csim_failure_message_fails_the_sw_run(tmp_path: Path) -> None:
    root = tmp_path / "Marui"
    swiglu_component(root)
    assert [s[1:] for s in summary(collect(root))] == [("sw_run", "vitis.csim", "xck26-sfvc784-2LV-c", "fail")]


# --- item 8: a unified component's part is in its step logs -----------------------------------

COMPONENT_COSIM = "superkooks-comp4601__canny_hls__canny_top__reports__hls_cosim.rpt"


def test_component_device_from_its_step_logs(tmp_path: Path) -> None:
    """j1hye0n/vitis_hls workspace/dct/dct_hls: no csynth.xml committed, the cosim report copied to
    reports/; logs/hls_compile.log and logs/hls_run_cosim.log name the part (an older csim session
    named another one)."""
    component = tmp_path / "workspace/dct/dct_hls"
    place(component, "vitis-comp.json", text='{"configuration": {"work_dir": "."}}\n')
    place(component, "dct_hls.hlscompile_summary", LAB0 + "project_1.hlscompile_summary")
    place(component, "hls/.autopilot/db/a.xml", text="<a/>\n")
    place(component, "reports/hls_cosim.rpt", COMPONENT_COSIM)
    banner = "  **** HLS Build v2024.2 5238294\n"
    place(
        component,
        "logs/hls_compile.log",
        text=banner + "INFO: [HLS 200-1611] Setting target device to 'xc7z020-clg400-1'\n",
    )
    place(
        component,
        "logs/hls_run_cosim.log",
        text=banner + "INFO: [HLS 200-1611] Setting target device to 'xc7z020-clg400-1'\n",
    )
    place(
        component,
        "logs/hls_run_csim.log",
        text=banner + "INFO: [HLS 200-1611] Setting target device to 'xa7z020-clg400-1I'\n",
    )
    place(component, "logs/hls_run_csim_2188.backup.log", text=banner + "ERROR: [HLS 200-70] an old session\n")
    collection = collect(tmp_path)
    assert [s[1:] for s in summary(collection)] == [("rtl_sim", "vitis.cosim", "xc7z020-clg400-1", "fail")]
    assert collection.problems() == []


# --- item 9: the most precise of agreeing versions ---------------------------------------------


def test_patch_level_from_report_when_summary_agrees_on_the_release(tmp_path: Path) -> None:
    """Choocie-vitis-hls-bug-report-mve: the hlscompile_summary says 2024.2, csynth.xml 2024.2.1."""
    root = tmp_path / "mve"
    mode_hls_component(root)
    records, _ = records_of(collect(root))
    assert records[0]["run"]["vitis_version"] == "2024.2.1"


def test_disagreeing_release_keeps_the_first_source(tmp_path: Path) -> None:
    """A summary of another release than the report (a re-synthesis with a newer tool): the summary
    stays the version, by precedence; a patch level of another release is not borrowed."""
    component = tmp_path / "lab0/project_1"
    place(component, "vitis-comp.json", text='{"configuration": {"work_dir": "."}}\n')
    place(component, "project_1.hlscompile_summary", LAB0 + "project_1.hlscompile_summary")  # 2025.1
    report = place(component, "hls/syn/report/csynth.xml", LAB0 + "hls__syn__report__csynth.xml")
    report.write_text(report.read_text().replace("<Version>2025.1.1</Version>", "<Version>2024.2.1</Version>"))
    records, _ = records_of(collect(tmp_path))
    assert records[0]["run"]["vitis_version"] == "2025.1"


# --- item 10: the runtime comes from the session that ran the chosen solution ------------------

FFT = "SherlockChristie-FFT__FFT_sol_2__opt1__"


def fft_project(root: Path, sibling_log: str, opened: str) -> Path:
    """SherlockChristie/FFT: solutions of one project; the project's vitis_hls.log is the session
    that opened `opened`; the older solution's log is named `sibling_log`."""
    project = root / "FFT_sol_2"
    place(project, "hls.app", text='<project top="fft32" name="FFT_sol_2"/>\n')
    place(project, "fft.cpp", text="void fft32() {}\n")
    for solution, age in (("opt1", 500), ("opt4_just_pipe_all", 10)):
        place(project, f"{solution}/{solution}.aps", text="<solution/>\n")
        report = place(project, f"{solution}/syn/report/csynth.xml", FFT + "syn__report__csynth.xml")
        set_mtime(report, age)
    place(project, f"opt1/{sibling_log}", text="INFO: [HLS 200-10] Setting target device to 'xc7z020-clg484-1'\n")
    place(
        project,
        "opt4_just_pipe_all/opt4_just_pipe_all.log",
        text="INFO: [HLS 200-10] Setting target device to 'xc7z020-clg484-1'\n",
    )
    place(
        root,
        "vitis_hls.log",
        text=f"INFO: [HLS 200-1510] Running: open_solution {opened} -flow_target vivado \n"
        f"INFO: [HLS 200-10] Opening solution 'D:/Vivado/FFT_sol/FFT_sol_2/{opened}'.\n"
        "INFO: [HLS 200-1510] Running: cosim_design \n"
        "INFO: [HLS 200-112] Total CPU user time: 3 seconds. Total CPU system time: 1 seconds. "
        "Total elapsed time: 51.173 seconds; peak allocated memory: 121.395 MB.\n",
    )
    return project


@pytest.mark.parametrize("sibling_log", ["solution1.log", "opt1.log"])
def test_runtime_from_the_session_that_opened_the_chosen_solution(tmp_path: Path, sibling_log: str) -> None:
    root = tmp_path / "FFT"
    fft_project(root, sibling_log, opened="opt4_just_pipe_all")
    records, _ = records_of(collect(root))
    # each solution is a variant of its own (the path gives none): opt1 ranks first of the two
    assert by_variant(records) == [
        ((0, "opt1"), "hls_synth", None),
        ((1, "opt4_just_pipe_all"), "hls_synth", 51.173),
    ]


def by_variant(records: list[dict]) -> list[tuple]:
    return [
        (
            (r["implementation"]["variant"]["index"], r["implementation"]["variant"]["name"]),
            r["report_type"],
            r["run"]["runtime_seconds"],
        )
        for r in records
    ]


@pytest.mark.parametrize("sibling_log", ["solution1.log", "opt1.log"])
def test_no_runtime_from_a_session_of_another_solution(tmp_path: Path, sibling_log: str) -> None:
    root = tmp_path / "FFT"
    fft_project(root, sibling_log, opened="opt1")
    records, _ = records_of(collect(root))
    assert by_variant(records) == [
        ((0, "opt1"), "hls_synth", 51.173),
        ((1, "opt4_just_pipe_all"), "hls_synth", None),
    ]


ELAPSED = "INFO: [HLS 200-112] Total CPU user time: 1 seconds. Total elapsed time: {} seconds; peak 1 MB.\n"


def synthesised_solution(
    project: Path, name: str, top: str = "fft32", solution: str = "solution1", app: str = "hls.app"
) -> None:
    """An HLS project (its `.app`) whose solution was synthesised (SherlockChristie/FFT's report)."""
    place(project, app, text=f'<project top="{top}" name="{name}"/>\n')
    place(project, f"{solution}/{solution}.aps", text="<solution/>\n")
    place(project, f"{solution}/syn/report/csynth.xml", FFT + "syn__report__csynth.xml")


@pytest.mark.parametrize("project_name", ["mvecmult_xil_prj", "zz_prj"])
def test_a_step_run_again_under_a_later_release_is_of_that_release(tmp_path: Path, project_name: str) -> None:
    """GeorgeMaid/5775_project: the solution's own log holds a 2016.2 session that co-simulated,
    then 2019.2.1 sessions (C simulation, synthesis); the project's vivado_hls.log, a 2019.2.1
    session, co-simulated it again (the cosim report is of that one, 01:55 into it). The rtl_sim
    record said 2016.2 beside that session's 684.37 s, and 2019.2.1 once the project's folder
    was renamed to sort after the session log: the logs were taken in the order of their paths."""
    root = tmp_path / "5775_project"
    project = root / project_name
    synthesised_solution(project, "mvecmult_xil_prj")
    place(project, "solution1/sim/report/fft32_cosim.rpt", FFT + "sim__report__fft32_cosim.rpt")
    place(project, "solution1/sim/report/verilog/lat.rpt", FFT + "sim__report__verilog__lat.rpt")
    old_session = (
        "File generated by Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC\nVersion: 2016.2\n"
        "@I [SIM-1] CSim done with 0 errors.\n@I [COSIM-1000] *** C/RTL co-simulation finished: PASS ***\n"
        "@I [HLS-112] Total elapsed time: 23.341 seconds; peak memory usage: 55.8 MB.\n"
    )
    banner = "Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC v2019.2.1 (64-bit)\n"
    later = banner + "INFO: [SIM 211-1] CSim done with 0 errors.\nINFO: [HLS 200-1510] Running: csynth_design \n"
    place(project, "solution1/solution1.log", text=old_session + later + later)
    session = (
        f"****** {banner}"
        f"INFO: [HLS 200-10] Opening and resetting solution '/home/gpm58/5775_project/{project_name}/solution1'.\n"
        "INFO: [SIM 211-1] CSim done with 0 errors.\n"
        "INFO: [COSIM 212-1000] *** C/RTL co-simulation finished: PASS ***\n"
        "INFO: [HLS 200-112] Total elapsed time: 684.37 seconds; peak allocated memory: 1.2 GB.\n"
    )
    place(root, "vivado_hls.log", text=session)
    place(root, "mvecmult.cpp", text="void fft32() {}\n")
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["vitis_version"], r["run"]["runtime_seconds"]) for r in records] == [
        ("hls_synth", "2019.2.1", 684.37),
        ("rtl_sim", "2019.2.1", 684.37),
        ("sw_run", "2019.2.1", 684.37),
    ]


def test_scout_hls_the_2019_2_previews_session_log_is_a_session_log(tmp_path: Path) -> None:
    """kefuzheng/vivado_hls_test's hier_func: `scout_hls.log` (Scout HLS v2019.2.0, Vitis HLS
    before its release) synthesised proj_hier_func/solution3, 14.7 s; it was read by no one and
    the run's runtime was null, where a vivado_hls.log at the same place timed its run."""
    root = tmp_path / "hier_func"
    synthesised_solution(root / "proj_hier_func", "proj_hier_func", solution="solution3")
    place(root, "run_hls.tcl", text="open_project proj_hier_func\n")
    place(root, "hier_func.cpp", text="void fft32() {}\n")
    log = (
        "****** Scout HLS - High-Level Synthesis from C, C++ and OpenCL v2019.2.0 (64-bit)\n"
        "INFO: [HLS 200-10] Opening solution '/home/kefuz/git/vivado_hls_test/hier_func/proj_hier_func/solution3'.\n"
        "INFO: [HLS 200-10] Analyzing design file 'hier_func.cpp' ... \n"
        "INFO: [HLS 200-10] Synthesizing 'fft32' ...\n"
    )
    place(root, "scout_hls.log", text=log + ELAPSED.format("14.7"))
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 14.7)]


def test_a_project_made_inside_a_solution_folder_is_a_project_of_its_own(tmp_path: Path) -> None:
    """little-mumu/cnn_on_kv260: vitis_hls started in conv_core/solution1 (Windows GUI) made a
    second project there, conv_core/solution1/conv_core/ (its hls.app, its solution1 with the
    reports and a 2,931-line log: synthesis 26.554 s). Taken for a copy nested in the outer
    solution, the run read the outer solution's 6-line log (part not installed) and never the
    inner one's: runtime null."""
    root = tmp_path / "board"
    outer = root / "conv_core"
    place(outer, "hls.app", text='<project top="fft32" name="conv_core"/>\n')
    place(outer, "conv_core.cpp", text="void fft32() {}\n")
    place(outer, "solution1/solution1.aps", text="<solution/>\n")
    banner = "Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.1 (64-bit)\n"
    place(
        outer,
        "solution1/solution1.log",
        text=banner + "ERROR: [HLS 200-1023] Part 'xck26sfvc784-2LV-c' is not installed.\n",
    )
    inner = outer / "solution1/conv_core"
    synthesised_solution(inner, "conv_core")
    synthesis = "INFO: [HLS 200-1510] Running: csynth_design \n" + ELAPSED.format("26.554")
    cosim = "INFO: [HLS 200-1510] Running: cosim_design -trace_level all \n"
    place(inner, "solution1/solution1.log", text=banner + synthesis + banner + cosim)
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 26.554)]


def test_a_project_made_inside_a_solution_lends_the_outer_run_none_of_its_reports(tmp_path: Path) -> None:
    """Ahrfry/vasado (2016.4): `vivado_hls -f script.tcl` run in the root project's solution folder
    made ku060_solution/example/ (its vivado_hls.app); its C simulation found no test bench and
    failed. One csim run of the two solutions, the outer one chosen: its verdict came from the
    nested project's log, the newest (a checkout writes it later), `fail` for a solution that
    passed."""
    root = tmp_path / "vasado"
    place(root, "vivado_hls.app", text='<project top="example" name="vasado"/>\n')
    place(root, "ku060_solution/ku060_solution.aps", text="<solution/>\n")
    passed = "INFO: [SIM 2] *************** CSIM start ***************\nINFO: [SIM 1] CSim done with 0 errors.\n"
    set_mtime(place(root, "ku060_solution/csim/report/example_csim.log", text=passed), 100)
    nested = root / "ku060_solution/example"
    place(nested, "vivado_hls.app", text='<project top="example" name="example"/>\n')
    place(nested, "ku060_solution/ku060_solution.aps", text="<solution/>\n")
    failed = "CRITICAL WARNING: [SIM 100] CSim failed with errors.\n"
    set_mtime(place(nested, "ku060_solution/csim/report/example_csim.log", text=failed), 10)
    collection = collect(root)
    records, _ = records_of(collection)
    assert [(r["report_type"], r["sw_run"]["status"]) for r in records] == [("sw_run", "pass")]
    reasons = [p.reason for p in collection.problems()]
    assert (
        "ku060_solution/example/ku060_solution not recorded: ku060_solution gives the records of the vitis.csim run"
        in (reasons)
    )


@pytest.mark.parametrize(("later", "version"), [("", "2016.2"), ("2017.4", "unknown")])
def test_a_csim_run_whose_solution_ran_one_release_only_is_of_that_release(
    tmp_path: Path, later: str, version: str
) -> None:
    """seyedaminhabibi/sift_hls: the C simulation's report (a pass) and the solution's log, one
    2016.2 session that synthesised (its report deleted). No session ran the simulation: its
    sw_run was of version 'unknown', where the commit before, with the report, said 2016.2. Every
    session of the solution ran one release: that is the last resort. Two releases say nothing."""
    root = tmp_path / "sift_hls"
    project = root / "sift"
    place(project, "vivado_hls.app", text='<project top="kp_detection" name="sift"/>\n')
    place(project, "solution1/solution1.aps", text="<solution/>\n")
    place(project, "solution1/csim/report/kp_detection_csim.log", text="@I [SIM-1] CSim done with 0 errors.\n")
    session = (
        "File generated by Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC\nVersion: {}\n"
        "@I [HLS-10] Analyzing design file 'sift.cpp' ... \n"
    )
    log = session.format("2016.2") + (session.format(later) if later else "")
    place(project, "solution1/solution1.log", text=log)
    place(root, "sift.cpp", text="void kp_detection() {}\n")
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["vitis_version"]) for r in records] == [("sw_run", version)]


def test_the_session_that_opened_the_solution_times_it_before_a_log_naming_none(tmp_path: Path) -> None:
    """zanehpn/HLStrans's shortpath: beside the project's session log (the session that created
    and synthesised shortpath/solution1, 31.86 s) lie shortpath.log and others, older sessions
    from another machine's dataset (13.7 s); by name shortpath.log came first. A `<dir>/<dir>.log`
    above a solution is neither its own log nor the project's session log (rules 4.2); and a
    session log that opened it by name comes before one beside it naming none."""
    root = tmp_path / "shortpath"
    synthesised_solution(root / "shortpath", "shortpath")
    opened = "INFO: [HLS 200-10] Creating and opening solution '/home/zqy/{}/shortpath/shortpath/solution1'.\n"
    synthesis = "INFO: [HLS 200-1510] Running: csynth_design \n"
    place(root, "shortpath.log", text=opened.format("dataset") + synthesis + ELAPSED.format("13.7"))
    place(root, "vitis_hls.log", text=synthesis + ELAPSED.format("2.5"))
    place(root, "vivado_hls.log", text=opened.format("C2HLS") + synthesis + ELAPSED.format("31.86"))
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 31.86)]
    (root / "vivado_hls.log").unlink()  # alone, the <dir>.log that opened it by its full path is its session
    (root / "vitis_hls.log").unlink()
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 13.7)]


def test_no_runtime_from_a_session_that_opened_a_nested_projects_solution(tmp_path: Path) -> None:
    """ValdecirDesenv/FPGA_picoZed: the root is a project (hls.app, solution1/) and picoZed/ a
    second one inside it; the root's vitis_hls.log is a session that opened picoZed/solution1 (by
    its full path) and exported it. Its elapsed time is not the root solution's run's."""
    root = tmp_path / "FPGA_picoZed"
    for project in (root, root / "picoZed"):
        synthesised_solution(project, "FPGA_picoZed")
    place(root, "solution1/solution1.log", text="INFO: [HLS 200-1510] Running: csynth_design \n")
    place(
        root,
        "vitis_hls.log",
        text="INFO: [HLS 200-1510] Running: open_project picoZed \n"
        "INFO: [HLS 200-1510] Running: open_solution solution1 -flow_target vivado \n"
        "INFO: [HLS 200-10] Opening solution '/home/vdc/dev/FPGA/FPGA_picoZed/picoZed/solution1'.\n"
        "INFO: [HLS 200-1510] Running: export_design -rtl verilog -format ip_catalog \n"
        "INFO: [HLS 200-112] Total CPU user time: 3 seconds. Total CPU system time: 1 seconds. "
        "Total elapsed time: 24.37 seconds; peak allocated memory: 121.395 MB.\n",
    )
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", None)]


def test_a_project_renamed_since_is_known_by_the_name_its_app_keeps(tmp_path: Path) -> None:
    """jjj7811/CNN_Accelerator: Conv_Pool/ was made as Conv_Tile129 (its hls.app still says so);
    the vitis_hls.log beside it opened Conv_Tile129/solution9 on another machine and exported it
    in 54.251 s. That session is the project's: its runtime is the run's (it was null)."""
    root = tmp_path / "Conv_Pool_int16"
    synthesised_solution(root / "Conv_Pool", "Conv_Tile129", solution="solution9")
    made = "D:/Vivado_program/pynq_lenet5/hls_t1/Conv_short/Conv_Tile129"
    session = (
        "INFO: [HLS 200-1510] Running: open_project Conv_Tile129 \n"
        f"INFO: [HLS 200-10] Opening project '{made}'.\n"
        "INFO: [HLS 200-1510] Running: open_solution solution9 -flow_target vivado \n"
        f"INFO: [HLS 200-10] Opening solution '{made}/solution9'.\n"
        "INFO: [HLS 200-1510] Running: export_design -format ip_catalog \n" + ELAPSED.format("54.251")
    )
    place(root, "vitis_hls.log", text=session)
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 54.251)]
    synthesised_solution(root / "Conv_Pool", "Conv_Other", solution="solution9")  # another project's session
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", None)]


def test_an_sdsoc_functions_session_log_times_its_synthesis(tmp_path: Path) -> None:
    """skalogerakis/Reconfigurable_Computing_High_Level_Synthesis: SDSoC 2018.3 ran Vivado HLS for
    the accelerated function in Debug/_sds/vhls/, beside the project myFuncAccel/ it made there:
    myFuncAccel_vivado_hls.log is that session's log (30.33 s; it was never read: null)."""
    vhls = tmp_path / "Algo_4" / "Debug" / "_sds" / "vhls"
    synthesised_solution(vhls / "myFuncAccel", "myFuncAccel", solution="solution", app="vivado_hls.app")
    made = "/home/skalogerakis/TUC_Projects/TUC_HLS/MyCode/MIlestone3/SDSOC_Accel/Algo_4/Debug/_sds/vhls/myFuncAccel"
    session = (
        "****** Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC v2018.3 (64-bit)\n"
        f"INFO: [HLS 200-10] Creating and opening project '{made}'.\n"
        f"INFO: [HLS 200-10] Creating and opening solution '{made}/solution'.\n"
        "INFO: [HLS 200-10] Starting code transformations ...\n" + ELAPSED.format("30.33")
    )
    place(vhls, "myFuncAccel_vivado_hls.log", text=session)
    records, _ = records_of(collect(tmp_path / "Algo_4"))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 30.33)]
    (vhls / "myFuncAccel_vivado_hls.log").rename(vhls / "myFuncAccel" / "myFuncAccel_vivado_hls.log")
    records, _ = records_of(collect(tmp_path / "Algo_4"))  # (elsewhere than SDSoC's vhls/: no session log)
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", None)]


@pytest.mark.parametrize("build", ["2017.4.op", "2017.4_AR71275_op"])
def test_the_aws_f1_builds_op_release_is_its_release(tmp_path: Path, build: str) -> None:
    """vj-sananda/vivado-hls (the AWS F1 developer AMI's Vivado HLS): `Version: 2017.4.op` in the
    solution log's header, `<Version>2017.4.op</Version>` in csynth.xml. The banner's `v2018.3.op`
    was read as 2018.3; the header was not read, and the report's version, taken for a patch level,
    made '2017.4.op' beside the repository's '2017.4' records: one release, two spellings. The
    AMI's patched build writes `2018.2_AR71275_op` (n-samar/UCLA's csynth.xml): kept whole."""
    root = tmp_path / "add"
    synthesised_solution(root / "proj", "proj", top="add")
    report = root / "proj/solution1/syn/report/csynth.xml"
    text = report.read_text()
    report.write_text(text.replace(text.split("<Version>")[1].split("</Version>")[0], build, 1))
    records, _ = records_of(collect(root))
    assert [r["run"]["vitis_version"] for r in records] == ["2017.4"]
    assert [r["hls_synth"]["ReportVersion"]["Version"] for r in records] == [build]  # (the report's own words)
    place(
        root,
        "proj/solution1/solution1.log",
        text="File generated by Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC\n"
        f"Version: {build}\nINFO: [HLS 200-10] Analyzing design file 'add.cpp' ... \n",
    )
    records, _ = records_of(collect(root))
    assert [r["run"]["vitis_version"] for r in records] == ["2017.4"]


def test_no_runtime_from_a_session_that_ran_no_step(tmp_path: Path) -> None:
    """pominiq/DNNonSilicon: beside the 2020.1 vivado_hls.log that synthesised the project, a
    2023.2.2 vitis_hls.log whose session stopped at open_project ('Project is not compatible')
    after 1.44 s. That session ran nothing: the synthesis's 387.98 s is the run's."""
    root = tmp_path / "MNIST_original"
    synthesised_solution(root / "myproject_prj", "myproject_prj", top="myproject")
    place(
        root,
        "vivado_hls.log",
        text="****** Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC v2020.1 (64-bit)\n"
        "INFO: [HLS 200-1510] Running: open_project myproject_prj \n"
        "INFO: [HLS 200-1510] Running: csynth_design \n" + ELAPSED.format("387.98"),
    )
    place(
        root,
        "vitis_hls.log",
        text="****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.2.2 (64-bit)\n"
        "INFO: [HLS 200-1510] Running: open_project myproject_prj \n"
        "ERROR: [HLS 200-1459] Project is not compatible with vitis_hls, please use -upgrade or -reset\n"
        + ELAPSED.format("1.44"),
    )
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 387.98)]


BANNER_2020_2 = (
    "==============================================================\n"
    "Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2020.2 (64-bit)\n"
    "Copyright 1986-2020 Xilinx, Inc. All Rights Reserved.\n"
    "==============================================================\n"
)


def test_a_batch_sessions_version_is_the_banner_its_solution_log_holds_alone(tmp_path: Path) -> None:
    """Chihan-Zheng/ese532_hw7: `vitis_hls -f csynth.tcl` wrote its messages to hw7/vitis_hls.log
    (no banner: it starts `Running '.../2020.2/Vitis_HLS/...'`) and only its banner to the
    solution's P4.log. The synthesis failed (no report): the record's version was 'unknown'. A
    banner alone is a session that stopped at nothing: the last resort, after the report's; a
    session that shows what it did and ran no step (pominiq's 2023.2.2) still counts for none."""
    root = tmp_path / "hw7"
    project = root / "ese532_hw7"
    place(project, "hls.app", text='<project top="Filter_HW" name="ese532_hw7"/>\n')
    place(project, "P4/P4.aps", text="<solution/>\n")
    place(project, "P4/P4.log", text=BANNER_2020_2 * 2)
    place(
        root,
        "vitis_hls.log",
        text="INFO: [HLS 200-10] Running '/mnt/pollux/software/xilinx/2020.2/Vitis_HLS/2020.2/bin/vitis_hls'\n"
        "INFO: [HLS 200-1510] Running: open_project ese532_hw7 \n"
        "INFO: [HLS 200-10] Opening solution '/mnt/castor/chihan/ese532_hw7/hw7/ese532_hw7/P4'.\n"
        "INFO: [HLS 200-10] Setting target device to 'xczu3eg-sbva484-1-i'\n"
        "INFO: [HLS 200-1510] Running: csynth_design \n"
        "ERROR: [HLS 214-124] use of undeclared identifier 'Filter_vertical_HW': Filter.cpp:44:5\n"
        + ELAPSED.format("3.2"),
    )
    collection = collect(root)
    records, problems = records_of(collection)
    assert [(r["report_type"], r["hls_synth"]["status"], r["run"]["vitis_version"]) for r in records] == [
        ("hls_synth", "fail", "2020.2")
    ]
    assert not [p for p in problems if "unknown" in p]
    (project / "P4" / "P4.log").write_text(BANNER_2020_2 + "ERROR: [HLS 200-1459] Project is not compatible\n")
    records, problems = records_of(collect(root))  # (a session that stopped at something: not its version)
    assert [r["run"]["vitis_version"] for r in records] == ["unknown"]


GREYWOLF = "greywolf37-FPGA_accelerated_CNN__"
AWS_F1 = "xilinx_aws-vu9p-f1_shell-v04261818_201920_2"


def test_the_folder_v_plus_plus_wrote_its_output_into_hides_no_project(tmp_path: Path) -> None:
    """greywolf37/FPGA_accelerated_CNN: the Makefile at the root ran `v++ -o build/vdot.sw_emu.xclbin
    --log_dir ./logs --report_dir ./reports`; build/ holds the .xclbin, .xo and their summaries,
    nothing else. A link summary is build evidence, and build/ was the deepest built project: the
    root, the one that ran the build, was none (0 records, its logs and reports in no --explain
    line). v++'s output folder is build output, of any name; the root's sw_emu run is its."""
    root = tmp_path / "FPGA_accelerated_CNN"
    place(root, "Makefile", text="all:\n\tv++ -o build/vdot.sw_emu.xclbin\n")
    place(root, "src/vdot.cpp", text="void vdot() {}\n")
    place(root, "_x/v++_vdot.sw_emu.log.tmp", text="")
    place(root, "logs/v++_vdot.sw_emu.log", GREYWOLF + "logs__v++_vdot.sw_emu.log")
    place(root, "logs/vdot.sw_emu/v++.log", GREYWOLF + "logs__vdot.sw_emu__v++.log")
    place(root, "build/vdot.sw_emu.xclbin", text="xclbin2\n")
    place(root, "build/vdot.sw_emu.xo", text="PK\n")
    place(root, "build/vdot.sw_emu.xclbin.link_summary", GREYWOLF + "reports__vdot.hw__vdot.hw.xclbin.link_summary")
    place(root, "build/vdot.sw_emu.xo.compile_summary", GREYWOLF + "reports__vdot.hw__vdot.hw.xo.compile_summary")
    place(root, "vitis_run.meta", text="target=vitis.sw_emu\nstatus=pass\n")
    collection = collect(root)
    assert sorted(collection.projects) == [str(root)]
    records, problems = records_of(collection)
    assert [
        (r["report_type"], r["run"]["target"], r["run"]["device"], r["run"]["runtime_seconds"]) for r in records
    ] == [("sw_run", "vitis.sw_emu", AWS_F1, 39.0)] and not problems
    place(root, "build/vitis_run.meta", text="target=vitis.sw_emu\nstatus=fail\n")  # (a run described there)
    assert str(root / "build") in collect(root).projects
    (root / "build/vitis_run.meta").unlink()
    place(root, "build/profile_kernels.csv", text="")  # (a harness's copy of a run: a project of its own)
    assert str(root / "build") in collect(root).projects


# --- item 11: the runner's device wins over the build folder's platform ------------------------

BEAMFORM = "s095339-Adaptive_Beamforming__"
U50 = "xilinx_u50_gen3x16_xdma_5_202210_1"
U280 = "xilinx_u280_gen3x16_xdma_1_202211_1"


def test_runner_device_wins_over_the_build_folders_platform(tmp_path: Path) -> None:
    """s095339/Adaptive_Beamforming's sw_emu build (_x_temp.sw_emu.<u50>), with a harness file that
    says it ran on a u280: one run, the runner's device."""
    project = tmp_path / "beamform"
    place(project, "Makefile", text="all:\n")
    place(project, "src/host.cpp", text="int main() { return 0; }\n")
    place(
        project,
        f"_x_temp.sw_emu.{U50}/logs/Top_Kernel/v++.log",
        BEAMFORM + f"_x_temp.sw_emu.{U50}__logs__Top_Kernel__v++.log",
    )
    place(project, "vitis_run.meta", text=f"target=vitis.sw_emu\ndevice={U280}\nstatus=pass\n")
    collection = collect(tmp_path)
    (result,) = collection.projects.values()
    assert [(r.target, r.device) for r in result.runs] == [("vitis.sw_emu", U280)]
    records, _ = records_of(collection)
    assert [(r["run"]["device"], r["run"]["vitis_version"], r["sw_run"]["status"]) for r in records] == [
        (U280, "2022.1", "pass")
    ]


def test_runner_file_of_a_second_platform_beside_two_builds_is_its_own_run(tmp_path: Path) -> None:
    project = tmp_path / "beamform"
    place(project, "Makefile", text="all:\n")
    place(project, "src/host.cpp", text="int main() { return 0; }\n")
    for platform in (U50, "xilinx_u250_gen3x16_xdma_4_1_202210_1"):
        (project / f"_x_temp.sw_emu.{platform}").mkdir(parents=True)
    place(project, "vitis_run.meta", text=f"target=vitis.sw_emu\ndevice={U280}\nstatus=pass\n")
    (result,) = collect(tmp_path).projects.values()
    assert sorted(r.device for r in result.runs) == sorted([U280, U50, "xilinx_u250_gen3x16_xdma_4_1_202210_1"])


def test_a_component_compiled_only_is_timed_by_its_compile_log(tmp_path: Path) -> None:
    """tiagolascasas/heterogeneous-vitis-apps (2024.1): a component synthesised; its
    logs/hls_compile.log is the session of its vitis.csynth run (`Total elapsed time: 30.15
    seconds`), as logs/hls_run_csim.log is its vitis.csim run's; a cosim run spans two steps,
    each timed apart: no runtime."""
    component = tmp_path / "vadd"
    place(component, "vitis-comp.json", text='{"configuration": {"work_dir": "."}}\n')
    place(component, "vadd.hlscompile_summary", LAB0 + "project_1.hlscompile_summary")
    place(component, "hls/syn/report/csynth.xml", CHOOCIE + "harness__hls__syn__report__csynth.xml")
    compile_log = (
        "  **** HLS Build v2024.1 5069499\n"
        "INFO: [HLS 200-112] Total CPU user time: 21.17 seconds. Total CPU system time: 2.45 seconds. "
        "Total elapsed time: 30.15 seconds; peak allocated memory: 479.484 MB.\n"
        "INFO: [v++ 60-791] Total elapsed time: 0h 0m 33s\n"
    )
    place(component, "logs/hls_compile.log", text=compile_log)
    records, _ = records_of(collect(tmp_path))
    assert [(r["run"]["target"], r["run"]["runtime_seconds"]) for r in records] == [("vitis.csynth", 30.15)]
    place(component, "hls/csim/report/vadd_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    place(component, "logs/hls_run_csim.log", text=compile_log.replace("30.15", "4.5"))
    records, _ = records_of(collect(tmp_path))
    assert [(r["run"]["target"], r["run"]["runtime_seconds"]) for r in records] == [
        ("vitis.csynth", 30.15),
        ("vitis.csim", 4.5),
    ]
    place(component, "reports/hls_cosim.rpt", COMPONENT_COSIM)
    place(component, "logs/hls_run_cosim.log", text=compile_log.replace("30.15", "60.0"))
    records, _ = records_of(collect(tmp_path))
    assert {(r["run"]["target"], r["run"]["runtime_seconds"]) for r in records} == {
        ("vitis.cosim", None),
        ("vitis.csim", 4.5),
    }


ALVEO_TUTORIAL = "YanLunHuang-alveo_FPGA_tutorial__report__"


def test_a_synthesis_copied_beside_a_vpp_log_is_that_builds(tmp_path: Path) -> None:
    """YanLunHuang/alveo_FPGA_tutorial (and aaarora/facile-u55c): report/ holds a hw link's v++
    log and, in report/report/, the kernel's csynth.xml copied out of that build (no solution
    around it). It was a vitis.csynth run of its own; it is the hw build's report (never
    written), as a copy beside a v++ log of the only v++ run is."""
    root = tmp_path / "alveo_FPGA_tutorial"
    place(root, "Makefile", text="all:\n")
    place(root, "src/alveo_hls4ml.cpp", text="void alveo_hls4ml() {}\n")
    place(root, "report/v++_alveo_hls4ml.log", ALVEO_TUTORIAL + "v++_alveo_hls4ml.log")
    place(root, "report/report/csynth.xml", ALVEO_TUTORIAL + "report__csynth.xml")
    collection = collect(root)
    (result,) = collection.projects.values()
    assert [(r.target, r.device) for r in result.runs] == [("vitis.hw", "xilinx_u50_xdma_201920_1")]
    assert records_of(collection)[0] == []
    assert result.accounts[str(root / "report/report/csynth.xml")].startswith("unwritten: a vitis.hw run")


def test_a_solution_whose_synthesis_failed_is_a_variant_beside_the_others(tmp_path: Path) -> None:
    """bol-edu/2022-fall-ntu's matrixmul_prj/solution5 (and adropulic/hls_bdt_project): no report,
    only its log's `Synthesizability check failed`; its failed record took the default variant
    (0, "implementation"), index 0 twice in the group, where its siblings were variants of their own."""
    root = tmp_path / "FFT"
    project = fft_project(root, "solution1.log", opened="opt4_just_pipe_all")
    place(project, "opt5/opt5.aps", text="<solution/>\n")
    place(
        project,
        "opt5/opt5.log",
        text="INFO: [HLS 200-1510] Running: csynth_design \n"
        "ERROR: [SYNCHK 200-91] Port 'res' (matrixmul.cpp:48) of function 'matrixmul' cannot be set to a FIFO\n"
        "ERROR: [HLS 200-70] Synthesizability check failed.\n",
    )
    records, _ = records_of(collect(root))
    assert [(variant, status) for variant, _type, _runtime, status in by_variant_status(records)] == [
        ((0, "opt1"), "pass"),
        ((1, "opt4_just_pipe_all"), "pass"),
        ((2, "opt5"), "fail"),
    ]


def test_a_solution_whose_synthesis_failed_in_the_project_log_is_a_variant(tmp_path: Path) -> None:
    """Chihan-Zheng/ese532_hw7's P4: its own P4.log shows no synthesis; the project's
    vitis_hls.log is the session that opened P4 and failed (`use of undeclared identifier`). Its
    failed record took the default variant beside P1..P3e, variants of their own."""
    root = tmp_path / "FFT"
    project = fft_project(root, "solution1.log", opened="opt4_just_pipe_all")
    place(project, "opt5/opt5.aps", text="<solution/>\n")
    place(project, "opt5/opt5.log", text="INFO: [HLS 200-10] Setting target device to 'xc7z020-clg484-1'\n")
    place(
        root,
        "vitis_hls.log",
        text="INFO: [HLS 200-1510] Running: open_solution opt5 -flow_target vitis \n"
        "INFO: [HLS 200-1510] Running: csynth_design \n"
        "ERROR: [HLS 214-124] use of undeclared identifier 'SCALED_FRAME_HEIGHT': Filter.cpp:27\n"
        "INFO: [HLS 200-112] Total CPU user time: 3 seconds. Total elapsed time: 3.2 seconds; peak 1 MB.\n",
    )
    records, _ = records_of(collect(root))
    assert by_variant_status(records) == [
        ((0, "opt1"), "hls_synth", None, "pass"),
        ((1, "opt4_just_pipe_all"), "hls_synth", None, "pass"),
        ((2, "opt5"), "hls_synth", 3.2, "fail"),
    ]


def test_a_verdict_of_a_session_that_opened_another_solution_is_not_this_ones(tmp_path: Path) -> None:
    """The project's log: a session that opened solution1 and simulated it, then one that opened
    solution2 (only its .aps) and stopped. solution2 has no result of its own: no variant, no
    C simulation run borrowed from solution1's session (the review of 56dca17)."""
    root = tmp_path / "t1"
    synthesised_solution(root / "proj", "proj")
    place(root, "proj/solution2/solution2.aps", text="<solution/>\n")
    banner = "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2022.2 (64-bit)\n"
    place(
        root,
        "vitis_hls.log",
        text=banner
        + "INFO: [HLS 200-1510] Running: open_solution solution1 -flow_target vivado \n"
        + "INFO: [HLS 200-1510] Running: csim_design \nINFO: [SIM 211-1] CSim done with 0 errors.\n"
        + banner
        + "INFO: [HLS 200-1510] Running: open_solution solution2 -flow_target vivado \n",
    )
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["implementation"]["variant"]["name"], r["run"]["device"]) for r in records] == [
        ("hls_synth", "implementation", "xc7z030-sbv485-1"),
        ("sw_run", "implementation", "xc7z030-sbv485-1"),
    ]


def test_a_report_copied_beside_its_solution_is_named_in_the_line_left_out(tmp_path: Path) -> None:
    """A top's report copied into the project folder beside the solution it came from: the
    solution's report speaks for the run and the copy's line names the folder, not `.`."""
    project = tmp_path / "fir128_baseline"
    place(project, "script.tcl", text="open_project fft\nset_top fft32\n")
    place(project, "fft.cpp", text="void fft32() {}\n")
    place(project, "fft32_csynth.xml", FFT + "syn__report__csynth.xml")
    synthesised_solution(project / "fft", "fft")
    collection = collect(tmp_path)
    assert [(p.path, p.reason) for p in collection.problems()] == [
        (
            str(project),
            "the project folder's own report not recorded: fft/solution1 gives the records of the vitis.csynth run",
        )
    ]


def test_a_solution_is_timed_by_the_session_that_opened_it(tmp_path: Path) -> None:
    """The project's log: a session that opened solution1 and synthesised it in 40.1 s, then one
    that opened solution2 and failed in 2.0 s. solution1's record took the log's last time."""
    root = tmp_path / "t2"
    synthesised_solution(root / "proj", "proj")
    banner = "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2022.2 (64-bit)\n"
    opened = "INFO: [HLS 200-1510] Running: open_solution {} -flow_target vivado \n"
    synthesis = "INFO: [HLS 200-1510] Running: csynth_design \n"
    place(
        root,
        "vitis_hls.log",
        text=banner
        + opened.format("solution1")
        + synthesis
        + ELAPSED.format("40.1")
        + banner
        + opened.format("solution2")
        + synthesis
        + "ERROR: [HLS 214-124] use of undeclared identifier 'X': a.cpp:27\n"
        + ELAPSED.format("2.0"),
    )
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 40.1)]


def by_variant_status(records: list[dict]) -> list[tuple]:
    return [(*row, r["hls_synth"]["status"]) for row, r in zip(by_variant(records), records)]


def test_a_component_step_log_gives_the_version_of_its_own_step_only(tmp_path: Path) -> None:
    """kwt3/comet-to-vitis-hls: the compile (logs/hls_compile.log, the summary) ran on 2024.1; a
    week later a C simulation ran on 2024.1.2 (logs/hls_run_csim.log). The synthesis record is
    2024.1: the csim session never ran csynth_design (rules 4.2); the sw_run is 2024.1.2."""
    component = tmp_path / "vadd"
    place(component, "vitis-comp.json", text='{"configuration": {"work_dir": "."}}\n')
    place(component, "vadd.hlscompile_summary", LAB0 + "project_1.hlscompile_summary")  # toolVersion 2025.1
    place(component, "hls/syn/report/csynth.xml", CHOOCIE + "harness__hls__syn__report__csynth.xml")
    place(component, "hls/.autopilot/db/a.xml", text="<a/>\n")
    banner = "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v{} (64-bit)\n"
    place(component, "logs/hls_compile.log", text=banner.format("2025.1"))
    verdict = "INFO: [SIM 1] CSim done with 0 errors.\n"
    place(component, "hls/csim/report/vadd_csim.log", text=verdict)
    place(component, "logs/hls_run_csim.log", text=banner.format("2025.1.1") + verdict)
    records, _ = records_of(collect(tmp_path))
    assert sorted((r["report_type"], r["run"]["vitis_version"]) for r in records) == [
        ("hls_synth", "2025.1"),
        ("sw_run", "2025.1.1"),
    ]


def test_a_top_report_copied_out_of_its_solution_is_read_or_reported(tmp_path: Path) -> None:
    """wh-xu/CSE237C and helper trees of the WES237 course: students copy `fir_csynth.xml` (the
    top's own report, no csynth.xml beside it) next to their code, script and session log, or
    into folders of their own. The first is the project's synthesis record, as a copied
    csynth.xml would be; the second a report in no project (rules 1.7: never silently dropped)."""
    project = tmp_path / "project1/fir128_baseline"
    place(project, "script.tcl", text="open_project fir128\nset_top multi_axim\ncsynth_design\n")
    place(project, "fir.cpp", text="void multi_axim() {}\n")
    place(project, "vitis_hls.log", text="INFO: [HLS 200-1510] Running: csynth_design \n")
    place(project, "multi_axim_csynth.xml", MARSEE + "syn__report__multi_axim_csynth.xml")
    loose = place(
        tmp_path, "project1/fir128_best/II_1/multi_axim_csynth.xml", MARSEE + "syn__report__multi_axim_csynth.xml"
    )
    collection = collect(tmp_path)
    records, _ = records_of(collection)
    assert [(r["report_type"], r["problem"]["group_path"]) for r in records] == [
        ("hls_synth", ["project1", "fir128_baseline"])
    ]
    assert any(p.path == str(loose) and "report in no project" in p.reason for p in collection.problems())


def test_an_hls4ml_vivado_synthesis_error_fails_no_c_synthesis(tmp_path: Path) -> None:
    """RishThakkar/PokerML's qat_hls4ml_prj: hls4ml's build_prj.tcl ran with only its Vivado
    synthesis asked for; the session opened the solution (its configuration tagged [XFORM]) and
    said `***** VIVADO SYNTHESIS *****`, then `ERROR: Cannot find generated VHDL files`. No C
    synthesis ran: no synthesis record, no `fail`. The same error under its `C/RTL SYNTHESIS`
    step fails the synthesis."""
    root = tmp_path / "qat_hls4ml_prj"
    place(root, "build_prj.tcl", text="open_project myproject_prj\n")
    place(root, "firmware/myproject.cpp", text="void myproject() {}\n")
    place(root, "myproject_prj/hls.app", text='<project top="myproject" name="myproject_prj"/>\n')
    place(root, "myproject_prj/solution1/solution1.aps", text="<solution/>\n")
    session = (
        "****** Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC v2019.2 (64-bit)\n"
        "INFO: [HLS 200-10] Opening solution '/home/u/PokerML/projects/qat_hls4ml_prj/myproject_prj/solution1'.\n"
        "INFO: [HLS 200-10] Setting target device to 'xc7z020-clg400-1'\n"
        "INFO: [XFORM 203-101] Allowed max sub elements number after partition is 4096.\n"
        "***** {} *****\n"
        "ERROR: Cannot find generated VHDL files. Did you run C synthesis?\n"
    )
    place(root, "vivado_hls.log", text=session.format("VIVADO SYNTHESIS"))
    assert summary(collect(root)) == []
    place(root, "vivado_hls.log", text=session.format("C/RTL SYNTHESIS"))
    assert [s[1:] for s in summary(collect(root))] == [("hls_synth", "vitis.csynth", "xc7z020-clg400-1", "fail")]


@pytest.mark.parametrize(("project", "seconds"), [("hls_project_32280_19", None), ("proj_smoke", 14.2)])
def test_no_runtime_from_a_session_of_a_project_of_another_name(
    tmp_path: Path, project: str, seconds: float | None
) -> None:
    """LmDeng0/CryptoHLS: build/vitis_hls.log, beside build/proj_smoke, is the session of another
    project (hls_project_32280_19/solution1, not in the tree, synthesised 22 days later). Its
    solution has proj_smoke's solution's name; its 14.2 s are not that run's."""
    root = tmp_path / "CryptoHLS"
    synthesised_solution(root / "build/proj_smoke", "proj_smoke")
    place(
        root,
        "build/vitis_hls.log",
        text=f"INFO: [HLS 200-1510] Running: open_project -reset {project} \n"
        f"INFO: [HLS 200-10] Creating and opening project '/home/CryptoHLS/build/{project}'.\n"
        "INFO: [HLS 200-1510] Running: open_solution -reset solution1 \n"
        f"INFO: [HLS 200-10] Creating and opening solution '/home/CryptoHLS/build/{project}/solution1'.\n"
        "INFO: [HLS 200-1510] Running: csynth_design \n" + ELAPSED.format("14.2"),
    )
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", seconds)]


GELU = "HanderRi-AMD-Pervasive-AI__solution1__syn__report__gelu_csynth.xml"  # top gelu, 2022.2


def copied_design(folder: Path, log: str, log_text: str) -> None:
    """wes237l's project-3/dft_256_*: a design's sources, its script (set_top), its report copied
    out of its solution, and a session log copied from another design's folder."""
    place(folder, "script.tcl", text='open_project hls\nset_top gelu\nopen_solution "solution1"\n')
    place(folder, "gelu.cpp", text="void gelu() {}\n")
    place(folder, "gelu_csynth.xml", GELU)
    place(folder, log, text=log_text)


@pytest.mark.parametrize("synthesised", ["fir", "gelu"])
def test_no_runtime_nor_verdict_from_a_session_of_another_top(tmp_path: Path, synthesised: str) -> None:
    """wes237l: each design folder of project-3 (top dft: its script's set_top, its report's
    TopModelName) holds a session log copied from the fir project of project-1, which opened a
    solution of another name, synthesised 'fir' (17.582 s) or simulated it (set_top fir, CSim
    done, 3.895 s). Those times were the dft runs' runtimes, and the fir simulation a dft
    sw_run pass. A session of another top function is no session of this design's."""
    root = tmp_path / "project-3"
    opened = "INFO: [HLS 200-10] Opening solution 'A:/project1/fir128/baseline/fir128_optimized3'.\n"
    copied_design(
        root / "dft_256_best",
        "vivado_hls.log",
        "INFO: [HLS 200-10] Running 'B:/Programs/Vivado/2019.2/bin/unwrapped/win64.o/vivado_hls.exe'\n"
        + opened
        + "INFO: [HLS 200-10] Analyzing design file 'fir.cpp' ... \n"
        + f"INFO: [HLS 200-10] Synthesizing '{synthesised}' ...\n"
        + ELAPSED.format("17.582"),
    )
    copied_design(
        root / "dft_256_baseline",
        "vitis_hls.log",
        f"INFO: [HLS 200-1510] Running: set_top {synthesised} \n"
        + opened
        + "INFO: [HLS 200-1510] Running: csim_design \n"
        + "INFO: [SIM 211-1] CSim done with 0 errors.\n"
        + ELAPSED.format("3.895"),
    )
    records, _ = records_of(collect(root))
    found = [(r["implementation"]["variant"]["name"], r["report_type"], r["run"]["runtime_seconds"]) for r in records]
    if synthesised == "gelu":  # (the design's own sessions time it, and the simulation is its own)
        assert found == [("baseline", "hls_synth", 3.895), ("baseline", "sw_run", 3.895), ("best", "hls_synth", 17.582)]
    else:
        assert found == [("baseline", "hls_synth", None), ("best", "hls_synth", None)]


def test_a_solutions_session_of_the_top_its_reports_name_is_its_own(tmp_path: Path) -> None:
    """burakotlu/pFFT: in a unified component's work directory (its hls_config.cfg: syn.top=dFFT),
    the legacy solution PositFFT/test simulated pFFT (its own test.log: set_top pFFT; its report
    pFFT_csim.log). The top its reports are named after is its design's: its log dates its
    sw_run (2024.2), whatever the configuration beside says."""
    root = tmp_path / "pFFT"
    component = '{"name": "PositFFT", "type": "HLS", "configuration": {"work_dir": "PositFFT"}}'
    place(root, "vitis-comp.json", text=component)
    place(root, "hls_config.cfg", text="part=xazu3teg-sfvc784-1Q-q\n\n[hls]\nsyn.top=dFFT\n")
    place(root, "PositFFT/test/test.aps", text="<solution/>\n")
    place(
        root,
        "PositFFT/test/test.log",
        text="Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2024.2 (64-bit)\n"
        "INFO: [HLS 200-1510] Running: set_top pFFT \n"
        "INFO: [HLS 200-1510] Running: csim_design \n"
        "INFO: [SIM 211-1] CSim done with 0 errors.\n",
    )
    place(root, "PositFFT/test/csim/report/pFFT_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["vitis_version"], r["sw_run"]["status"]) for r in records] == [
        ("sw_run", "2024.2", "pass")
    ]
    # the component's own synthesis beside it: each is a variant of the work directory's
    place(root, "PositFFT/hls/syn/report/csynth.xml", FFT + "syn__report__csynth.xml")
    records, _ = records_of(collect(root))
    variants = [(r["report_type"], r["implementation"]["variant"]) for r in records]
    assert variants == [("hls_synth", {"index": 0, "name": "hls"}), ("sw_run", {"index": 1, "name": "test"})]


def test_a_solutions_own_log_is_its_session_whatever_top_it_synthesised(tmp_path: Path) -> None:
    """dalilavieira/HLStools: the project's vivado_hls.app says top="ngx_parse_time"; its
    solution's own solution1.log synthesised 'main' and failed. That log is the solution's (HLS
    appends each of its sessions to it): its failed synthesis is a record."""
    root = tmp_path / "proj_ngx_parse_time"
    place(root, "vivado_hls.app", text='<project name="proj_ngx_parse_time" top="ngx_parse_time"/>\n')
    place(root, "solution1/solution1.aps", text="<solution/>\n")
    place(
        root,
        "solution1/solution1.log",
        text="INFO: [HLS 200-10] Opening solution '/home/vivado/proj_ngx_parse_time/solution1'.\n"
        "INFO: [HLS 200-10] Setting target device to 'xc7z020-clg400-1'\n"
        "INFO: [HLS 200-10] Analyzing design file 'ngx_parse.c' ... \n"
        "INFO: [HLS 200-10] Synthesizing 'main' ...\n"
        "ERROR: [HLS 200-70] Synthesizability check failed.\n" + ELAPSED.format("2.5"),
    )
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["hls_synth"]["status"], r["run"]["runtime_seconds"]) for r in records] == [
        ("hls_synth", "fail", 2.5)
    ]


def test_a_component_whose_compile_failed_is_a_variant_beside_the_projects_solutions(tmp_path: Path) -> None:
    """an50's Alex_Net: a classic project (hls.app, its solutions) is also a unified component
    (vitis-comp.json, work_dir Alex_Net) whose compile failed (logs/hls_compile.log: ERROR, 123.72
    s). Its failed synthesis is a result: the component is a variant ranked with the solutions,
    not the default {0, implementation} beside them (index 0 was a solution's too)."""
    root = tmp_path / "Alex_Net"
    synthesised_solution(root, "Alex_Net", solution="Conv1")
    synthesised_solution(root, "Alex_Net", solution="solution1")
    component = '{"name": "Alex_Net", "type": "HLS", "configuration": {"work_dir": "Alex_Net"}}'
    place(root, "vitis-comp.json", text=component)
    place(root, "hls_config.cfg", text="part=xczu7ev-fbvb900-3-e\n\n[hls]\nsyn.top=NN\n")
    place(
        root,
        "Alex_Net/logs/hls_compile.log",
        text="INFO: [HLS 200-1510] Running: csynth_design \n"
        "ERROR: Linking globals named '_Z5pool5PfS_': symbol multiply defined!\n" + ELAPSED.format("123.72"),
    )
    records, _ = records_of(collect(root))
    variants = [(r["implementation"]["variant"]["index"], r["implementation"]["variant"]["name"]) for r in records]
    assert sorted(variants) == [(0, "Conv1"), (1, "hls"), (2, "solution1")]


def test_a_log_whose_last_session_was_timed_comes_before_an_older_sessions_time(tmp_path: Path) -> None:
    """ArgyKokk/hls4ml_MLP_estimator: a campaign copied one hls4ml project six times and
    synthesised each copy again. Each copy's solution1.log holds the original's sessions, one of
    them timed (158.82 s, the day before), then the copy's own synthesis, which the log ends
    before its total; the copy's vitis_hls.log is that last session's own: 183.36 s."""
    root = tmp_path / "DSP_reuse100"
    synthesised_solution(root / "myproject_prj", "myproject_prj", top="myproject")
    banner = "Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.1 (64-bit)\n"
    synthesis = "INFO: [HLS 200-1510] Running: csynth_design \n"
    place(
        root,
        "myproject_prj/solution1/solution1.log",
        text=banner + synthesis + ELAPSED.format("158.82") + banner + synthesis,
    )
    place(
        root,
        "vitis_hls.log",
        text="****** " + banner + "INFO: [HLS 200-10] Opening solution "
        "'/home/a/jet_tagging/hls4ml_prj/DSP_reuse100/myproject_prj/solution1'.\n"
        + synthesis
        + ELAPSED.format("183.36"),
    )
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 183.36)]
    (root / "vitis_hls.log").unlink()  # alone, the solution's log gives the time it has (rules 4.2)
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 158.82)]


def test_a_modules_report_out_of_its_solution_is_no_design_report(tmp_path: Path) -> None:
    """ArdaAsci/hls_project: matrixmul_Pipeline_Row_Col_Product_csynth.xml, a loop's report, lies
    at the root beside matrixmul_prj/ (hls.app: top matrixmul; its solution synthesised and
    co-simulated). It was a second hls_synth record of the design, of a vitis.csynth run; it is
    a problem line. A copy of the top's own report out of the solution is still read."""
    root = tmp_path / "hls_project"
    project = root / "fft_prj"
    synthesised_solution(project, "fft_prj")
    place(
        project,
        "solution1/sim/report/verilog/lat.rpt",
        "SherlockChristie-FFT__FFT_sol_2__opt1__sim__report__verilog__lat.rpt",
    )
    place(
        project,
        "solution1/sim/report/fft32_cosim.rpt",
        "SherlockChristie-FFT__FFT_sol_2__opt1__sim__report__fft32_cosim.rpt",
    )
    place(root, "fft.cpp", text="void fft32() {}\n")
    place(root, "fft32_Pipeline_Row_Col_Product_csynth.xml", FFT + "syn__report__csynth.xml")
    collection = collect(root)
    records, _ = records_of(collection)
    assert [(r["report_type"], r["run"]["target"]) for r in records] == [
        ("hls_synth", "vitis.cosim"),
        ("rtl_sim", "vitis.cosim"),
    ]
    assert reasons_for(collection, root) == [
        "1 per-module reports (fft32_Pipeline_Row_Col_Product), no csynth.xml, and none is a top the "
        "project names (fft32): no hls_synth record"
    ]
    place(root, "fft32_csynth.xml", FFT + "syn__report__csynth.xml")  # the top's own copy: read
    assert ("hls_synth", "vitis.csynth") in [
        (r["report_type"], r["run"]["target"]) for r in records_of(collect(root))[0]
    ]


@pytest.mark.parametrize("folder", ["reports", "report"])
def test_cosim_reports_copied_to_reports_go_with_a_solution_there_or_none(tmp_path: Path, folder: str) -> None:
    """hlstrack2025's Makefile copies csynth.xml and `<top>_cosim.rpt` into reports/ (hongpengWu/
    hlstrack2025_40562: no build beside them): the cosim copy made a second variant named `hls`,
    a solution that is nowhere, its rtl_sim of unknown device and version; it goes with the
    csynth.xml copy there. Without one (ychenfen/hlstrack2025 copied csynth.rpt only) it is a
    copy no run takes. With `vitis-run --work_dir hls` (drindr/hlstrack2025-45488) the solution
    is hls/hls: the copy named the work directory, whose step logs then timed nothing (the csim
    run's 11.55 s was null). A designer's own `report/` (yhy1145141111/hlstrack2025_41447) is
    such a folder: its cosim copy was 'report that no run of this project takes', its run a
    vitis.csynth one."""
    copies = tmp_path / "lz4_compress"
    place(copies, "hls_config.cfg", text="[hls]\nsyn.top=fft32\n")
    place(copies, "fft32.cpp", text="void fft32() {}\n")
    place(copies, f"{folder}/csynth.xml", FFT + "syn__report__csynth.xml")
    place(copies, f"{folder}/fft32_cosim.rpt", COMPONENT_COSIM)
    records, _ = records_of(collect(copies))
    assert [(r["report_type"], r["implementation"]["variant"]["name"], r["run"]["device"]) for r in records] == [
        ("hls_synth", "implementation", "xc7z030-sbv485-1"),
        ("rtl_sim", "implementation", "xc7z030-sbv485-1"),
    ]
    assert records[1]["rtl_sim"]["status"] == "fail"  # (the copy: superkooks' Verilog Fail)
    (copies / folder / "csynth.xml").unlink()
    collection = collect(copies)
    assert records_of(collection)[0] == []
    assert reasons_for(collection, copies / folder / "fft32_cosim.rpt") == [
        "report that no run of this project takes: not collected"
    ]
    work = tmp_path / "cholesky" / "hls"
    place(work.parent, "hls_config.cfg", text="[hls]\nsyn.top=fft32\n")
    place(work.parent, "fft32.cpp", text="void fft32() {}\n")
    place(work.parent, "reports/hls_cosim.rpt", COMPONENT_COSIM)
    place(work, "hls/syn/report/csynth.xml", FFT + "syn__report__csynth.xml")
    place(work, "hls/.autopilot/db/a.xml", text="<a/>\n")
    csim = "INFO: [SIM 211-1] CSim done with 0 errors.\n"
    place(work, "hls/csim/report/fft32_csim.log", text=csim)
    place(work, "logs/hls_run_csim.log", text="  **** HLS Build v2024.2 5238294\n" + csim + ELAPSED.format("11.55"))
    records, _ = records_of(collect(work.parent))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records if r["report_type"] == "sw_run"] == [
        ("sw_run", 11.55)
    ]


def component_with_cosim_copy(component: Path, work: str, compiled: list[str], simulated: list[str]) -> None:
    """A unified component synthesised (hls/syn) with a co-simulation's copy in reports/ and
    hls/sim/ gone; its compile and cosim step logs echo the settings each applied."""
    place(component, "vitis-comp.json", text=f'{{"configuration": {{"work_dir": "{work}"}}}}\n')
    place(component, "hls_config.cfg", text="[hls]\n" + "".join(f"{setting}\n" for setting in compiled))
    place(component, f"{work}/hls/syn/report/csynth.xml", FFT + "syn__report__csynth.xml")
    place(component, f"{work}/reports/hls_cosim.rpt", COMPONENT_COSIM)
    applied = "INFO: [HLS 200-1465] Applying ini '{}' from C:/u/hls_component/hls_config.cfg(7)\n"
    place(component, f"{work}/logs/hls_compile.log", text="".join(map(applied.format, compiled)))
    place(component, f"{work}/logs/hls_run_cosim.log", text="".join(map(applied.format, simulated)))


@pytest.mark.parametrize("echo", ["Applying ini", "Applying config ini"])  # (2024.2, 2025.2)
def test_a_csim_step_of_another_top_times_no_verdict_of_the_runs_top(tmp_path: Path, echo: str) -> None:
    """bianca4444/Optical-Flow (2025.2): compiled with syn.top=lucas_kanade_hls (its csynth.xml);
    the top changed to lucas_kanade_pyramid, whose C simulation passed in 22.438 s
    (logs/hls_run_csim.log). hls/csim/report/ keeps both tops' logs; the synthesised top's, an
    older failed build, speaks for the run (rules 5), and took the other top's 22.438 s: a
    record of no simulation that ran. A step log that applied another top times nothing."""
    component = tmp_path / "lucas_kanade_hls"
    work = "lucas_kanade_hls"
    component_with_cosim_copy(component, work, ["syn.top=fft32"], ["syn.top=fft32"])
    (component / work / "reports/hls_cosim.rpt").unlink()
    (component / work / "logs/hls_run_cosim.log").unlink()
    report = component / work / "hls/csim/report"
    place(report, "fft32_csim.log", text="ERR: [SIM 100] CSim file generation failed: compilation error(s).\n")
    place(report, "pyramid_csim.log", text="INFO: [SIM 211-1] CSim done with 0 errors.\n")
    applied = "INFO: [HLS 200-1465] " + echo + " 'syn.top={}' from C:/u/hls_config.cfg(7)\n"
    csim = "INFO: [SIM 211-1] CSim done with 0 errors.\n" + ELAPSED.format("22.438")
    place(component, f"{work}/logs/hls_run_csim.log", text=applied.format("pyramid") + csim)
    records, _ = records_of(collect(tmp_path))
    assert [(r["report_type"], r.get("sw_run"), r["run"]["runtime_seconds"]) for r in records if "sw_run" in r] == [
        ("sw_run", {"status": "fail"}, None)
    ]
    (component / work / "logs/hls_run_csim.log").write_text(applied.format("fft32") + csim)  # (the same top)
    records, _ = records_of(collect(tmp_path))
    assert [r["run"]["runtime_seconds"] for r in records if "sw_run" in r] == [22.438]


@pytest.mark.parametrize(("simulated", "records"), [("mat_mul", [("hls_synth", "vitis.csynth")]), ("attention", None)])
def test_a_cosim_copy_of_another_top_than_the_compile_is_no_result(
    tmp_path: Path, simulated: str, records: list[tuple[str, str]] | None
) -> None:
    """liuutin9/FPGA-Acceleration-of-TinyLLaVA-Inference-via-HLS: a 2024.2 component co-simulated
    mat_mul (reports/hls_cosim.rpt: Pass, 57 cycles), then compiled attention three weeks later,
    which emptied hls/sim/; the copy stayed. It made a cosim run: an rtl_sim `pass` for
    attention, never simulated. Its step logs say which top each step applied."""
    component = tmp_path / "test/hls_test"
    component_with_cosim_copy(component, "hls_test", ["syn.top=attention"], [f"syn.top={simulated}"])
    collection = collect(tmp_path)
    kinds = [(r["report_type"], r["run"]["target"]) for r in records_of(collection)[0]]
    if records is None:  # (the same top: the copy is the run's co-simulation)
        assert kinds == [("hls_synth", "vitis.cosim"), ("rtl_sim", "vitis.cosim")]
        return
    assert kinds == records
    assert reasons_for(collection, component / "hls_test/reports/hls_cosim.rpt") == [
        "a co-simulation of mat_mul (its hls_run_cosim.log), not of attention, compiled since: not collected"
    ]


@pytest.mark.parametrize(
    "opened",
    [
        "INFO: [HLS 200-10] Opening solution 'D:/work/myproj_v1/solution1'.\n",  # (renamed when committed)
        "INFO: [HLS 200-1510] Running: open_solution ./solution1 \n",  # (a relative path: no project's name)
    ],
)
def test_a_session_log_in_the_projects_own_folder_times_it_whatever_project_it_names(
    tmp_path: Path, opened: str
) -> None:
    """The review of df58767: a project renamed when committed (myproj_v1 -> myproj) keeps the
    session log in its own folder; a relative `./solution1` names no project."""
    root = tmp_path / "repo"
    synthesised_solution(root / "myproj", "myproj")
    synthesis = "INFO: [HLS 200-1510] Running: csynth_design \n" + ELAPSED.format("42.5")
    place(root, "myproj/vivado_hls.log", text=opened + synthesis)
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 42.5)]


def test_a_lone_copy_of_a_report_with_no_top_named_anywhere_is_read(tmp_path: Path) -> None:
    """The review of d604f1e: a reports-only check-in (a Makefile, the source, report/fft32_csynth.xml)
    names no top anywhere: the folder's only per-module report is its design's, as before."""
    root = tmp_path / "repo"
    place(root, "Makefile", text="all:\n")
    place(root, "src/fft.cpp", text="void fft32() {}\n")
    place(root, "report/fft32_csynth.xml", FFT + "syn__report__csynth.xml")
    records, _ = records_of(collect(root))
    assert [(r["report_type"], r["run"]["target"]) for r in records] == [("hls_synth", "vitis.csynth")]


def runtimes_beside(root: Path, solution: str, logs: dict[str, str]) -> list[tuple[str, float | None]]:
    """(report type, runtime) of the records of a project whose one synthesised solution's folder
    holds these synthesis logs (file name: its total)."""
    place(root, "hls.app", text=f'<project top="fft32" name="{root.name}"/>\n')
    place(root, f"{solution}/{solution}.aps", text="<solution/>\n")
    place(root, f"{solution}/syn/report/csynth.xml", FFT + "syn__report__csynth.xml")
    synthesis = "INFO: [HLS 200-1510] Running: csynth_design \n"
    for name, seconds in logs.items():
        place(root, f"{solution}/{name}", text=synthesis + ELAPSED.format(seconds))
    records, _ = records_of(collect(root))
    return [(r["report_type"], r["run"]["runtime_seconds"]) for r in records]


def test_a_solutions_own_log_times_it_before_a_log_its_earlier_name_left(tmp_path: Path) -> None:
    """Stepaka/Xilinx_lab's KP_502_7: solution sol2_7_double_16 was sol2_7_double before (a copy
    renamed); its folder holds both logs, and by path the older name's came first: the record
    took 47.968 s (another directive set's synthesis) for its own log's 56.289 s (rules 4.2:
    the solution's own log)."""
    logs = {"sol2_7_double.log": "47.968", "sol2_7_double_16.log": "56.289"}
    assert runtimes_beside(tmp_path / "KP_502_7", "sol2_7_double_16", logs) == [("hls_synth", 56.289)]


def test_a_solution_renamed_twice_with_no_log_of_its_name_is_timed_by_none(tmp_path: Path) -> None:
    """Deepsavani/DES-Decryption-Implemented-in-Vivado-HLS's C_5_unroll_factor_2 (and Stepaka/
    Xilinx_lab's sol2_8_int_32): the folder holds the logs of two earlier names and none of its
    own; by path the first was taken, 51.949 s of a synthesis of other directives, where the
    report is the other log's last (13.365 s). Which one wrote the report is not known: none
    times the run (its verdicts still count)."""
    logs = {"C_4_unroll_50percent.log": "51.949", "C_5_unroll_50percent.log": "13.365"}
    assert runtimes_beside(tmp_path / "DES_DEC", "C_5_unroll_factor_2", logs) == [("hls_synth", None)]


VIVADO_HLS_LOG = (  # A-T-Kristensen/patmos_HLS (Vivado HLS 2016.4): a solution's log, the next one's opening, the total
    "File generated by Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC\nVersion: 2016.4\n"
    "@I [HLS-10] Analyzing design file 'matmul.cpp' ... \n",
    "@I [HLS-10] Opening solution '/home/patmos/hls_matmul_float/{}'.\n",
    "@I [HLS-112] Total elapsed time: {} seconds; peak allocated memory: 79.369 MB.\n",
)
VITIS_HLS_LOG = (  # danila-kuryakin/fpga_labs (Vitis HLS 2021.2), on FFT's report's part (another times none)
    "Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2021.2 (64-bit)\n"
    "INFO: [HLS 200-1510] Running: set_part xc7z030-sbv485-1 \nINFO: [HLS 200-1510] Running: csynth_design \n",
    "INFO: [HLS 200-1510] Running: open_solution -reset {} \n",
    "INFO: [HLS 200-112] Total CPU user time: 8 seconds. Total CPU system time: 3 seconds. "
    "Total elapsed time: {} seconds; peak allocated memory: 1.075 GB.\n",
)


def solutions_of_one_tcl_session(root: Path, shape: tuple[str, str, str], later: dict[str, str]) -> list[tuple]:
    """Three solutions synthesised in turn by one Tcl session: each one's own log holds its part,
    ending with the next one's opening, the last with the session's total (156.149 s); `later`:
    a solution whose log then holds a later session of its own, timed (the GUI's re-run)."""
    header, opening, total = shape
    place(root, "hls.app", text='<project name="lab" top="fft32"/>\n')
    names = ("sol1", "sol2", "sol3")
    for name, following in zip(names, (*names[1:], None)):
        place(root, f"{name}/{name}.aps", text="<solution/>\n")
        place(root, f"{name}/syn/report/csynth.xml", FFT + "syn__report__csynth.xml")
        log = header + (opening.format(following) if following else total.format("156.149"))
        if name in later:
            log += header + total.format(later[name])
        place(root, f"{name}/{name}.log", text=log)
    records, _ = records_of(collect(root))
    return [(r["implementation"]["variant"]["name"], r["run"]["runtime_seconds"]) for r in records]


@pytest.mark.parametrize("shape", [VIVADO_HLS_LOG, VITIS_HLS_LOG], ids=["vivado_hls", "vitis_hls"])
def test_a_tcl_session_over_several_solutions_times_none_of_them(tmp_path: Path, shape: tuple) -> None:
    """A-T-Kristensen/patmos_HLS (Vivado HLS 2016.4): matmul_3b's log ends with the session's
    total, 113 s, the first two solutions' syntheses in it (its own part began at 77 s). Vitis
    HLS writes its logs alike (danila-kuryakin/fpga_labs, 2021.2: ex_sol6.log's 156.149 s, six
    solutions' syntheses and co-simulations; its own took 4.75 s and 23.2 s): it was its runtime."""
    found = solutions_of_one_tcl_session(tmp_path / "lab", shape, {})
    assert found == [("sol1", None), ("sol2", None), ("sol3", None)]


def test_a_later_session_of_a_solutions_own_in_its_log_times_it(tmp_path: Path) -> None:
    """Stepaka/Xilinx_lab's lab6_z1 (Vitis HLS 2021.2): after the Tcl session's part, each
    solution's log holds a later GUI session that synthesised it again alone (sol2.log: 7.066 s,
    its directives): that session times it, though another solution's log opened it untimed."""
    found = solutions_of_one_tcl_session(tmp_path / "lab", VITIS_HLS_LOG, {"sol2": "7.066"})
    assert found == [("sol1", None), ("sol2", 7.066), ("sol3", None)]


SCALE_CNN = "/home/drauch/scale-cnn/networks/vtr/layers/axi_in/td_fused_axi_in_prj"


def copied_reports_beside_their_session(tmp_path: Path, solutions: tuple[str, ...]) -> list[float | None]:
    """UT-LCA/scale-cnn's layers/axi_in: the project (td_fused_axi_in_prj) not committed, its
    synthesis reports copied into report/, the script's vitis_hls.log beside it: the session
    that opened `solutions` of the project and synthesised them, in 146.42 s."""
    folder = tmp_path / "vtr" / "layers" / "axi_in"
    place(folder, "td_fused_axi_in.cpp", text="void fft32() {}\n")
    place(folder, "td_fused_axi_in.tcl", text="open_project -reset td_fused_axi_in_prj\ncsynth_design\n")
    place(folder, "report/csynth.xml", FFT + "syn__report__csynth.xml")
    opened = "".join(
        f"INFO: [HLS 200-10] Creating and opening solution '{SCALE_CNN}/{name}'.\n"
        "INFO: [HLS 200-1510] Running: set_part xc7z030-sbv485-1 \n"
        "INFO: [HLS 200-1510] Running: csynth_design \n"
        for name in solutions
    )
    log = "Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2020.2 (64-bit)\n" + opened + ELAPSED
    place(folder, "vitis_hls.log", text=log.format("146.42"))
    records, _ = records_of(collect(tmp_path / "vtr"))
    return [r["run"]["runtime_seconds"] for r in records]


def test_a_session_log_beside_the_reports_copied_out_of_its_solution_times_them(tmp_path: Path) -> None:
    """The copy's folder, `report`, is the run's only solution: a session that opened one solution
    alone, of a project not in the tree, wrote them (it was 'a hls_log that no run reads')."""
    assert copied_reports_beside_their_session(tmp_path, ("solution1",)) == [146.42]


def test_a_session_over_two_solutions_does_not_time_the_copy_of_one(tmp_path: Path) -> None:
    assert copied_reports_beside_their_session(tmp_path, ("solution1", "solution2")) == [None]


@pytest.mark.parametrize(("opened", "runtime"), [("myproject_prj", 179.757), ("otherproject_prj", None)])
def test_a_session_log_beside_its_solution_flattened_into_the_project_folder_times_it(
    tmp_path: Path, opened: str, runtime
) -> None:
    """soumil005/CNN-to-FPGA-MNIST-Classifier (hls4ml, Vitis HLS 2023.1, uploaded through the web):
    hls_project/myproject_prj/ holds the solution's csim/, syn/ and impl/ with no solution1/ level
    and no `.app`; the vitis_hls.log beside it opened myproject_prj/solution1 alone and ran it in
    179.757 s. It was 'a hls_log that no run reads' (runtime null), as the report/ copy's was.
    A session of another project folder times nothing."""
    folder = tmp_path / "cnn" / "hls_project"
    place(folder, "myproject_test.cpp", text="int main() {}\n")
    place(folder, "myproject_prj/syn/report/csynth.xml", FFT + "syn__report__csynth.xml")
    log = (
        "Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2020.2 (64-bit)\n"
        f"INFO: [HLS 200-10] Creating and opening project 'D:/fpga_cnn_mnist/hls_project/{opened}'.\n"
        f"INFO: [HLS 200-10] Creating and opening solution 'D:/fpga_cnn_mnist/hls_project/{opened}/solution1'.\n"
        "INFO: [HLS 200-1510] Running: csynth_design \n"
    )
    place(folder, "vitis_hls.log", text=log + ELAPSED.format("179.757"))
    records, _ = records_of(collect(tmp_path / "cnn"))
    assert [r["run"]["runtime_seconds"] for r in records] == [runtime]


OPENED_IN_LAB = "INFO: [HLS 200-10] Creating and opening solution 'C:/Xilinx_trn/lab2_z1/lab2_z1/{}'.\n"


def two_solution_lab(tmp_path: Path) -> Path:
    """Stepaka/Xilinx_lab's lab2_z1: a project of two synthesised solutions, ex_sol1 and ex_sol2,
    its session log (written by the test) in the folder above."""
    root = tmp_path / "lab2_z1"
    project = root / "lab2_z1"
    place(project, "hls.app", text='<project top="fft32" name="lab2_z1"/>\n')
    for solution in ("ex_sol1", "ex_sol2"):
        place(project, f"{solution}/{solution}.aps", text="<solution/>\n")
        place(project, f"{solution}/syn/report/csynth.xml", FFT + "syn__report__csynth.xml")
    return root


def test_a_verdict_is_the_solutions_open_when_it_was_given(tmp_path: Path) -> None:
    """Stepaka/Xilinx_lab's lab2_z1: one vitis_hls.log session simulated ex_sol1 in C, then opened
    ex_sol2 and synthesised it only (no csim/ folder); the verdict made a csim run of ex_sol2
    too, a `pass` of a simulation never run."""
    root = two_solution_lab(tmp_path)
    opened = OPENED_IN_LAB
    place(
        root,
        "vitis_hls.log",
        text=opened.format("ex_sol1")
        + "INFO: [HLS 200-1510] Running: csim_design -clean \nINFO: [SIM 211-1] CSim done with 0 errors.\n"
        + "INFO: [HLS 200-1510] Running: csynth_design \n"
        + opened.format("ex_sol2")
        + "INFO: [HLS 200-1510] Running: csynth_design \n"
        + ELAPSED.format("2613.88"),
    )
    records, _ = records_of(collect(root))
    assert [(r["implementation"]["variant"]["name"], r["report_type"]) for r in records] == [
        ("ex_sol1", "hls_synth"),
        ("ex_sol1", "sw_run"),
        ("ex_sol2", "hls_synth"),
    ]
    # (its 2613.88 s, one session's for four solutions, was each one's runtime: it is none's)
    assert [r["run"]["runtime_seconds"] for r in records] == [None, None, None]


def test_a_cosim_copy_of_another_clock_than_the_compile_is_no_result(tmp_path: Path) -> None:
    """wzwyz/ZYNQ-based-acoustic-camera: a 2024.1 component co-simulated at 180 MHz (Nov 7), then
    compiled at 400 MHz (Nov 25), which emptied hls/sim/; the copy in reports/ made an rtl_sim
    `pass` of the 400 MHz design, never simulated, and a cosim run of its synthesis (which lost
    the compile's time). The step logs say which configuration each applied."""
    component = tmp_path / "calculate/hls_component"
    settings = ["part=xc7z020clg400-2", "syn.top=fft32", "cosim.trace_level=all"]
    component_with_cosim_copy(component, "calculate", [*settings, "clock=400MHz"], [*settings, "clock=180MHz"])
    with (component / "calculate/logs/hls_compile.log").open("a") as log:
        log.write(ELAPSED.format("16.619"))
    collection = collect(tmp_path)
    records, _ = records_of(collection)
    assert [(r["report_type"], r["run"]["target"], r["run"]["runtime_seconds"]) for r in records] == [
        ("hls_synth", "vitis.csynth", 16.619)
    ]
    assert reasons_for(collection, component / "calculate/reports/hls_cosim.rpt") == [
        "a co-simulation of another design (its hls_run_cosim.log applied clock=5.55556ns where the compile "
        "applied clock=2.5ns), compiled since: not collected"  # 1000 / 180 MHz, 1000 / 400 MHz
    ]


def test_a_cosim_copy_from_a_moved_workspace_with_the_default_clock_named_is_the_runs(tmp_path: Path) -> None:
    """j1hye0n/vitis_hls's sha3: co-simulated in /home/hyeon/workspace with `clock=10ns` set, then
    compiled in /home/hyeon/vitis_hls/workspace with no clock named (the default): the same
    files by name, no setting both applied otherwise: the copy is the run's co-simulation."""
    compiled = ["syn.top=fft32", "syn.file=/home/hyeon/vitis_hls/workspace/sha3/fips202.c"]
    simulated = ["syn.top=fft32", "syn.file=/home/hyeon/workspace/sha3/fips202.c", "clock=10ns"]
    component_with_cosim_copy(tmp_path / "sha3/sha3_hls", "sha3_hls", compiled, simulated)
    records, _ = records_of(collect(tmp_path))
    assert [(r["report_type"], r["run"]["target"]) for r in records] == [
        ("hls_synth", "vitis.cosim"),
        ("rtl_sim", "vitis.cosim"),
    ]


def test_a_configuration_compiled_and_never_linked_runs_on_its_compile_summarys_platform(tmp_path: Path) -> None:
    """beetleboxorg/cvtcolour (2020.1, an older commit): the IDE's Emulation-HW configuration
    compiled its kernel (cvtcolor_bgr2hsv.xo.compile_summary: BF_COMPILE, TT_HW_EMU, the zcu104
    platform) with no v++ log, link summary or IDE .prj committed: the synthesis ran on `unknown`,
    with a line saying nothing named the platform."""
    root = tmp_path / "cvtcolour"
    config = root / "Emulation-HW"
    place(config, "makefile", text="# generated by the IDE\n")
    build = "binary_container_1.build"
    summary = "nmath018-topK_feature___x.hw_emu.xilinx_u250_gen3x16_xdma_4_1_202210_1__krnl.xo.compile_summary"
    place(config, f"{build}/krnl.xo.compile_summary", summary)
    place(config, f"{build}/krnl/krnl/krnl/solution/solution.aps", text="<solution/>\n")
    place(config, f"{build}/krnl/krnl/krnl/solution/syn/report/csynth.xml", FFT + "syn__report__csynth.xml")
    collection = collect(root)
    records, _ = records_of(collection)
    assert [(r["report_type"], r["run"]["target"], r["run"]["device"]) for r in records] == [
        ("hls_synth", "vitis.hw_emu", "xilinx_u250_gen3x16_xdma_4_1_202210_1")
    ]
    assert not [p for p in collection.problems() if "device unknown" in str(p)]


@pytest.mark.parametrize("with_log", [False, True])
def test_a_build_folder_named_on_after_its_platform_names_that_platform(tmp_path: Path, with_log: bool) -> None:
    """danielstumpp/transposed-conv-accel: `TEMP_DIR := ./_x.$(TARGET).$(XSA).$(KERNEL_IMPL)`
    made `_x.sw_emu.xilinx_u200_xdma_201830_2.kernel.cpp`; the run's device was everything after
    the target, `...201830_2.kernel.cpp`, and the v++ log beside it (the true platform) made a
    second run of the one build. Platform names hold no dot (xilinx_u250_gen3x16_xdma_3_1_202020_1)."""
    project = tmp_path / "hw/src"
    platform = "xilinx_u200_xdma_201830_2"
    build = f"_x.sw_emu.{platform}.kernel.cpp"
    place(project, "Makefile", text=f"TEMP_DIR := ./_x.$(TARGET).$(XSA).$(KERNEL_IMPL)\nDEVICE := {platform}\n")
    place(project, "kernel.cpp", text="void TransposeConv2d_kernel() {}\n")
    place(project, f"{build}/transpose_conv.xo", text="xo\n")
    place(project, "vitis_run.meta", text="target=vitis.sw_emu\nstatus=pass\n")
    if with_log:
        log = (
            "INFO: [v++ 74-78] Compiler Version string: 2019.2\n"
            "INFO: [v++ 60-585] Compiling for software emulation target\n"
            f"INFO: [v++ 60-423]   Target device: {platform}\n"
            f"INFO: [v++ 60-586] Created ./{build}/transpose_conv.xo\n"
            "INFO: [v++ 60-791] Total elapsed time: 0h 0m 30s\n"
        )
        place(project, "v++_transpose_conv.sw_emu.log", text=log)
    records, _ = records_of(collect(tmp_path))
    assert [(r["report_type"], r["run"]["device"], r["run"]["runtime_seconds"]) for r in records] == [
        ("sw_run", platform, 30.0 if with_log else None)
    ]


def test_xoccs_kernel_folders_in_a_plain_build_folder_name_their_runs(tmp_path: Path) -> None:
    """n-samar/UCLA's CS259/hw2 (SDAccel 2018.2 on AWS F1, no xocc log committed): xocc's plain
    `_x` holds a folder per kernel and build, `<kernel>.<target>.<platform>`, the hw_emu one with
    its kernel's synthesis. It was 'report of the v++ build folder _x whose target no v++ log,
    summary or folder name says', where the folder's own name says both."""
    project = tmp_path / "CS259/hw2"
    platform = "xilinx_aws-vu9p-f1-04261818_dynamic_5_0"
    place(project, "Makefile", text="# SDAccel\n")
    place(project, "digitrec.cpp", text="void digitrec_kernel() {}\n")
    for target in ("hw_emu", "sw_emu"):
        hls = f"_x/digitrec_kernel.{target}.{platform}/digitrec_kernel/digitrec_kernel"
        place(project, f"{hls}/vivado_hls.app", text='<project top="fft32" name="digitrec_kernel"/>\n')
        place(project, f"{hls}/solution/solution.aps", text="<solution/>\n")
        if target == "hw_emu":
            place(project, f"{hls}/solution/syn/report/csynth.xml", FFT + "syn__report__csynth.xml")
    collection = collect(tmp_path)
    records, _ = records_of(collection)
    assert [(r["report_type"], r["run"]["target"], r["run"]["device"]) for r in records] == [
        ("hls_synth", "vitis.hw_emu", platform)
    ]
    assert collection.problems() == []


@pytest.mark.parametrize(
    ("compiled", "simulated"),
    [
        ("syn.csimflags=-DN_TESTS=4", "syn.csimflags=-DN_TESTS=1000"),  # the test benches' flags (UG1399)
        ("clock=100MHz", "clock=10ns"),  # one clock, spelled otherwise
    ],
)
def test_a_cosim_copy_whose_settings_differ_only_for_the_simulation_or_in_spelling_is_the_runs(
    tmp_path: Path, compiled: str, simulated: str
) -> None:
    """The review of the stale-copy check: flags only the simulations read and a clock written
    in MHz against the same one in ns made a run's own co-simulation a problem line."""
    settings = ["part=xc7z020clg400-2", "syn.top=fft32", "syn.file=src/fft.cpp"]
    component_with_cosim_copy(
        tmp_path / "calculate/hls_component", "calculate", [*settings, compiled], [*settings, simulated]
    )
    records, _ = records_of(collect(tmp_path))
    assert [(r["report_type"], r["run"]["target"]) for r in records] == [
        ("hls_synth", "vitis.cosim"),
        ("rtl_sim", "vitis.cosim"),
    ]


def test_each_solution_has_the_csim_verdict_given_while_it_was_open(tmp_path: Path) -> None:
    """The review of the verdict fix: one session simulated ex_sol1 in C (3 errors), then opened
    ex_sol2 and simulated it (0 errors): both sw_run records said `pass`, the log's last verdict."""
    root = two_solution_lab(tmp_path)
    opened = OPENED_IN_LAB
    csim = "INFO: [HLS 200-1510] Running: csim_design -clean \nINFO: [SIM 211-1] CSim done with {} errors.\n"
    log = (
        opened.format("ex_sol1") + csim.format(3) + opened.format("ex_sol2") + csim.format(0) + ELAPSED.format("26.88")
    )
    place(root, "vitis_hls.log", text=log)
    records, _ = records_of(collect(root))
    assert [(r["implementation"]["variant"]["name"], r["sw_run"]["status"]) for r in records if "sw_run" in r] == [
        ("ex_sol1", "fail"),
        ("ex_sol2", "pass"),
    ]


def test_a_solutions_own_log_cut_short_leaves_no_time_to_its_earlier_names_log(tmp_path: Path) -> None:
    """The review of the own-log fix: sol2_7_double_16.log's last synthesis cut short (no elapsed
    line) let sol2_7_double.log, a session that opened only the solution's earlier name, time it
    (47.968 s of another directive set). Beside its own log, that one is no log of it."""
    root = tmp_path / "KP_502_7"
    place(root, "hls.app", text='<project top="fft32" name="KP_502_7"/>\n')
    place(root, "sol2_7_double_16/sol2_7_double_16.aps", text="<solution/>\n")
    place(root, "sol2_7_double_16/syn/report/csynth.xml", FFT + "syn__report__csynth.xml")
    banner = "Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.1 (64-bit)\n"  # (no solution named)
    synthesis = "INFO: [HLS 200-1510] Running: csynth_design \n"
    place(root, "sol2_7_double_16/sol2_7_double.log", text=banner + synthesis + ELAPSED.format("47.968"))
    own = banner + synthesis + ELAPSED.format("56.289") + banner + synthesis
    place(root, "sol2_7_double_16/sol2_7_double_16.log", text=own)
    records, _ = records_of(collect(root))
    # (its own log's last timed synthesis, as where no log's last synthesis was timed: rules 4.2)
    assert [(r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [("hls_synth", 56.289)]


@pytest.mark.parametrize("newest", ["AXISolution", "UnoptimizedSolution"])
def test_solutions_copied_without_their_report_folders_are_variants(tmp_path: Path, newest: str) -> None:
    """gubbriaco/fir-filter-analysis commits a design-space exploration as report folders only,
    `reports/hls/<X>Solution/syn/csynth.xml` and `sim/<top>_cosim.rpt` (no project, no log): the
    folder holding `syn/` and `sim/` is the solution, and the thirteen are one project's, each a
    variant. Each `syn` was a solution of another project before: one run, whose report the
    files' dates chose (a checkout's order), the twelve others problem lines."""
    root = tmp_path / "firfa"
    designs = {"AXISolution": "Achilisnard-Fibonacci__", "UnoptimizedSolution": "HawkPhantom-rgb2grayscale__"}
    for folder, fixture in designs.items():
        csynth = place(root, f"reports/hls/{folder}/syn/csynth.xml", fixture + "solution1__syn__report__csynth.xml")
        cosim = place(root, f"reports/hls/{folder}/sim/top_cosim.rpt", text=cosim_report("Pass", "26"))
        for path in (csynth, cosim):
            set_mtime(path, 10 if folder == newest else 100)
    collection = collect(root)
    records, _ = records_of(collection)
    assert [
        (
            r["implementation"]["variant"]["name"],
            r["report_type"],
            r["run"]["target"],
            r.get("rtl_sim", {}).get("status"),
        )
        for r in records
    ] == [
        ("AXISolution", "hls_synth", "vitis.cosim", None),
        ("AXISolution", "rtl_sim", "vitis.cosim", "pass"),
        ("UnoptimizedSolution", "hls_synth", "vitis.cosim", None),
        ("UnoptimizedSolution", "rtl_sim", "vitis.cosim", "pass"),
    ]
    tops = [r["hls_synth"]["UserAssignments"]["TopModelName"] for r in records if r["report_type"] == "hls_synth"]
    assert tops == ["fibonacci", "image_filter"] and collection.problems() == []


@pytest.mark.parametrize("newest", ["solution1_baseline", "solution2_dataflow"])
def test_reports_copied_into_their_solutions_own_report_folder_are_variants(tmp_path: Path, newest: str) -> None:
    """chaoNTUEE/HLS_Lab-A commits each solution's syn/report as `<solution>/report/` (and one
    more synthesis as `report_nopipeline/`): each `report*` folder was a solution of its own
    project, one run whose report the files' dates chose. A `report*` folder in a folder named
    as a solution is that solution's copy: one variant per solution; of two copies in one, the
    pick's."""
    root = tmp_path / "HLS_Lab-A"
    fixtures = {
        "solution1_baseline/report": "Achilisnard-Fibonacci__",
        "solution1_baseline/report_nopipeline": "HawkPhantom-rgb2grayscale__",
        "solution2_dataflow/report": "HawkPhantom-rgb2grayscale__",
    }
    for folder, fixture in fixtures.items():
        path = place(root, f"{folder}/csynth.xml", fixture + "solution1__syn__report__csynth.xml")
        set_mtime(path, 10 if folder.startswith(newest) else 100)
    place(root, "solution1_baseline/tcl/script.tcl", text="open_project dct\n")
    collection = collect(root)
    records, _ = records_of(collection)
    assert [(r["implementation"]["variant"]["name"], r["report_type"]) for r in records] == [
        ("solution1_baseline", "hls_synth"),
        ("solution2_dataflow", "hls_synth"),
    ]
    assert records[1]["hls_synth"]["UserAssignments"]["TopModelName"] == "image_filter"
    assert not [p for p in collection.problems() if "not recorded" in p.reason]


@pytest.mark.parametrize("project_file", ["hls.app", ".vitis_hls_log_all.xml"])
def test_a_project_committed_without_its_app_is_known_by_the_guis_log_index(tmp_path: Path, project_file: str) -> None:
    """necst/pynqrypt, rezaAdinepour/HLS-Tutorial: GitHub's C++ .gitignore holds `*.app`, so the
    project folder kept only the GUI's `.vitis_hls_log_all.xml`. Taken for no HLS project, the
    folder with its solution was the project, and the GUI's `vitis_hls.log` beside it, which ran
    the synthesis (the solution's own 2023 log holds no total), was read by no run: runtime null,
    or an older session's. The index stands for the `.app`: the same records either way."""
    workspace = tmp_path / "repo/Ex7"
    synthesised_solution(workspace / "Ex1", "Ex1")
    (workspace / "Ex1/hls.app").unlink()
    place(workspace, f"Ex1/{project_file}", text='<project top="fft32" name="Ex1"/>\n')
    banner = "Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.2 (64-bit)\n"
    place(workspace, "Ex1/solution1/solution1.log", text=banner + "INFO: [HLS 200-1510] Running: csynth_design \n")
    opened = "INFO: [HLS 200-1510] Running: open_project Ex1 \nINFO: [HLS 200-1510] Running: open_solution solution1 \n"
    synthesis = "INFO: [HLS 200-1510] Running: csynth_design \n" + ELAPSED.format("17.942")
    place(workspace, "vitis_hls.log", text=banner + opened + synthesis)
    records, _ = records_of(collect(tmp_path / "repo"))
    assert [(r["problem"]["group_path"], r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [
        (["Ex7"], "hls_synth", 17.942)
    ]


def test_a_vivado_hls_project_committed_without_its_app_is_known_by_its_log_index(tmp_path: Path) -> None:
    """robertszafa/elastic-sycl-hls (Vivado HLS 2019.2): the GUI's index is `.vivado_hls_log_all.xml`
    there; with `vivado_hls.app` ignored, the project folder was a group of its own
    (["bench", "proj_loop_imperfect"]) and the session log of the folder it ran in was read by no
    run. The index stands for the `.app` as Vitis HLS's does."""
    bench = tmp_path / "repo/getTanh"
    synthesised_solution(bench / "proj_loop_imperfect", "proj_loop_imperfect", app=".vivado_hls_log_all.xml")
    banner = "****** Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC v2019.2 (64-bit)\n"
    session = (
        f"{banner}INFO: [HLS 200-10] In directory '/home/u/getTanh'\n"
        "INFO: [HLS 200-10] Opening project '/home/u/getTanh/proj_loop_imperfect'.\n"
        "INFO: [HLS 200-10] Opening solution '/home/u/getTanh/proj_loop_imperfect/solution1'.\n"
        "INFO: [HLS 200-10] Starting code transformations ...\n" + ELAPSED.format("21.5")
    )
    place(bench, "vivado_hls.log", text=session)
    records, _ = records_of(collect(tmp_path / "repo"))
    assert [(r["problem"]["group_path"], r["report_type"], r["run"]["runtime_seconds"]) for r in records] == [
        (["getTanh"], "hls_synth", 21.5)
    ]
