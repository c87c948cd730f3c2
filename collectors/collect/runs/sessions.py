"""Which HLS session logs are a solution's: its own log, and the session logs above it that
opened it (or name no solution), nearest first (rules 4.2)."""

from __future__ import annotations

import os
import posixpath

from collectors.collect.artifacts.hls_log_names import PROJECT_SESSION_LOGS, TCL_SESSION_LOG, started_in
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.runs.layout import ProjectFiles, inside


def session_logs(proj: ProjectFiles, solution: str, logs: list[Parsed]) -> list[Parsed]:
    """The HLS logs of the sessions that ran a solution: its own (in its folder), then the
    vitis_hls.log / vivado_hls.log above it, nearest first, that opened it (or, after those at
    the same depth, name no solution at all). Found from the solution alone, whatever its siblings' logs are called."""
    name = posixpath.basename(solution)
    # its own `<solution>.log`, where there is one, and no other `<dir>.log` beside it: that one
    # was left there by the solution's earlier name, its older sessions (Stepaka/Xilinx_lab:
    # sol2_7_double.log inside sol2_7_double_16/, another directive set's synthesis)
    own = [p for p in logs if proj.folder(p) == solution]
    if any(named_after(p, name) for p in own):
        own = [p for p in own if named_after(p, name) or posixpath.basename(p.path) in _PROJECT_LEVEL_LOGS]
    own.sort(key=lambda p: (not named_after(p, name), p.path))
    above = [
        p
        for p in logs
        if proj.folder(p) != solution
        and _holds(proj, p, solution)
        and _may_hold_its_session(proj, p, solution)
        and (
            not p.facts["opened"]
            or (name in p.facts["opened"] and not _opened_another(proj, p, solution))
            or _session_of_a_copy(proj, p, solution)
        )
    ]
    # nearest first; at one depth, a session that opened it by name before one that names none,
    # the project's session log before another (zanehpn/HLStrans: an older `shortpath.log` from
    # another machine's dataset beside the project's vitis_hls.log)
    above.sort(
        key=lambda p: (
            -_depth(_session_folder(proj, p)),
            name not in p.facts["opened"],
            posixpath.basename(p.path) not in _PROJECT_LEVEL_LOGS,
            p.path,
        )
    )
    found = own + above
    if any(p.facts.get("tops") and not named_after(p, name) for p in found):
        ours = proj.design_tops(solution)
        found = [p for p in found if named_after(p, name) or not _of_another_design(p, ours)]
    return found


def _holds(proj: ProjectFiles, log: Parsed, solution: str) -> bool:
    """Whether the session of a log ran where the solution lies: in the project, above the
    solution; or in the folder above the project (beside other projects: ProjectFiles.above)
    where it opened that very solution by its path (`open_project Testing` run there)."""
    folder = _session_folder(proj, log)
    return inside(solution, folder) if folder != ABOVE else _opened_here(proj, log, solution)


ABOVE = ".."  # the folder the project lies in, relative to it


def _of_another_design(log: Parsed, ours: set[str]) -> bool:
    """Whether none of the top functions a session log's sessions named or synthesised is one
    the solution's design goes by (`ours`, casefolded): wes237l's project-3/dft_* folders (top
    dft: their scripts, their reports) each hold a session log copied from the fir project, which
    synthesised or simulated fir: its 17.6 s and its csim pass were the dft runs'. Where either
    names none, nothing says so. (The solution's own `<solution>.log` is its, whatever top its
    sessions worked on: a design's top changes, and so do its files that name it.)"""
    named = {top.casefold() for top in log.facts.get("tops", ())}
    return bool(named and ours) and not named & ours


_PROJECT_LEVEL_LOGS = PROJECT_SESSION_LOGS | {TCL_SESSION_LOG}  # (not a `<dir>/<dir>.log`)


def named_after(log: Parsed, solution_name: str) -> bool:
    return posixpath.basename(log.path) == f"{solution_name}.log"


def earlier_names_logs(proj: ProjectFiles, solution: str, logs: list[Parsed]) -> list[Parsed]:
    """A solution renamed after it ran keeps its earlier names' logs, none named after it: with two
    or more, which one wrote its reports is not known, and none times its run (Deepsavani/DES-
    Decryption's C_5_unroll_factor_2: C_4_unroll_50percent.log's 51.949 s, other directives)."""
    name = posixpath.basename(solution)
    own = [p for p in logs if p.kind == "hls_log" and proj.folder(p) == solution]
    own = [p for p in own if posixpath.basename(p.path) not in _PROJECT_LEVEL_LOGS]
    return [] if len(own) < 2 or any(named_after(p, name) for p in own) else own


def _session_of_a_copy(proj: ProjectFiles, log: Parsed, solution: str) -> bool:
    """Whether a session log above a folder of reports copied out of their solution (no `.aps`)
    is the session that wrote them: it opened one solution alone, and none of this tree's. The
    folder is a `report*` one (UT-LCA/scale-cnn's layers/axi_in/report/, the project not
    committed: vitis_hls.log beside it synthesised td_fused_axi_in_prj/solution1 in 146.42 s), or
    the project folder that session opened, holding its solution's folders flattened
    (soumil005/CNN-to-FPGA-MNIST's hls_project/myproject_prj/{csim,syn,impl}, uploaded through
    the web: the log beside it opened myproject_prj/solution1)."""
    opened = log.facts["opened"]
    if len(opened) != 1:
        return False
    tails = proj.tails_named(log, opened[0])
    folder = posixpath.basename(solution)
    if not folder.startswith("report") and folder not in {tail.partition("/")[0] for tail in tails}:
        return False
    if any(p.kind == "aps" and proj.folder(p) == solution for p in proj.parsed):
        return False
    return not _opened_paths(log, tails) & proj.folders()


def _may_hold_its_session(proj: ProjectFiles, log: Parsed, solution: str) -> bool:
    """Whether a session log above a solution may be its session's: the project's vitis_hls.log
    or vivado_hls.log; a vitis-run Tcl session's log where it opened the solution by name (a 2025
    script opens a component instead, `open_component`, and names no solution); any other
    `<dir>/<dir>.log` only where it opened it by its full path."""
    file = posixpath.basename(log.path)
    if file in PROJECT_SESSION_LOGS:
        return True
    if file == TCL_SESSION_LOG:
        return posixpath.basename(solution) in log.facts["opened"]
    return _opened_here(proj, log, solution)


def _session_folder(proj: ProjectFiles, log: Parsed) -> str:
    return started_in(proj.rel[log.path]) or "."


def _opened_here(proj: ProjectFiles, log: Parsed, solution: str) -> bool:
    """Whether the log's sessions opened this very solution folder, by its full path."""
    return _absolute(proj, solution) in _opened_paths(log, proj.tails_named(log, posixpath.basename(solution)))


def _opened_another(proj: ProjectFiles, log: Parsed, solution: str) -> bool:
    """Whether the solutions of that name the log's sessions opened by their full path are all
    another project's: of a project named otherwise (LmDeng0/CryptoHLS: beside build/proj_smoke,
    build/vitis_hls.log is the session of hls_project_32280_19/solution1, a project not in the
    tree, 22 days later), or other folders of this tree (ValdecirDesenv/FPGA_picoZed: a session
    that opened picoZed/solution1 beside the project's own solution1). A full path found nowhere
    here (a tree built elsewhere and moved) says nothing against it where it ends in the
    project's name (its folder's, or the one its `.app` keeps) and the solution's; nor does a
    project's name in a log in the project's own folder (a project renamed when committed), nor
    a relative path (`./solution1`); a project at the tree's top has no name of its own here
    (the checkout's folder)."""
    name = posixpath.basename(solution)
    named = proj.tails_named(log, name)
    tails = {tail.casefold() for tail in named if tail.split("/")[0] not in (".", "..")}  # (`./solution1`: no name)
    project = posixpath.dirname(solution)
    above = project != _session_folder(proj, log)  # (a log in the project's own folder is its)
    own = {f"{project_name}/{name}".casefold() for project_name in _project_names(proj, project)}
    if tails and project and above and not tails & own:
        return True
    opened = _opened_paths(log, named)
    return bool(opened) and _absolute(proj, solution) not in opened and opened <= proj.folders()


def _project_names(proj: ProjectFiles, project: str) -> set[str]:
    """The names a project folder goes by: its own, and the one its `.app` gives it (the name it
    was made with: jjj7811/CNN_Accelerator's Conv_Pool/hls.app says Conv_Tile129, which its
    vitis_hls.log opened)."""
    apps = [app for app in proj.readable("hls_app") if proj.folder(app) == project]
    return {posixpath.basename(project), *(app.facts["name"] for app in apps if app.facts.get("name"))}


def _opened_paths(log: Parsed, tails: list[str]) -> set[str]:
    """The folders the log's sessions opened by their full path, of those `tails` (a project and
    its solution: the last two folders of the path), taken from the log's own folder."""
    where = started_in(log.path)
    return {os.path.normpath(os.path.join(where, tail)) for tail in tails}


def _absolute(proj: ProjectFiles, folder: str) -> str:
    return os.path.normpath(os.path.join(proj.path, folder))


def _depth(folder: str) -> int:
    """How deep a session's folder lies in the project: the folder above it, least (the farthest)."""
    return -1 if folder == ABOVE else 0 if folder == "." else folder.count("/") + 1
