"""Runs and their facts in real build trees (issue 11, items 4 to 11).

Small trees in the shapes of public repositories (named per test), with real report files
from tests/fixtures/vitis.
"""

from __future__ import annotations

from pathlib import Path

from ..conftest import place
from .test_realtree_discovery import collect, projects, summary

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
    records, _ = collection.records()
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
