"""`v++*.log` (`xocc*.log` before 2019.2): target, device, compiler version, elapsed time and
errors of one v++ invocation."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from collectors.files import decode_text
from collectors.numbers import SECONDS, NumberError, checked

# (SDx 2017-2019 ran `xocc`, v++'s predecessor: the same messages, tagged `[XOCC 60-423]`)
_TOOL = r"\[(?:v\+\+|XOCC) "
_TARGET = re.compile(
    _TOOL + r"60-(?:585|629|2256)\]\s+(Compiling|Linking|Packaging) for "
    r"(software emulation|hardware emulation|hardware)\b"
)
_DEVICE = re.compile(_TOOL + r"60-423\]\s+Target device:\s*(\S+)")
_PLATFORM = re.compile(_TOOL + r"60-895\]\s+Target platform:\s*(\S+)")  # (a package step names only this)
_VERSION = re.compile(_TOOL + r"74-78\]\s+Compiler Version string:\s*(\S+)")
_ELAPSED = re.compile(_TOOL + r"60-791\]\s+Total elapsed time:\s*(\d+)h\s*(\d+)m\s*(\d+)s")
_SESSION = re.compile(_TOOL + r"60-1548\]\s+Creating build summary session with primary output (\S+?),? at (.+)")
# where a compile's HLS ran: `... performing high-level synthesis for kernel: vadd Log file:
# /wrk/.../build/HBM_banks2/temp_dir/vadd_hw_emu/vadd/vitis_hls.log` (2020.x-2022.x)
_HLS_WORK = re.compile(r"high-level synthesis for kernel: \S+ Log file: (\S+)")
HLS_WORK_KEPT = 64  # (one a kernel; a log naming more is kept to that many)
COMPILERS = ("v++", "xocc")  # what a compiler's log is named after: v++.log, v++_krnl.log, xocc_<name>.log
# v++ build directories: a plain `_x`, or one named after its target and platform
# (`_x.<t>.<platform>`, `_x_temp.<t>.<platform>`, `build_dir.<t>.<platform>`).
VPP_BUILD_PREFIXES = ("_x.", "_x_temp", "build_dir.")
# (SDAccel 2016-2018's xocc: `_xocc_compile_<file>_<kernel>.<t>.<platform>.dir`, and
# `_xocc_link_<xclbin>.<t>.<platform>_<xclbin>.<t>.<platform>.dir`: the last pair speaks). A
# platform's name holds no dot: what follows one is the makefile's own (`_x.<t>.<platform>.kernel.cpp`).
_BUILD_DIR = re.compile(
    r"^(?:(?:_x|_x_temp|build_dir)\.(sw_emu|hw_emu|hw)\.([^.]*)(?:\..*)?|_xocc_.*\.(sw_emu|hw_emu|hw)\.([^.]+)\.dir)$"
)
_TARGETS = {"software emulation": "sw_emu", "hardware emulation": "hw_emu", "hardware": "hw"}
# SDAccel 2018's xocc builds each kernel in a folder of the plain `_x`, `<kernel>.<t>.<platform>`
_KERNEL_BUILD_DIR = re.compile(r"^[^.]+\.(sw_emu|hw_emu|hw)\.([^.]+)$")


def is_vpp_build_dir(name: str) -> bool:
    """Whether a directory name is one v++ builds in (named or plain; xocc's only named: another
    `_xocc_*` folder is a build output that names no run)."""
    return (
        name == "_x"
        or name.startswith(VPP_BUILD_PREFIXES)
        or (name.startswith("_xocc_") and _BUILD_DIR.match(name) is not None)
    )


def vpp_build_dir(name: str) -> tuple[str, str] | None:
    """(target, platform) that a build directory's name gives (`sw_emu`, `hw_emu`, `hw`), if any."""
    match = _BUILD_DIR.match(name)
    if match is None:
        return None
    return (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))


def kernel_build_dir(name: str) -> tuple[str, str] | None:
    """(target, platform) a kernel's folder in a plain `_x` names (n-samar/UCLA, SDAccel 2018.2:
    `_x/digitrec_kernel.hw_emu.xilinx_aws-vu9p-f1-04261818_dynamic_5_0/`), if it is one."""
    match = _KERNEL_BUILD_DIR.match(name)
    return (match.group(1), match.group(2)) if match else None


def target_from_path(path: str) -> tuple[str, str] | None:
    """(target, platform) named by a build directory in `path`, deepest first."""
    for part in reversed(path.replace("\\", "/").split("/")):
        named = vpp_build_dir(part)
        if named:
            return named
    return None


def parse_vpp_log(data: bytes) -> dict[str, Any]:
    text = decode_text(data)
    target = _TARGET.search(text)
    device = _DEVICE.search(text)
    version = _VERSION.search(text)
    session = _SESSION.search(text)
    issues: list[str] = []
    elapsed = _elapsed_seconds(_ELAPSED.findall(text), issues)
    out_target = _TARGETS[target.group(2)] if target else None
    platform = _PLATFORM.search(text) if device is None else None
    out_device = device.group(1) if device else platform_name(platform.group(1)) if platform else None
    if session and (out_target is None or out_device is None):
        # A package step names neither; its primary output sits in build_dir.<t>.<platform>.
        hint = target_from_path(session.group(1))
        if hint:
            out_target = out_target or hint[0]
            out_device = out_device or (hint[1] or None)
    # the folders (the build machine's paths, "/"-separated) its kernels' HLS ran in
    hls_work = {path.replace("\\", "/").rpartition("/")[0] for path in _HLS_WORK.findall(text)}
    # One invocation can be logged twice (working directory and _x/logs): identify it.
    identity = session.group(0) if session else hashlib.sha1(data).hexdigest()
    return {
        "target": out_target,
        "compiled": target is not None and target.group(1) == "Compiling",  # (a kernel's compile, not a link)
        "device": out_device,
        "vitis_version": version.group(1) if version else None,
        "elapsed_seconds": elapsed,
        "errors": error_lines(text),
        "invocation": identity,
        "issues": issues,
        "hls_work": sorted(hls_work)[:HLS_WORK_KEPT],
    }


def is_rotated(name: str) -> bool:
    """An older session's log that v++ or vitis-run kept aside (`v++_krnl_4165.backup.log`)."""
    return ".backup." in name


_PLATFORM_VLNV = re.compile(r"[\w.-]+(?::[\w.-]+){3}")  # SDx's vendor:board:name:version


def platform_name(path: str) -> str | None:
    """`u96v2_sbc_base` of `/home/x/u96v2_sbc_base/u96v2_sbc_base.xpfm` (any separator); a
    platform SDx named `xilinx:aws-vu9p-f1:4ddr-xpr-2pr:4.0` is named as its `.xpfm` is,
    `xilinx_aws-vu9p-f1_4ddr-xpr-2pr_4_0` (what a log of the same build gives)."""
    name = path.replace("\\", "/").rpartition("/")[2].removesuffix(".xpfm")
    if _PLATFORM_VLNV.fullmatch(name):
        name = name.replace(":", "_").replace(".", "_")
    return name or None


def is_vpp_log(name: str, parent: str) -> bool:
    """`v++*.log`, `xocc*.log`; not the older sessions' logs v++ keeps as `*.backup.log`."""
    return name.startswith(COMPILERS) and not is_rotated(name)


def error_lines(text: str) -> list[str]:
    """The first 20 lines that start with `ERROR:` (a log without one is not split into lines)."""
    if "ERROR:" not in text:
        return []
    return [line.strip() for line in text.splitlines() if line.startswith("ERROR:")][:20]


def _elapsed_seconds(found: list[tuple[str, str, str]], issues: list[str]) -> int | None:
    """The last `Total elapsed time: <h>h <m>m <s>s` in seconds; an absurd one is an issue."""
    if not found:
        return None
    field = "Total elapsed time"
    try:
        hours, minutes, seconds = (checked(part, field, SECONDS) or 0 for part in found[-1])
        return int(checked(hours * 3600 + minutes * 60 + seconds, field, SECONDS) or 0)
    except NumberError as exc:
        issues.append(str(exc))
        return None
