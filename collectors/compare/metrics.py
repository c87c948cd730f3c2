"""What a comparison measures: the metrics, each read from one report type's payload (pure).

Every figure goes through the one checked conversion (collectors/numbers.py `number_or_none`):
a csynth string ('52627', '2.494') or a JSON number is a value; 'undef', null, NaN, bools and
'1_000' are none, as in the records view.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from collectors.compare.stats import outcome
from collectors.numbers import NO_BOUND, number_or_none
from collectors.records.columns import section
from collectors.records.model import AREA, LATENCY, TIMING


def to_number(value: Any) -> float | int | None:
    """The checked number in `value`; a digit string stays an int ("52627" writes as 52627)."""
    found = number_or_none(value)
    if isinstance(found, float) and isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        return int(found)
    return found


def _latency(which: str) -> Callable[[dict[str, Any]], float | None]:
    """A count of cycles; the tool's `-1` (numbers.NO_BOUND: no bound it could compute) is none."""
    return lambda p: None if (found := section(p, LATENCY).get(which)) == NO_BOUND else to_number(found)


def _clock(payload: dict[str, Any]) -> float | None:
    return to_number(section(payload, TIMING).get("EstimatedClockPeriod"))


def _time_ns(payload: dict[str, Any]) -> float | None:
    cycles = _latency("Worst-caseLatency")(payload)
    period = _clock(payload)
    return None if cycles is None or period is None else cycles * period


def resource_reader(name: str, kind: str = "Resources") -> Callable[[dict[str, Any]], float | None]:
    """A reader of one resource: the figure used (`Resources`) or the part's (`AvailableResources`)."""
    return lambda p: to_number(section(p, (AREA, kind)).get(name))


def _field(name: str) -> Callable[[dict[str, Any]], float | None]:
    return lambda p: to_number(p.get(name))


@dataclass(frozen=True)
class Metric:
    name: str
    kind: str  # the report_type whose records hold it
    target: str | None  # run.target the record must have; None: any
    label: str
    read: Callable[[dict[str, Any]], float | None]
    resource: str | None = None  # the AreaEstimates name: a utilisation beside the value
    higher: bool = False  # a higher value is better (fmax)
    sized: bool = False  # shown as candidate / baseline, < 1 better (resources, adp), not as a speedup

    @property
    def is_resource(self) -> bool:
        return self.resource is not None

    @property
    def direction(self) -> str:
        """What the header says of the metric: which way is better and what the cells hold."""
        if self.sized:
            return "lower is better: ratio = candidate / baseline"
        if self.higher:
            return "higher is better: ratio = candidate / baseline"
        return "lower is better: speedup = baseline / candidate"

    def shown(self, value: float, base: float) -> float | None:
        """The cell's number: a speedup (> 1 better) or, for a sized metric, a ratio (< 1 better)."""
        return ratio(value, base) if self.sized or self.higher else ratio(base, value)

    def better(self, shown: float) -> int:
        """1 when a cell's number is better than its baseline by more than 1 %, -1 worse, 0 alike."""
        return outcome(1 / shown if self.sized and shown else shown)


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator; 0/0 is 1.0 (both use none), anything else with a zero is undefined,
    and so is a quotient out of range. (A negative figure is no measured value: model._measure.)"""
    if numerator == 0 and denominator == 0:
        return 1.0
    if numerator == 0 or denominator == 0:
        return None
    found = numerator / denominator
    return found if 0 < found < math.inf else None  # (1e308 / 5e-324: no ratio to print or average)


def _fmax(payload: dict[str, Any]) -> float | None:
    period = _clock(payload)
    return 1000 / period if period else None


def _adp(payload: dict[str, Any]) -> float | None:
    lut = resource_reader("LUT")(payload)
    time = _time_ns(payload)
    return None if lut is None or time is None else lut * time


def _resource_metric(name: str, xml: str) -> Metric:
    return Metric(name, "hls_synth", None, f"{xml} (AreaEstimates.Resources)", resource_reader(xml), xml, sized=True)


METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric("csynth.worst", "hls_synth", None, "worst-case latency, cycles", _latency("Worst-caseLatency")),
        Metric("csynth.avg", "hls_synth", None, "average-case latency, cycles", _latency("Average-caseLatency")),
        Metric("csynth.best", "hls_synth", None, "best-case latency, cycles", _latency("Best-caseLatency")),
        Metric("csynth.time", "hls_synth", None, "worst-case latency in ns at the estimated clock", _time_ns),
        Metric("cosim.cycles", "rtl_sim", "vitis.cosim", "co-simulation cycles", _field("kernel_runtime_cycles")),
        Metric("hwemu.us", "rtl_sim", "vitis.hw_emu", "hw_emu kernel time, µs", _field("kernel_runtime_us")),
        Metric("hwemu.cycles", "rtl_sim", "vitis.hw_emu", "hw_emu kernel cycles", _field("kernel_runtime_cycles")),
        Metric("fmax", "hls_synth", None, "MHz, 1000 / EstimatedClockPeriod", _fmax, higher=True),
        Metric("ii", "hls_synth", None, "initiation interval (Interval-max), cycles", _latency("Interval-max")),
        Metric("adp", "hls_synth", None, "area-delay product: LUT x worst-case cycles x clock ns", _adp, sized=True),
        _resource_metric("lut", "LUT"),
        _resource_metric("ff", "FF"),
        _resource_metric("dsp", "DSP"),
        _resource_metric("bram", "BRAM_18K"),
        _resource_metric("uram", "URAM"),
    )
}
