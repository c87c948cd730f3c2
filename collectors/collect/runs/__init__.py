"""Runs inside one project, their facts by precedence, and the records they yield.

Pure: it works on already parsed artifacts (see `engine.py` for the I/O and the cache).
`grouping` finds the runs, `facts` their facts, `payloads` the records and their status
(docs/collection.md says the rules each follows).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from collectors.collect.artifacts.hls_project import LEGACY_REPORT_SUFFIX
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.mapping import DEFAULT_VARIANT, Identity
from collectors.collect.runs.facts import RUN_FACTS, derive_facts, meta_facts, project_tops
from collectors.collect.runs.facts import RunFacts as DerivedFacts
from collectors.collect.runs.grouping import group_runs
from collectors.collect.runs.layout import UNKNOWN, ProjectFiles, Run, RunGroup, home_of, inside
from collectors.collect.runs.payloads import PayloadInput, build_payload
from collectors.collect.runs.solutions import RESULT_KINDS
from collectors.problems import Problem
from collectors.records.model import TARGET_REPORTS, RunFacts, make_record

__all__ = ["FEEDS", "Run", "build_runs"]


def build_runs(
    project_path: str, parsed: Iterable[Parsed], build_dirs: Iterable[str], identity: Identity
) -> tuple[list[Run], list[Problem]]:
    build_dirs = list(build_dirs)
    proj = ProjectFiles(project_path, parsed, build_dirs)
    metas = [p for p in proj.readable("runner_meta") if "/" not in proj.rel[p.path]]
    problems = [Problem(meta.path, issue) for meta in metas for issue in meta.facts["issues"]]
    path_gives_variant = identity.implementation["variant"] != DEFAULT_VARIANT
    groups = group_runs(proj, build_dirs, metas, problems, path_gives_variant)
    runs = [_resolve(proj, group, metas, identity, problems) for group in groups]
    runs.sort(key=lambda r: (r.variant["index"] if r.variant else -1, r.target, r.device))
    told = _file_problems(proj) + problems
    return runs, told + _in_no_run(proj, runs, told)


# the record each report kind feeds: the reports a run's records come from
FEEDS = {
    "csynth": "hls_synth",
    "lat_rpt": "rtl_sim",
    "cosim_rpt": "rtl_sim",
    "profile": "rtl_sim",
    "sysdiagram": "rtl_sim",
    "csim_log": "sw_run",
}
IN_NO_RUN = "report that no run of this project takes: not collected"


def _in_no_run(proj: ProjectFiles, runs: list[Run], problems: list[Problem]) -> list[Problem]:
    """A report no run took (Trouvaille1/MD5-Accelerator's csim log copied out to report/) is a
    problem line, never a silent loss; unless a line speaks of it already, or of its folder (a
    broken file; a solution left out: the path gives the variant)."""
    taken = {path for run in runs for path in run.files}
    told = [problem.path for problem in problems if problem.path != proj.path]  # (not the project's own lines)
    built = {proj.vpp_context(p) for p in proj.parsed if p.path in taken}  # (the v++ builds a run has)
    return [
        Problem(p.path, _why_in_no_run(proj.vpp_context(p), built))
        for p in proj.parsed
        if p.kind in FEEDS
        and p.path not in taken
        and not p.of_another_kind
        and not any(inside(p.path, path) for path in told)
    ]


def _why_in_no_run(build: str | None, built: set[str | None]) -> str:
    """A v++ build folder no run has is one whose target nothing named."""
    return IN_NO_RUN if build is None or build in built else _NO_TARGET.format(build)


# (a v++ build folder whose target nothing names: S12P/sisyphus's Merlin runs keep 292 kernels'
# reports in plain `_x` folders with no v++ log: each was 'a report that no run takes')
_NO_TARGET = "report of the v++ build folder {} whose target no v++ log, summary or folder name says: not collected"


def _file_problems(proj: ProjectFiles) -> list[Problem]:
    """The problems of the files used: a deferred report no run consulted (a packaged copy the
    pick passed over) has none, read or not."""
    read = [p for p in proj.parsed if p.reported]
    problems = [Problem(p.path, p.error) for p in read if p.error]
    # values a parser dropped (a number that is not one) while the rest of the file stays usable
    return problems + [
        Problem(p.path, issue) for p in read if p.kind != "runner_meta" for issue in p.facts.get("issues", ())
    ]


def _resolve(
    proj: ProjectFiles, group: RunGroup, metas: list[Parsed], identity: Identity, problems: list[Problem]
) -> Run:
    facts = derive_facts(proj, group)

    def run_fields(report_type: str | None) -> RunFacts:
        runner = meta_facts(metas, group.target, group.device, report_type)
        merged = {**facts.fields(report_type), **{k: v for k, v in runner.items() if k in RUN_FACTS}}
        return RunFacts(
            target=group.target,
            device=merged["device"] or UNKNOWN,
            vitis_version=merged["vitis_version"] or UNKNOWN,
            runtime_seconds=merged["runtime_seconds"],
        )

    shown = run_fields(None)
    run = Run(group.target, shown["device"], shown["vitis_version"], shown["runtime_seconds"], group.variant)
    if group.variant is not None:  # a solution that is a variant of its own
        identity = Identity(identity.problem, {**identity.implementation, "variant": dict(group.variant)})
    run.files = [item.path for item in group.items]
    for meta in metas:
        run.notes.update(meta.facts["extra"])
    _report_left_out(proj, group, facts.solution, problems)
    given = PayloadInput(proj, group, facts, problems)
    for report_type in TARGET_REPORTS[group.target]:
        status = meta_facts(metas, group.target, group.device, report_type).get("status")
        built = build_payload(given, report_type, status)
        if built is not None:
            payload, sources = built
            run.records.append(make_record(report_type, run_fields(report_type), identity, payload))
            run.sources[report_type] = sources
    _report_unknowns(proj, run, problems)
    _report_no_design(proj, group, run, facts, problems)
    return run


def _report_no_design(
    proj: ProjectFiles, group: RunGroup, run: Run, facts: DerivedFacts, problems: list[Problem]
) -> None:
    """Per-module reports only, none known as the top function's: a problem line for their
    folder, never a silent loss (chl218/DCNN-on-FPGA's 2017.1 solutions keep syn/report alone;
    sergiududa/lic's names its top, `nnet`, whose report a synthesis cut short never wrote)."""
    reports = [p for p in group.items if p.kind == "csynth"]
    if "hls_synth" in run.sources or "hls_synth" not in TARGET_REPORTS[group.target] or not reports:
        return
    if any(proj.parts(p)[-1] == "csynth.xml" for p in reports):
        return  # (a design report that is broken or passed over says so itself)
    named, top = sorted(project_tops(proj)), facts.top  # (the top asked for here only: RunFacts.top)
    for folder in sorted({proj.folder(p) for p in reports}):
        names = sorted(proj.parts(p)[-1][: -len(LEGACY_REPORT_SUFFIX)] for p in reports if proj.folder(p) == folder)
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        why = (
            f"none is the top function's ({top})"
            if top
            else f"none is a top the project names ({', '.join(named)})"
            if named
            else "nothing names the top function (a script's or log's set_top, the project's .app, a simulation report)"
        )
        where = posixpath.normpath(posixpath.join(proj.path, folder))
        problems.append(
            Problem(where, f"{len(names)} per-module reports ({shown}), no csynth.xml, and {why}: no hls_synth record")
        )


def _report_left_out(proj: ProjectFiles, group: RunGroup, chosen: str | None, problems: list[Problem]) -> None:
    """Solutions of different HLS projects in one project folder that give the same run: the
    chosen one speaks for it, each other one with results is a problem line (never a silent loss)."""
    if chosen is None or len(group.solutions) < 2:
        return
    for solution in sorted(set(group.solutions) - {chosen}):
        own = [p for p in group.items if inside(proj.rel[p.path], solution) and p.kind in RESULT_KINDS]
        home = home_of(solution)  # (a component's verdicts are in its step logs, beside its hls)
        own += [p for p in group.of("hls_step_log") if inside(proj.rel[p.path], home) and p.facts.get("csim_status")]
        if own:
            name = "the project folder's own report" if solution == "." else solution
            message = f"{name} not recorded: {chosen} gives the records of the {group.target} run"
            problem = Problem(posixpath.normpath(posixpath.join(proj.path, solution)), message)
            if problem not in problems:
                problems.append(problem)


def _report_unknowns(proj: ProjectFiles, run: Run, problems: list[Problem]) -> None:
    """ "unknown" is only a problem where it is written; a run still waiting for its reports is not."""
    solution = f" ({run.variant['name']})" if run.variant else ""
    label = f"{run.target} run on {run.device}{solution}"
    if any(r["run"]["device"] == UNKNOWN for r in run.records):
        problems.append(Problem(proj.path, f"{label}: device unknown (no runner metadata, log or report names it)"))
    if any(r["run"]["vitis_version"] == UNKNOWN for r in run.records):
        problems.append(Problem(proj.path, f"{label}: Vitis version unknown"))
