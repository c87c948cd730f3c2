"""HLS logs (`vitis_hls.log`, `vivado_hls.log`, `<solution>/<solution>.log`, `*_csim.log`)."""

from __future__ import annotations

import re
from typing import Any

from ..files import decode_text

_BANNER = re.compile(r"\bv(\d{4}\.\d+(?:\.\d+)?) \(64-bit\)")
_OLD_HEADER = re.compile(r"^Version: (\d{4}\.\d+(?:\.\d+)?)\s*$", re.MULTILINE)  # Vivado HLS 2015..2019
_DEVICE = re.compile(r"Setting target device to '([^']+)'")
_ELAPSED = re.compile(r"\[HLS 200-112\].*?Total elapsed time:\s*([0-9.]+)\s*seconds")
_CSIM = re.compile(r"CSim (done|failed) with (?:(\d+) )?errors?")
# Simulation errors say nothing about whether synthesis ran.
_SIM_ERROR = re.compile(r"^ERROR: \[(?:SIM|COSIM)\b")


def csim_status(text: str) -> str | None:
    """`pass`/`fail` from the last C simulation verdict in a log, or None without one."""
    verdicts = _CSIM.findall(text)
    if not verdicts:
        return None
    word, count = verdicts[-1]
    return "pass" if word == "done" and (count or "0") == "0" else "fail"


def parse_hls_log(data: bytes) -> dict[str, Any]:
    text = decode_text(data)
    banner = _BANNER.search(text) or _OLD_HEADER.search(text)
    devices = _DEVICE.findall(text)
    elapsed = _ELAPSED.findall(text)
    errors = [line.strip() for line in text.splitlines() if line.startswith("ERROR:") and not _SIM_ERROR.match(line)]
    return {
        "vitis_version": banner.group(1) if banner else None,
        "device": devices[-1] if devices else None,
        "elapsed_seconds": float(elapsed[-1]) if elapsed else None,
        "csim_status": csim_status(text),
        "errors": errors[:20],
    }


def parse_csim_log(data: bytes) -> dict[str, Any]:
    return {"csim_status": csim_status(decode_text(data))}
