"""`profile_kernels.csv` from hardware emulation: compute-unit running times; and beside one in
XRT's own emulation run folder, the `timeline_kernels.csv` (the platform it ran on) and the
simulator's `simulate.log` (its release)."""

from __future__ import annotations

import csv
import re
from typing import Any

from collectors.files import decode_text
from collectors.numbers import MICROSECONDS, checked, session_started
from collectors.problems import ArtifactError

CU_SECTION = "Compute Units: Running Time and Stalls"
RUNTIME_COLUMN = "Running Time (us)"


def parse_profile_kernels(data: bytes) -> dict[str, Any]:
    """Sum `Running Time (us)` over the compute-unit rows; a malformed row refuses the file.

    Header cells are padded with spaces in real files, so they are compared stripped. The
    section counts only once its end (the blank line after its rows) is there: a profile cut
    short, or still being written row by row, would give a partial sum.
    """
    lines = decode_text(data).splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == CU_SECTION)
    except StopIteration:
        raise ArtifactError(f"no '{CU_SECTION}' section") from None
    body: list[str] = []
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        body.append(line)
    else:
        raise ArtifactError("compute-unit section has no end (file cut short or still being written)")
    if not body:
        raise ArtifactError("compute-unit section has no header (file cut short?)")
    rows = list(csv.reader(body))
    header = [cell.strip() for cell in rows[0]]
    if RUNTIME_COLUMN not in header:
        raise ArtifactError(f"compute-unit header lacks '{RUNTIME_COLUMN}': {header}")
    column = header.index(RUNTIME_COLUMN)
    units: dict[str, float] = {}
    for offset, row in enumerate(rows[1:], start + 3):
        if len(row) != len(header):
            raise ArtifactError(f"line {offset}: {len(row)} cells where the header has {len(header)}")
        value = checked(row[column], f"line {offset}: {RUNTIME_COLUMN}", MICROSECONDS)
        if value is None:
            raise ArtifactError(f"line {offset}: {RUNTIME_COLUMN} not available ({row[column].strip()!r})")
        name = row[0].strip()
        units[name] = units.get(name, 0.0) + value
    total = checked(round(sum(units.values()), 9), "total running time (us)", MICROSECONDS) if units else None
    return {"compute_units": units, "kernel_runtime_us": total}


XRT_RUN_FOLDER = ".run"  # XRT's own folder of the runs where the host program ran (`.run/<pid>/hw_emu/...`)
TIMELINE_HEAD_BYTES = 64 * 1024  # the header and the first event (a kernel trace runs to megabytes)
_DEVICE_INDEX = re.compile(r"-\d+$")  # `<platform>-<device index>`, as the trace names a device


def parse_emu_timeline(data: bytes) -> dict[str, Any]:
    """The platform of a kernel trace (`timeline_kernels.csv`): its first event's `Device`
    (`xilinx_u250_gen3x16_xdma_4_1_202210_1-0`: the platform and the device's index). Only the
    head of the file is read."""
    lines = decode_text(data[:TIMELINE_HEAD_BYTES]).splitlines()[:3]
    rows = list(csv.reader(lines))
    if len(rows) < 2 or not rows[0] or rows[0][0].strip() != "Kernel trace events":
        raise ArtifactError("no kernel trace events")
    header = [cell.strip() for cell in rows[1]]
    if len(rows) == 2 and "Device" in header:
        return {"platform": None}  # (XRT's trace of a run that traced no kernel: it names nothing)
    if "Device" not in header or len(rows[2]) != len(header):
        raise ArtifactError(f"kernel trace header lacks 'Device' or its first event does not fit: {header}")
    event = dict(zip(header, (cell.strip() for cell in rows[2])))
    platform = _DEVICE_INDEX.sub("", event["Device"])
    if not platform:
        raise ArtifactError("kernel trace names no device")
    return {"platform": platform}


SIMULATOR_HEAD_BYTES = 4 * 1024  # the banner opens the log
_XSIM_BANNER = re.compile(r"^# xsim v(\d{4}\.\d+(?:\.\d+)?) ", re.MULTILINE)


def parse_xsim_log(data: bytes) -> dict[str, Any]:
    """The release of the simulator that ran a hardware emulation (`# xsim v2023.1 (64-bit)`, the
    banner of its `simulate.log`): the Vitis release it came with; and when its session started
    (`# Start of session at: Wed Sep  1 08:54:02 2021`, the machine's clock, as seconds; None where
    unsaid): which of a project's runs is the newest, whatever order a checkout wrote them in."""
    head = decode_text(data[:SIMULATOR_HEAD_BYTES])
    found = _XSIM_BANNER.search(head)
    if found is None:
        raise ArtifactError("no xsim banner")
    return {"vitis_version": found.group(1), "started": session_started(head)}
