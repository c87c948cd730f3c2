"""The one checked conversion for numbers read from files: finite, in range for its field.

Every parser turns report text (or a JSON value) into a number through `checked`; a value that
is not a plain decimal number, not finite or out of its field's range raises NumberError,
which names the field: a problem for that file, never a crash and never a number that is not
in the report. Only an explicit not-available token (NA, N/A, -, undef, empty) is silent.
"""

from __future__ import annotations

import calendar
import math
import re
import time
from dataclasses import dataclass
from typing import Any

from collectors.problems import ArtifactError

NOT_AVAILABLE = frozenset({"", "na", "n/a", "-", "undef"})
# Plain decimal only: no hex (0x10), no inf/nan, no digit separators (float() takes all three).
_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_EXCERPT = 40  # characters of an offending value quoted in a message


class NumberError(ArtifactError):
    """A number in a file that cannot be used: the message names the field."""


@dataclass(frozen=True)
class Range:
    """What a field may hold: bounds (the low one exclusive when `above` is set) and integrality."""

    low: float = 0.0
    high: float = 1e18
    above: bool = False
    integer: bool = False

    def holds(self, value: float) -> bool:
        low_ok = value > self.low if self.above else value >= self.low
        return low_ok and value <= self.high

    def describe(self) -> str:
        low = f"> {self.low:g}" if self.above else f">= {self.low:g}"
        return f"must be {low} and <= {self.high:g}"


INT64 = 2**63 - 1
CYCLES = Range(high=INT64, integer=True)
# what Vitis HLS writes for a count of cycles it cannot bound (a dataflow top's Interval-max; its
# text report prints `-1` too: YaoTengqi/Prediction_Model_Accelerator's `concat`, 2022.2): kept
# as the report's text, read as no number, never a reason to refuse the report
NO_BOUND = "-1"
COUNT = Range(high=INT64, integer=True)  # resources, lines, ids
MHZ = Range(above=True, high=100_000.0)  # a clock frequency: 100 GHz is far past any device
NANOSECONDS = Range(high=1e9)  # clock periods and uncertainties (a whole second is absurd already)
SECONDS = Range(high=1e8)  # a build or a run: about three years at most
MICROSECONDS = Range(high=1e14)  # the same bound as SECONDS
PICOSECONDS = Range(high=INT64, integer=True)  # simulator timestamps, kept as int64
PLIO_BITS = Range(low=1, high=4096, integer=True)
FINITE = Range(low=-math.inf, high=math.inf)  # any finite number (surrogate metrics)


def excerpt(value: Any) -> str:
    """A short quoted form of an offending value (never a whole file's worth)."""
    if isinstance(value, int) and abs(value) > 10**_EXCERPT:
        return "a number of more than 40 digits"  # repr() of a huge int is slow, even refused
    text = value if isinstance(value, str) else repr(value)
    return repr(text if len(text) <= _EXCERPT else text[:_EXCERPT] + "...")


def checked(value: Any, field: str, kind: Range) -> float | int | None:
    """The number in `value` (text or a JSON number) for `field`, None when marked not available.

    Raises NumberError naming `field` when the value is not a plain decimal, not finite or
    outside `kind`; integer fields are rounded to the nearest whole number.
    """
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip()
        if text.lower() in NOT_AVAILABLE:
            return None
        if _DECIMAL.fullmatch(text) is None:
            raise NumberError(f"{field} {excerpt(value)} is not a number")
        # short digit strings stay exact ints; long ones go through float (and meet the bounds)
        number: float | int = int(text) if text.isdigit() and len(text) <= 30 else float(text)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        number = value
    else:
        raise NumberError(f"{field} {excerpt(value)} is not a number")
    try:
        as_float = float(number)
    except OverflowError:  # an int past any float
        as_float = math.inf
    if not math.isfinite(as_float):
        raise NumberError(f"{field} {excerpt(value)} is out of range (not finite)")
    if not kind.holds(number):
        raise NumberError(f"{field} {excerpt(value)} is out of range ({kind.describe()})")
    return round(number) if kind.integer else as_float


def number_or_none(value: Any) -> float | int | None:
    """The lenient face of the same conversion, for optional figures and values already in
    records (sorting, filters): a finite number (a JSON integer stays one), or None."""
    try:
        found = checked(value, "value", FINITE)
    except NumberError:
        return None
    return value if found is not None and isinstance(value, int) else found


def lenient(value: Any, field: str, kind: Range, issues: list[str]) -> float | int | None:
    """`checked`, but a bad value becomes None and a message in `issues` (the file stays usable)."""
    try:
        return checked(value, field, kind)
    except NumberError as exc:
        issues.append(str(exc))
        return None


# A Xilinx tool's session start, as its logs write it: `Start of session at: Wed Sep  1 08:54:02
# 2021` (xsim's `simulate.log`, the HLS banner since 2023.1)
CLOCK_DATE = r"\w{3} \w{3} +\d{1,2} \d\d:\d\d:\d\d"  # (the year apart: a zone may come between)
_SESSION_START = re.compile(rf"Start of session at: ({CLOCK_DATE} \d{{4}})\s*$", re.MULTILINE)


def session_started(text: str) -> float | None:
    """When the session a log's text opens with started, as seconds of the machine's clock; None
    where unsaid or a date the clock never showed (no order)."""
    found = _SESSION_START.search(text)
    return None if found is None else clock_seconds(found.group(1))


def clock_seconds(date: str) -> float | None:
    """`Wed Sep  1 08:54:02 2021` as seconds (the zone unsaid: one machine's order); None if no date."""
    try:
        return calendar.timegm(time.strptime(date, "%a %b %d %H:%M:%S %Y"))
    except (ValueError, OverflowError):
        return None
