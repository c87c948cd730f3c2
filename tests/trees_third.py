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
