"""The payload and status of each record a run yields (docs/collection.md, "Where a run's facts come from").

Each builder returns (payload, source files), or None when no record can be written yet.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from typing import Any

from collectors.collect.artifacts.cosim import figureless_passes, total_cycles
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.runs.facts import RunFacts, by_top_then_newest, csim_candidates, in_solution, is_tops, penalty
from collectors.collect.runs.layout import UNKNOWN, ProjectFiles, RunGroup
from collectors.numbers import CYCLES, NumberError, checked
from collectors.problems import Problem
from collectors.records.model import VPP_TARGETS, hls_synth_payload, rtl_sim_payload

Built = tuple[dict[str, Any], list[str]] | None


@dataclass
class PayloadInput:
    """What every payload builder reads: the run, its facts and where to report problems."""

    proj: ProjectFiles
    group: RunGroup
    facts: RunFacts
    problems: list[Problem]

    @property
    def label(self) -> str:
        return f"{self.group.target} run on {self.group.device or UNKNOWN}"

    def in_solution(self, item: Parsed) -> bool:
        return in_solution(self.proj, self.group, item, self.facts.solution)


def build_payload(given: PayloadInput, report_type: str, runner: str | None) -> Built:
    """`runner` is the status the runner's metadata gives for this report type, if any."""
    if report_type == "hls_synth":
        return _hls_synth(given, runner)
    if report_type == "rtl_sim":
        return _cosim(given, runner) if given.group.target == "vitis.cosim" else _hw_emu(given, runner)
    return _sw_run(given, runner)


def _hls_synth(given: PayloadInput, runner: str | None) -> Built:
    chosen = given.facts.chosen
    if chosen is not None and chosen.ok:
        _other_kernels(given, chosen)
        return hls_synth_payload("pass", chosen.facts), [chosen.path]
    status = runner
    if status == "pass":
        given.problems.append(Problem(given.proj.path, f"{given.label}: runner says pass but no readable csynth.xml"))
        return None
    if status is None and given.facts.errors:
        status = "fail"
    if status is None:
        return None  # still building, or nothing known: no record yet
    return hls_synth_payload(status, None), [chosen.path] if chosen else []


_KERNEL_SOLUTION = ["solution", "syn", "report", "csynth.xml"]  # v++ -c: <kernel>/<kernel>/<kernel>/solution/...


def _other_kernels(given: PayloadInput, chosen: Parsed) -> None:
    """A v++ build of several kernels (stjohnd777/my-xilinx-vision: eight, each synthesised in
    the build's <kernel>/<kernel>/<kernel>/solution) makes one hls_synth record, of the kernel
    its pick chose: each other kernel's synthesis is a problem line, not a copy passed over in
    silence. Known by the build's own solutions' paths (their copies are not read for it)."""
    if given.group.target not in VPP_TARGETS:
        return
    proj = given.proj
    kernels: dict[str, str] = {}  # kernel -> its solution's folder
    for item in (p for p in given.group.items if p.kind == "csynth"):  # (by path: none is read for it)
        parts = proj.parts(item)
        if (kernel := _kernel_of(parts)) is not None and not penalty(parts):
            kernels.setdefault(kernel, item.path.rsplit(os.sep, 4)[0])  # (its folder on disk)
    recorded = _kernel_of(proj.parts(chosen))
    if recorded not in kernels or len(kernels) < 2:
        return
    for kernel, folder in sorted(kernels.items()):
        if kernel != recorded:
            why = f"kernel {kernel}'s synthesis not recorded: the {given.label}'s hls_synth record is {recorded}'s"
            given.problems.append(Problem(folder, f"{why} (a record key names no kernel: one hls_synth record a run)"))


def _kernel_of(parts: list[str]) -> str | None:
    """The kernel whose solution in a v++ build a report is (<kernel>/solution/syn/report/csynth.xml)."""
    return parts[-5] if len(parts) > 5 and parts[-4:] == _KERNEL_SOLUTION else None


def _cosim(given: PayloadInput, runner: str | None) -> Built:
    proj, group = given.proj, given.group
    lats = [p for p in group.of("lat_rpt") if given.in_solution(p)]
    lat = min(lats, key=lambda p: (0 if "/verilog/" in proj.rel[p.path] else 1, p.path), default=None)
    cosims = by_top_then_newest(proj, [p for p in group.of("cosim_rpt") if given.in_solution(p)], given.facts.top)
    if cosims and lat is not None and not is_tops(proj, cosims[0], given.facts.top):
        # none is the top's: the simulation lat.rpt comes from, by its total, before the newest
        # (minsikky/PDES-FPGA-VITIS: in a checkout any report is the newest)
        cosims.sort(key=lambda p: not _wrote(p, lat))
    status = cosims[0].facts["status"] if cosims else None
    told = _simulations_told(given, cosims[0]) if status == "pass" and lat is None else []
    if told:  # (a pass with no figure: what the simulation's own log says of how it ended)
        verdicts = {log.facts["verdict"] for log in told}
        status = "fail" if "fail" in verdicts else "pass" if "pass" in verdicts else None
        if status is None and runner is None:
            why = "a Pass with every figure NA, and its simulation's log shows none finished (cosim_design -setup)"
            given.problems.append(Problem(cosims[0].path, f"{why}: no rtl_sim record"))
    status = status or runner or ("pass" if lat is not None else None)
    if status is None:
        return None
    cycles = lat.facts["total_execute_time"] if lat is not None else None  # (only lat.rpt: rules 5)
    sources = [p.path for p in (cosims[:1] + ([lat] if lat else []) + told)]
    return rtl_sim_payload(status, cycles, None, None), sources


def _simulations_told(given: PayloadInput, cosim: Parsed) -> list[Parsed]:
    """The co-simulation logs of the languages a report passed with no figure, read: after
    `cosim_design -setup` (Anurag-Gulati-IIITD/DNN_Channel_Estimation, 2019.1: five solutions'
    `Verilog | Pass | NA ...`, their logs ending at `file generation completed`) or a simulator
    that crashed (BruhP8/FPGA2: SIGSEGV, `C/RTL co-simulation finished: FAIL`)."""
    languages = figureless_passes(cosim.facts)
    logs = [p for p in given.group.of("cosim_sim_log") if given.in_solution(p)]
    return [log for log in logs if given.proj.parts(log)[-2] in languages and log.ok]


def _wrote(cosim: Parsed, lat: Parsed) -> bool:
    """Whether the cosim report is of the simulation that wrote lat.rpt: its Total Execution Time."""
    total = lat.facts.get("total_execute_time")
    return total is not None and str(total) in total_cycles(cosim.facts)


def _newest_profile(proj: ProjectFiles, group: RunGroup) -> Parsed | None:
    """Rules 5: the run's newest profile. Where each lies in an emulation run folder whose
    simulator's log says when its session started, by that (a checkout writes files in path
    order: superneyluj/ALVEOU280's .run/88573, May, came out newer than .run/238014, September);
    else by the file's time, then path."""
    profiles = group.of("profile")
    started = {proj.folder(p): p.facts["started"] for p in group.of("xsim_log") if p.ok and p.facts.get("started")}
    if profiles and all(proj.folder(p) in started for p in profiles):
        return min(profiles, key=lambda p: (-started[proj.folder(p)], p.path))
    return min(profiles, key=lambda p: (-p.mtime_ns, p.path), default=None)


def _hw_emu(given: PayloadInput, runner: str | None) -> Built:
    proj, group = given.proj, given.group
    profile = _newest_profile(proj, group)
    status = runner or ("pass" if profile is not None else None)
    if status is None:
        return None
    if profile is None:
        return rtl_sim_payload(status, None, None, None), []
    us = profile.facts["kernel_runtime_us"]
    diagrams = sorted(
        group.of("sysdiagram"),
        key=lambda p: (0 if "/link/int/" in "/" + proj.rel[p.path] else 1, -p.mtime_ns, p.path),
    )
    mhz = diagrams[0].facts["kernel_clock_freq_mhz"] if diagrams else None
    cycles = None
    if us is not None and mhz is not None:
        try:
            cycles = round(checked(us * mhz, "kernel cycles (running time x clock)", CYCLES) or 0)
        except NumberError as exc:
            given.problems.append(Problem(profile.path, str(exc)))
    return rtl_sim_payload(status, cycles, us, mhz), [profile.path] + [d.path for d in diagrams[:1]]


def _sw_run(given: PayloadInput, runner: str | None) -> Built:
    if runner is not None:
        return {"status": runner}, []
    if given.group.target != "vitis.csim":
        return None
    reports = [p for p in given.group.of("csim_log") if given.in_solution(p)]
    csim_logs = csim_candidates(given.proj, reports, given.facts.top)
    name = posixpath.basename(given.facts.solution) if given.facts.solution is not None else None
    # (a Code Analyzer run writes no report: one there is older than the log's verdict)
    analyzed = [log for log in given.facts.hls_logs if log.facts.get("csim_analyzed")]
    for item in analyzed + csim_logs + given.facts.hls_logs:
        status = item.facts["csim_status"]
        if item.kind == "hls_log" and name in item.facts["opened"]:
            status = item.facts["csim_by_opened"].get(name)  # (the verdict given while it was open)
        if status is not None:
            return {"status": status}, [item.path]
    return None
