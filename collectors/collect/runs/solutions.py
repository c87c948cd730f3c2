"""Several solutions of one HLS project: variants of their own, or (where the project's path
already gives the variant) one chosen by the pick rule and a problem line for each other one."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

from collectors.collect.artifacts.hls_project import LEGACY_REPORT_SUFFIX
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.runs.facts import csynth_pick_key, project_tops
from collectors.collect.runs.layout import ProjectFiles, work_of
from collectors.problems import Problem

RESULT_KINDS = frozenset({"csynth", "lat_rpt", "cosim_rpt", "csim_log"})
_TRAILING_NUMBER = re.compile(r"(\d+)$")
_NUMBERS = re.compile(r"(\d+)")


@dataclass
class SolutionPlan:
    """What each solution of a project becomes: a variant of its own, or skipped (a problem)."""

    variants: dict[str, dict[str, Any]] = field(default_factory=dict)  # solution -> its variant
    skipped: set[str] = field(default_factory=set)


def plan_solutions(
    proj: ProjectFiles,
    solutions: dict[str, list[Parsed]],
    own_logs: dict[str, list[Parsed]],
    path_gives_variant: bool,
    problems: list[Problem],
    component_solutions: frozenset[str] = frozenset(),
) -> SolutionPlan:
    """`own_logs`: each solution's logs with a verdict of its own: those in its folder, and the
    session logs above whose sessions that opened it gave one (a csim verdict there is a result).
    `component_solutions`: the solutions that are a unified component's (`<work>/hls`): one of the
    solutions in its work directory (burakotlu/pFFT's PositFFT/test), else, alone
    there, one of those of the folder that holds the work directory (an50's Alex_Net is a
    classic project and a component whose work directory is in it)."""
    plan = SolutionPlan()
    by_project: dict[str, list[str]] = {}
    tops = cache(partial(project_tops, proj))  # (asked only of a per-module name out of syn/report/)
    for solution, items in solutions.items():
        reports = [p for p in items if _may_give_a_record(proj, p, tops)]
        if has_results(reports, own_logs.get(solution, [])):
            by_project.setdefault(work_of(solution), []).append(solution)
    for solution in sorted(component_solutions):
        work = work_of(solution)
        above = work_of(work)
        if by_project.get(work) == [solution] and work != above and above in by_project:
            del by_project[work]
            by_project[above].append(solution)
    groups = [siblings for siblings in by_project.values() if len(siblings) >= 2]
    if not path_gives_variant:
        # once some are variants, every solution with results is one, ranked over the project:
        # variants in several of its folders never share an index, nor the default's (hanyax/
        # Vivado_HLS_FIR_CORDIC_DFT-FFT_Implementations: cordic_LUT, dft256_baseline and
        # fir11_baseline were all variant 0, and FFT's one solution lost the default to Interrupt's)
        if groups:
            plan.variants.update(solution_variants([s for siblings in by_project.values() for s in siblings]))
        return plan
    for siblings in groups:
        chosen = _picked(proj, siblings, solutions)
        for solution in sorted(siblings):
            if solution != chosen:
                plan.skipped.add(solution)
                name, kept = posixpath.basename(solution), posixpath.basename(chosen)
                message = f"{name} not recorded: the path gives the variant ({kept} gives the records)"
                problems.append(Problem(posixpath.join(proj.path, solution), message))
    return plan


def has_results(items: list[Parsed], own_logs: list[Parsed]) -> bool:
    """A report of its own, or a verdict in its own logs: its C simulation's, or a synthesis that
    failed (its record: bol-edu/2022-fall-ntu's solution5 has nothing else)."""
    return any(p.kind in RESULT_KINDS for p in items) or any(
        p.facts["csim_status"] or p.facts["errors"] or p.facts["synthesis_failed"] for p in own_logs if p.ok
    )


def _may_give_a_record(proj: ProjectFiles, report: Parsed, tops: Callable[[], set[str]]) -> bool:
    """A per-module report's name out of syn/report/ gives a record only when it is a top's the
    project names (hijoouzc/UpConv_Block_HLS's `report_syn/<work>_hls_syn_report_csynth.xml`, a
    flattened copy, made its component's records the variant `hls` and gave none itself)."""
    parts = proj.parts(report)
    if report.kind != "csynth" or parts[-1] == "csynth.xml" or parts[-3:-1] == ["syn", "report"]:
        return True
    return parts[-1][: -len(LEGACY_REPORT_SUFFIX)] in tops()


def solution_variants(solutions: list[str]) -> dict[str, dict[str, Any]]:
    """Each solution's variant: its folder's name, and the number that name ends with when every
    one ends in a distinct number, else its rank (from 0) in the natural order of the names."""
    names = {solution: posixpath.basename(solution) for solution in solutions}
    numbers = {solution: _TRAILING_NUMBER.search(name) for solution, name in names.items()}
    found = [match.group(1) for match in numbers.values() if match is not None]
    numbered = len(found) == len(solutions) and len({int(n) for n in found}) == len(found)
    ranked = sorted(solutions, key=lambda s: (natural_key(names[s]), s))
    variants = {}
    for rank, solution in enumerate(ranked):
        match = numbers[solution]
        index = int(match.group(1)) if numbered and match is not None else rank
        variants[solution] = {"index": index, "name": names[solution]}
    return variants


def natural_key(name: str) -> list[tuple[int, int | str]]:
    """`solution2` before `solution10`."""
    return [(0, int(part)) if part.isdigit() else (1, part) for part in _NUMBERS.split(name) if part]


def _picked(proj: ProjectFiles, siblings: list[str], solutions: dict[str, list[Parsed]]) -> str:
    """The solution whose best csynth.xml the pick rule prefers; without any, the newest."""
    reports = [
        (csynth_pick_key(proj.rel[p.path], p.mtime_ns), solution)
        for solution in siblings
        for p in solutions[solution]
        if p.kind == "csynth"
    ]
    if reports:
        return min(reports)[1]
    newest = {s: max((p.mtime_ns for p in solutions[s]), default=0) for s in siblings}
    return min(siblings, key=lambda s: (-newest[s], s))
