"""`csynth.xml`: the canonical HLS synthesis report, reduced to the schema-1.0 `hls_synth` fields."""

from __future__ import annotations

import os
import re
import threading
from typing import Any

from lxml import etree

from collectors.numbers import COUNT, CYCLES, NANOSECONDS, NO_BOUND, Range, checked
from collectors.problems import ArtifactError

# Exactly the fields the contract lists, per section, in contract order.
USER_ASSIGNMENTS = (
    "unit",
    "ProductFamily",
    "Part",
    "TopModelName",
    "TargetClockPeriod",
    "ClockUncertainty",
    "FlowTarget",
)
TIMING = ("unit", "EstimatedClockPeriod")
LATENCY = (
    "unit",
    "Best-caseLatency",
    "Average-caseLatency",
    "Worst-caseLatency",
    "Best-caseRealTimeLatency",
    "Average-caseRealTimeLatency",
    "Worst-caseRealTimeLatency",
    "Interval-min",
    "Interval-max",
)
RESOURCES = ("BRAM_18K", "DSP", "FF", "LUT", "URAM")
# The fields that are numbers (kept as the report's text, but filtered, sorted and compared):
# (section path, fields, range). The real-time latencies carry a unit ("1.090 us") and stay text.
NUMERIC: tuple[tuple[tuple[str, ...], tuple[str, ...], Range], ...] = (
    (("UserAssignments",), ("TargetClockPeriod", "ClockUncertainty"), NANOSECONDS),
    (("PerformanceEstimates", "SummaryOfTimingAnalysis"), ("EstimatedClockPeriod",), NANOSECONDS),
    (
        ("PerformanceEstimates", "SummaryOfOverallLatency"),
        ("Best-caseLatency", "Average-caseLatency", "Worst-caseLatency", "Interval-min", "Interval-max"),
        CYCLES,
    ),
    (("AreaEstimates", "Resources"), RESOURCES, COUNT),
    (("AreaEstimates", "AvailableResources"), RESOURCES, COUNT),
)

# Folders that packaged copies of a report sit in: the pick rule (docs/collection.md) prefers a
# report with fewest of them in its path.
PENALTY_PARTS = frozenset(
    {
        "impl",
        "ip",
        "ip_repo",
        "iprepo",
        "hls_files",
        "link",
        "int",
        "temp",
        "sys_link",
        "xo",
        "vivado",
        "vpl",
        "export",
        "reports",
        "hls_reports",
        "logs",
    }
)


def may_be_passed_over(path: str) -> bool:
    """Whether the pick rule may prefer another copy: anything but a report in its solution's
    `syn/report/` with no packaging folder anywhere in its path. Such copies are read only when a
    run needs them; the others, nearly always the chosen one, are read during the walk."""
    parts = path.split(os.sep)
    return parts[-3:] != ["syn", "report", "csynth.xml"] or any(part in PENALTY_PARTS for part in parts)


# Real reports never carry a DTD; one that does is refused rather than half-trusted.
_DTD = re.compile(rb"<!DOCTYPE|<!ENTITY", re.IGNORECASE)


_PARSERS = threading.local()  # one parser per thread (an lxml parser is not shared between threads)
CHECKED_AT_MOST = 4096  # (value, range) pairs remembered as numbers in range (csynth.check_numbers)
_CHECKED: set[tuple[str, Range]] = set()


def _parser() -> etree.XMLParser:
    """This thread's parser: made once (making one cost a fifth of a small report's parse)."""
    parser = getattr(_PARSERS, "parser", None)
    if parser is None:
        parser = _PARSERS.parser = _new_parser()
    return parser


def _new_parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        # (the whitespace between elements kept out of the tree: a small report's parse 85 -> 74
        # us; an element holding only whitespace keeps its text)
        remove_blank_text=True,
    )


def parse_xml(data: bytes) -> etree._Element:
    """Parse untrusted XML safely: no DTD, no entities, no network; broken input raises."""
    if _DTD.search(data):
        raise ArtifactError("XML declares a DTD or entities, refused (reports never do)")
    try:
        return etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        line = getattr(exc, "lineno", None)
        where = f" at line {line}" if line else ""
        raise ArtifactError(f"broken XML{where}: {exc.msg if hasattr(exc, 'msg') else exc}") from None


def _children(section: etree._Element | None) -> dict[str, Any]:
    """A section's child elements by tag, the first of a repeated tag winning (as `find` does)."""
    children: dict[str, Any] = {}
    if section is not None:
        for child in section:  # (one pass: `find` walked the children again for each tag, 4 us a call)
            tag = child.tag
            if tag not in children and isinstance(tag, str):
                children[tag] = child
    return children


def _fields(section: etree._Element | None, names: tuple[str, ...]) -> dict[str, str | None]:
    texts = {tag: (child.text or "").strip() for tag, child in _children(section).items()}
    found = {name: texts.get(name) for name in names}
    if "DSP" in found and found["DSP"] is None:
        # older reports name the count after the primitive (DSP48E, DSP48E1, DSP48A1, DSP58, ...)
        found["DSP"] = next((text for tag, text in texts.items() if tag.startswith("DSP")), None)
    return found


def parse_csynth(data: bytes) -> dict[str, Any]:
    """Return the four `hls_synth` sections read from their direct paths only.

    Newer reports repeat `SummaryOfOverallLatency` and `Resources` per module deeper in the
    tree; only a section's direct children are looked at, so those cannot leak in.
    """
    root = parse_xml(data)
    if root.tag != "profile":
        raise ArtifactError(f"not a csynth report (root element <{root.tag}>, expected <profile>)")
    top = _children(root)
    perf = _children(top.get("PerformanceEstimates"))
    area = _children(top.get("AreaEstimates"))
    sections = {
        "ReportVersion": _fields(top.get("ReportVersion"), ("Version",)),
        "UserAssignments": _fields(top.get("UserAssignments"), USER_ASSIGNMENTS),
        "PerformanceEstimates": {
            "SummaryOfTimingAnalysis": _fields(perf.get("SummaryOfTimingAnalysis"), TIMING),
            "SummaryOfOverallLatency": _fields(perf.get("SummaryOfOverallLatency"), LATENCY),
        },
        "AreaEstimates": {
            "Resources": _fields(area.get("Resources"), RESOURCES),
            "AvailableResources": _fields(area.get("AvailableResources"), RESOURCES),
        },
    }
    check_numbers(sections)
    return sections


def check_numbers(sections: dict[str, Any]) -> None:
    """Refuse a report whose numeric fields are not numbers in range (`undef` and empty are fine).
    Each value is checked once per range: reports of one campaign repeat most of theirs (the
    part's available resources, the clock, the units), and the check was a third of a small
    report's parse."""
    remembered = _CHECKED
    for path, names, kind in NUMERIC:
        section = sections
        for part in path:
            section = section[part]
        for name in names:
            value = section[name]
            if value is None or (value, kind) in remembered or (kind is CYCLES and value == NO_BOUND):
                continue
            checked(value, f"{'/'.join(path)}/{name}", kind)
            if len(remembered) >= CHECKED_AT_MOST:
                remembered.clear()
            remembered.add((value, kind))
