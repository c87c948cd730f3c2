"""Which directories are projects in real build trees.

The trees are small copies of the shapes seen in public repositories (named per test), filled
with the real report files of tests/fixtures/vitis.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from collectors.collect.config import load_settings
from collectors.collect.engine import Collection, Engine

from ..conftest import extension_records_of, place, records_of

CHOOCIE = "Choocie-vitis-hls-bug-report-mve__build__"
LAB0 = "asandeep1-FPGA_ECE8893__2026_Spring__lab0__project_1__"
VCK190_PART = "xcvc1902-vsva2197-2MP-e-S"


def collect(root: Path) -> Collection:
    return Engine(lambda r: load_settings(Path(r))).scan([str(root)], wait_for_writers=0)


def projects(collection: Collection, root: Path) -> list[str]:
    return sorted(str(Path(p).relative_to(root)) for p in collection.projects)


def summary(collection: Collection) -> list[tuple]:
    """(group path, report type, target, device, status) of every record written."""
    records, _clashes = records_of(collection)
    return [
        (tuple(r["problem"]["group_path"]), r["report_type"], r["run"]["target"], r["run"]["device"])
        + (r[r["report_type"]]["status"],)
        for r in records
    ]


def generated_driver(folder: Path) -> None:
    """What HLS export writes under impl/ip/drivers/<ip>_v1_0/src: a Makefile and C source."""
    place(folder, "Makefile", text="COMPILER=\nall: libs\n")
    place(folder, "xharness.c", text="int XHarness_Initialize(void) { return 0; }\n")


def mode_hls_component(root: Path) -> Path:
    """`v++ -c --mode hls` run from build/ (Choocie-vitis-hls-bug-report-mve): the component's
    work folder build/harness has no vitis-comp.json; a hw link and package went into build/_x."""
    place(root, "Makefile", text="csynth:\n\tmake -f firmware.mk csynth\n")
    place(root, "src/harness.cpp", text="void harness() {}\n")
    build = root / "build"
    place(build, "_x/logs/link/v++.log", CHOOCIE + "_x__logs__link__v++.log")
    place(build, "_x/logs/package/v++.log", CHOOCIE + "_x__logs__package__v++.log")
    place(build, "harness/harness.hlscompile_summary", CHOOCIE + "harness__harness.hlscompile_summary")
    work = build / "harness/hls"
    place(work, "syn/report/csynth.xml", CHOOCIE + "harness__hls__syn__report__csynth.xml")
    place(work, ".autopilot/db/harness.design.xml", text="<design/>\n")
    generated_driver(work / "impl/ip/drivers/harness_v1_0/src")
    generated_driver(work / "impl/misc/drivers/harness_v1_0/src")
    copy = place(
        work, "impl/misc/hls_files/hls/syn/report/csynth.xml", CHOOCIE + "harness__hls__syn__report__csynth.xml"
    )
    copy.write_text(copy.read_text().replace("<LUT>53593</LUT>", "<LUT>1</LUT>"))
    place(work, "impl/misc/hls_files/hls/.autopilot/db/harness.design.xml", text="<design/>\n")
    return build


def mode_hls_work_folders(root: Path, kernels: dict[str, str]) -> Collection:
    """circuitmaster/VVC-Decoder-Accelerator (Vitis 2024.2): `v++ -c --mode hls --work_dir
    ../dct2_dir/` and the same for other kernels, work folders side by side (`kernels`: each
    folder's kernel, its summary's; its csynth.xml a fixture's)."""
    place(root, "Makefile", text="all:\n\tv++ -c --mode hls --config dct-compile.cfg --work_dir ../dct2_dir/\n")
    place(root, "src/dct.cpp", text="void IDCT2() {}\n")
    fixtures = [CHOOCIE + "harness__", "superkooks-comp4601__canny_hls__canny_top__"]
    for (folder, kernel), fixture in zip(kernels.items(), fixtures):
        summary = place(root, f"{folder}/{folder}.hlscompile_summary", LAB0 + "project_1.hlscompile_summary")
        summary.write_text(summary.read_text().replace('"name": "top_kernel"', f'"name": "{kernel}"'))
        place(root, f"{folder}/hls/syn/report/csynth.xml", fixture + "hls__syn__report__csynth.xml")
    return collect(root)


def test_mode_hls_work_folders_side_by_side_are_designs_of_their_own(tmp_path: Path) -> None:
    """Three kernels of other tops in work folders side by side were one run of the repository,
    which took one folder's synthesis (by modification time) and made the others problem lines."""
    root = tmp_path / "vvc"
    collection = mode_hls_work_folders(root, {"dct2_dir": "harness", "canny_dir": "canny_top"})
    assert projects(collection, root) == ["canny_dir", "dct2_dir"]
    records, _ = records_of(collection)
    tops = [(r["problem"]["group_path"], r["hls_synth"]["UserAssignments"]["TopModelName"]) for r in records]
    assert tops == [(["canny_dir"], "canny_top"), (["dct2_dir"], "harness")]
    assert collection.problems() == []


def test_one_kernel_compiled_in_two_work_folders_is_one_design(tmp_path: Path) -> None:
    """The same kernel compiled again with another `--work_dir`: one design's runs, one project
    (its other folder's synthesis a problem line), not two designs of one kernel."""
    root = tmp_path / "vvc"
    collection = mode_hls_work_folders(root, {"dct2_dir": "IDCT2", "dct2_try": "IDCT2"})
    assert projects(collection, root) == ["."]
    records, _ = records_of(collection)
    assert {tuple(r["problem"]["group_path"]) for r in records} == {("vvc",)}  # (the fixtures' two parts: two runs)


def test_mode_hls_work_folder_is_build_output_of_the_project_above(tmp_path: Path) -> None:
    root = tmp_path / "mve"
    mode_hls_component(root)
    collection = collect(root)
    assert projects(collection, root) == ["build"]
    assert summary(collection) == [(("build",), "hls_synth", "vitis.csynth", VCK190_PART, "pass")]
    records, _ = records_of(collection)
    assert records[0]["hls_synth"]["AreaEstimates"]["Resources"]["LUT"] == "53593"  # not the packaged copy
    (result,) = collection.projects.values()
    # the link and the package step are one hardware run (its records are outside schema 1.0)
    assert [(r.target, r.device) for r in result.runs] == [
        ("vitis.csynth", VCK190_PART),
        ("vitis.hw", "xilinx_vck190_base_202420_1"),
    ]


def component_with_work_dir(root: Path, work_dir: str = "example") -> Path:
    """A unified component whose vitis-comp.json names another work_dir (j1hye0n/vitis_hls
    workspace/sample1, bernaction/Double_SHA_256_in_FPGA_HLS_IP): reports under <work_dir>/hls."""
    component = root / "workspace/sample1/hls_component"
    place(
        component,
        "vitis-comp.json",
        text='{"name": "hls_component", "type": "HLS", "configuration": {"componentType": "HLS",'
        f' "configFiles": ["hls_config.cfg"], "work_dir": "{work_dir}"}}}}\n',
    )
    place(component, "hls_config.cfg", text="part=xczu3eg-sbva484-1-e\n")
    work = component / work_dir
    place(work, f"{work_dir}.hlscompile_summary", LAB0 + "project_1.hlscompile_summary")
    place(work, "hls/syn/report/csynth.xml", LAB0 + "hls__syn__report__csynth.xml")
    place(work, "hls/sim/report/top_kernel_cosim.rpt", LAB0 + "hls__sim__report__top_kernel_cosim.rpt")
    place(work, "hls/sim/report/verilog/lat.rpt", LAB0 + "hls__sim__report__verilog__lat.rpt")
    place(work, "hls/.autopilot/db/top_kernel.design.xml", text="<design/>\n")
    generated_driver(work / "hls/impl/ip/drivers/top_kernel_v1_0/src")
    return component


def test_component_work_dir_named_by_vitis_comp_belongs_to_the_component(tmp_path: Path) -> None:
    root = tmp_path / "vitis_hls"
    component_with_work_dir(root)
    collection = collect(root)
    assert projects(collection, root) == ["workspace/sample1/hls_component"]
    group = ("workspace", "sample1", "hls_component")
    assert summary(collection) == [
        (group, "hls_synth", "vitis.cosim", "xczu3eg-sbva484-1-e", "pass"),
        (group, "rtl_sim", "vitis.cosim", "xczu3eg-sbva484-1-e", "pass"),
    ]
    records, _ = records_of(collection)
    assert records[1]["rtl_sim"]["kernel_runtime_cycles"] == 140
    assert collection.problems() == []


def test_waiting_component_runs_in_its_work_dir(tmp_path: Path) -> None:
    """A component with no report yet is one waiting csynth run, wherever its work_dir is."""
    root = tmp_path / "vitis_hls"
    component = root / "comp"
    place(component, "vitis-comp.json", text='{"configuration": {"work_dir": "out"}}\n')
    place(component, "hls_config.cfg", text="part=xczu3eg-sbva484-1-e\n")
    place(component, "out/hls/.autopilot/db/a.xml", text="<a/>\n")
    collection = collect(root)
    (result,) = collection.projects.values()
    assert [(r.target, r.device) for r in result.runs] == [("vitis.csynth", "xczu3eg-sbva484-1-e")]  # (its config's)
    assert result.records == []


def test_work_dir_named_by_a_parent_json_is_never_a_component(tmp_path: Path) -> None:
    """superkooks/comp4601: canny_hls/vitis-comp.json names work_dir canny_top, and 2025.2 wrote a
    second vitis-comp.json (work_dir ".") into canny_top: canny_hls is the component, canny_top its
    work folder (the group path gains no level)."""
    root = tmp_path / "comp4601"
    place(root, "canny_hls/vitis-comp.json", text='{"configuration": {"work_dir": "canny_top"}}\n')
    top = root / "canny_hls/canny_top"
    place(top, "vitis-comp.json", text='{"configuration": {"work_dir": "."}}\n')
    place(top, "canny_top.hlscompile_summary", LAB0 + "project_1.hlscompile_summary")
    place(top, "hls/syn/report/csynth.xml", LAB0 + "hls__syn__report__csynth.xml")
    collection = collect(root)
    assert projects(collection, root) == ["canny_hls"]
    assert [s[0] for s in summary(collection)] == [("canny_hls",)]


# --- item 2: folders with a marker and source but no build hide nothing -----------------------


def classic_solution(project: Path) -> None:
    """A Vivado HLS project folder (SahJaiswal/MNIST_HLS): vivado_hls.app, solution1 with reports."""
    prefix = "SahJaiswal-MNIST_HLS__solution1__"
    place(project, "vivado_hls.app", text="<project/>\n")
    place(project, "c_mnist.c", text="int c_mnist() { return 0; }\n")
    place(project, "solution1/solution1.aps", text="<solution/>\n")
    place(project, "solution1/syn/report/csynth.xml", prefix + "syn__report__csynth.xml")
    place(project, "solution1/sim/report/c_mnist_cosim.rpt", prefix + "sim__report__c_mnist_cosim.rpt")
    place(project, "solution1/sim/report/verilog/lat.rpt", prefix + "sim__report__verilog__lat.rpt")


def test_library_folder_with_makefile_does_not_hide_the_built_project(tmp_path: Path) -> None:
    root = tmp_path / "MNIST_HLS"
    classic_solution(root)
    place(root, "include/makefile", text="all:\n")
    place(root, "include/mnist_data.h", text="#define N 10\n")
    collection = collect(root)
    assert projects(collection, root) == ["."]
    assert [s[1:3] for s in summary(collection)] == [("hls_synth", "vitis.cosim"), ("rtl_sim", "vitis.cosim")]


def test_unbuilt_reference_folders_do_not_hide_the_built_project(tmp_path: Path) -> None:
    """Crinstaniev/ParticleCoverHLS: reference/<name>/ folders with a makefile and source, never built."""
    root = tmp_path / "ParticleCoverHLS"
    classic_solution(root)
    for name in ("old_ref", "tanish_ver"):
        place(root, f"reference/{name}/Makefile", text="all:\n")
        place(root, f"reference/{name}/src/system.cpp", text="int main() { return 0; }\n")
    collection = collect(root)
    assert projects(collection, root) == ["."]
    assert len(summary(collection)) == 2


def test_a_solution_folder_kept_empty_in_git_is_no_build(tmp_path: Path) -> None:
    """an50: each layer of NN (NN/Files/<layer>/) keeps its sources and a `solutions/` folder
    holding one placeholder file, `nihao`. Taken for a solution, it made every layer a built
    design, which hid NN, whose vitis_hls.log ran its failed synthesis: that record was the
    repository's, NN walked alone gave none."""
    root = tmp_path / "an50"
    nn = root / "NN"
    place(nn, "NN.cpp", text="void NN() {}\n")
    place(nn, "Alex_Net/hls.app", text='<project name="Alex_Net" top="NN"/>\n')
    place(nn, "Alex_Net/NN/NN.aps", text="<solution/>\n")
    place(
        nn,
        "vitis_hls.log",
        text="INFO: [HLS 200-1510] Running: open_solution -reset NN \n"
        "INFO: [HLS 200-10] Setting target device to 'xczu7ev-ffvc1156-2-i'\n"
        "INFO: [HLS 200-1510] Running: csynth_design \n"
        "ERROR: [HLS 207-3433] redefinition of 'filter_conv5'\n"
        "INFO: [HLS 200-112] Total CPU user time: 1 seconds. Total elapsed time: 1247.91 seconds; peak 1 MB.\n",
    )
    for layer in ("Conv1", "Pool1"):
        place(nn, f"Files/{layer}/solutions/nihao", text="nihao!\n")
        place(nn, f"Files/{layer}/src/{layer.lower()}.cpp", text="void f() {}\n")
    collection = collect(root)
    assert summary(collection) == [(("NN",), "hls_synth", "vitis.csynth", "xczu7ev-ffvc1156-2-i", "fail")]


def test_a_project_whose_synthesis_failed_is_not_hidden_by_a_built_one_below(tmp_path: Path) -> None:
    """SpeedyBK/PynqNet: Hardware/ip_repo/ holds FilterBS300/ (vivado_hls.app, solution1 whose
    synthesis failed: its log, no report) and the session's vivado_hls.log; HLS_Repo/ below it
    holds a built project. A folder with a built project below stayed a project only for reports
    of its own: ip_repo's failed synthesis was no record and no problem line, where ip_repo
    collected alone gives its fail."""
    root = tmp_path / "PynqNet"
    ip_repo = root / "Hardware/ip_repo"
    banner = (
        "Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC v2019.1 (64-bit)\n"
        "INFO: [HLS 200-10] Setting target device to 'xc7z020-clg400-1'\n"
        "INFO: [HLS 200-10] Analyzing design file 'FilterBS300/src/TopLevel.cpp' ... \n"
    )
    failed = (
        banner + "ERROR: [HLS 200-70] Compilation errors found: In file included from FilterBS300/src/TopLevel.cpp:1:\n"
    )
    place(ip_repo, "vivado_hls.log", text=failed)
    place(ip_repo, "FilterBS300/vivado_hls.app", text='<project name="FilterBS300" top="FilterBS300"/>\n')
    place(ip_repo, "FilterBS300/src/TopLevel.cpp", text="void FilterBS300() {}\n")
    place(ip_repo, "FilterBS300/solution1/solution1.aps", text="<solution/>\n")
    place(ip_repo, "FilterBS300/solution1/solution1.log", text=failed)
    classic_solution(ip_repo / "HLS_Repo/FIR16BitA")
    collection = collect(root)
    assert projects(collection, root) == ["Hardware/ip_repo", "Hardware/ip_repo/HLS_Repo"]
    assert summary(collection)[0] == (("Hardware", "ip_repo"), "hls_synth", "vitis.csynth", "xc7z020-clg400-1", "fail")


def test_built_projects_below_still_hide_a_group_makefile(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    place(root, "Makefile", text="all:\n")
    place(root, "src/main.cpp", text="int main() { return 0; }\n")
    place(root, "kernels/a/run_hls.tcl", text="open_project proj\n")
    place(root, "kernels/a/a.cpp", text="void a() {}\n")
    classic_solution(root / "kernels/a/proj")  # a Vivado HLS project folder is build output
    place(root, "kernels/b/Makefile", text="all:\n")  # an unbuilt variant beside a built one
    place(root, "kernels/b/b.cpp", text="void b() {}\n")
    collection = collect(root)
    assert projects(collection, root) == ["kernels/a", "kernels/b"]
    assert {s[0] for s in summary(collection)} == {("kernels", "a")}


def test_a_report_in_no_project_is_a_problem(tmp_path: Path) -> None:
    """WYI1223/ECE8893MyLab: a csynth.xml copied out of a project that was not committed."""
    root = tmp_path / "lab"
    place(root, "notes/report/csynth.xml", LAB0 + "hls__syn__report__csynth.xml")
    place(root, "notes/readme.md", text="results\n")
    collection = collect(root)
    assert projects(collection, root) == []
    assert [str(p) for p in collection.problems()] == [
        f"{root}/notes/report/csynth.xml: report in no project (no build evidence, nor a build marker "
        "with source, in its folder or above it): not collected"
    ]


def test_files_of_a_design_that_are_no_reports_are_no_problem_lines(tmp_path: Path) -> None:
    """mztulip/dijkstra_zynq: an HLS design of a graph algorithm keeps an empty graph1.h (its name
    makes it a place an AI Engine graph may declare its PLIOs); lrh12580/Zedboard_Sobel: the
    GUI's JVM left two empty crash dumps, hs_err_pid*.log, in the solution; S12P/sisyphus-fpga24-
    artifact: Merlin left an empty `refer_induct/refer_induct.log` (named as a session log) that
    no run reads; Jason1790213836/Sobel-Edge-Detection-Accelerator-on-FPGA copied a component's
    `hls_run_csim.log` out of its logs/. None is a report: all were problem lines."""
    root = tmp_path / "dijkstra_hls"
    place(root, "hls.app", text='<project top="fft32" name="dijkstra_hls"/>\n')
    place(root, "solution1/solution1.aps", text="<solution/>\n")
    place(root, "solution1/syn/report/csynth.xml", LAB0 + "hls__syn__report__csynth.xml")
    place(root, "graph1.h", text="\n\n\n")
    place(root, "solution1/hs_err_pid11977.log", text="")
    place(root, "report_merlin/refer_induct/refer_induct.log", text="")
    place(root, "reports/hls_run_csim.log", text="INFO: [SIM 1] CSim done with 0 errors.\n")
    collection = collect(root)
    assert projects(collection, root) == ["."] and [str(p) for p in collection.problems()] == []
    assert [row[1] for row in summary(collection)] == ["hls_synth"]


# --- item 3: the HLS code analyzer's recipe.json is not an XRT recipe --------------------------

CODE_ANALYZER_RECIPE = '{\n  "transformations": [],\n  "task_names": {}\n}\n'


def test_code_analyzer_recipe_is_neither_a_recipe_nor_a_project(tmp_path: Path) -> None:
    """burakotlu/pFFT, j1hye0n/vitis_hls: <comp>/hls/csim/code_analyzer/.internal/dataflow/<n>/recipe.json."""
    root = tmp_path / "pFFT"
    component = component_with_work_dir(root, work_dir="PositFFT")
    for n in range(3):
        place(
            component, f"PositFFT/hls/csim/code_analyzer/.internal/dataflow/{n}/recipe.json", text=CODE_ANALYZER_RECIPE
        )
    # the same document outside .internal is not a recipe either (its shape says so)
    place(root, "notes/Makefile", text="all:\n")
    place(root, "notes/main.cpp", text="int main() { return 0; }\n")
    place(root, "notes/recipe.json", text=CODE_ANALYZER_RECIPE)
    collection = collect(root)
    assert projects(collection, root) == ["notes", "workspace/sample1/hls_component"]
    assert extension_records_of(collection) == []
    assert collection.problems() == []
    assert len(summary(collection)) == 2


def test_a_host_component_makes_no_synthesis_run(tmp_path: Path) -> None:
    """superkooks/comp4601's canny_host: a unified workspace's host application has a
    vitis-comp.json too (type HOST, no work_dir): it runs no HLS and waits for no synthesis."""
    root = tmp_path / "comp4601"
    host = root / "canny_host"
    place(
        host,
        "vitis-comp.json",
        text='{"name": "canny_host", "type": "HOST", "configuration": {"componentType": "HOST"}}\n',
    )
    place(host, "src/host.cpp", text="int main() { return 0; }\n")
    collection = collect(root)
    assert [(path, result.runs) for path, result in collection.projects.items()] == [(str(host), [])]


# --- a v++ build at the root of other builds --------------------------------------------------

U200 = "xilinx_u200_gen3x16_xdma_2_202110_1"


def vpp_compile_log(target: str, failed: bool) -> str:
    """A v++ compile's log as 2022.2 writes it (happyCheetah/matmult), cut to the lines read."""
    lines = [
        f"INFO: [v++ 60-895]   Target platform: /opt/xilinx/platforms/{U200}/{U200}.xpfm",
        "INFO: [v++ 74-78] Compiler Version string: 2022.2",
        f"INFO: [v++ 60-585] Compiling for {target} target",
        f"INFO: [v++ 60-423]   Target device: {U200}",
        "INFO: [v++ 60-242] Creating kernel: 'top'",
    ]
    if failed:
        lines += [
            "ERROR: [v++ 60-599] Kernel compilation failed to complete",
            "ERROR: [v++ 60-592] Failed to finish compilation",
        ]
    return "\n".join(lines) + "\n"


def test_a_vpp_build_at_the_root_of_other_builds_is_a_project(tmp_path: Path) -> None:
    """happyCheetah/matmult: a sw_emu compile that failed at the repository's root (its v++ log and
    _x/ there), a hw_emu build in u200/hw_emu. The root's build was no project's: its log and
    its _x/ were in no run and on no line of `--explain`."""
    root = tmp_path / "matmult"
    place(root, "Makefile", text="all:\n")
    place(root, "src/block_mm.cpp", text="void top() {}\n")
    place(root, "v++_block_mm.log", text=vpp_compile_log("software emulation", failed=True))
    place(root, "_x/logs/block_mm/v++.log", text=vpp_compile_log("software emulation", failed=True))
    place(root, "u200/Makefile", text="all:\n")
    place(root, "u200/hw_emu/v++_block_mm.log", text=vpp_compile_log("hardware emulation", failed=True))
    collection = collect(root)
    assert projects(collection, root) == [".", "u200/hw_emu"]
    at_root = collection.projects[str(root)]
    assert [(r.target, r.device) for r in at_root.runs] == [("vitis.sw_emu", U200)]
    # (a sw_emu build's sw_run takes its status from a runner only: no record, the run is shown)
    assert summary(collection) == [(("u200", "hw_emu"), "hls_synth", "vitis.hw_emu", U200, "fail")]


# --- SDAccel 2016-2018: xocc's build folders ----------------------------------------------------

F1 = "xilinx_aws-vu9p-f1_4ddr-xpr-2pr_4_0"


def test_xocc_build_folders_name_their_run(tmp_path: Path) -> None:
    """bo-dun/ising_solver (SDAccel 2017.1, AWS F1): xocc built in
    `_xocc_compile_<file>_<kernel>.<t>.<platform>.dir` and `_xocc_link_....dir`; they made no
    run, and the project counted as not built. A hw_emu compile's HLS solution is that run's."""
    root = tmp_path / "helloworld_ocl"
    place(root, "Makefile", text="all:\n")
    place(root, "src/host.cpp", text="int main() { return 0; }\n")
    compile_dir = f"_xocc_compile_vector_addition_vector_addition.sw_emu.{F1}.dir"
    place(root, f"{compile_dir}/impl/kernels/vector_add/vector_add/vivado_hls.log", text="")
    place(root, f"_xocc_link_vector_addition.sw_emu.{F1}_vector_addition.sw_emu.{F1}.dir/steps.log", text="")
    collection = collect(root)
    (result,) = collection.projects.values()
    assert [(r.target, r.device) for r in result.runs] == [("vitis.sw_emu", F1)]
    hw_emu = root / compile_dir.replace("sw_emu", "hw_emu")
    classic_solution(hw_emu / "impl/kernels/vector_add/vector_add/prj")
    # (its rtl_sim waits for the host run's profile)
    assert [s[1:] for s in summary(collect(root))] == [("hls_synth", "vitis.hw_emu", F1, "pass")]


def test_a_copy_of_a_vpp_log_in_a_logs_folder_makes_no_project_above_a_build(tmp_path: Path) -> None:
    """A repository keeping copies of its builds' logs in logs/ at its root: v++ did not run
    there (the build's own log is in ex1/, its record once)."""
    root = tmp_path / "repo"
    place(root, "Makefile", text="all:\n")
    place(root, "src/host.cpp", text="int main() { return 0; }\n")
    log = vpp_compile_log("hardware emulation", failed=True)
    place(root, "ex1/v++_block_mm.log", text=log)
    place(root, "logs/v++_block_mm.log", text=log)
    collection = collect(root)
    assert projects(collection, root) == ["ex1"]
    assert len(summary(collection)) == 1


def test_an_xocc_folder_that_names_no_target_is_no_build_of_its_own(tmp_path: Path) -> None:
    """Only the `.<t>.<platform>.dir` names are v++ builds: another `_xocc_*` folder's HLS
    solution stays a solution (taken for a nameless build, it went to no run)."""
    root = tmp_path / "repo"
    classic_solution(root / "_xocc_krnl_vadd_krnl_vadd.dir/impl/kernels/k/k/prj")
    assert [s[1:3] for s in summary(collect(root))] == [("hls_synth", "vitis.cosim"), ("rtl_sim", "vitis.cosim")]


def test_a_project_above_another_is_collected_again_without_it(tmp_path: Path) -> None:
    """What `watch` does for a change in the folder v++ ran in: its re-walk took the build below
    it too (a second vitis.hw_emu run, with a record under the outer folder's group path)."""
    root = tmp_path / "matmult"
    place(root, "Makefile", text="all:\n")
    place(root, "src/block_mm.cpp", text="void top() {}\n")
    place(root, "v++_block_mm.log", text=vpp_compile_log("software emulation", failed=True))
    place(root, "u200/Makefile", text="all:\n")
    place(root, "u200/hw_emu/v++_block_mm.log", text=vpp_compile_log("hardware emulation", failed=True))
    engine = Engine(lambda r: load_settings(Path(r)))
    scanned = engine.scan([str(root)], wait_for_writers=0)
    again = engine.recollect(str(root), str(root))
    assert [(r.target, r.device) for r in again.runs] == [("vitis.sw_emu", U200)]
    assert again.lines == scanned.projects[str(root)].lines


def test_a_plain_x_folder_without_a_log_inside_is_the_only_builds(tmp_path: Path) -> None:
    """UCLA-VAST/Prometheus's bitstream folders: v++'s log beside a plain _x/ whose kernels'
    HLS solutions had no run (problem lines), the log inside _x/ never committed."""
    root = tmp_path / "bicg"
    place(root, "src/kernel.cpp", text="void k() {}\n")
    place(root, "v++_workload.log", text=vpp_compile_log("hardware emulation", failed=False))
    classic_solution(root / "_x/workload-kernel_nlp_slr0-hw_emu/kernel_nlp_slr0/kernel_nlp_slr0")
    collection = collect(root)
    assert [s[1:3] for s in summary(collection)] == [("hls_synth", "vitis.hw_emu")]
    assert collection.problems() == []


@pytest.mark.parametrize(
    ("folder", "log"),
    [
        ("build_hw_rel/xo", "build_hw_rel/xo/v++_kernel.log"),  # hls4ml's VitisAccelerator: --temp_dir xo
        ("saved_x", "saved_x/logs/kernel/v++.log"),  # songqij/ESE5320hw: a _x kept under another name
    ],
)
def test_a_vpp_temporary_folder_of_any_name_is_its_builds(tmp_path: Path, folder: str, log: str) -> None:
    """v++ leaves its guidance (`v++_compile_<kernel>_guidance.pb3`) and `reports/` in the folder it
    works in, whatever its name: the kernel's HLS solution inside was a vitis.csynth run of its
    own, where it is the hw build's (never written)."""
    root = tmp_path / "vitis_accel_prj"
    place(root, "Makefile", text="all:\n")
    place(root, "src/host.cpp", text="int main() { return 0; }\n")
    place(root, f"{folder}/v++_compile_kernel_guidance.pb3", text="")
    place(root, f"{folder}/reports/kernel/summary.txt", text="")
    place(root, log, text=vpp_compile_log("hardware", failed=False))
    classic_solution(root / folder / "kernel/kernel_wrapper/kernel_wrapper")
    collection = collect(root)
    (result,) = collection.projects.values()
    assert [(r.target, r.device) for r in result.runs] == [("vitis.hw", U200)]
    assert summary(collection) == [] and collection.problems() == []


U50 = "xilinx_u50_gen3x16_xdma_201920_3"


def vpp_log_of(step: str, elapsed: str, hls_log: str | None = None) -> str:
    """A 2020.2 v++ log (ravicho/PORT_test1), cut to the lines read: a compile names the log of
    its kernel's HLS, in the folder `--temp_dir` made."""
    lines = [
        "INFO: [v++ 74-74] Compiler Version string: 2020.2",
        f"INFO: [v++ 60-{585 if step == 'Compiling' else 629}] {step} for hardware emulation target",
        f"INFO: [v++ 60-423]   Target device: {U50}",
    ]
    if hls_log is not None:
        lines.append(
            "===>The following messages were generated while  performing high-level synthesis for kernel: "
            f"vadd Log file: {hls_log} :"
        )
    return "\n".join([*lines, f"INFO: [v++ 60-791] Total elapsed time: {elapsed}"]) + "\n"


@pytest.mark.parametrize("viewer", [True, False], ids=["log-viewer", "no-log-viewer"])
def test_a_kernel_compiled_in_a_temp_dir_of_any_name_is_its_builds(tmp_path: Path, viewer: bool) -> None:
    """ravicho/PORT_test1 (the HBM tutorial's makefile): `v++ --temp_dir build/<cfg>/temp_dir
    --log_dir build/<cfg>/log_dir --report_dir ...`. The kernel's HLS project in the temporary
    folder was a vitis.csynth project of its own (its `vitis_hls.log`'s 22.9 s, the HLS part)
    and the log folder three projects more; the hw_emu run had no hls_synth record. The compile's
    log names where its kernel's HLS ran; v++'s guidance files (2020.2: `.pb`, `.json`) make the
    temporary folder build output, its `optraceViewer.html` the log folder. Without that file
    (whoami90506/MSoC-Self-Paced: a compile that failed before v++ wrote it), the log folder is
    known by its `v++_<output>.log` beside `<output>/v++.log`: it and its copy were two more
    projects, runs of version 'unknown'."""
    root = tmp_path / "PORT_test1"
    place(root, "makefile", text="all:\n")
    build = root / "build/HBM_banks2"
    place(build, "vadd_hw_emu.xo", text="xo\n")
    place(build, "vadd_hw_emu.xclbin.link_summary", text="{}\n")
    place(build, "temp_dir/v++_compile_vadd_hw_emu_guidance.pb", text="pb\n")
    place(build, "temp_dir/v++_compile_vadd_hw_emu_guidance.json", text="{}\n")
    work = build / "temp_dir/vadd_hw_emu/vadd"
    place(
        work,
        "vitis_hls.log",
        text="INFO: [HLS 200-112] Total elapsed time: 22.9 seconds; peak allocated memory: 1 MB.\n",
    )
    place(work, "vadd/hls.app", text='<project name="vadd" top="vadd"/>\n')
    place(work, "vadd/solution/solution.aps", text="<solution/>\n")
    unique = "UniqueMR-ESE5320-Final-Project___x__kernel__hardware_encoding__hardware_encoding__solution__syn__report__"
    place(work, "vadd/solution/syn/report/csynth.xml", unique + "csynth.xml")
    logs = build / "log_dir"
    if viewer:
        place(logs, "optraceViewer.html", text="<html/>\n")
    named = "/wrk/ravic/Port_DDR_to_HBM/build/HBM_banks2/temp_dir/vadd_hw_emu/vadd/vitis_hls.log"
    place(logs, "vadd_hw_emu/v++.log", text=vpp_log_of("Compiling", "0h 0m 59s", named))
    place(logs, "v++_vadd_hw_emu.log", text=vpp_log_of("Linking", "0h 7m 27s"))
    collection = collect(root)
    assert projects(collection, root) == ["build/HBM_banks2"]
    records, _clashes = records_of(collection)
    assert [
        (r["report_type"], r["run"]["target"], r["run"]["device"], r["run"]["runtime_seconds"]) for r in records
    ] == [("hls_synth", "vitis.hw_emu", U50, 506.0)]
