"""v++ `*compile_summary` / `*link_summary` / `*.hlscompile_summary`: an `<ENTRY>{json}</ENTRY>` stream.

Read by pattern, not as JSON: only a few fields are needed and the stream can be large.
"""

from __future__ import annotations

import re
from typing import Any

from collectors.collect.artifacts.vpp_log import platform_name
from collectors.files import decode_text
from collectors.problems import ArtifactError

_TOOL_VERSION = re.compile(r'"toolVersion"\s*:\s*"([^"]*)"')
_YEAR_VERSION = re.compile(r"\b(20\d\d\.\d+(?:\.\d+)?)\b")
_FLOW = re.compile(r'"flow"\s*:\s*"BF_([A-Z]+)"')
_TARGET = re.compile(r'"target"\s*:\s*"TT_(SW_EMU|HW_EMU|HW)"')
_PLATFORM = re.compile(r'"hardwarePlatform"\s*:\s*"([^"]+)"')  # a name or a path, with .xpfm: platform_name
# the part a command line asked for (`v++ -c --mode hls ... --part xc7z020clg484-1`: a Makefile's
# compile gives it there, its hls_config.cfg may name none)
_PART = re.compile(r'"commandLine"\s*:\s*"[^"]*?\s--part[\s=]+([A-Za-z0-9][\w-]*)')


def parse_build_summary(data: bytes) -> dict[str, Any]:
    """Tool version; and the flow (`compile`, `link`, ...), target (`sw_emu`, `hw_emu`, `hw`) and
    platform of the build step it summarises (None where the summary does not say)."""
    text = decode_text(data)
    if "<ENTRY>" not in text:
        raise ArtifactError("no <ENTRY> records (not a v++ summary)")
    version = None
    for raw in _TOOL_VERSION.findall(text):
        match = _YEAR_VERSION.search(raw)  # "Vitis V++ Compiler Release 2022.2. SW Build ..." -> 2022.2
        if match:
            version = match.group(1)
            break
    flow, target, platform = _FLOW.search(text), _TARGET.search(text), _PLATFORM.search(text)
    part = _PART.search(text)
    return {
        "vitis_version": version,
        "flow": flow.group(1).lower() if flow else None,
        "target": target.group(1).lower() if target else None,
        "platform": platform_name(platform.group(1)) if platform else None,
        "part": part.group(1) if part else None,
        # a compile that failed (a unified component's, a kernel's): a failed link fails no synthesis
        "synthesis_failed": "CS_FAILED" in text and flow is not None and flow.group(1) == "COMPILE",
    }


_SOURCE = re.compile(r'"source"\s*:\s*"(x86sim|aiesim\w*)"')  # (the simulator that wrote it)


def parse_aierun_summary(data: bytes) -> dict[str, Any]:
    """The AI Engine simulator's run summary (`*.aierun_summary`, JSON or an `<ENTRY>` stream):
    the platform it simulated (`hardwarePlatform`, a path or a name) and the tool version."""
    text = decode_text(data)
    platform = _PLATFORM.search(text)
    version = None
    for raw in _TOOL_VERSION.findall(text):
        match = _YEAR_VERSION.search(raw)
        if match:
            version = match.group(1)
            break
    if platform is None and version is None:
        source = _SOURCE.search(text)
        if source is None:
            raise ArtifactError("names neither hardwarePlatform nor toolVersion (not a simulator run summary)")
        raise ArtifactError(f"{source.group(1)}'s run summary names neither hardwarePlatform nor toolVersion")
    return {"platform": platform_name(platform.group(1)) if platform else None, "vitis_version": version}
