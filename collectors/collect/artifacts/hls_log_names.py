"""Which files are HLS logs, by their names and folders: a session's (`vitis_hls.log`, a
solution's `<solution>.log`, ...), a unified component's step's, a Tcl session set aside."""

from __future__ import annotations

import os

from collectors.collect.artifacts.vpp_log import is_rotated

# a unified component's log of each step, in `logs/` beside its work directory's `hls/`
STEP_LOGS = {"synthesis": "hls_compile.log", "csim": "hls_run_csim.log", "cosim": "hls_run_cosim.log"}
# the log the HLS tool writes where it was started: a project's (or its folder's) session log
# (`scout_hls.log`: Scout HLS, v2019.2.0, Vitis HLS before its release: kefuzheng/vivado_hls_test)
PROJECT_SESSION_LOGS = frozenset({"vitis_hls.log", "vivado_hls.log", "scout_hls.log"})
# `vitis-run --mode hls --tcl script.tcl` (2024.2+, hls4ml's Vitis backend) logs the whole Tcl
# session here, beside the project it opens: a session log as vitis_hls.log is, in `logs/`
TCL_SESSION_LOG = "hls_run_tcl.log"


# SDSoC / SDx (2016-2019) runs Vivado HLS for each accelerated function in `_sds/vhls/`, beside the
# project it makes there: `<function>_vivado_hls.log`
SDS_SESSION_LOG = "_vivado_hls.log"
SDS_FOLDER = "vhls"


def is_session_log(name: str, parent: str) -> bool:
    """An HLS session's log: `vitis_hls.log`, `vivado_hls.log`, a solution's `<solution>.log`,
    `logs/hls_run_tcl.log`, or SDSoC's `vhls/<function>_vivado_hls.log`."""
    return (
        name in PROJECT_SESSION_LOGS
        or name == parent + ".log"
        or (name == TCL_SESSION_LOG and parent == "logs")
        or (name.endswith(SDS_SESSION_LOG) and parent == SDS_FOLDER)
    )


def started_in(path: str) -> str:
    """The folder a session log's session ran in: the log's, or the one above `logs/` for
    vitis-run's Tcl session log (`logs/hls_run_tcl.log`)."""
    folder = os.path.dirname(path)
    return os.path.dirname(folder) if os.path.basename(path) == TCL_SESSION_LOG else folder


def folder_session_logs(folder: str) -> list[str]:
    """Where the HLS tool started in `folder` leaves its session log: `vitis_hls.log` (or
    `vivado_hls.log`, `scout_hls.log`) in it, vitis-run's `logs/hls_run_tcl.log` below it."""
    named = [os.path.join(folder, name) for name in sorted(PROJECT_SESSION_LOGS)]
    return [*named, os.path.join(folder, "logs", TCL_SESSION_LOG)]


def is_folder_session_log(path: str) -> bool:
    """Whether a file is one of folder_session_logs of the folder its session ran in."""
    return path in folder_session_logs(started_in(path))


def is_tcl_backup(name: str, parent: str) -> bool:
    """An older Tcl session's log vitis-run set aside when it started the next one
    (`logs/hls_run_tcl_<n>.backup.log`)."""
    return parent == "logs" and name.startswith("hls_run_tcl_") and is_rotated(name)


def is_step_log(name: str, parent: str) -> bool:
    """A unified component's session log of one step: `logs/hls_compile.log`, `logs/hls_run_<step>.log`
    (the `*.backup.log` beside them are older sessions)."""
    return parent == "logs" and (
        name == STEP_LOGS["synthesis"]
        or (name.startswith("hls_run_") and name != TCL_SESSION_LOG and not is_rotated(name))
    )
