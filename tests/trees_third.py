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
