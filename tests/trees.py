"""Whole build trees in a temporary directory, modelled on the real layouts in
tests/fixtures/layouts, filled with real report files from tests/fixtures/vitis."""

from __future__ import annotations

from pathlib import Path

from .conftest import FIXTURES, place, set_mtime

U250 = "xilinx_u250_gen3x16_xdma_4_1_202210_1"
U50 = "xilinx_u50_gen3x16_xdma_5_202210_1"
N = "nmath018-topK_feature__"
FFT = "SherlockChristie-FFT__FFT_sol_2__"


def sources(project: Path, marker: str = "Makefile", source: str = "src/kernel.cpp") -> None:
    place(project, marker, text="# build\n")
    place(project, source, text="void kernel() {}\n")


def waiting_solution(root: Path, group: str = "k", variant: str = "k_1_a") -> Path:
    """A vitis_hls project whose solution exists but has no report yet."""
    return solution_at(root / "Benchmarks" / group / variant, group)


def solution_at(project: Path, kernel: str = "k") -> Path:
    """A vitis_hls project in `project`, its solution waiting for its report."""
    sources(project, "run_hls.tcl", f"{kernel}.cpp")
    place(project, "proj/hls.app", text="<project/>\n")
    place(project, "proj/solution1/solution1.aps", text="<solution/>\n")
    return project


def hw_emu_build(root: Path) -> Path:
    """v++ hw_emu build of topK, its packaged csynth copy with other numbers, and a hw build beside it."""
    p = root / "Benchmarks/topk/topk_1_pipeline"
    sources(p)
    x = f"_x.hw_emu.{U250}"
    place(
        p,
        f"{x}/krnl/topKQueryScores/topKQueryScores/solution/syn/report/csynth.xml",
        N + f"_x.hw_emu.{U250}__krnl__topKQueryScores__topKQueryScores__solution__syn__report__csynth.xml",
    )
    copy = place(
        p,
        f"{x}/link/vivado/vpl/prj/prj.gen/sources_1/ip/topK/hls_files/syn/report/csynth.xml",
        N + f"_x.hw_emu.{U250}__krnl__topKQueryScores__topKQueryScores__solution__syn__report__csynth.xml",
    )
    copy.write_text(copy.read_text().replace("<LUT>7295</LUT>", "<LUT>1</LUT>"))
    set_mtime(p / x / "krnl/topKQueryScores/topKQueryScores/solution/syn/report/csynth.xml", 100)
    place(p, f"{x}/logs/krnl/v++.log", N + f"_x.hw_emu.{U250}__logs__krnl__v++.log")
    place(p, f"{x}/logs/link/v++.log", N + f"_x.hw_emu.{U250}__logs__link__v++.log")
    # the same link invocation also logged in the working directory: counted once
    place(p, "v++_krnl.link.hw_emu.log", N + f"_x.hw_emu.{U250}__logs__link__v++.log")
    place(p, f"{x}/krnl.xo.compile_summary", N + f"_x.hw_emu.{U250}__krnl.xo.compile_summary")
    place(p, f"{x}/link/int/systemDiagramModel.json", N + f"_x.hw_emu.{U250}__link__int__systemDiagramModel.json")
    place(p, ".run/1585848/hw_em/device0/binary_0/behav_waveform/xsim/profile_kernels.csv", N + "profile_kernels.csv")
    place(p, f"_x.hw.{U250}/logs/link/v++.log", N + f"_x.hw.{U250}__logs__link__v++.log")
    return p


def hls_two_solutions(root: Path) -> Path:
    """vitis_hls project with csim, csynth and cosim in two solutions; solution2 is newer."""
    p = root / "Benchmarks/fft/fft_2_opt"
    sources(p, "run_hls.tcl", "fft.cpp")
    place(p, "proj/hls.app", text="<project/>\n")
    for sol, lat in (("solution1", "opt1"), ("solution2", "opt3_overall_pipeline")):
        place(p, f"proj/{sol}/{sol}.aps", text="<solution/>\n")
        place(p, f"proj/{sol}/syn/report/csynth.xml", FFT + "opt1__syn__report__csynth.xml")
        place(p, f"proj/{sol}/sim/report/verilog/lat.rpt", FFT + f"{lat}__sim__report__verilog__lat.rpt")
        place(p, f"proj/{sol}/sim/report/fft32_cosim.rpt", FFT + "opt1__sim__report__fft32_cosim.rpt")
        place(p, f"proj/{sol}/csim/report/fft32_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    older = p / "proj/solution1/syn/report/csynth.xml"
    older.write_text(older.read_text().replace("<LUT>15752</LUT>", "<LUT>99999</LUT>"))
    set_mtime(older, 500)
    # the real session opened its project FFT_sol_2's folder opt4_just_pipe_all; here that
    # solution is proj/solution2
    log = place(p, "vitis_hls.log", "SherlockChristie-FFT__vitis_hls.log")
    log.write_bytes(log.read_bytes().replace(b"opt4_just_pipe_all", b"solution2").replace(b"FFT_sol_2", b"proj"))
    return p


def unified_component(root: Path) -> Path:
    """2025.2 unified component: <comp>/hls/syn/report, cosim copied to <comp>/reports/."""
    p = root / "Benchmarks/canny/canny_top"
    sources(p, "vitis-comp.json", "src/canny.cpp")
    place(p, "hls_config.cfg", text="part=xck26-sfvc784-2LV-c\n")
    place(p, "hls/syn/report/csynth.xml", "superkooks-comp4601__canny_hls__canny_top__hls__syn__report__csynth.xml")
    copy = place(
        p,
        "hls/impl/ip/hls_files/hls/syn/report/csynth.xml",
        "superkooks-comp4601__canny_hls__canny_top__hls__syn__report__csynth.xml",
    )
    copy.write_text(copy.read_text().replace("<LUT>19589</LUT>", "<LUT>1</LUT>"))
    place(p, "reports/hls_cosim.rpt", "superkooks-comp4601__canny_hls__canny_top__reports__hls_cosim.rpt")
    place(p, "canny_top.hlscompile_summary", "superkooks-comp4601__canny_hls__canny_top__canny_top.hlscompile_summary")
    return p


def sw_emu_build(root: Path) -> Path:
    p = root / "Benchmarks/beamform/beamform_0_baseline"
    sources(p)
    place(
        p,
        f"_x_temp.sw_emu.{U50}/logs/Top_Kernel/v++.log",
        f"s095339-Adaptive_Beamforming___x_temp.sw_emu.{U50}__logs__Top_Kernel__v++.log",
    )
    place(p, "v++_Top_Kernel.log", "s095339-Adaptive_Beamforming__v++_Top_Kernel.log")
    place(
        p,
        f"_x_temp.sw_emu.{U50}/link/int/systemDiagramModel.json",
        f"s095339-Adaptive_Beamforming___x_temp.sw_emu.{U50}__link__int__systemDiagramModel.json",
    )
    place(
        p,
        "vitis_run.meta",
        text="# written by the harness\ntarget=vitis.sw_emu\nstatus=pass\nruntime_seconds=12.5\nharness_job=42\n",
    )
    return p


def failed_synthesis(root: Path) -> Path:
    p = root / "Benchmarks/lud/lud_1_tiling"
    sources(p, "run_hls.tcl", "lud.cpp")
    # (the real session's project, flat/, as it was)
    place(p, "flat/hls.app", text="<project/>\n")
    place(p, "flat/solution1/solution1.aps", text="<solution/>\n")
    place(
        p,
        "vitis_hls.log",
        "asandeep1-FPGA_ECE8893__2022_Spring__Final_Projects__FLAT-acceleration__source_code__HLS__vitis_hls.log",
    )
    return p


def runner_timeout(root: Path) -> Path:
    p = root / "Benchmarks/srad/srad_2_pipeline"
    sources(p)
    place(
        p,
        "vitis_run.hw_emu.meta",
        text="target=vitis.hw_emu\ndevice=xilinx_u280_gen3x16_xdma_1_202211_1\n"
        "vitis_version=2023.2\nruntime_seconds=72000\nstatus=timeout\n",
    )
    return p


def not_built(root: Path) -> Path:
    p = root / "Benchmarks/nw/nw_0_baseline"
    sources(p)
    place(root, "Benchmarks/nw/common.mk", text="")
    place(root, "Benchmarks/nw/data/input.data", text="1 2 3\n")
    return p


ALL = (hw_emu_build, hls_two_solutions, unified_component, sw_emu_build, failed_synthesis, runner_timeout, not_built)


def build_all(root: Path) -> Path:
    for make in ALL:
        make(root)
    return root


AIE = FIXTURES / "aie"
XRT = FIXTURES / "xrt"
LOOM = FIXTURES / "loom"
GRAPH_H = """#include <adf.h>
class FirGraph : public adf::graph {
public:
  adf::input_plio in;
  adf::output_plio out;
  FirGraph() {
    in = adf::input_plio::create("DataIn", adf::plio_32_bits, "data/input.txt");
    out = adf::output_plio::create("DataOut", adf::plio_32_bits, "data/output_aie.txt");
    // kernel ports: input_buffer<cint16>, output_buffer<cint16>
  }
};
"""


def aie_project(root: Path) -> Path:
    """An AI Engine design simulated with aiesimulator and x86simulator (real output files)."""
    p = root / "Benchmarks/fir/fir_1_lowpass"
    sources(p, "Makefile", "aie/kernels.cpp")
    place(p, "aie/graph.h", text=GRAPH_H)
    target = p / "aiesimulator_output/data/output_aie.txt"
    target.parent.mkdir(parents=True)
    target.write_bytes((AIE / "xup_aie_training__fir_lowpass__output_aie.txt").read_bytes())
    golden = p / "x86simulator_output/data/output_aie.txt"
    golden.parent.mkdir(parents=True)
    golden.write_bytes((AIE / "xup_aie_training__fir_lowpass__output_golden.txt").read_bytes())
    return p


def xrt_project(root: Path) -> Path:
    p = root / "Benchmarks/npu/resnet_0_baseline"
    p.mkdir(parents=True)
    # XRT's test recipe, with its cpu library named the way the runner reads it (library_name)
    recipe = (XRT / "test_recipe.json").read_bytes().replace(b'"library_path"', b'"library_name"')
    (p / "recipe.json").write_bytes(recipe)
    return p


def loom_project(root: Path) -> Path:
    p = root / "Benchmarks/cgra/gemm_2_unroll"
    p.mkdir(parents=True)
    (p / "dfg.fabric.map.json").write_bytes((LOOM / "SYNTHETIC_dfg.fabric.map.json").read_bytes())
    (p / "dfg.fabric.config.json").write_bytes((LOOM / "SYNTHETIC_dfg.fabric.config.json").read_bytes())
    snapshots = p / "mapper-snapshots"
    snapshots.mkdir()
    (snapshots / "dfg.fabric.snapshot-0001.negotiated-iter.mapper-0001.map.json").write_bytes(
        (
            LOOM / "SYNTHETIC_mapper-snapshots__dfg.fabric.snapshot-0001.negotiated-iter.mapper-0001.map.json"
        ).read_bytes()
    )
    return p
