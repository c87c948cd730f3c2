"""A generated tree of deep v++ hw_emu builds, the shape `collect` is measured on.

Each project is a v++ hardware-emulation build of one kernel, about 150 files: sources and a
Makefile; an `_x.hw_emu.<platform>` tree ten levels deep (the HLS solution with its RTL, IP and
`.autopilot` folders; `link/vivado/vpl/prj/...`); 3-6 copies of `csynth.xml` (the canonical one
and packaged ones at several depths, with other numbers: the pick rule must skip them); large
v++, HLS and Vivado logs; and sparse large files (a checkpoint, an xclbin, a waveform) that no
collector should read. Used by bench_collect_deep.py and by the test that the fast paths write
the same bytes as the plain ones.
"""

from __future__ import annotations

import os
import random
from functools import cache

from collectors.demo import PLATFORM, Synth, csynth_xml, hls_log, profile_csv, random_synth, system_diagram, vpp_log

KERNELS = ("vadd", "mmult", "conv2d", "fft", "spmv", "bfs", "nw", "hotspot")
PACKAGED = (  # where v++ and Vivado leave copies of the kernel's report (below _x), shallow to deep
    "reports/{k}/hls_reports/csynth.xml",
    "{k}/{k}/{k}/solution/impl/ip/syn/report/csynth.xml",
    "link/int/xo/ip_repo/xilinx_com_hls_{k}_1_0/hls_files/syn/report/csynth.xml",
    "link/sys_link/iprepo/xilinx_com_hls_{k}_1_0/hls_files/syn/report/csynth.xml",
    "link/vivado/vpl/prj/prj.gen/sources_1/bd/ulp/ip/ulp_{k}_1_0/hls_files/syn/report/csynth.xml",
)
SPARSE_BYTES = 64 * 1024 * 1024  # a sparse file takes no disk: only its size says "large"
TREE_WRITERS = max(1, min(os.cpu_count() or 1, 8))  # processes that write a benchmark's tree


@cache
def _log_lines(prefix: str, count: int) -> str:
    return "".join(
        f"INFO: [{prefix} {200 + i % 90}-{i}] step {i} of the build finished in {i % 7}.{i % 10}s\n"
        for i in range(count)
    )


class _Writer:
    """Writes files, making each directory once (the tree has hundreds of thousands of files)."""

    def __init__(self) -> None:
        self.made: set[str] = set()

    def write(self, path: str, text: str) -> None:
        folder = os.path.dirname(path)
        if folder not in self.made:
            os.makedirs(folder, exist_ok=True)
            self.made.add(folder)
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)

    def sparse(self, path: str, size: int) -> None:
        self.write(path, "")
        os.truncate(path, size)


def write_project(writer: _Writer, project: str, number: int, rng: random.Random, log_lines: int) -> None:
    k = KERNELS[number % len(KERNELS)]
    synth = random_synth(rng, k)
    x = os.path.join(project, f"_x.hw_emu.{PLATFORM}")
    sol = os.path.join(x, k, k, k, "solution")
    w = writer.write
    w(os.path.join(project, "Makefile"), "# build script\n")
    for name in (f"{k}.cpp", f"{k}.h", "host.cpp", "utils.hpp"):
        w(os.path.join(project, "src", name), f"// {name}\nvoid {k}() {{}}\n")
    w(os.path.join(project, "profile_kernels.csv"), profile_csv({f"{k}_1": round(rng.uniform(5, 20_000), 3)}))
    w(os.path.join(project, "emconfig.json"), '{"Platform": {"Boards": []}}\n')
    w(os.path.join(project, "xrt.run_summary"), "{}\n")
    writer.sparse(os.path.join(project, "build_dir.hw_emu", f"{k}.xclbin"), SPARSE_BYTES)
    # the solution: the canonical report, its RTL, IP and the HLS database
    w(os.path.join(sol, "syn", "report", "csynth.xml"), csynth_xml(synth))
    w(os.path.join(sol, "syn", "report", f"{k}_csynth.rpt"), _log_lines("HLS", 40))
    for i in range(20):
        w(os.path.join(sol, "syn", "verilog", f"{k}_mod{i}.v"), f"module {k}_mod{i}();\nendmodule\n" * 20)
    for i in range(10):
        w(os.path.join(sol, "syn", "vhdl", f"{k}_mod{i}.vhd"), f"entity {k}_mod{i} is end;\n" * 20)
    for i in range(15):
        w(os.path.join(sol, "impl", "ip", "hdl", "verilog", f"{k}_ip{i}.v"), "// ip\n" * 30)
    w(os.path.join(sol, "impl", "ip", "component.xml"), "<spirit:component/>\n" * 50)
    for i in range(25):
        w(os.path.join(sol, ".autopilot", "db", f"a{i}.bc"), "BC\x00" * 64)
    w(os.path.join(sol, f"{k}.log"), _log_lines("HLS", log_lines // 4))
    w(os.path.join(x, k, k, "vitis_hls.log"), hls_log(synth.part, 42.5) + _log_lines("HLS", log_lines // 2))
    # packaged copies: 2-5 of them, with other numbers
    stale = Synth(k, synth.latency * 2, synth.interval * 2, synth.lut + 999, synth.ff, synth.dsp, synth.bram)
    for place in PACKAGED[: 2 + number % 4]:
        w(os.path.join(x, place.format(k=k)), csynth_xml(stale))
    # v++ logs, the link's Vivado project ten levels down, its logs and a sparse checkpoint
    compile_log = vpp_log("compile", "hw_emu", PLATFORM, 125, f"{x}/{k}.xo.compile_summary")
    w(os.path.join(x, "logs", k, "v++.log"), compile_log + _log_lines("v++", log_lines // 4))
    link_log = vpp_log("link", "hw_emu", PLATFORM, 498, f"{project}/build.link_summary")
    w(os.path.join(x, "logs", "link", "v++.log"), link_log + _log_lines("v++", log_lines // 4))
    w(os.path.join(x, "link", "int", "systemDiagramModel.json"), system_diagram(300.0))
    vpl = os.path.join(x, "link", "vivado", "vpl")
    w(os.path.join(vpl, "vivado.log"), _log_lines("Vivado", log_lines))
    runs = os.path.join(vpl, "prj", "prj.runs", "impl_1")
    for name in ("runme.log", "ulp_wrapper_utilization_placed.rpt", "ulp_wrapper_timing_summary_routed.rpt"):
        w(os.path.join(runs, name), _log_lines("Route", log_lines // 8))
    writer.sparse(os.path.join(runs, "ulp_wrapper_routed.dcp"), SPARSE_BYTES)
    srcs = os.path.join(vpl, "prj", "prj.srcs", "sources_1", "bd", "ulp", "ip", f"ulp_{k}_1_0", "sim")
    for i in range(30):
        w(os.path.join(srcs, f"ulp_{k}_1_0_{i}.v"), "// generated\n" * 10)
    sim = os.path.join(x, "emulation", "behav_waveform", "xsim")
    w(os.path.join(sim, "xsim.log"), _log_lines("XSIM", log_lines // 8))
    writer.sparse(os.path.join(sim, f"{k}.wdb"), SPARSE_BYTES)
    for i in range(12):
        w(os.path.join(x, "link", "int", f"kernel_info{i}.dat"), "dat\n" * 8)


def build_deep_tree(directory: str, projects: int = 2000, log_lines: int = 2000, seed: int = 13, first: int = 0) -> str:
    """The tree below `directory`; returns its root. `log_lines`: lines of the largest log of a
    project (others are a fraction of it); 2,000 lines make about 340 KB of reports and logs per
    project. `first`: the number of the first project (several processes write slices of a tree)."""
    writer = _Writer()
    root = os.path.join(os.path.abspath(directory), "deep-hw-emu")
    for number in range(first, first + projects):
        rng = random.Random(seed * 1_000_003 + number)  # the same project whatever the slicing
        group = f"group{number % 20:02d}"
        project = os.path.join(root, group, f"design_{number:05d}")
        write_project(writer, project, number, rng, log_lines)
    return root


def write_light_projects(suite: str, first: int, count: int, csynth: str) -> None:
    """Projects first..first+count-1 of the light tree (many small projects, as an AI-for-HLS
    campaign makes): each a vitis_hls project with a solution marker and one small csynth.xml."""
    for number in range(first, first + count):
        project = os.path.join(suite, "Benchmarks", f"g{number}", f"g{number}_1_base", "proj")
        report = os.path.join(project, "solution1", "syn", "report")
        os.makedirs(report)
        for path, text in (
            (os.path.join(project, "hls.app"), "<project/>\n"),
            (os.path.join(project, "solution1", "solution1.aps"), "<solution/>\n"),
            (os.path.join(report, "csynth.xml"), csynth),
        ):
            with open(path, "w", encoding="utf-8") as out:
                out.write(text)
