"""HLS logs (`vitis_hls.log`, `vivado_hls.log`, `<solution>/<solution>.log`, a unified component's
`logs/hls_compile.log` and `logs/hls_run_<step>.log`) and C simulation reports (`*_csim.log`)."""

from __future__ import annotations

import re
from typing import Any

from collectors.collect.artifacts.vpp_log import is_rotated
from collectors.files import decode_text
from collectors.numbers import SECONDS, lenient

# (`v2018.3.op`: the AWS F1 developer AMI's build of SDAccel)
_BANNER = re.compile(r"\bv(\d{4}\.\d+(?:\.\d+)?)(?:\.op)? \(64-bit\)|\*\*\*\* HLS Build v(\d{4}\.\d+(?:\.\d+)?)\b")
_OLD_HEADER = re.compile(r"^Version: (\d{4}\.\d+(?:\.\d+)?)\s*$", re.MULTILINE)  # Vivado HLS 2015..2019
_OPENED = re.compile(
    r"Running: open_solution (?:-\S+ )*\"?([^\s\"]+)"
    r"|(?:Creating and opening|Opening and resetting|Opening) solution '([^']+)'"
)
# Where a match of _OPENED can begin: the scan for it jumps between these (a log is megabytes).
_OPENED_STARTS = (
    "Running: open_solution ",
    "Creating and opening solution '",
    "Opening and resetting solution '",
    "Opening solution '",
)
_SET_TOP = re.compile(r"Running: set_top (?:-\S+ )*\{?([A-Za-z_]\w*)")
_DEVICE = re.compile(r"Setting target device to '([^']+)'")
_ELAPSED = re.compile(r"\[HLS(?: 200)?-112\].*?Total elapsed time:\s*([0-9.]+)\s*seconds")  # (`[HLS-112]` before 2018)
_CSIM = re.compile(r"CSim (done|failed) with (?:(\d+) )?errors?|('csim_design' failed):")
_CSIM_STARTS = ("CSim ", "'csim_design' failed:")
# What tells which step of the flow a line belongs to: the command being run, else the message's tag.
_RUNNING = re.compile(r"Running: (csim_design|csynth_design|cosim_design|export_design|package)\b")
# (before 2018: `@I [SIM-2]`, `@E [SYNCHK-61]`; since: `INFO: [SIM 211-2]`, `ERROR: [SYNCHK 200-61]`)
_TAG = re.compile(
    r"^(?:(?:INFO|WARNING|ERROR|CRITICAL WARNING):|@[IWE]) \[(SIM|COSIM|IMPL|XFORM|SCHED|BIND|RTGEN|HLS 207)\b"
)
_ERROR_STARTS = ("ERROR:", "@E [")
_SYNTHESIS_START = ("Analyzing design file", "Starting code transformations")
SETUP = "setup"
# a session of the HLS tool starts with its banner (a Vivado or xsim banner inside it is a tool it ran)
_SESSION = re.compile(r"^\*+ (?:Vitis HLS|Vivado\(TM\) HLS)\b", re.MULTILINE)
_FINISHED = re.compile(r"Finished Command (?:csim_design|csynth_design|cosim_design|export_design)\b")
_COMMAND = re.compile(r"\[HLS 200-1510\] Running: (?!csim_design|csynth_design|cosim_design|export_design|package)\w")
# what shows that a session ran a step (old logs echo no commands: their messages do)
_RAN = {
    "synthesis": ("Running: csynth_design", *_SYNTHESIS_START),
    "csim": ("Running: csim_design", "CSim done", "CSim failed", "'csim_design' failed"),
    "cosim": ("Running: cosim_design", "[COSIM ", "[COSIM-"),
}
STEP_OF = {
    "csim_design": "csim",
    "SIM": "csim",
    "csynth_design": "synthesis",
    "XFORM": "synthesis",
    "SCHED": "synthesis",
    "BIND": "synthesis",
    "RTGEN": "synthesis",
    "HLS 207": "synthesis",
    "cosim_design": "cosim",
    "COSIM": "cosim",
    "export_design": "export",
    "package": "export",
    "IMPL": "export",
}


def is_step_log(name: str, parent: str) -> bool:
    """A unified component's session log of one step: `logs/hls_compile.log`, `logs/hls_run_<step>.log`
    (the `*.backup.log` beside them are older sessions)."""
    return parent == "logs" and (name == "hls_compile.log" or (name.startswith("hls_run_") and not is_rotated(name)))


def csim_status(text: str) -> str | None:
    """`pass`/`fail` from the last C simulation verdict in a log, or None without one."""
    verdict = _last_csim_verdict(text)
    if verdict is None:
        return None
    word, count, failed = verdict.groups()
    return "pass" if not failed and word == "done" and (count or "0") == "0" else "fail"


def _last_csim_verdict(text: str) -> re.Match[str] | None:
    """The last match of _CSIM (what `findall` would give last: its matches never overlap),
    looked for backwards from each literal a match starts with, not by scanning the whole log."""
    last: re.Match[str] | None = None
    for start in _CSIM_STARTS:
        end = len(text)
        while (at := text.rfind(start, 0, end)) >= 0:
            match = _CSIM.match(text, at)
            if match is not None:
                last = match if last is None or at > last.start() else last
                break
            end = at + len(start) - 1  # the next occurrence starts before this one
    return last


def errors_by_step(text: str) -> dict[str, list[str]]:
    """Error lines (`ERROR:`, `@E` before 2018) by the flow step they belong to (an untagged one to
    the step running then).
    Before any step starts, and after a step finished, the session runs setup commands
    (`open_project`, `set_part`, `config_*`, ...): their errors are "setup" and fail no step.
    A synthesis run again speaks for itself: the errors of an earlier one are dropped (a log
    appended to by every session keeps the failures the designer fixed since)."""
    found: dict[str, list[str]] = {}
    if not any(start in text for start in _ERROR_STARTS):
        return found  # no line starts with one: no step matters
    step = SETUP
    for line in text.splitlines():
        running, tag = _RUNNING.search(line), _TAG.match(line)
        signal = running.group(1) if running else tag.group(1) if tag else None
        was = step
        if signal is not None:
            step = STEP_OF[signal]
        elif _SESSION.match(line) or _FINISHED.search(line) or _COMMAND.search(line):
            step = SETUP  # a new session, a step that ended, or another command
        elif any(marker in line for marker in _SYNTHESIS_START):
            step = "synthesis"
        if step == "synthesis" != was:
            found.pop(step, None)
        if line.startswith(_ERROR_STARTS):
            found.setdefault(step, []).append(line.strip())
    return found


def synthesis_failed(text: str) -> bool:
    """A unified component's compile that stopped says so in words, not always in ERROR lines;
    only its last synthesis speaks: what follows the log's last sign of a synthesis under way
    (`Running: csynth_design`, the analysis of a file, the code transformations)."""
    said = ("Pre-synthesis failed", "Synthesis failed")
    if not any(words in text for words in said):
        return False
    last = max(text.rfind(start) for start in ("Running: csynth_design", *_SYNTHESIS_START))
    return any(words in text[max(last, 0) :] for words in said)


def step_versions(text: str) -> dict[str, list[str]]:
    """The tool version of each session of a log that ran a step ("synthesis", "csim", "cosim"),
    in the order of the sessions: a session that opened a solution and stopped (a part not
    installed) ran none, and speaks for no record's version."""
    starts = [match.start() for match in _SESSION.finditer(text)]
    bounds = [0, *starts] if not starts or starts[0] != 0 else starts
    found: dict[str, list[str]] = {}
    for begin, end in zip(bounds, [*bounds[1:], len(text)]):
        session = text[begin:end]
        banner = _BANNER.search(session) if " (64-bit)" in session or "**** HLS Build v" in session else None
        header = _OLD_HEADER.search(session) if banner is None and "Version: " in session else None
        version = (banner.group(1) or banner.group(2)) if banner else header.group(1) if header else None
        if version is None:
            continue
        for step, markers in _RAN.items():
            if any(marker in session for marker in markers):
                found.setdefault(step, []).append(version)
    return found


def opened_solutions(text: str) -> list[str]:
    """What `_OPENED.findall(text)` gives, the pattern tried only where one of its literal starts is."""
    found: list[str] = []
    nexts = {start: text.find(start) for start in _OPENED_STARTS}
    pos = 0
    while True:
        for start, at in nexts.items():
            if -1 < at < pos:
                nexts[start] = text.find(start, pos)
        candidates = [at for at in nexts.values() if at >= 0]
        if not candidates:
            return found
        at = min(candidates)
        match = _OPENED.match(text, at)
        if match is None:
            pos = at + 1
            continue
        found.append(match.group(1) or match.group(2))
        pos = match.end()


def parse_hls_log(data: bytes) -> dict[str, Any]:
    """Version, part, elapsed time, C simulation verdict, synthesis-step errors, and the solutions
    the session opened (by folder name)."""
    text = decode_text(data)
    banner = _BANNER.search(text) if " (64-bit)" in text or "**** HLS Build v" in text else None
    header = _OLD_HEADER.search(text) if banner is None and "Version: " in text else None
    devices = _DEVICE.findall(text)
    elapsed = _ELAPSED.findall(text)
    issues: list[str] = []
    seconds = lenient(elapsed[-1], "Total elapsed time (seconds)", SECONDS, issues) if elapsed else None
    steps = errors_by_step(text)
    return {
        "vitis_version": (banner.group(1) or banner.group(2)) if banner else header.group(1) if header else None,
        "device": devices[-1] if devices else None,
        "elapsed_seconds": seconds,
        "csim_status": csim_status(text),
        "errors": steps.get("synthesis", [])[:20],  # what fails a synthesis (docs/collection.md)
        "failed_steps": sorted(step for step in steps if step != SETUP),
        "step_versions": step_versions(text),
        "synthesis_failed": synthesis_failed(text),
        "top": tops[-1] if (tops := _SET_TOP.findall(text)) else None,
        "opened": sorted({name.replace("\\", "/").rstrip("/").rpartition("/")[2] for name in opened_solutions(text)}),
        "issues": issues,
    }


def parse_csim_log(data: bytes) -> dict[str, Any]:
    return {"csim_status": csim_status(decode_text(data))}
