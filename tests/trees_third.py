"""Trees in the shapes the collection rules' third edition describes (several solutions of one
HLS project, DSP primitives, AI Engine run summaries, mapper snapshot files), built from the
real report files of tests/fixtures/vitis."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import VITIS, place, set_mtime
from .trees import loom_project, sources

RGB = "HawkPhantom-rgb2grayscale__solution1__"  # 2018.2, xc7z020clg400-1, DSP48E 3 of 220
PCOVER = "Crinstaniev-ParticleCoverHLS__solution1__syn__report__csynth.xml"  # 2020.2, xcvu11p, DSP 8
VCK190 = "xilinx_vck190_base_202320_1"


def csynth_with_dsp_name(tree: Path, rel: str, primitive: str) -> Path:
    """rgb2grayscale's 2018.2 report with its DSP48E count named after another primitive."""
    text = (VITIS / (RGB + "syn__report__csynth.xml")).read_text()
    return place(tree, rel, text=text.replace("DSP48E>", f"{primitive}>"))


def three_solutions(root: Path) -> Path:
    """A Vitis HLS project whose path gives no variant, with three solutions: solution1 and
    solution2 synthesised (other parts, other reports), solution3 only C-simulated."""
    p = root / "Benchmarks/gemm"
    sources(p, "run_hls.tcl", "gemm.cpp")
    place(p, "proj/hls.app", text='<project top="image_filter"/>\n')
    for sol in ("solution1", "solution2", "solution3"):
        place(p, f"proj/{sol}/{sol}.aps", text="<solution/>\n")
    place(p, "proj/solution1/syn/report/csynth.xml", RGB + "syn__report__csynth.xml")
    place(p, "proj/solution1/sim/report/verilog/lat.rpt", RGB + "sim__report__verilog__lat.rpt")
    place(p, "proj/solution1/sim/report/image_filter_cosim.rpt", RGB + "sim__report__image_filter_cosim.rpt")
    place(p, "proj/solution2/syn/report/csynth.xml", PCOVER)
    place(p, "proj/solution3/csim/report/image_filter_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    return p


def path_variant_two_solutions(root: Path) -> Path:
    """The same shape where the path gives the variant (gemm_2_tiled): solution2 is newer."""
    p = root / "Benchmarks/gemm/gemm_2_tiled"
    sources(p, "run_hls.tcl", "gemm.cpp")
    place(p, "proj/hls.app", text="<project/>\n")
    for sol, fixture, age in (("solution1", RGB + "syn__report__csynth.xml", 500), ("solution2", PCOVER, 10)):
        place(p, f"proj/{sol}/{sol}.aps", text="<solution/>\n")
        set_mtime(place(p, f"proj/{sol}/syn/report/csynth.xml", fixture), age)
    return p


def aie_with_run_summary(root: Path) -> Path:
    """An AI Engine project whose aiesimulator wrote its run summary beside its output folder's data."""
    from .trees import aie_project

    p = aie_project(root)
    summary = {
        "hardwarePlatform": f"/opt/xilinx/platforms/{VCK190}/{VCK190}.xpfm",
        "toolVersion": "2023.2",
        "simulator": "aiesimulator",
    }
    place(p, "aiesimulator_output/default.aierun_summary", text=json.dumps(summary, indent=2) + "\n")
    return p


def loom_with_snapshot_files(root: Path) -> Path:
    """A mapper run whose snapshots folder also holds a configuration snapshot and a text dump."""
    p = loom_project(root)
    snapshots = p / "mapper-snapshots"
    config = (p / "dfg.fabric.config.json").read_bytes()
    (snapshots / "dfg.fabric.snapshot-0003.route-repair.mapper-0001.config.json").write_bytes(config)
    (snapshots / "dfg.fabric.snapshot-0003.route-repair.mapper-0001.map.txt").write_text("node 0 -> pe 0\n")
    return p


VIVADO_HLS_2018 = "****** Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC v2018.2 (64-bit)\n"
VITIS_HLS_2023 = "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.1 (64-bit)\n"
VITIS_HLS_2020 = "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2020.2 (64-bit)\n"


def session(banner: str, *commands: str) -> str:
    """One session of an HLS log: its banner, then each command echoed and what it printed."""
    lines = [banner, "  **** SW Build 2258646 on Thu Jun 14 20:02:38 MDT 2018\n"]
    for command in commands:
        echoed, _, printed = command.partition("\n")
        lines.append(f"INFO: [HLS 200-1510] Running: {echoed} \n")
        lines.append(printed + ("\n" if printed and not printed.endswith("\n") else ""))
    return "".join(lines)


SYNTHESIS = (
    "csynth_design\nINFO: [HLS 200-10] Analyzing design file 'rgb.cpp' ... \n"
    "INFO: [HLS 200-111] Finished Command csynth_design CPU user time: 20 seconds. "
    "CPU system time: 1 seconds. Elapsed time: 24.5 seconds; current allocated memory: 300 MB.\n"
    "INFO: [HLS 200-112] Total CPU user time: 22 seconds. Total CPU system time: 2 seconds. "
    "Total elapsed time: 31.25 seconds; peak allocated memory: 301 MB."
)
PART_MISSING = "set_part xc7z020clg400-1\nERROR: [HLS 200-1023] Part 'xc7z020clg400-1' is not installed."
BAD_CONFIG = (
    "config_compile -name_max_length 80\nERROR: [HLS 200-101] 'config_compile': Unknown option '-name_max_length'."
)


def sessions_of_other_versions(root: Path, report: str = "csynth.xml") -> Path:
    """A 2018.2 solution synthesised once; a 2020.2 session before it and a 2023.1 session after it
    opened it and stopped at a setup error. `report`: the name the design's report has (a
    solution that lost its csynth.xml keeps `<top>_csynth.xml`)."""
    p = root / "Benchmarks/rgb/rgb_1_base"
    sources(p, "run_hls.tcl", "rgb.cpp")
    place(p, "proj/solution1/solution1.aps", text="<solution/>\n")
    place(p, f"proj/solution1/syn/report/{report}", RGB + "syn__report__csynth.xml")
    place(p, "proj/solution1/syn/report/rgb_loop_csynth.xml", RGB + "syn__report__csynth.xml")
    opened = "open_project proj\n", "set_top image_filter\n", "open_solution solution1\n"
    log = (
        session(VITIS_HLS_2020, *opened, BAD_CONFIG)
        + session(VIVADO_HLS_2018, *opened, "set_part xc7z020clg400-1", SYNTHESIS)
        + session(VITIS_HLS_2023, *opened, PART_MISSING)
    )
    place(p, "proj/solution1/solution1.log", text=log)
    return p


def failed_component(root: Path, summary_says: str = "CS_FAILED", log_says: str = "") -> Path:
    """A 2024.x unified component whose compile failed: its summary's status, its compile log."""
    from .conftest import fixture_bytes

    p = root / "Benchmarks/conv/conv_top"
    sources(p, "vitis-comp.json", "src/conv.cpp")
    place(p, "hls_config.cfg", text="part=xck26-sfvc784-2LV-c\n")
    text = fixture_bytes("asandeep1-FPGA_ECE8893__2026_Spring__lab0__project_1__project_1.hlscompile_summary").decode()
    place(p, "conv_top.hlscompile_summary", text=text.replace("CS_PASSED", summary_says))
    place(
        p,
        "logs/hls_compile.log",
        text="INFO: [HLS 200-10] Setting target device to 'xck26-sfvc784-2LV-c'\n" + log_says,
    )
    return p


U250 = "xilinx_u250_gen3x16_xdma_4_1_202210_1"
TOPK = "nmath018-topK_feature__"
HWEMU = f"{TOPK}_x.hw_emu.{U250}__"


def ide_workspace(root: Path) -> Path:
    """A classic Vitis IDE workspace: the application `topk` (.project, src/) with its three
    build configurations, `topk_system` and `topk_system_hw_link` beside it. Emulation-HW ran: its
    profile sits beside the host program; the kernel's HLS solution, logs and link output lie in
    `binary_container_1.build/` of the link project's configuration."""
    app = root / "topk"
    place(app, ".project", text="<projectDescription><name>topk</name></projectDescription>\n")
    place(app, "src/host.cpp", text="int main() { return 0; }\n")
    place(app, "src/krnl.cpp", text="void topKQueryScores() {}\n")
    for config in ("Emulation-SW", "Emulation-HW", "Hardware"):
        place(app, f"{config}/makefile", text="# generated by the IDE\nall: topk\n")
        place(app, f"{config}/topk", text="host program\n")
    place(app, "Emulation-HW/profile_kernels.csv", TOPK + "profile_kernels.csv")
    place(app, "Emulation-HW/binary_container_1.build/logs/krnl/v++.log", HWEMU + "logs__krnl__v++.log")
    place(
        app,
        "Emulation-HW/binary_container_1.build/krnl/topKQueryScores/topKQueryScores/solution/syn/report/csynth.xml",
        HWEMU + "krnl__topKQueryScores__topKQueryScores__solution__syn__report__csynth.xml",
    )
    place(app, "Emulation-HW/binary_container_1.build/krnl.xo", text="xo\n")
    sw = f"{TOPK}_x.sw_emu.{U250}__logs__krnl__v++.log"
    place(app, "Emulation-SW/binary_container_1.build/logs/krnl/v++.log", sw)
    link = root / "topk_system_hw_link"
    place(link, ".project", text="<projectDescription><name>topk_system_hw_link</name></projectDescription>\n")
    place(link, "Emulation-HW/makefile", text="# generated by the IDE\n")
    place(link, "Emulation-HW/binary_container_1.build/logs/link/v++.log", HWEMU + "logs__link__v++.log")
    place(
        link,
        "Emulation-HW/binary_container_1.build/link/int/systemDiagramModel.json",
        HWEMU + "link__int__systemDiagramModel.json",
    )
    hw_link = f"{TOPK}_x.hw.{U250}__logs__link__v++.log"
    place(link, "Hardware/binary_container_1.build/logs/link/v++.log", hw_link)
    system = root / "topk_system"
    place(system, ".project", text="<projectDescription><name>topk_system</name></projectDescription>\n")
    place(system, "Emulation-HW/makefile", text="# generated by the IDE\n")
    place(system, "Emulation-HW/package/sd_card/README", text="boot files\n")
    return app


def link_output_named_after_the_kernel(root: Path) -> Path:
    """`v++ -l -o mac --temp_dir mac` beside a kernel's own HLS project: `mac/` holds the link's
    int/xo and sys_link/iprepo copies of the kernel's solution (never projects of their own)."""
    p = root / "Benchmarks/mac/mac_1_pipeline"
    sources(p, "run_hls.tcl", "mac.cpp")
    place(p, "proj/hls.app", text='<project top="image_filter"/>\n')
    place(p, "proj/solution1/solution1.aps", text="<solution/>\n")
    place(p, "proj/solution1/syn/report/csynth.xml", RGB + "syn__report__csynth.xml")
    for copy in (
        "mac/int/xo/mac/mac/mac/solution/syn/report/csynth.xml",
        "mac/sys_link/iprepo/temp/xo0/mac/solution/syn/report/csynth.xml",
    ):
        place(p, copy, RGB + "syn__report__csynth.xml")
        place(p, copy.replace("syn/report/csynth.xml", "solution.aps"), text="<solution/>\n")
        place(p, copy.rpartition("/solution/")[0] + "/Makefile", text="all:\n")
        place(p, copy.rpartition("/solution/")[0] + "/mac.cpp", text="void mac() {}\n")
    place(p, "mac/logs/link/v++.log", HWEMU + "logs__link__v++.log")
    return p


ZCU102 = "xilinx_zcu102_base_202220_1"


def ide_kernels_project(root: Path) -> Path:
    """A 2022.2 IDE workspace committed without `.project` files: `vision/vision.prj`, and
    `vision_kernels/` whose `.prj` names the platform, with the kernel's HLS solution under its
    Emulation-HW configuration's `build/` (no v++ log, no link summary)."""
    app = root / "vision"
    place(app, "vision.prj", text='<?xml version="1.0" encoding="ASCII"?>\n<project name="vision"/>\n')
    kernels = root / "vision_kernels"
    platform = f"/tools/Xilinx/Vitis/2022.2/base_platforms/{ZCU102}/{ZCU102}.xpfm"
    place(
        kernels,
        "vision_kernels.prj",
        text=f'<?xml version="1.0" encoding="ASCII"?>\n<hwkernel:HwKernelProject name="vision_kernels" '
        f'platform="{platform}" systemProject="vision_system">\n</hwkernel:HwKernelProject>\n',
    )
    place(kernels, "src/threshold.cpp", text="void threshold_accel() {}\n")
    solution = "Emulation-HW/build/threshold_accel/threshold_accel/threshold_accel/solution"
    place(kernels, f"{solution}/solution.aps", text="<solution/>\n")
    place(kernels, f"{solution}/syn/report/csynth.xml", RGB + "syn__report__csynth.xml")
    place(kernels, f"{solution}/impl/ip/hls_files/threshold_accel/solution/syn/report/csynth.xml", PCOVER)
    return app


def solution_named_only_by_its_reports(root: Path) -> Path:
    """A Vivado HLS 2016.4 solution committed alone (skamat95/RCT's shape): no project file, no
    script, no `set_top` in its log; only per-module `<module>_csynth.xml` reports, and the C and
    RTL simulation reports that Vivado HLS names after the top function."""
    p = root / "Benchmarks/rct/rct_1_base"
    sources(p, "ClusterFinder.cc")
    place(p, "solution1/solution1.aps", text="<solution/>\n")
    place(p, "solution1/syn/report/rgb_csynth.xml", RGB + "syn__report__csynth.xml")
    place(p, "solution1/syn/report/bitonic8_csynth.xml", PCOVER)
    place(p, "solution1/csim/report/rgb_csim.log", text="@I [SIM-1] CSim done with 0 errors.\n")
    place(p, "solution1/sim/report/rgb_cosim.rpt", "skamat95-RCT__solution1__sim__report__getClustersInCard_cosim.rpt")
    return p


def csim_logs_of_two_tops(root: Path) -> Path:
    """mzrghorbani/lr_hls_dev's shape: the script sets the top LR_top; `csim/report/` holds its
    passing `LR_top_csim.log` and, newer (a checkout dates files in any order), a `_csim.log`
    that a compile without a top left, failed."""
    p = root / "Benchmarks/lr/lr_1_base"
    sources(p, "LR.cpp")
    place(p, "proj/solution1/solution1.aps", text="<solution/>\n")
    place(p, "proj/solution1/script.tcl", text="open_project proj\nset_top LR_top\nopen_solution solution1\n")
    top = place(p, "proj/solution1/csim/report/LR_top_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    stray = "ERROR: [SIM 211-100] 'csim_design' failed: compilation error(s).\n"
    place(p, "proj/solution1/csim/report/_csim.log", text=stray)
    set_mtime(top, 3600)
    return p


AWS_F1 = "xilinx_aws-vu9p-f1_shell-v04261818_201920_2"


def ide_project_cloned_under_another_name(root: Path) -> Path:
    """noureddine-as/hw_lane_detection's shape: a Vitis 2020.1 IDE application whose folder is the
    repository's name, its `lane_detector_v2.prj` (the only place naming the AWS F1 platform)
    beside `.project`; the kernel's HLS solution under Emulation-HW's build, with no v++ log;
    and the cosimulation's `.prj` source lists, which are not project files."""
    app = root / "hw_lane_detection"
    place(app, ".project", text="<projectDescription><name>lane_detector_v2</name></projectDescription>\n")
    platform = f"/home/centos/src/project_data/aws-fpga/Vitis/aws_platform/{AWS_F1}/{AWS_F1}.xpfm"
    place(
        app,
        "lane_detector_v2.prj",
        text='<?xml version="1.0" encoding="ASCII"?>\n<openclProject:OpenCLProject xmi:version="2.0" '
        f'name="lane_detector_v2" platform="{platform}">\n</openclProject:OpenCLProject>\n',
    )
    place(app, "src/host.cpp", text="int main() { return 0; }\n")
    place(app, "Emulation-HW/makefile", text="# generated by the IDE\n")
    solution = "Emulation-HW/binary_container_1.build/lane/lane/lane/solution"
    place(app, f"{solution}/solution.aps", text="<solution/>\n")
    place(app, f"{solution}/syn/report/csynth.xml", RGB + "syn__report__csynth.xml")
    place(app, f"{solution}/sim/verilog/lane.prj", text='verilog xil_defaultlib "lane.v"\n')
    return app


def hls_projects_side_by_side(root: Path) -> Path:
    """ngn-colorado/cloud-rtr's examples/: two Vivado HLS projects made in the GUI, each a folder
    with its `vivado_hls.app`, its own `source/` and a solution; the folder holding them has
    no source of its own. aes_fpga's C simulation failed, qam_fpga's passed."""
    examples = root / "examples"
    for name, top, verdict in (("aes_fpga", "image_filter", "failed"), ("qam_fpga", "qam_runner", "done")):
        place(examples, f"{name}/vivado_hls.app", text=f'<project top="{top}" name="{name}"/>\n')
        place(examples, f"{name}/source/{name}.cpp", text="void top() {}\n")
        place(examples, f"{name}/solution1/solution1.aps", text="<solution/>\n")
        place(examples, f"{name}/solution1/syn/report/csynth.xml", RGB + "syn__report__csynth.xml")
        result = "CSim done with 0 errors." if verdict == "done" else "'csim_design' failed: nonzero return value."
        place(examples, f"{name}/solution1/csim/report/{top}_csim.log", text=f"@I [SIM-1] {result}\n")
    return examples


def csim_only_component(root: Path) -> Path:
    """ykrsama/ds-trigger's input_doubleconv: a 2024.2 unified component that ran its C simulation
    only. The part is in its hls_config.cfg alone, the version in the run's own summary
    (`<work>/<work>.hlsrun_csim_summary`, an `<ENTRY>` stream); the csim log is `_csim.log`."""
    component = root / "input_doubleconv"
    place(
        component,
        "vitis-comp.json",
        text='{"name": "input_doubleconv", "type": "HLS", "configuration": {"componentType": "HLS",'
        ' "configFiles": ["hls_config.cfg"], "work_dir": "input_doubleconv"}}\n',
    )
    place(
        component,
        "hls_config.cfg",
        text="part=xczu15eg-ffvb1156-2-i\n\n[hls]\nflow_target=vivado\nsyn.file=input_doubleconv.cpp\n"
        "syn.top=InputDoubleConv\n",
    )
    place(component, "input_doubleconv.cpp", text="void InputDoubleConv() {}\n")
    work = component / "input_doubleconv"
    summary = (
        '<ENTRY>\n{\n "type": "ET_CmdStep",\n "buildStep": {"name": "vitis-run", "commandLine": "vitis-run --mode hls'
        ' --csim --config hls_config.cfg --work_dir input_doubleconv"}\n}\n</ENTRY>\n<ENTRY>\n{\n "type":'
        ' "ET_Status",\n "status": {"state": "CS_PASSED"}\n}\n</ENTRY>\n<ENTRY>\n{\n "type": "ET_Header",\n'
        ' "toolVersion": "2024.2"\n}\n</ENTRY>\n'
    )
    place(work, "input_doubleconv.hlsrun_csim_summary", text=summary)
    place(work, "hls/csim/report/_csim.log", text="INFO: [SIM 211-1] CSim done with 0 errors.\n")
    return component


def sdx_workspace(root: Path) -> Path:
    """raazgupta/fpga_smith_waterman_algo's shape: an SDx 2018.3 application (project.sdx, no
    .project) whose Emulation-SW configuration ran `xocc`, v++'s predecessor: its logs under
    `binary_container_1/logs/` name the target and the AWS F1 platform with the same message
    numbers, tagged `[XOCC ...]`."""
    app = root / "smith_waterman"
    place(app, "project.sdx", text='<?xml version="1.0"?>\n<sdxProject name="smith_waterman"/>\n')
    place(app, "src/host.cpp", text="int main() { return 0; }\n")
    place(app, "Emulation-SW/makefile", text="# generated by SDx\n")
    log = (
        "INFO: [XOCC 60-629] Linking for software emulation target\n"
        f"INFO: [XOCC 60-895]   Target platform: /aws_platform/{AWS_F1_SDX}/{AWS_F1_SDX}.xpfm\n"
        f"INFO: [XOCC 60-423]   Target device: {AWS_F1_SDX}\n"
        "INFO: [XOCC 60-586] Created binary_container_1.xclbin\n"
        "INFO: [XOCC 60-791] Total elapsed time: 0h 0m 11s\n"
    )
    place(app, "Emulation-SW/binary_container_1/logs/xocc_binary_container_1.log", text=log)
    return app


AWS_F1_SDX = "xilinx_aws-vu9p-f1-04261818_dynamic_5_0"


def csim_of_the_top_never_finished(root: Path) -> Path:
    """burakotlu/pFFT's PositFFT: the configuration's top is positDiv, whose C simulation stopped
    before its verdict (its run summary still says CS_RUNNING); positAdd_csim.log is an earlier
    simulation of another function, which passed."""
    component = csim_only_component(root)
    config = component / "hls_config.cfg"
    config.write_text(config.read_text().replace("syn.top=InputDoubleConv", "syn.top=positDiv"))
    summary = component / "input_doubleconv/input_doubleconv.hlsrun_csim_summary"
    summary.write_text(summary.read_text().replace("CS_PASSED", "CS_RUNNING"))
    report = component / "input_doubleconv/hls/csim/report"
    (report / "_csim.log").unlink()
    cut_short = "INFO: [SIM 211-4] CSIM will launch CLANG as the compiler.\n   Generating csim.exe\n"
    place(report, "positDiv_csim.log", text=cut_short)
    set_mtime(place(report, "positAdd_csim.log", text="INFO: [SIM 211-1] CSim done with 0 errors.\n"), 3600)
    return component


U55C = "xilinx_u55c_gen3x16_xdma_3_202210_1"


def vpp_temp_dir_named_build(root: Path) -> Path:
    """alex-yang-upenn/vitis_accel_backend_test's shape (hls4ml's Vitis accelerator backend): its
    v++ configuration says `temp_dir=build`, `log_dir=build/logs`, `report_dir=build/reports`;
    `build/` holds the compile summary beside them and the kernel's HLS session, packaged."""
    p = root / "backend_test"
    place(p, "Makefile", text="all:\n\tv++ -c -t hw --config ./u55c.cfg kernel_wrapper.cpp -o ./build/krnl.xo\n")
    place(p, "kernel_wrapper.cpp", text="void kernel_wrapper() {}\n")
    place(p, "u55c.cfg", text=f"kernel=kernel_wrapper\nlog_dir=build/logs\nplatform={U55C}\ntemp_dir=build\n")
    build = p / "build"
    log = (
        "INFO: [v++ 60-585] Compiling for hardware target\n"
        f"INFO: [v++ 60-423]   Target device: {U55C}\n"
        "INFO: [v++ 60-791] Total elapsed time: 0h 3m 12s\n"
    )
    place(build, "logs/v++_krnl.log", text=log)
    place(build, "reports/krnl/v++_compile_krnl_guidance.html", text="<html/>\n")
    summary = '<ENTRY>\n{\n "type": "ET_Header",\n "toolVersion": "Vitis V++ Compiler Release 2022.2"\n}\n</ENTRY>\n'
    place(build, "krnl.xo.compile_summary", text=summary)
    session = "krnl/kernel_wrapper/kernel_wrapper"
    place(build, f"{session}/hls.app", text='<project top="kernel_wrapper"/>\n')
    place(build, f"{session}/solution/solution.aps", text="<solution/>\n")
    place(build, f"{session}/solution/syn/report/csynth.xml", RGB + "syn__report__csynth.xml")
    return p


def session_log_beside_hls_projects(root: Path, tcl: bool = False) -> Path:
    """Varsenaiga/VitisOptimization's shape: the HLS tool started in a folder that holds two HLS
    projects, its session log beside them (`vitis_hls.log`; with `tcl`, as vitis-run writes it,
    `logs/hls_run_tcl.log`: j1hye0n/for_ironman's RLMD/) the session of `open_project Testing`,
    which synthesised Testing/solution1 in 31.25 s. Tutorial's solution has its own log, untimed."""
    folder = root / "Vitis"
    for name, top in (("Testing", "image_filter"), ("Tutorial", "image_filter")):
        place(folder, f"{name}/hls.app", text=f'<project top="{top}" name="{name}"/>\n')
        place(folder, f"{name}/solution1/solution1.aps", text="<solution/>\n")
        place(folder, f"{name}/solution1/syn/report/csynth.xml", RGB + "syn__report__csynth.xml")
    opened = (
        "open_project Testing\nINFO: [HLS 200-10] Opening project '/home/u/Vitis/Testing'.",
        "set_top image_filter\n",
        "open_solution solution1\nINFO: [HLS 200-10] Opening solution '/home/u/Vitis/Testing/solution1'.",
    )
    log = session(VIVADO_HLS_2018, *opened, "set_part xc7z020clg400-1", SYNTHESIS)
    place(folder, "logs/hls_run_tcl.log" if tcl else "vitis_hls.log", text=log)
    place(folder, "Tutorial/solution1/solution1.log", text=session(VIVADO_HLS_2018, "csynth_design\n"))
    return folder


def two_releases_synthesised(root: Path) -> Path:
    """Crazy-James26/HeteroCL_Transformer's gemm_fake_systolic_array_12_768.prj: the project's
    folder keeps a `vitis_hls.log` (2020.2 here, 2022.1.2 there: an earlier synthesis, 78.18 s)
    and a `vivado_hls.log` (2018.2 here, 2019.2.1 there: the later synthesis, which wrote the
    report, 78.07 s), both of `out.prj/solution1`; the solution's own log is the later one's,
    untimed."""
    p = root / "gemm_fake.prj"
    sources(p, "run.tcl", "kernel.cpp")
    place(p, "out.prj/hls.app", text='<project top="image_filter" name="out.prj"/>\n')
    place(p, "out.prj/solution1/solution1.aps", text="<solution/>\n")
    place(p, "out.prj/solution1/syn/report/csynth.xml", RGB + "syn__report__csynth.xml")  # (2018.2)
    opened = (
        "open_project out.prj -reset\n",
        "open_solution solution1\nINFO: [HLS 200-10] Opening solution '/home/u/gemm.prj/out.prj/solution1'.",
    )
    place(p, "vitis_hls.log", text=session(VITIS_HLS_2020, *opened, SYNTHESIS.replace("31.25", "78.18")))
    place(p, "vivado_hls.log", text=session(VIVADO_HLS_2018, *opened, SYNTHESIS.replace("31.25", "78.07")))
    untimed = SYNTHESIS.partition("INFO: [HLS 200-112]")[0]
    place(p, "out.prj/solution1/solution1.log", text=session(VIVADO_HLS_2018, *opened, untimed))
    return p


def session_log_above_a_project_without_app(root: Path) -> Path:
    """Warrior-li/SDMA's shape: `vitis_hls -f hls.tcl` run at the repository's root, which keeps
    its `vitis_hls.log` (the session that synthesised spmm_prj/sol1, 37.12 s there; 31.25 s
    here); the project's `hls.app` is git-ignored (`*.app`), its solution's own log untimed."""
    repo = root / "SDMA"
    sources(repo, "hls.tcl", "src/spmm.cpp")
    place(repo, "spmm_prj/sol1/sol1.aps", text="<solution/>\n")
    place(repo, "spmm_prj/sol1/syn/report/csynth.xml", RGB + "syn__report__csynth.xml")
    opened = (
        "open_project spmm_prj\n",
        "open_solution sol1\nINFO: [HLS 200-10] Opening solution '/home/s/SDMA/spmm_prj/sol1'.",
    )
    place(repo, "vitis_hls.log", text=session(VIVADO_HLS_2018, *opened, SYNTHESIS))
    untimed = SYNTHESIS.partition("INFO: [HLS 200-112]")[0]
    place(repo, "spmm_prj/sol1/sol1.log", text=session(VIVADO_HLS_2018, *opened, untimed))
    return repo
