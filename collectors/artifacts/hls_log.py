"""HLS logs (`vitis_hls.log`, `vivado_hls.log`, `<solution>/<solution>.log`, a unified component's
`logs/hls_compile.log` and `logs/hls_run_<step>.log`) and C simulation reports (`*_csim.log`)."""

from __future__ import annotations

import re
from typing import Any

from ..files import decode_text
from ..numbers import SECONDS, lenient

_BANNER = re.compile(r"\bv(\d{4}\.\d+(?:\.\d+)?) \(64-bit\)|\*\*\*\* HLS Build v(\d{4}\.\d+(?:\.\d+)?)\b")
_OLD_HEADER = re.compile(r"^Version: (\d{4}\.\d+(?:\.\d+)?)\s*$", re.MULTILINE)  # Vivado HLS 2015..2019
_OPENED = re.compile(
    r"Running: open_solution (?:-\S+ )*\"?([^\s\"]+)"
    r"|(?:Creating and opening|Opening and resetting|Opening) solution '([^']+)'"
)
_DEVICE = re.compile(r"Setting target device to '([^']+)'")
_ELAPSED = re.compile(r"\[HLS 200-112\].*?Total elapsed time:\s*([0-9.]+)\s*seconds")
_CSIM = re.compile(r"CSim (done|failed) with (?:(\d+) )?errors?|('csim_design' failed):")
# What tells which step of the flow a line belongs to: the command being run, else the message's tag.
_RUNNING = re.compile(r"Running: (csim_design|csynth_design|cosim_design|export_design|package)\b")
_TAG = re.compile(r"^(?:INFO|WARNING|ERROR|CRITICAL WARNING): \[(SIM|COSIM|IMPL|XFORM|SCHED|BIND|RTGEN|HLS 207)\b")
_SYNTHESIS_START = ("Analyzing design file", "Starting code transformations")
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
    return parent == "logs" and (name == "hls_compile.log" or (name.startswith("hls_run_") and ".backup." not in name))


def csim_status(text: str) -> str | None:
    """`pass`/`fail` from the last C simulation verdict in a log, or None without one."""
    verdicts = _CSIM.findall(text)
    if not verdicts:
        return None
    word, count, failed = verdicts[-1]
    return "pass" if not failed and word == "done" and (count or "0") == "0" else "fail"


def errors_by_step(text: str) -> dict[str, list[str]]:
    """`ERROR:` lines by the flow step they belong to (an untagged one to the step running then;
    before any step is known, to synthesis: the step a bare error stops)."""
    found: dict[str, list[str]] = {}
    step = "synthesis"
    for line in text.splitlines():
        running, tag = _RUNNING.search(line), _TAG.match(line)
        signal = running.group(1) if running else tag.group(1) if tag else None
        if signal is not None:
            step = STEP_OF[signal]
        elif any(marker in line for marker in _SYNTHESIS_START):
            step = "synthesis"
        if line.startswith("ERROR:"):
            found.setdefault(step, []).append(line.strip())
    return found


def parse_hls_log(data: bytes) -> dict[str, Any]:
    """Version, part, elapsed time, C simulation verdict, synthesis-step errors, and the solutions
    the session opened (by folder name)."""
    text = decode_text(data)
    banner = _BANNER.search(text)
    header = _OLD_HEADER.search(text)
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
        "errors": steps.get("synthesis", [])[:20],  # what fails a synthesis (rules, section 5)
        "failed_steps": sorted(steps),
        "opened": sorted(
            {(a or b).replace("\\", "/").rstrip("/").rpartition("/")[2] for a, b in _OPENED.findall(text)}
        ),
        "issues": issues,
    }


def parse_csim_log(data: bytes) -> dict[str, Any]:
    return {"csim_status": csim_status(decode_text(data))}
