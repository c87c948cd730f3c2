"""Inline SVG plots for the HTML report (pure, no library): each arm's geomean with its 95 %
interval, and the suite's Pareto front (geomean speedup against geomean LUT ratio).

Both use log axes: ratios are multiplicative. Every plotted number carries `data-path`, the place
of the same number in the json output, so a test can check the picture against it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape

from collectors.compare.comparison import Comparison
from collectors.compare.pareto import Front, suite_front
from collectors.compare.render import ratio_text
from collectors.text import visible

PLOT = 440  # the bars' width
CHAR = 7  # about a character's width at 12 px
ROW = 26
GREEN, RED, GREY = "#2e7d32", "#c62828", "#9e9e9e"


def _span(values: list[float]) -> tuple[float, float]:
    """Log10 bounds that hold every value and 1.0, a little wider than needed."""
    logs = [math.log10(v) for v in values if v > 0] + [0.0]
    low, high = min(logs), max(logs)
    pad = max(0.1, (high - low) * 0.05)
    return low - pad, high + pad


def _scale(low: float, high: float, start: float, end: float) -> Callable[[float], float]:
    return lambda v: start + (math.log10(v) - low) / (high - low) * (end - start)


def _text(x: float, y: float, text: str, anchor: str = "start", extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {extra}>{escape(visible(text))}</text>'


def geomean_plot(comparison: Comparison) -> str:
    """One row per arm: a bar from 1.0 to the geomean, the 95 % interval as a whisker."""
    arms = [(n, a) for n, a in enumerate(comparison.arms) if a.geomean is not None]
    if not arms:
        return "<p>No arm has a geomean to plot.</p>"
    values = [v for _, a in arms for v in (a.geomean, *(a.ci95 or ())) if v is not None]
    low, high = _span(values)
    left = 16 + CHAR * max(len(visible(a.label)) for _, a in arms)  # room for the longest label
    width = left + PLOT + 80  # and for the value after the bars
    x = _scale(low, high, left, left + PLOT)
    height = 40 + ROW * len(arms)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" class="plot geomeans">']
    parts.append(f'<line x1="{x(1):.1f}" y1="10" x2="{x(1):.1f}" y2="{height - 20}" stroke="#555" />')
    parts.append(_text(x(1), height - 6, "1× (the baseline)", "middle"))
    for row, (n, arm) in enumerate(arms):
        y = 20 + row * ROW
        g = arm.geomean
        assert g is not None
        better = comparison.options.measure.better(g)
        colour = GREEN if better > 0 else RED if better < 0 else GREY
        parts.append(_text(left - 8, y + 12, arm.label, "end"))
        start, end = sorted((x(1), x(g)))
        parts.append(
            f'<rect x="{start:.1f}" y="{y + 2}" width="{max(end - start, 1):.1f}" height="{ROW - 10}" '
            f'fill="{colour}" data-path="arms/{n}/geomean" data-value="{g!r}" />'
        )
        if arm.ci95 is not None:
            lo, hi = arm.ci95
            parts.append(
                f'<line x1="{x(lo):.1f}" y1="{y + 8}" x2="{x(hi):.1f}" y2="{y + 8}" stroke="#000" stroke-width="2" '
                f'data-path="arms/{n}/ci95" data-low="{lo!r}" data-high="{hi!r}" />'
            )
        parts.append(_text(width - 8, y + 12, ratio_text(g), "end", 'font-weight="bold"'))
    parts.append("</svg>")
    return "".join(parts)


def pareto_plot(comparison: Comparison) -> str:
    """The suite's front: geomean LUT ratio (x, lower is better) against geomean speedup (y)."""
    front = suite_front(comparison)
    if not front.points:
        return "<p>No arm has both a LUT ratio and a speedup to plot.</p>"
    return _front_svg(front)


def _front_svg(front: Front) -> str:
    size, margin = 520, 60
    xs, ys = _span([p.x for p in front.points]), _span([p.y for p in front.points])
    x = _scale(*xs, margin, size - 20)
    y = _scale(*ys, size - margin, 20)
    room = size + 20 + CHAR * max(len(visible(p.label)) for p in front.points)  # labels right of the points
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{room}" height="{size}" class="plot pareto">']
    inner = size - margin - 20
    parts.append(f'<rect x="{margin}" y="20" width="{inner}" height="{inner}" fill="none" stroke="#555" />')
    parts.append(f'<line x1="{x(1):.1f}" y1="20" x2="{x(1):.1f}" y2="{size - margin}" stroke="#bbb" />')
    parts.append(f'<line x1="{margin}" y1="{y(1):.1f}" x2="{size - 20}" y2="{y(1):.1f}" stroke="#bbb" />')
    parts.append(_text(size / 2, size - 20, front.x_label, "middle"))
    parts.append(_text(14, size / 2, front.y_label, "middle", f'transform="rotate(-90 14 {size / 2})"'))
    for point in front.points:
        colour = GREY if point.dominated else GREEN
        parts.append(
            f'<circle cx="{x(point.x):.1f}" cy="{y(point.y):.1f}" r="6" fill="{colour}" '
            f'data-label="{escape(visible(point.label))}" data-x="{point.x!r}" data-y="{point.y!r}" />'
        )
        parts.append(_text(x(point.x) + 9, y(point.y) - 6, point.label, extra='font-size="11"'))
    parts.append("</svg>")
    return "".join(parts)
