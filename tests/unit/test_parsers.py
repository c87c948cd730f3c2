"""Every real report goes through its parser; a dozen of them have their values asserted."""

from __future__ import annotations

import pytest

from collectors.collect.artifacts import ARTIFACTS, classify
from collectors.collect.artifacts.component import parse_hls_config
from collectors.collect.artifacts.cosim import parse_cosim_rpt
from collectors.collect.artifacts.csynth import parse_csynth
from collectors.collect.artifacts.hls_log import BANNER_ONLY, parse_csim_log, parse_hls_log, release
from collectors.collect.artifacts.latrpt import parse_lat_rpt
from collectors.collect.artifacts.profile import parse_emu_timeline, parse_profile_kernels, parse_xsim_log
from collectors.collect.artifacts.summary import parse_build_summary
from collectors.collect.artifacts.sysdiagram import parse_system_diagram
from collectors.collect.artifacts.vpp_log import parse_vpp_log, platform_name
from collectors.problems import ArtifactError

from ..conftest import VITIS, fixture_bytes


# The fixture's original file name is the last '__' part of the saved name.
def original_name(saved: str) -> str:
    return saved.split("__")[-1]


def original_parent(saved: str) -> str:
    parts = saved.split("__")
    return parts[-2] if len(parts) > 2 else ""


ALL = sorted(p.name for p in VITIS.iterdir() if p.name != "INDEX.md")
KNOWN_BROKEN = {
    # Git LFS pointers committed instead of the files
    "Choocie-vitis-hls-bug-report-mve__build__v++_harness.log",
    "Choocie-vitis-hls-bug-report-mve__build__harness.xsa.link_summary",
}


@pytest.mark.parametrize("saved", ALL)
def test_every_fixture_parses_or_is_refused_with_a_reason(saved: str) -> None:
    kind = classify(original_name(saved), original_parent(saved))
    if saved.endswith("_csynth.xml") and kind is None:
        kind = "csynth"  # <top>_csynth.xml is never a candidate, but the parser must read it
    if kind is None or ARTIFACTS[kind].parse is None:
        pytest.skip(f"{saved}: not an artifact the engine reads")
    from collectors.files import check_not_placeholder

    data = fixture_bytes(saved)
    if saved in KNOWN_BROKEN or saved.endswith("csynth_design_size.xml"):
        with pytest.raises(ArtifactError):
            check_not_placeholder(data)
            ARTIFACTS[kind].parse(data)
        return
    result = ARTIFACTS[kind].parse(data)
    assert isinstance(result, dict) and result


def test_lfs_pointer_is_refused_with_its_reason() -> None:
    from collectors.files import check_not_placeholder

    with pytest.raises(ArtifactError, match="Git LFS pointer"):
        check_not_placeholder(fixture_bytes("Choocie-vitis-hls-bug-report-mve__build__v++_harness.log"))


def test_csynth_2018_flat_dsp48e_undef() -> None:
    data = parse_csynth(fixture_bytes("tony2278-Xilinx-Vivado-HLS__solution1__syn__report__csynth.xml"))
    assert data["ReportVersion"] == {"Version": "2018.3"}
    assert data["UserAssignments"]["Part"] == "xa7a12tcsg325-1q"
    assert data["UserAssignments"]["FlowTarget"] is None
    latency = data["PerformanceEstimates"]["SummaryOfOverallLatency"]
    assert latency["Best-caseLatency"] == "160"
    assert latency["Average-caseLatency"] == "undef"
    assert latency["Worst-caseLatency"] == "2089114"
    assert latency["Worst-caseRealTimeLatency"] is None
    assert latency["Interval-max"] == "2089113"
    assert data["AreaEstimates"]["Resources"] == {
        "BRAM_18K": "9",
        "DSP": "0",
        "FF": "1680",
        "LUT": "4546",
        "URAM": None,
    }
    assert data["PerformanceEstimates"]["SummaryOfTimingAnalysis"] == {"unit": "ns", "EstimatedClockPeriod": "8.144"}


def test_csynth_2019_dsp48e_fills_dsp() -> None:
    data = parse_csynth(fixture_bytes("teozax-fishery__solution1__syn__report__csynth.xml"))
    assert data["AreaEstimates"]["Resources"] == {
        "BRAM_18K": "1110",
        "DSP": "32",
        "FF": "132840",
        "LUT": "174945",
        "URAM": "0",
    }
    assert data["PerformanceEstimates"]["SummaryOfOverallLatency"]["Best-caseRealTimeLatency"] == "13.194 ms"


def test_csynth_crlf_2019_and_2024() -> None:
    mabon = parse_csynth(fixture_bytes("Mr-AniP-mabonSOC__solution1__syn__report__csynth.xml"))
    assert mabon["UserAssignments"]["TopModelName"] == "mabonsoc"
    assert mabon["PerformanceEstimates"]["SummaryOfOverallLatency"]["Interval-min"] == "48"
    assert mabon["AreaEstimates"]["Resources"]["LUT"] == "103630"
    deck = parse_csynth(fixture_bytes("deck11-weighted_round_robin_arbiter__solution1__syn__report__csynth.xml"))
    assert deck["PerformanceEstimates"]["SummaryOfOverallLatency"]["Average-caseLatency"] == "52"
    assert deck["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseRealTimeLatency"] == "1.430 us"
    assert deck["AreaEstimates"]["Resources"] == {"BRAM_18K": "5", "DSP": "0", "FF": "1751", "LUT": "2496", "URAM": "0"}


def test_csynth_1mb_with_64_module_blocks_reads_top_only() -> None:
    raw = fixture_bytes("HanderRi-AMD-Pervasive-AI__solution1__syn__report__csynth.xml")
    assert raw.count(b"<SummaryOfOverallLatency>") == 64
    data = parse_csynth(raw)
    assert set(data["PerformanceEstimates"]["SummaryOfOverallLatency"].values()) == {"clock cycles", "undef"}
    assert data["AreaEstimates"]["Resources"] == {
        "BRAM_18K": "902",
        "DSP": "1452",
        "FF": "172584",
        "LUT": "270827",
        "URAM": "0",
    }
    assert data["AreaEstimates"]["AvailableResources"]["BRAM_18K"] == "288"


def test_csynth_2025_unified_layout() -> None:
    data = parse_csynth(fixture_bytes("superkooks-comp4601__canny_hls__canny_top__hls__syn__report__csynth.xml"))
    assert data["ReportVersion"]["Version"] == "2025.2"
    assert data["UserAssignments"]["FlowTarget"] == "vitis"
    assert data["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseLatency"] == "637031"
    assert data["PerformanceEstimates"]["SummaryOfTimingAnalysis"]["EstimatedClockPeriod"] == "3.650"
    assert data["AreaEstimates"]["Resources"]["LUT"] == "19589"


def test_csynth_three_part_versions_and_large_latency() -> None:
    ritarka = parse_csynth(fixture_bytes("Ritarka-Layers-Template__proj__solution1__syn__report__csynth.xml"))
    assert ritarka["ReportVersion"]["Version"] == "2023.1.1"
    assert ritarka["PerformanceEstimates"]["SummaryOfOverallLatency"]["Best-caseLatency"] == "2232130401"
    lab0 = parse_csynth(
        fixture_bytes("asandeep1-FPGA_ECE8893__2026_Spring__lab0__project_1__hls__syn__report__csynth.xml")
    )
    assert lab0["ReportVersion"]["Version"] == "2025.1.1"
    assert lab0["PerformanceEstimates"]["SummaryOfOverallLatency"]["Worst-caseRealTimeLatency"] == "1.170 us"


def test_csynth_design_size_is_not_a_csynth_report() -> None:
    with pytest.raises(ArtifactError, match="root element <design_size>"):
        parse_csynth(fixture_bytes("xiongxiongz-hls_cluster_nms__solution1__syn__report__csynth_design_size.xml"))


@pytest.mark.parametrize(
    "saved,cycles",
    [
        ("Imam-f-RL-SOC-Tutorial-Vitis__solution1__sim__report__verilog__lat.rpt", 10099),
        ("LeVDuc22-XilinxProject__solution1__sim__report__verilog__lat.rpt", 127),
        ("BojanFaletic-MA_HLS__solution1__sim__report__vhdl__lat.rpt", 33),
        ("PengXuanyao-hls_cordic__cordic__s_pipeline__sim__report__verilog__lat.rpt", 10063),
        # before 2020.1 there is no $TOTAL_EXECUTE_TIME and nothing stands in for it
        ("marsee101-multi_axim__solution1__sim__report__verilog__lat.rpt", None),
        ("HawkPhantom-rgb2grayscale__solution1__sim__report__verilog__lat.rpt", None),
    ],
)
def test_lat_rpt_total_execute_time(saved: str, cycles: int | None) -> None:
    assert parse_lat_rpt(fixture_bytes(saved))["total_execute_time"] == cycles


def test_lat_rpt_pre_2020_keeps_other_values() -> None:
    values = parse_lat_rpt(fixture_bytes("marsee101-multi_axim__solution1__sim__report__verilog__lat.rpt"))["values"]
    assert values["MAX_LATENCY"] == "52" and "TOTAL_EXECUTE_TIME" not in values


@pytest.mark.parametrize(
    "saved,status",
    [
        ("LeVDuc22-XilinxProject__solution1__sim__report__lab1_cosim.rpt", "pass"),
        ("mzrghorbani-lr_hls_dev__solution1__sim__report__LR_top_cosim.rpt", "pass"),
        ("superkooks-comp4601__canny_hls__canny_top__reports__hls_cosim.rpt", "fail"),
        ("ZTTTX-scalehls_vitis_test__largeNet_2_copy.prj__sol__sim__report___cosim.rpt", "fail"),
    ],
)
def test_cosim_status(saved: str, status: str) -> None:
    assert parse_cosim_rpt(fixture_bytes(saved))["status"] == status


def test_profile_padded_headers_sum_cu_rows() -> None:
    data = parse_profile_kernels(fixture_bytes("nmath018-topK_feature__profile_kernels.csv"))
    assert data == {"compute_units": {"topKQueryScores_1": 6.748}, "kernel_runtime_us": 6.748}
    assert (
        parse_profile_kernels(fixture_bytes("LupinHuang-AccGPM__profile_kernels.csv"))["kernel_runtime_us"] == 371.901
    )


def test_profile_sums_several_compute_units() -> None:
    text = fixture_bytes("nmath018-topK_feature__profile_kernels.csv").replace(
        b"topKQueryScores_1,6.748,0.000,0.148,0.000\n",
        b"topKQueryScores_1,6.748,0.000,0.148,0.000\ntopKQueryScores_2,1.252,0.000,0.000,0.000\n",
    )
    assert parse_profile_kernels(text)["kernel_runtime_us"] == 8.0


def test_profile_malformed_row_refuses_whole_file() -> None:
    text = fixture_bytes("nmath018-topK_feature__profile_kernels.csv").replace(b"6.748", b"6.7x8")
    with pytest.raises(ArtifactError, match="not a number"):
        parse_profile_kernels(text)


TRACE_HEAD = (
    b"Kernel trace events\n"
    b"Device, Binary, Kernel, Compute Unit, Function, Data Type, Index, Start Time (ms), End Time (ms), Value\n"
)


def test_a_kernel_trace_names_its_platform_by_its_first_event() -> None:
    """ronaldprasad1/GEMM_opt's .run/<pid>/hw_emu/.../timeline_kernels.csv: `<platform>-<index>`."""
    event = b"xilinx_u250_gen3x16_xdma_4_1_202210_1-0,mmul.link,mmul,mmul_1,top,top,0,0.273513,0.275830,0\n"
    found = parse_emu_timeline(TRACE_HEAD + event + event.replace(b"top,top", b"entry_proc_U0,outstanding") * 3)
    assert found == {"platform": "xilinx_u250_gen3x16_xdma_4_1_202210_1"}
    assert classify("timeline_kernels.csv", "xsim", "/p/.run/574089/hw_emu/device0/binary_0/xsim/timeline_kernels.csv")
    assert classify("timeline_kernels.csv", "HW_emu", "/p/HW_emu/timeline_kernels.csv") is None  # (megabytes, unread)
    # superneyluj/ALVEOU280's four traces: the header and no event, well-formed: no platform, no problem
    assert parse_emu_timeline(TRACE_HEAD) == {"platform": None}
    for broken, why in (
        (b"Device trace\n" + TRACE_HEAD[20:] + event, "no kernel trace events"),
        (TRACE_HEAD.replace(b"Device,", b"Card,") + event, "lacks 'Device'"),
        (TRACE_HEAD + b"-0,mmul.link,mmul,mmul_1,top,top,0,0.1,0.2,0\n", "names no device"),
    ):
        with pytest.raises(ArtifactError, match=why):
            parse_emu_timeline(broken)


def test_the_simulators_log_names_its_release_in_its_banner() -> None:
    """darrenang2/R-Tree-Testbed's .run/5752/hw_em/.../simulate.log: `# xsim v2022.2 (64-bit)`."""
    banner = b"#-----------------------------------------------------------\n# xsim v2022.2 (64-bit)\n"
    assert parse_xsim_log(banner + b"# SW Build 3671981 on Fri Oct 14 04:59:54 MDT 2022\n") == {
        "vitis_version": "2022.2",
        "started": None,
    }
    started = b"# Start of session at: Wed Sep  1 08:54:02 2021\n"  # (superneyluj/ALVEOU280)
    assert parse_xsim_log(banner + started)["started"] == 1630486442  # 2021-09-01 08:54:02, as UTC
    assert parse_xsim_log(banner + started.replace(b"Sep", b"Spt"))["started"] is None
    assert classify("simulate.log", "xsim", "/p/.run/5752/hw_em/device0/binary_0/behav_waveform/xsim/simulate.log")
    assert classify("simulate.log", "xsim", "/p/sim/simulate.log") is None  # (a project's own simulation)
    for broken in (b"", b"run all\n", b"# xsim 2022.2\n", b" " * 5000 + banner):
        with pytest.raises(ArtifactError, match="no xsim banner"):
            parse_xsim_log(broken)


def test_system_diagram_clock_id_zero_number_and_string() -> None:
    raw = fixture_bytes(
        "s095339-Adaptive_Beamforming___x_temp.sw_emu.xilinx_u50_gen3x16_xdma_5_202210_1__link__int__systemDiagramModel.json"
    )
    assert parse_system_diagram(raw) == {"kernel_clock_freq_mhz": 300.0}
    as_string = raw.replace(b'"id": 0,', b'"id": "0",')
    assert as_string != raw
    assert parse_system_diagram(as_string) == {"kernel_clock_freq_mhz": 300.0}
    # 2020.2 embedded platform: no xsa clocks at all
    embedded = fixture_bytes("UniqueMR-ESE5320-Final-Project___x__link__int__systemDiagramModel.json")
    assert parse_system_diagram(embedded) == {"kernel_clock_freq_mhz": None}


def test_vpp_log_facts() -> None:
    link = parse_vpp_log(
        fixture_bytes("nmath018-topK_feature___x.hw_emu.xilinx_u250_gen3x16_xdma_4_1_202210_1__logs__link__v++.log")
    )
    assert (link["target"], link["device"], link["vitis_version"], link["elapsed_seconds"]) == (
        "hw_emu",
        "xilinx_u250_gen3x16_xdma_4_1_202210_1",
        "2022.2",
        498,
    )
    no_version = parse_vpp_log(fixture_bytes("Choocie-vitis-hls-bug-report-mve__build___x__logs__link__v++.log"))
    assert no_version["target"] == "hw" and no_version["vitis_version"] is None
    package = parse_vpp_log(fixture_bytes("nmath018-topK_feature__v++_krnl.log"))
    assert (package["target"], package["device"], package["elapsed_seconds"]) == (
        "hw",
        "xilinx_u250_gen3x16_xdma_4_1_202210_1",
        15,
    )
    broken = parse_vpp_log(fixture_bytes("nmath018-topK_feature___x.hw.__logs__krnl__v++.log"))
    # failed before naming its target: the `_x.hw.` of its primary output still tells it
    assert broken["target"] == "hw" and broken["device"] is None
    assert broken["errors"][-1] == "ERROR: [v++ 60-592] Failed to finish compilation"


def test_hls_log_facts() -> None:
    ritarka = parse_hls_log(fixture_bytes("Ritarka-Layers-Template__vitis_hls.log"))
    assert ritarka["vitis_version"] == "2023.1.1"
    assert ritarka["device"] == "xczu9eg-ffvb1156-2-e"
    assert ritarka["elapsed_seconds"] == 211.12
    failed = parse_hls_log(
        fixture_bytes(
            "asandeep1-FPGA_ECE8893__2022_Spring__Final_Projects__FLAT-acceleration__source_code__HLS__vitis_hls.log"
        )
    )
    assert failed["errors"] and failed["errors"][0].startswith("ERROR: [HLS 207-1398]")
    vivado = parse_hls_log(
        fixture_bytes("zakk-h-PartitionAcceleratorHLS__master__Vivado_Information__HLSIPs__vivado_hls.log")
    )
    assert (vivado["vitis_version"], vivado["csim_status"], vivado["elapsed_seconds"]) == ("2019.1", "pass", 21.86)
    # real logs say "CSim failed with errors." without a count
    solution = parse_hls_log(fixture_bytes("xiongxiongz-hls_cluster_nms__solution1__solution1.log"))
    assert solution["vitis_version"] == "2023.2"


def test_summary_tool_version() -> None:
    assert (
        parse_build_summary(
            fixture_bytes(
                "nmath018-topK_feature___x.hw_emu.xilinx_u250_gen3x16_xdma_4_1_202210_1__krnl.xo.compile_summary"
            )
        )["vitis_version"]
        == "2022.2"
    )
    assert (
        parse_build_summary(
            fixture_bytes("asandeep1-FPGA_ECE8893__2026_Spring__lab0__project_1__project_1.hlscompile_summary")
        )["vitis_version"]
        == "2025.1"
    )


@pytest.mark.parametrize(
    ("fixture", "facts"),
    [
        ("AkshayMalige-rtda_demo__design_hw_emu.xsa.link_summary", ("link", "hw_emu", "xilinx_vek280_base_202420_1")),
        (
            "nmath018-topK_feature___x.sw_emu.xilinx_u250_gen3x16_xdma_4_1_202210_1__krnl.xo.compile_summary",
            ("compile", "sw_emu", "xilinx_u250_gen3x16_xdma_4_1_202210_1"),
        ),
        ("UniqueMR-ESE5320-Final-Project__kernel.xclbin.link_summary", ("link", "hw", "u96v2_sbc_base")),
        # an HLS component's summary names no platform
        ("asandeep1-FPGA_ECE8893__2026_Spring__lab0__project_1__project_1.hlscompile_summary", ("compile", "hw", None)),
    ],
)
def test_summary_flow_target_platform(fixture: str, facts: tuple) -> None:
    parsed = parse_build_summary(fixture_bytes(fixture))
    assert (parsed["flow"], parsed["target"], parsed["platform"]) == facts


# Vivado HLS before 2018 writes `@I [COSIM-1000]`, `@E [SYNCHK-61]`: the tag joined to its number
# by a dash and no `INFO:`/`ERROR:` word (skamat95/RCT's 2016.4 solution1.log, aimeemikaelac/
# PL_AXI_DMA_Controller's 2014.1 one).
OLD_HEADER = (
    "==============================================================\n"
    "File generated by Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC\n"
    "Version: 2016.4\n"
    "Copyright (C) 1986-2017 Xilinx, Inc. All Rights Reserved.\n"
    "==============================================================\n"
    "@I [HLS-10] Setting target device to 'xc7vx690tffg1927-2'\n"
)


def test_an_old_log_dates_its_cosim_session() -> None:
    log = OLD_HEADER + (
        "@I [SIM-1] CSim done with 0 errors.\n"
        "@I [HLS-10] Analyzing design file 'src/ClusterFinder.cc' ... \n"
        "@I [COSIM-47] Using XSIM for RTL simulation.\n"
        "@I [COSIM-1000] *** C/RTL co-simulation finished: PASS ***\n"
    )
    assert parse_hls_log(log.encode())["step_versions"] == {
        "synthesis": ["2016.4"], "csim": ["2016.4"], "cosim": ["2016.4"]
    }  # fmt: skip


def test_a_session_that_wrote_only_its_banner_is_told_apart() -> None:
    """A batch run's solution log holds each session's banner and nothing else (its messages are
    in the project's vitis_hls.log): BANNER_ONLY, the last resort of a record's version; a session
    that says anything more is not one."""
    banner = (
        "==============================================================\n"
        "Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2020.2 (64-bit)\n"
        "Copyright 1986-2020 Xilinx, Inc. All Rights Reserved.\n"
        "==============================================================\n"
    )
    assert parse_hls_log((banner * 2).encode())["step_versions"] == {BANNER_ONLY: ["2020.2", "2020.2"]}
    # CNStanLee/DAC2026's sol1.log (2022.2): 2021.1+ banners add the tool's version limit; the long
    # form (a vitis_hls.log's) its builds
    limited = banner.replace("v2020.2 (64-bit)\n", "v2022.2 (64-bit)\nTool Version Limit: 2019.12\n")
    assert parse_hls_log(limited.encode())["step_versions"] == {BANNER_ONLY: ["2022.2"]}
    long_form = (
        "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.2 (64-bit)\n"
        "  **** SW Build 4023990 on Oct 11 2023\n  **** IP Build 4028589 on Sat Oct 14 00:45:43 MDT 2023\n"
        "  **** SharedData Build 4025554 on Tue Oct 10 17:18:54 MDT 2023\n"
        "    ** Copyright 1986-2022 Xilinx, Inc. All Rights Reserved.\n"
        "    ** Copyright 2022-2023 Advanced Micro Devices, Inc. All Rights Reserved.\n"
    )
    assert parse_hls_log(long_form.encode())["step_versions"] == {BANNER_ONLY: ["2023.2"]}
    old = OLD_HEADER.rsplit("@I", 1)[0]  # (the 2016.4 header alone)
    assert parse_hls_log(old.encode())["step_versions"] == {BANNER_ONLY: ["2016.4"]}
    # shubham172995/HLS_Projects's axilite_polar/solution1.log: 53 sessions of Vivado HLS 2018.3's
    # banner, its date and builds unstarred (the record's version was 'unknown')
    dated = (
        "==============================================================\n"
        "File generated on Mon Jan 20 14:28:39 IST 2020\n"
        "Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC v2018.3 (64-bit)\n"
        "SW Build 2405991 on Thu Dec  6 23:36:41 MST 2018\n"
        "IP Build 2404404 on Fri Dec  7 01:43:56 MST 2018\n"
        "Copyright 1986-2018 Xilinx, Inc. All Rights Reserved.\n"
        "==============================================================\n"
    )
    assert parse_hls_log((dated * 2).encode())["step_versions"] == {BANNER_ONLY: ["2018.3", "2018.3"]}
    assert parse_hls_log(OLD_HEADER.encode())["step_versions"] == {}  # (it set a part: it did something)


def test_the_2017_sdaccel_header_indents_its_version_and_drops_the_colon() -> None:
    """bo-dun/ising_solver (SDx 2017.1): the HLS log of an xocc compile opens `  Vivado(TM) HLS -
    ...`, `  Version 2017.1`: the version was not read (a run it alone dates: 'unknown')."""
    header = OLD_HEADER.replace("File generated by Vivado", "  Vivado").replace("Version: 2016.4", "  Version 2017.1")
    assert parse_hls_log((header + "@I [SIM-1] CSim done with 0 errors.\n").encode())["vitis_version"] == "2017.1"
    assert parse_hls_log(b"INFO: [HLS 200-10] Checking license Version 2017.1 of feature\n")["vitis_version"] is None
    # vj-sananda/vivado-hls: the AWS F1 build's header, `Version: 2017.4.op`, as its banner's `v2018.3.op`
    op = OLD_HEADER.replace("2016.4", "2017.4.op")
    assert parse_hls_log(op.encode())["vitis_version"] == "2017.4"


def test_a_2015_log_tags_its_cosim_messages_sim_and_still_dates_its_cosim() -> None:
    """CitBremen/vivado_vector_adder (2015.4, Windows): the co-simulation's messages are `@I [SIM-n]`
    (no `[COSIM-`, no echoed `cosim_design`): the session was not a cosim one, the rtl_sim's
    version 'unknown'."""
    log = OLD_HEADER.replace("2016.4", "2015.4") + (
        "@I [SIM-47] Using XSIM for RTL simulation.\n"
        "@I [SIM-14] Instrumenting C test bench ...\n"
        "@I [SIM-12] Generating RTL test bench ...\n"
        "@I [SIM-1000] *** C/RTL co-simulation finished: PASS ***\n"
    )
    assert parse_hls_log(log.encode())["step_versions"] == {"cosim": ["2015.4"]}


def test_a_session_whose_test_bench_failed_to_build_dates_its_csim() -> None:
    """umbertoVargas/FIR-HLS (2019.2): the only C simulation of solution1.log stopped at the test
    bench's build, and said no more; its sw_run fail was of Vitis version 'unknown'."""
    log = (
        "Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC v2019.2 (64-bit)\n"
        "INFO: [SIM 211-2] *************** CSIM start ***************\n"
        "INFO: [SIM 211-4] CSIM will launch GCC as the compiler.\n"
        "ERROR: [SIM 211-100] CSim file generation failed: compilation error(s).\n"
        "INFO: [SIM 211-3] *************** CSIM finish ***************\n"
    )
    parsed = parse_hls_log(log.encode())
    assert parsed["step_versions"] == {"csim": ["2019.2"]} and parsed["csim_status"] == "fail"


def test_an_old_logs_synthesis_errors_fail_the_synthesis_and_its_csim_errors_do_not() -> None:
    log = OLD_HEADER + (
        "@I [SIM-2] *************** CSIM start ***************\n"
        "@E [SIM-1] 'csim_design' failed: nonzero return value.\n"
        "@I [HLS-10] Analyzing design file 'source/dma.cpp' ... \n"
        "@E [SYNCHK-61] source/dma.cpp:12: unsupported memory access on variable 'buf'.\n"
        "@E [HLS-70] Synthesizability check failed.\n"
    )
    facts = parse_hls_log(log.encode())
    assert facts["errors"] == [
        "@E [SYNCHK-61] source/dma.cpp:12: unsupported memory access on variable 'buf'.",
        "@E [HLS-70] Synthesizability check failed.",
    ]
    assert facts["failed_steps"] == ["csim", "synthesis"] and facts["csim_status"] == "fail"


@pytest.mark.parametrize("build", ["v2018.3.op", "v2018.3_AR71275_op", "v2018.3_AR70530_AR70530"])
def test_the_aws_builds_version_banner_is_read(build: str) -> None:
    """SDAccel on AWS F1 (raazgupta/fpga_smith_waterman_algo's vivado_hls.log) writes `v2018.3.op`;
    the AMI's patched build `v2018.2_AR71275_op` (the aws-fpga setup scripts list that banner); an
    install given a tactical patch twice (ATaylorCEngFIET/Hackster, 2017.4: its logs gave none, its
    report's version went into the records as written)."""
    banner = f"****** Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC {build} (64-bit)\n"
    assert parse_hls_log(banner.encode())["vitis_version"] == "2018.3"
    header = f"Version: {build[1:]}\n"  # (the solution log's old header)
    assert parse_hls_log(header.encode())["vitis_version"] == "2018.3"
    assert release(build[1:]) == "2018.3"


def test_a_package_step_names_its_platform_alone() -> None:
    """v++ -p (nmavuso/ese5320_final_project's package_build/logs/package/v++.log) names no
    `Target device`, only the platform file it packages for."""
    log = (
        "INFO: [v++ 60-1306] Additional information associated with this v++ package can be found at:\n"
        "INFO: [v++ 60-895]   Target platform: /home1/e/ese5320/u96v2_sbc_base/u96v2_sbc_base.xpfm\n"
        "INFO: [v++ 60-2256] Packaging for hardware\n"
    )
    facts = parse_vpp_log(log.encode())
    assert (facts["target"], facts["device"]) == ("hw", "u96v2_sbc_base")


def test_a_rotated_vpp_log_is_no_log_of_the_run() -> None:
    """v++ keeps older sessions' logs as `v++_<name>_<pid>.backup.log` (often empty)."""
    assert classify("v++_lzw_fpga_25097.backup.log", "project", "/p/v++_lzw_fpga_25097.backup.log") is None
    assert classify("v++_lzw_fpga.log", "project", "/p/v++_lzw_fpga.log") == "vpp_log"


def test_an_old_logs_total_elapsed_time_is_read() -> None:
    """Vivado HLS 2013-2017 tags it `@I [HLS-112]` (jairov4/accel-oil's solution logs)."""
    log = (
        OLD_HEADER
        + "@I [HLS-10] Analyzing design file 'matmul.cpp' ... \n"
        + "@I [HLS-112] Total elapsed time: 36.770 seconds; peak memory usage: 70.2 MB.\n"
    )
    assert parse_hls_log(log.encode())["elapsed_seconds"] == 36.77


VITIS_2023 = "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.2 (64-bit)\n"
FAILED_SYNTHESIS = (
    "INFO: [HLS 200-1510] Running: csynth_design \n"
    "INFO: [HLS 200-10] Analyzing design file 'cnn.cpp' ... \n"
    "ERROR: [HLS 207-5519] Variable length array is not supported (cnn.cpp:12:9)\n"
    "ERROR: [HLS 200-70] Pre-synthesis failed.\n"
    "INFO: [HLS 200-111] Finished Command csynth_design Elapsed time: 1584.82 seconds\n"
)
CLEAN_SYNTHESIS = (
    "INFO: [HLS 200-1510] Running: csynth_design \n"
    "INFO: [HLS 200-10] Analyzing design file 'cnn.cpp' ... \n"
    "INFO: [HLS 200-111] Finished Command csynth_design Elapsed time: 132.04 seconds\n"
)


def test_a_synthesis_run_again_cleanly_is_not_failed_by_the_errors_of_an_earlier_one() -> None:
    """Tianze0918/lab4's solution.log appends a hundred sessions: old ones failed synthesis
    (`Pre-synthesis failed`), the last ran it cleanly and exported; it was written as failed."""
    facts = parse_hls_log((VITIS_2023 + FAILED_SYNTHESIS + VITIS_2023 + CLEAN_SYNTHESIS).encode())
    assert facts["errors"] == [] and facts["synthesis_failed"] is False
    assert "synthesis" not in facts["failed_steps"]
    facts = parse_hls_log((VITIS_2023 + CLEAN_SYNTHESIS + VITIS_2023 + FAILED_SYNTHESIS).encode())
    assert facts["errors"] == [
        "ERROR: [HLS 207-5519] Variable length array is not supported (cnn.cpp:12:9)",
        "ERROR: [HLS 200-70] Pre-synthesis failed.",
    ]
    assert facts["synthesis_failed"] is True and facts["failed_steps"] == ["synthesis"]


def solution_log_session(version: str, commands: str) -> str:
    """A session as a solution's own log records it (appended to by each one): a plain banner."""
    return (
        "==============================================================\n"
        f"Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v{version} (64-bit)\n"
        "Copyright 1986-2023 Xilinx, Inc. All Rights Reserved.\n"
        "==============================================================\n" + commands
    )


def test_a_solution_logs_sessions_are_told_apart_by_their_plain_banners() -> None:
    """Ritarka/Layers-Template's solution1.log: 2022.2.2 sessions, then a 2023.1.1 one that ran the
    synthesis the report is of; read as one session, the log dated it 2022.2.2."""
    log = solution_log_session("2022.2.2", CLEAN_SYNTHESIS) + solution_log_session("2023.1.1", CLEAN_SYNTHESIS)
    assert parse_hls_log(log.encode())["step_versions"] == {"synthesis": ["2022.2.2", "2023.1.1"]}


def test_an_x86_simulators_run_summary_that_names_no_platform_says_so() -> None:
    """necst/Hpps24-fpga2aie, searsm8/Vitis-Tutorials: x86sim's own summary (`"source": "x86sim"`)
    names neither the platform nor the version; it was called 'not a simulator run summary'."""
    from collectors.collect.artifacts.summary import parse_aierun_summary
    from collectors.problems import ArtifactError

    summary = b'{"generation": {"source": "x86sim"}, "command_step": {"command": "x86simulator --pkg-dir=./Work"}}'
    with pytest.raises(ArtifactError, match=r"^x86sim's run summary names neither"):
        parse_aierun_summary(summary)
    with pytest.raises(ArtifactError, match=r"not a simulator run summary"):
        parse_aierun_summary(b'{"generation": {"source": "other"}}')


def test_a_log_that_only_echoes_set_part_names_the_device() -> None:
    """Arun-66/AN50_ZCU104's NN.log and kmfrick/HLS_QLearning: `Running: set_part ...` and no
    `Setting target device` line: the run's device was 'unknown'."""
    log = "INFO: [HLS 200-1510] Running: set_part {xczu7ev-ffvc1156-2-i} \n"
    assert parse_hls_log(log.encode())["device"] == "xczu7ev-ffvc1156-2-i"
    both = log + "INFO: [HLS 200-1611] Setting target device to 'xczu7ev-ffvc1156-2-i'\n"
    assert parse_hls_log(both.replace("set_part {xczu7ev-ffvc1156-2-i}", "set_part xczu7ev").encode())["device"] == (
        "xczu7ev-ffvc1156-2-i"
    )


@pytest.mark.parametrize(
    "encoded",
    [
        b"\xef\xbb\xbf" + b"part=xck26-sfvc784-2LV-c\n[hls]\nsyn.top=k\n",
        "part=xck26-sfvc784-2LV-c\r\n[hls]\r\nsyn.top=k\r\n".encode("utf-16"),
    ],
    ids=["utf8-bom", "utf16"],
)
def test_a_config_saved_with_a_byte_order_mark_names_its_part(encoded: bytes) -> None:
    """A Windows editor writes a UTF-8 byte-order mark, PowerShell 5's `>` UTF-16: the part on
    the first line was hidden behind the mark (UTF-8) or the file refused as binary (UTF-16)."""
    assert parse_hls_config(encoded) == {"part": "xck26-sfvc784-2LV-c", "top": "k"}


@pytest.mark.parametrize(
    ("line", "status"),
    [
        # horizon-research/svr-sample-function (2018.2), alenad95/OV7670-bg_elimination (2016.2): a
        # test bench that did not compile; the run wrote no sw_run before
        ("ERR: [SIM 100] CSim file generation failed: compilation error(s).", "fail"),
        ("CRITICAL WARNING: [SIM 1] CSim file generation failed: compilation error(s).", "fail"),
        ("INFO: [SIM 211-1] CSim file generation done with 0 errors.", None),  # (set up only: no verdict)
        ("ERR: [SIM 100] 'csim_design' failed: compilation error(s).", "fail"),
        ("INFO: [SIM 211-1] CSim done with 0 errors.", "pass"),
        # helper_r4h's lstm2 (2024.2): a simulation that crashed (its csim summary: CS_FAILED)
        ("ERROR: Problem running csim: child process exited abnormally", "fail"),
        # kwt3/HLS-Models (2024.1, csim.code_analyzer=1): the test bench ran under the Code
        # Analyzer, which says only this of a run that ended well (its csim summary: CS_PASSED)
        ("INFO: [SIM 211-210] Code Analyzer finished", "pass"),
    ],
)
def test_a_c_simulation_whose_test_bench_did_not_compile_failed(line: str, status: str | None) -> None:
    log = "INFO: [SIM 2] *************** CSIM start ***************\nmake: *** [obj/t.o] Error 1\n" + line + "\n"
    assert parse_csim_log(log.encode())["csim_status"] == status


def test_a_test_bench_built_again_since_its_build_failed_is_no_failure() -> None:
    """okpeter97/CarSimOnFPGA's solution logs: a build that failed, then sessions that set the
    simulation up only (`CSim file generation done with 0 errors`): the error was fixed, no
    simulation ran since; the verdict is the one before (here none)."""
    failed = "ERR: [SIM 100] CSim file generation failed: compilation error(s).\n"
    done = "INFO: [SIM 211-1] CSim file generation done with 0 errors.\n"
    assert parse_hls_log((failed + done).encode())["csim_status"] is None
    passed = "INFO: [SIM 211-1] CSim done with 0 errors.\n"
    assert parse_hls_log((passed + failed + done).encode())["csim_status"] == "pass"
    assert parse_hls_log((passed + failed).encode())["csim_status"] == "fail"
    # ganyunhan/IC-Design-Contest-ARM-CUP (2018.2): the 2019+ spelling of a build that failed, then
    # built again with 0 errors: fixed too
    build = "ERROR: [SIM 211-100] 'csim_design' failed: compilation error(s).\n"
    assert parse_hls_log((build + failed + done + done).encode())["csim_status"] is None
    assert parse_hls_log((passed + build + done).encode())["csim_status"] == "pass"
    assert parse_hls_log((passed + build).encode())["csim_status"] == "fail"
    ran = "ERROR: [SIM 211-100] 'csim_design' failed: nonzero return value.\n"  # (it ran: a verdict)
    assert parse_hls_log((ran + done).encode())["csim_status"] == "fail"


OPEN = "INFO: [HLS 200-1510] Running: open_solution {0} \nINFO: [HLS 200-10] Opening solution '/home/u/rsa/{0}'.\n"
SYNTHESIS = "INFO: [HLS 200-1510] Running: csynth_design \n"
TOTAL = "INFO: [HLS 200-112] Total CPU user time: 9 seconds. Total elapsed time: {} seconds; peak 1 GB.\n"


@pytest.mark.parametrize(
    ("session", "timed", "untimed"),
    [
        # Karniela/RSA_Implementation_on_PYNQ: opened solution2-NoDSP, then solution1, synthesised:
        # 29.08 s was solution2-NoDSP's runtime too, where nothing of it ran
        (OPEN.format("solution2-NoDSP") + OPEN.format("solution1") + SYNTHESIS, {"solution1": 29.08}, []),
        # a session that ran steps in two solutions: its total is neither's wall time
        (OPEN.format("sol1") + SYNTHESIS + OPEN.format("sol2") + SYNTHESIS, {}, ["sol1", "sol2"]),
    ],
)
def test_a_sessions_total_is_the_time_of_the_one_solution_it_ran_steps_in(
    session: str, timed: dict[str, float], untimed: list[str]
) -> None:
    banner = "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2022.2 (64-bit)\n"
    facts = parse_hls_log((banner + session + TOTAL.format("29.08")).encode())
    assert facts["timed_by_opened"] == timed
    assert facts["last_untimed_by_opened"] == untimed


def test_a_test_bench_that_prints_raw_bytes_leaves_its_csim_log_a_log() -> None:
    """kop123meter/ese532_final (2020.2): an LZW test bench printed its compressed stream into the
    csim log, 8 % control bytes and NULs: refused as binary, its failure was lost. After the
    tool's `CSIM start` they are a program's output; without it the same bytes are binary."""
    stream = bytes(range(32)) * 12 + b"\x00" * 30
    log = (
        b"INFO: [SIM 2] *************** CSIM start ***************\n"
        b"INFO: [SIM 4] CSIM will launch GCC as the compiler.\n"
        + b"x" * 3000
        + stream
        + b"\nTEST FAILED\nERR: [SIM 100] 'csim_design' failed: nonzero return value.\n"
        b"INFO: [SIM 3] *************** CSIM finish ***************\n"
    )
    assert parse_csim_log(log)["csim_status"] == "fail"
    assert parse_hls_log(log)["csim_status"] == "fail"
    with pytest.raises(ArtifactError, match="control characters"):
        parse_csim_log(log.replace(b"CSIM start", b"CSIM begin"))


def test_a_dataflow_interval_the_tool_cannot_bound_is_kept_as_written() -> None:
    """YaoTengqi/Prediction_Model_Accelerator (2022.2): a dataflow top's `<Interval-max>-1</Interval-max>`
    (its text report prints `-1` too) refused the whole report as out of range: the run had no
    hls_synth record. The text stays the report's; compare reads no number in it."""
    from collectors.compare.metrics import METRICS

    raw = fixture_bytes("Achilisnard-Fibonacci__solution1__syn__report__csynth.xml")
    raw = raw.replace(b"<Interval-min>undef</Interval-min>", b"<Interval-min>2</Interval-min>")
    raw = raw.replace(b"<Interval-max>undef</Interval-max>", b"<Interval-max>-1</Interval-max>")
    latency = parse_csynth(raw)["PerformanceEstimates"]["SummaryOfOverallLatency"]
    assert (latency["Interval-min"], latency["Interval-max"]) == ("2", "-1")
    payload = {"PerformanceEstimates": {"SummaryOfOverallLatency": latency}}
    assert METRICS["ii"].read(payload) is None
    with pytest.raises(ArtifactError, match="Interval-max '-2' is out of range"):
        parse_csynth(raw.replace(b">-1<", b">-2<"))


def test_the_guis_log_index_standing_for_an_app_is_not_read() -> None:
    """`.vitis_hls_log_all.xml` marks an HLS project whose `.app` was not committed; nothing in it
    is a run's (Karniela/RSA_Implementation_on_PYNQ's holds a merge conflict: no problem line)."""
    from collectors.collect.artifacts.hls_project import parse_hls_app

    index = (
        b'<?xml version="1.0"?>\n<vivadoHLSLog:LogRoot xmlns:vivadoHLSLog="www.xilinx.com/vivadoHLSLog">\n'
        b"<<<<<<< HEAD\n"
        b'<logs message="WARNING: x" projectName="rsa" solutionName="solution1"/>\n=======\n>>>>>>> other\n'
    )
    assert parse_hls_app(index) == {"top": None, "name": None}
    with pytest.raises(ArtifactError, match="merge conflict"):
        parse_hls_app(b'<project top="rsa" name="rsa">\n' + index)


@pytest.mark.parametrize(
    ("given", "name"),
    [
        (
            "/opt/xilinx/platforms/xilinx_u250_gen3x16_xdma_4_1_202210_1/xilinx_u250_gen3x16_xdma_4_1_202210_1.xpfm",
            "xilinx_u250_gen3x16_xdma_4_1_202210_1",
        ),
        ("C:\\Xilinx\\platforms\\zcu104_base\\zcu104_base.xpfm", "zcu104_base"),
        ("xilinx:aws-vu9p-f1:4ddr-xpr-2pr:4.0", "xilinx_aws-vu9p-f1_4ddr-xpr-2pr_4_0"),  # SDx 2017.1's project.sdx
        ("xilinx:kcu1500:4ddr-xpr:4.0", "xilinx_kcu1500_4ddr-xpr_4_0"),
        ("xilinx_u200_xdma_201830_2", "xilinx_u200_xdma_201830_2"),
        ("", None),
    ],
)
def test_a_platform_is_named_as_its_xpfm_is(given: str, name: str | None) -> None:
    assert platform_name(given) == name
