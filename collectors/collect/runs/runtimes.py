"""A run's runtime: its v++ invocations' total, else the elapsed time of the HLS session that ran
its solution (COLLECTION_RULES 4.2; docs/collection.md says which session that is), never the
time of a session of another run (another part; before the last step, another release)."""

from __future__ import annotations

import posixpath

from collectors.collect.artifacts.hls_log_names import TCL_SESSION_LOG
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.runs.layout import ProjectFiles, RunGroup
from collectors.collect.runs.versions import same_release
from collectors.records.model import VPP_TARGETS


def run_runtime(group: RunGroup, hls_logs: list[Parsed], solution: str | None, report: str | None) -> float | None:
    """Sum of v++ invocations (each counted once), else an HLS log's elapsed time (_timing): the
    first log's whose last session that ran a step was timed, else the first log's. `report`:
    the release of the report the run's records come from."""
    invocations: dict[str, int] = {}
    for log in group.of("vpp_log"):
        if log.facts["elapsed_seconds"] is not None:
            invocations[log.facts["invocation"]] = log.facts["elapsed_seconds"]
    if invocations:
        return float(sum(invocations.values()))
    if group.target in VPP_TARGETS:
        return None
    name = posixpath.basename(solution) if solution is not None else None
    timings = [(*_timing(log, name), *_timed_on(log, name)) for log in hls_logs]
    # (a time before the last session that ran a step, of another release than the report, is an
    # older run's: jnowaczek/estimation_accel's 2022.1 export, then 2023.1 steps untimed)
    timed = []  # (seconds, whether of the last session that ran a step, whether of the report's release)
    for seconds, last, part, version in timings:
        ours = not _another_release(version, report)
        if seconds is not None and not _another_part(part, group.device) and (last or ours):
            timed.append((seconds, last, ours))
    # (a log whose last session that ran a step was timed first: ArgyKokk/hls4ml_MLP_estimator's
    # solution1.log holds a copied older session's 158.82 s, its last synthesis untimed; the
    # project's vitis_hls.log, that session's own log, its 183.36 s; and of those, one of the
    # report's release: Crazy-James26/HeteroCL_Transformer's vitis_hls.log synthesised on
    # 2022.1.2, 78.18 s, and vivado_hls.log on 2019.2.1 later, 78.07 s, which wrote the report)
    ranked = sorted(timed, key=lambda found: (not found[1], not found[2]))  # (stable: in their order)
    return ranked[0][0] if ranked else None


def set_aside_runtime(
    proj: ProjectFiles, group: RunGroup, hls_logs: list[Parsed], solution: str | None
) -> float | None:
    """Where the run's Tcl session log (`logs/hls_run_tcl.log`) ran no step of its solution (hls4ml
    ran only its Vivado synthesis: seanlipps/ECE226_CoDesign), the newest of the sessions vitis-run
    set aside beside it that ran one times the run (its total; none where it has none). The
    backup read joins the run's files."""
    name = posixpath.basename(solution) if solution is not None else None
    tcl = [p for p in hls_logs if posixpath.basename(p.path) == TCL_SESSION_LOG and name in p.facts["opened"]]
    if not tcl or any(
        name in log.facts["timed_by_opened"] or name in log.facts["last_untimed_by_opened"] for log in tcl
    ):
        return None
    folders = {proj.folder(log) for log in tcl}
    backups = [p for p in proj.readable("hls_tcl_backup") if proj.folder(p) in folders and name in p.facts["opened"]]
    for backup in sorted(backups, key=_newest_set_aside, reverse=True):
        seconds, last = _timing(backup, name)
        if seconds is not None or not last:  # (the newest that ran a step speaks, timed or not)
            if backup not in group.items:
                group.items.append(backup)
            return seconds if last else None
    return None


def _newest_set_aside(log: Parsed) -> tuple[float, int]:
    """When a set-aside session started, then the number vitis-run named it by (it grows)."""
    number = posixpath.basename(log.path).removeprefix("hls_run_tcl_").partition(".")[0]
    return log.facts["started"] or 0.0, int(number) if number.isdigit() else -1


def _another_part(part: str | None, device: str | None) -> bool:
    """Whether the session that timed the solution set another part than the run's
    (`set_part {xc7z020-clg400-1}` is the report's `xc7z020clg400-1`, and SDSoC's target device
    `' xc7z020clg484-1 '` its `xc7z020clg484-1`)."""
    return None not in (part, device) and _part_key(part) != _part_key(device)


def _another_release(version: str | None, report: str | None) -> bool:
    """Whether that session was of another release than the run's report (2023.1 and 2023.1.1
    are one)."""
    return None not in (version, report) and not same_release(str(version), str(report))


def _timed_on(log: Parsed, solution: str | None) -> tuple[str | None, str | None]:
    """The part and release of the session that timed the solution in an HLS session log; in a
    log that names no solution, of the session of its elapsed time (ssfortynine/GraduationDesign's
    solution log: 2018.3 on xc7z020, then 2023.1 GUI sessions on xczu5eg, untimed)."""
    if log.kind != "hls_log":
        return None, None
    opened = solution is not None and solution in log.facts["opened"]
    return (log.facts["timed_on_by_opened"].get(solution) if opened else log.facts.get("timed_on")) or (None, None)


def _part_key(part: str | None) -> str:
    return "".join((part or "").split()).replace("-", "").casefold()


def _timing(log: Parsed, solution: str | None) -> tuple[float | None, bool]:
    """A log's elapsed time of a run's solution (rules 4.2: the last session in it that ran a step
    and was timed, of those that opened the solution where the log names it), and whether that
    session is the last in it that ran a step."""
    if log.kind == "hls_log" and solution is not None and solution in log.facts["opened"]:
        return log.facts["timed_by_opened"].get(solution), solution not in log.facts["last_untimed_by_opened"]
    return log.facts["elapsed_seconds"], not log.facts.get("last_untimed", False)
