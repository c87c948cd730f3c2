"""Simulated Vitis build trees: realistic report files without Vitis.

Used by `vitis-tui demo`, the tree tests and the benchmarks. The report texts follow the
layout of real 2022-2024 reports (see tests/fixtures/vitis) with numbers made up here.
"""

from __future__ import annotations

import json
import os
import random
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import repeat

PLATFORM = "xilinx_u250_gen3x16_xdma_4_1_202210_1"
PART = "xcu250-figd2104-2L-e"
VERSION = "2023.2"


@dataclass(frozen=True)
class Synth:
    """The figures a synthetic csynth.xml carries."""

    top: str
    latency: int
    interval: int
    lut: int
    ff: int
    dsp: int
    bram: int
    clock: str = "3.33"
    estimated: str = "2.433"
    part: str = PART
    version: str = VERSION


def csynth_xml(s: Synth) -> str:
    real = f"{s.latency * float(s.clock) / 1e6:.3f} ms"
    # A per-module block deeper down, as newer reports have: must never leak into the payload.
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<profile>
  <ReportVersion><Version>{s.version}</Version></ReportVersion>
  <UserAssignments>
    <unit>ns</unit><ProductFamily>virtexuplus</ProductFamily><Part>{s.part}</Part>
    <TopModelName>{s.top}</TopModelName><TargetClockPeriod>{s.clock}</TargetClockPeriod>
    <ClockUncertainty>0.90</ClockUncertainty><FlowTarget>vitis</FlowTarget>
  </UserAssignments>
  <PerformanceEstimates>
    <PipelineType>no</PipelineType>
    <SummaryOfTimingAnalysis><unit>ns</unit><EstimatedClockPeriod>{s.estimated}</EstimatedClockPeriod></SummaryOfTimingAnalysis>
    <SummaryOfOverallLatency>
      <unit>clock cycles</unit><Best-caseLatency>{s.latency}</Best-caseLatency>
      <Average-caseLatency>{s.latency}</Average-caseLatency><Worst-caseLatency>{s.latency}</Worst-caseLatency>
      <Best-caseRealTimeLatency>{real}</Best-caseRealTimeLatency>
      <Average-caseRealTimeLatency>{real}</Average-caseRealTimeLatency>
      <Worst-caseRealTimeLatency>{real}</Worst-caseRealTimeLatency>
      <Interval-min>{s.interval}</Interval-min><Interval-max>{s.interval}</Interval-max>
    </SummaryOfOverallLatency>
  </PerformanceEstimates>
  <AreaEstimates>
    <Resources><BRAM_18K>{s.bram}</BRAM_18K><DSP>{s.dsp}</DSP><FF>{s.ff}</FF><LUT>{s.lut}</LUT><URAM>0</URAM></Resources>
    <AvailableResources><BRAM_18K>5376</BRAM_18K><DSP>12288</DSP><FF>3456000</FF><LUT>1728000</LUT><URAM>1280</URAM></AvailableResources>
  </AreaEstimates>
  <ModuleInformation><Module><Name>{s.top}_Pipeline_1</Name>
    <PerformanceEstimates><SummaryOfOverallLatency><Best-caseLatency>7</Best-caseLatency></SummaryOfOverallLatency></PerformanceEstimates>
    <AreaEstimates><Resources><LUT>1</LUT></Resources></AreaEstimates>
  </Module></ModuleInformation>
</profile>
"""


def lat_rpt(latency: int, total: int) -> str:
    return (
        f'$MAX_LATENCY = "{latency}"\n$MIN_LATENCY = "{latency}"\n$AVER_LATENCY = "{latency}"\n'
        f'$MAX_THROUGHPUT = "{latency}"\n$MIN_THROUGHPUT = "{latency}"\n$AVER_THROUGHPUT = "{latency}"\n'
        f'$TOTAL_EXECUTE_TIME = "{total}"\n'
    )


def cosim_rpt(passed: bool, latency: int, total: int) -> str:
    status = "Pass" if passed else "Fail"
    cells = [str(latency)] * 3 + [str(latency + 1)] * 3 + [str(total)] if passed else ["NA"] * 7
    row = "|".join(f"{c:>15}" for c in cells[:6]) + f"|{cells[6]:>22}|"
    border = "+----------+----------+" + "-" * 47 + "+" + "-" * 47 + "+----------------------+"
    return (
        "Report time       : Mon Jan  8 10:00:00 UTC 2024.\nSolution          : solution1.\n"
        "Simulation tool   : xsim.\n\n" + border + "\n"
        "|          |          |             Latency(Clock Cycles)             |"
        "              Interval(Clock Cycles)           | Total Execution Time |\n" + border + "\n"
        "|      VHDL|        NA|" + "|".join(f"{'NA':>15}" for _ in range(6)) + f"|{'NA':>22}|\n"
        f"|   Verilog|{status:>10}|{row}\n" + border + "\n"
    )


def profile_csv(units: dict[str, float]) -> str:
    rows = "".join(f"{name},{us:.3f},0.000,0.148,0.000\n" for name, us in units.items())
    return (
        "Compute Units: Running Time and Stalls\n"
        "Compute Unit, Running Time (us), Intra-Kernel Dataflow Stalls (%), External Memory Stalls (%), "
        "External Stream Stalls (%)\n" + rows + "\nFunctions: Running Time and Stalls\n"
        "Compute Unit, Function, Running Time (us)\n"
    )


def system_diagram(mhz: float) -> str:
    clocks = [
        {"name": "CPU", "id": -1, "spec_frequency": 1},
        {"name": "PL 1", "id": 1, "spec_frequency": 500},
        {"name": "PL 0", "orig_name": "ulp_ucs_aclk_kernel_00", "id": 0, "spec_frequency": mhz},
    ]
    return json.dumps({"system_diagram_metadata": {"schema_version": "2.0.0", "xsa": {"clocks": clocks}}}, indent=1)


def vpp_log(step: str, target: str, device: str, seconds: int, output: str, version: str = VERSION) -> str:
    names = {"sw_emu": "software emulation", "hw_emu": "hardware emulation", "hw": "hardware"}
    verb = {"compile": ("585", "Compiling"), "link": ("629", "Linking")}[step]
    h, m, s = seconds // 3600, seconds // 60 % 60, seconds % 60
    return (
        f"INFO: [v++ 60-1548] Creating build summary session with primary output {output}, "
        f"at Mon Jan  8 10:00:{seconds % 60:02d} 2024\n"
        f"INFO: [v++ 74-78] Compiler Version string: {version}\n"
        f"INFO: [v++ 60-{verb[0]}] {verb[1]} for {names[target]} target\n"
        f"INFO: [v++ 60-423]   Target device: {device}\n"
        f"INFO: [v++ 60-791] Total elapsed time: {h}h {m}m {s}s\n"
    )


def hls_log(
    part: str, seconds: float, csim_errors: int | None = 0, error: str | None = None, version: str = VERSION
) -> str:
    text = (
        f"****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v{version} (64-bit)\n"
        f"INFO: [HLS 200-1611] Setting target device to '{part}'\n"
    )
    if csim_errors is not None:
        text += (
            "INFO: [SIM 211-1] CSim done with 0 errors.\n"
            if csim_errors == 0
            else "ERROR: [SIM 211-100] CSim failed with errors.\n"
        )
    if error:
        text += f"ERROR: [HLS 207-1398] {error}\n"
    return text + (
        f"INFO: [HLS 200-112] Total CPU user time: 1 seconds. Total CPU system time: 1 seconds. "
        f"Total elapsed time: {seconds} seconds; peak allocated memory: 300.000 MB.\n"
    )


def write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)


def write_sources(project: str, kernel: str, hls: bool = False) -> None:
    write(os.path.join(project, "run_hls.tcl" if hls else "Makefile"), "# build script\n")
    write(os.path.join(project, "src", f"{kernel}.cpp"), f"void {kernel}() {{}}\n")


def write_hw_emu(
    project: str, synth: Synth, runtime_us: float, mhz: float = 300.0, platform: str = PLATFORM, noise: int = 0
) -> None:
    """A v++ hardware-emulation build: compile, link, packaged report copies, profile."""
    x = os.path.join(project, f"_x.hw_emu.{platform}")
    k = synth.top
    write(os.path.join(x, k, k, k, "solution", "syn", "report", "csynth.xml"), csynth_xml(synth))
    # The packaged copy under link/ holds different numbers: the pick rule must skip it.
    stale = Synth(k, synth.latency * 2, synth.interval * 2, synth.lut + 999, synth.ff, synth.dsp, synth.bram)
    write(
        os.path.join(
            x,
            "link",
            "vivado",
            "vpl",
            "prj",
            "prj.gen",
            "sources_1",
            "ip",
            k,
            "hls_files",
            "syn",
            "report",
            "csynth.xml",
        ),
        csynth_xml(stale),
    )
    write(
        os.path.join(x, "logs", k, "v++.log"),
        vpp_log("compile", "hw_emu", platform, 125, f"{x}/{k}.xo.compile_summary"),
    )
    write(
        os.path.join(x, "logs", "link", "v++.log"),
        vpp_log("link", "hw_emu", platform, 498, f"{project}/build.link_summary"),
    )
    write(os.path.join(x, "link", "int", "systemDiagramModel.json"), system_diagram(mhz))
    write(os.path.join(project, "profile_kernels.csv"), profile_csv({f"{k}_1": runtime_us}))
    write_noise(x, noise)


def write_hls(
    project: str,
    synth: Synth,
    solution: str = "solution1",
    cosim: bool = True,
    passed: bool = True,
    total: int | None = None,
    noise: int = 0,
) -> None:
    """A vitis_hls project: csim, csynth and (optionally) cosim of one solution."""
    prj = os.path.join(project, "proj")
    sol = os.path.join(prj, solution)
    write(os.path.join(prj, "hls.app"), "<project/>\n")
    write(os.path.join(sol, f"{solution}.aps"), "<AutoPilot:solution/>\n")
    write(os.path.join(sol, "csim", "report", f"{synth.top}_csim.log"), "INFO: [SIM 1] CSim done with 0 errors.\n")
    write(os.path.join(sol, "syn", "report", "csynth.xml"), csynth_xml(synth))
    if cosim:
        cycles = total if total is not None else synth.latency * 4
        write(os.path.join(sol, "sim", "report", "verilog", "lat.rpt"), lat_rpt(synth.latency, cycles))
        write(os.path.join(sol, "sim", "report", f"{synth.top}_cosim.rpt"), cosim_rpt(passed, synth.latency, cycles))
    write(os.path.join(project, "vitis_hls.log"), hls_log(synth.part, 42.5))
    write_noise(sol, noise)


def write_noise(directory: str, count: int) -> None:
    """Build clutter that real trees carry: RTL, IP, autopilot databases, logs."""
    places = (
        ".autopilot/db/a{}.bc",
        "syn/verilog/mod{}.v",
        "impl/ip/hdl/verilog/ip{}.v",
        "impl/misc/drivers/src/x{}.c",
        "sim/wrapc/obj{}.o",
        "logs/step{}.txt",
    )
    for i in range(count):
        write(os.path.join(directory, places[i % len(places)].format(i)), "x" * 64)


GROUPS = (
    ("StreamCluster", "streamcluster"),
    ("hotspot", "hotspot"),
    ("kmeans", "kmeans"),
    ("cfd/cfd_flux", "cfd_flux"),
    ("backprop", "backprop"),
    ("knn", "knn"),
)
VARIANTS = ("baseline", "tiling", "pipeline", "unroll", "doublebuffer", "coalescing", "multiddr")


def random_synth(rng: random.Random, kernel: str) -> Synth:
    """Made-up synthesis figures of a benchmark kernel (the demo's and the benchmarks' trees)."""
    return Synth(
        kernel,
        latency=rng.randint(1_000, 2_000_000),
        interval=rng.randint(1_000, 2_000_000),
        lut=rng.randint(2_000, 90_000),
        ff=rng.randint(2_000, 120_000),
        dsp=rng.randint(0, 400),
        bram=rng.randint(0, 300),
    )


@dataclass(frozen=True)
class _DemoProject:
    number: int
    path: str
    kernel: str
    synth: Synth
    runtime_us: float | None  # (a v++ hw_emu build; None: a vitis_hls project)


def build_demo_tree(directory: str, projects: int = 12, noise: int = 0, seed: int = 7, processes: int = 1) -> str:
    """A Rodinia-like suite: v++ hw_emu builds and vitis_hls projects. Returns the suite root.
    `processes`: how many write the files (the benchmarks' trees are 190,000 files); the tree
    is the same whatever their number."""
    rng = random.Random(seed)
    root = os.path.join(os.path.abspath(directory), "rodinia-hls", "Benchmarks")
    plan = []
    for number in range(projects):
        group, prefix = GROUPS[number % len(GROUPS)]
        index = number // len(GROUPS)
        name = VARIANTS[index % len(VARIANTS)]
        project = os.path.join(root, *group.split("/"), f"{prefix}_{index}_{name}")
        kernel = prefix.replace("_", "")
        synth = random_synth(rng, kernel)
        runtime_us = None if number % 3 == 2 else round(rng.uniform(5, 20_000), 3)
        plan.append(_DemoProject(number, project, kernel, synth, runtime_us))
    if processes > 1:
        with ProcessPoolExecutor(processes) as pool:
            list(pool.map(_write_demo_projects, [plan[first::processes] for first in range(processes)], repeat(noise)))
    else:
        _write_demo_projects(plan, noise)
    return root


def _write_demo_projects(plan: list[_DemoProject], noise: int) -> None:
    for project in plan:
        if project.runtime_us is None:
            write_sources(project.path, project.kernel, hls=True)
            write_hls(project.path, project.synth, passed=project.number % 9 != 8, noise=noise)
        else:
            write_sources(project.path, project.kernel)
            write_hw_emu(project.path, project.synth, runtime_us=project.runtime_us, noise=noise)


# The AI arm of the demo: an agent's attempts at some of the same problems, in a tree of its own
# whose vitis-tui.toml names the origin (see README "Configuration"). Several steps on hotspot,
# one of them failing synthesis, give a trajectory; knn is never attempted.
AGENT_ORIGIN = "demo_agent"
AGENT_VERSION = "v1"
AGENT_TOML = f"""# the demo's AI arm: every project below is this agent's
origin = "{AGENT_ORIGIN}"
origin_version = "{AGENT_VERSION}"

[origin_meta]
model = "demo-model"
"""
# (group, prefix, variant index, variant name, latency factor against the made-up reference, passes)
AGENT_STEPS = (
    ("hotspot", "hotspot", 0, "attempt", 1.4, True),
    ("kmeans", "kmeans", 0, "attempt", 0.5, True),
    ("hotspot", "hotspot", 1, "pipeline", 0.0, False),
    ("hotspot", "hotspot", 2, "unroll", 0.3, True),
    ("StreamCluster", "streamcluster", 0, "attempt", 0.8, True),
    ("cfd/cfd_flux", "cfd_flux", 0, "attempt", 2.5, True),
)


def agent_root(directory: str) -> str:
    """The agent's suite root (beside the benchmark's), with its vitis-tui.toml above it."""
    base = os.path.join(os.path.abspath(directory), "demo-agent")
    if not os.path.exists(os.path.join(base, "vitis-tui.toml")):
        write(os.path.join(base, "vitis-tui.toml"), AGENT_TOML)
    root = os.path.join(base, "rodinia-hls", "Benchmarks")
    os.makedirs(root, exist_ok=True)
    return root


def write_agent_step(root: str, step: int) -> None:
    """One attempt of the agent: a vitis_hls project (csim, csynth, cosim), or a failed synthesis."""
    group, prefix, index, name, factor, passes = AGENT_STEPS[step]
    project = os.path.join(root, *group.split("/"), f"{prefix}_{index}_{name}")
    kernel = prefix.replace("_", "")
    write_sources(project, kernel, hls=True)
    if not passes:
        write(os.path.join(project, "proj", "hls.app"), "<project/>\n")
        write(os.path.join(project, "proj", "solution1", "solution1.aps"), "<AutoPilot:solution/>\n")
        write(
            os.path.join(project, "vitis_hls.log"),
            hls_log(PART, 30.0, csim_errors=None, error="II=1 not met: loop-carried dependence on 'temp'"),
        )
        return
    rng = random.Random(f"{group}/{index}")
    latency = int(rng.randint(200_000, 1_500_000) * factor)
    synth = Synth(kernel, latency, latency, rng.randint(4_000, 80_000), rng.randint(4_000, 90_000), 40, 20)
    write_hls(project, synth)


def build_agent_tree(directory: str) -> str:
    """Every step of the agent, finished (the headless demo). Returns the agent's suite root."""
    root = agent_root(directory)
    for step in range(len(AGENT_STEPS)):
        write_agent_step(root, step)
    return root


def _write_in_pieces(path: str, text: str, pause: Callable[[float], bool]) -> bool:
    """Write a report the way a slow tool does: a first part, a pause, then the whole."""
    write(path, text[: len(text) // 2])
    if not pause(1.0):
        return False
    write(path, text)
    return True


PLAYED = (
    ("lud", "tiling"),
    ("nw", "pipeline"),
    ("srad", "unroll"),
    ("pathfinder", "coalescing"),
    ("lavaMD", "doublebuffer"),
)
FAILS, TIMES_OUT = 2, 3  # the builds (of PLAYED) whose synthesis fails and whose run times out


class _Player:
    """The builds of play_builds, each written as its tool would; every wait may be the last
    (False: `stop` was set)."""

    def __init__(self, stop: threading.Event, pace: float) -> None:
        self.stop, self.pace = stop, pace
        self.rng = random.Random(11)
        self.synthesized = 0

    def pause(self, seconds: float) -> bool:
        return not self.stop.wait(seconds * self.pace)

    def synth(self, kernel: str) -> Synth:
        rng = self.rng
        return Synth(
            kernel,
            latency=rng.randint(10_000, 900_000),
            interval=rng.randint(10_000, 900_000),
            lut=rng.randint(5_000, 60_000),
            ff=rng.randint(5_000, 80_000),
            dsp=rng.randint(0, 200),
            bram=rng.randint(0, 120),
        )

    def failed_synthesis(self, project: str, kernel: str) -> bool:
        write_sources(project, kernel, hls=True)
        write(os.path.join(project, "proj", "hls.app"), "<project/>\n")
        write(os.path.join(project, "proj", "solution1", "solution1.aps"), "<AutoPilot:solution/>\n")
        if not self.pause(2.0):
            return False
        log = hls_log(PART, 12.0, csim_errors=None, error="unexpected ';' before ')': kernel.cpp:48:97")
        write(os.path.join(project, "vitis_hls.log"), log)
        return True

    def timed_out(self, project: str, kernel: str) -> bool:
        write_sources(project, kernel)
        write(
            os.path.join(project, f"_x.hw_emu.{PLATFORM}", "logs", kernel, "v++.log"),
            vpp_log("compile", "hw_emu", PLATFORM, 7200, f"{project}/{kernel}.xo.compile_summary"),
        )
        if not self.pause(3.0):
            return False
        meta = f"target=vitis.hw_emu\ndevice={PLATFORM}\nstatus=timeout\nruntime_seconds=7200\n"
        write(os.path.join(project, "vitis_run.meta"), meta)
        return True

    def hw_emu(self, project: str, kernel: str, number: int, synth: Synth) -> bool:
        """Compile (the report in pieces), link, run; the second such build is synthesized again."""
        write_sources(project, kernel)
        x = os.path.join(project, f"_x.hw_emu.{PLATFORM}")
        write(
            os.path.join(x, "logs", kernel, "v++.log"),
            vpp_log("compile", "hw_emu", PLATFORM, 140 + number, f"{x}/{kernel}.xo.compile_summary"),
        )
        report = os.path.join(x, kernel, kernel, kernel, "solution", "syn", "report", "csynth.xml")
        if not _write_in_pieces(report, csynth_xml(synth), self.pause) or not self.pause(2.0):
            return False
        write(
            os.path.join(x, "logs", "link", "v++.log"),
            vpp_log("link", "hw_emu", PLATFORM, 500 + number, f"{project}/build.link_summary"),
        )
        write(os.path.join(x, "link", "int", "systemDiagramModel.json"), system_diagram(300.0))
        if not self.pause(2.0):
            return False
        write(os.path.join(project, "profile_kernels.csv"), profile_csv({f"{kernel}_1": self.rng.uniform(50, 9000)}))
        self.synthesized += 1
        if self.synthesized == 2:  # a re-synthesis rewrites the report with better numbers
            if not self.pause(3.0):
                return False
            better = Synth(
                kernel, synth.latency // 2, synth.interval // 2, synth.lut + 1500, synth.ff, synth.dsp + 8, synth.bram
            )
            write(report + ".tmp", csynth_xml(better))
            os.replace(report + ".tmp", report)  # an atomic rename onto the report name
        return True


def play_builds(directory: str, stop: threading.Event, pace: float = 1.0) -> str:
    """Play about a minute of realistic builds into a new Rodinia-like tree (for `vitis-tui demo`).

    Projects appear, reports are written in pieces and rewritten, one synthesis fails and one
    run times out; meanwhile an AI arm (`agent_root`) makes its attempts at the same problems.
    Returns when done or when `stop` is set.
    """
    root = build_demo_tree(directory, projects=6)
    agent = agent_root(directory)
    player = _Player(stop, pace)
    for number, (group, name) in enumerate(PLAYED):
        if not player.pause(2.0):
            return root
        write_agent_step(agent, number)  # the AI arm plays beside the benchmark's builds
        project = os.path.join(root, group, f"{group}_{number + 1}_{name}")
        kernel = group.lower()
        synth = player.synth(kernel)  # (made for every build: the random figures stay as they were)
        if number == FAILS:
            played = player.failed_synthesis(project, kernel)
        elif number == TIMES_OUT:
            played = player.timed_out(project, kernel)
        else:
            played = player.hw_emu(project, kernel, number, synth)
        if not played:
            return root
    for step in range(len(PLAYED), len(AGENT_STEPS)):
        if not player.pause(2.0):
            return root
        write_agent_step(agent, step)
    return root
