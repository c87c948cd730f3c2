"""Which release a run's records say: the sources by precedence (v++ logs, summaries, the HLS
sessions that ran each record's step, the chosen report), a later one refining the patch level."""

from __future__ import annotations

import posixpath

from collectors.collect.artifacts.hls_log import release
from collectors.collect.artifacts.hls_log_names import STEP_LOGS
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.runs.layout import ProjectFiles, RunGroup, home_of, inside


def fixed_versions(
    group: RunGroup, chosen: Parsed | None, summaries: list[Parsed]
) -> tuple[list[str], list[str], list[str]]:
    """The versions every record of a run shares the sources of: v++ logs, `summaries` (then the
    simulator of an emulation run folder, vpp_runs._emulation_run_folders), the chosen report
    (HLS logs count per step: step_versions)."""
    # (the AWS F1 build's `2017.4.op` is 2017.4, as its logs say: no patch level refining it)
    report = [release(chosen.facts["ReportVersion"]["Version"])] if chosen is not None and chosen.ok else []
    versions = versions_of(summaries) + versions_of(group.of("xsim_log"))
    return versions_of(group.of("vpp_log")), versions, report


def own_summaries(proj: ProjectFiles, group: RunGroup, solution: str | None) -> list[Parsed]:
    """The run's summaries, less those of another of its solutions than the chosen one: a unified
    component's lie in its work directory, beside its `hls` (kwt3/HLS-Models' Full_adder: a
    classic solution1 simulated in C on 2023.2 and a component beside it on 2024.1, one run;
    its sw_run, solution1's pass, said 2024.1, the component's summary's)."""
    summaries = group.of("summary")
    if solution is None or len(group.solutions) < 2:
        return summaries

    def owner(item: Parsed) -> str | None:
        rel = proj.rel[item.path]
        homes = [s for s in group.solutions if inside(rel, home_of(s))]
        return max(homes, key=len, default=None)

    return [p for p in summaries if owner(p) in (None, solution)]


def version_of(fixed: tuple[list[str], list[str], list[str]], hls: list[str]) -> str | None:
    """The first source by precedence (v++ logs, summaries, HLS logs, the chosen report); a later
    one that agrees on the release and adds the patch level (2025.1 -> 2025.1.1) refines it.
    `hls`: the HLS logs' versions (only the sessions that ran a step, for that step's records)."""
    vpp, summaries, report = fixed
    version: str | None = None
    for candidate in (v for versions in (vpp, summaries, hls, report) for v in versions if v):
        if version is None or candidate.startswith(version + "."):
            version = candidate
    return version


def step_versions(hls_logs: list[Parsed], step: str, written_by: list[str] | None = None) -> list[str]:
    """Of each log, the version of the last session that ran `step`; the latest release first.
    Logs are not dated against each other, but a project moves on to later releases and its
    reports are those of a step's last run (GeorgeMaid/5775_project: the solution's log
    co-simulated on 2016.2, its later sessions were 2019.2.1, the project's session log
    co-simulated on 2019.2.1; taken in the order of their paths, the record said 2016.2).
    `written_by`: the release of the report the step wrote, whose sessions come first: the
    project went back to an older release (Crazy-James26/HeteroCL_Transformer synthesised on
    2022.1.2, then on 2019.2.1, which wrote the report; the record said 2022.1.2)."""
    found = []
    for log in sorted(hls_logs, key=lambda p: p.path):
        if log.kind == "hls_step_log":
            if posixpath.basename(log.path) == STEP_LOGS.get(step):  # (logs/hls_compile.log, hls_run_<step>.log)
                found += versions_of([log])
        elif log.facts.get("step_versions", {}).get(step):
            found.append(log.facts["step_versions"][step][-1])
    latest = sorted(found, key=release_order, reverse=True)
    return sorted(latest, key=lambda v: not any(same_release(v, w) for w in written_by or ()))


def same_release(version: str, other: str) -> bool:
    """2019.2.1 and 2019.2 are one release (2017.4.op and 2017.4 too); 2022.1.2 and 2019.2.1 are not."""
    return release(version).split(".")[:2] == release(other).split(".")[:2]


def only_release(hls_logs: list[Parsed]) -> str | None:
    """The release every session of the solution that ran a step names, where they name one
    (seyedaminhabibi/sift_hls: its one 2016.2 session synthesised; the C simulation's sw_run,
    which no session shows, was 'unknown'); None where they name several or none."""
    named = {release(v) for log in hls_logs for found in log.facts.get("step_versions", {}).values() for v in found}
    return named.pop() if len(named) == 1 else None


def release_order(version: str) -> tuple[int, ...]:
    """2019.2.1 -> (2019, 2, 1): later releases sort after (a part that is no number counts 0)."""
    return tuple(int(part) if part.isdigit() else 0 for part in version.split("."))


def versions_of(items: list[Parsed]) -> list[str]:
    """The versions the items say, each as its release (an AWS F1 build's `2018.2.op` is 2018.2)."""
    return [
        release(p.facts["vitis_version"]) for p in sorted(items, key=lambda p: p.path) if p.facts.get("vitis_version")
    ]
