"""`--format html`: one self-contained page (no script, no font, no link outside it) holding the
matrix with its colours, the summaries with their 95 % intervals, the head-to-head matrix and the
geomean and Pareto plots as inline SVG.

Every number shown carries `data-path` (its place in the json output: `rows/3/speedup`,
`arms/0/ci95/1`, `pairs/0/p_value`) and `data-value` (the number in full), so the page can be
checked against `--format json`; the text shown is the same rounding as the table's.
"""

from __future__ import annotations

from html import escape
from typing import Any

from collectors.compare.comparison import Comparison
from collectors.compare.headtohead import Pair, pairs
from collectors.compare.model import ORACLE, ArmKey, ProblemKey
from collectors.compare.render import STAGE_LABELS, baseline_cell, cell, header, problem_text, ratio_text
from collectors.compare.render_svg import geomean_plot, pareto_plot
from collectors.text import visible

STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.better { background: #c8e6c9; color: #1b5e20; }
td.worse { background: #ffcdd2; color: #b71c1c; }
td.status { background: #fff3e0; color: #8d6e00; }
tfoot th { text-align: left; }
.header { font-family: monospace; background: #f5f5f5; padding: 0.5em; }
.warning { color: #8d6e00; }
svg text { font-family: sans-serif; font-size: 12px; }
"""
STYLES = {"green": "better", "red": "worse", "magenta": "status", "yellow": "status", "dim": ""}


def _h(text: str) -> str:
    return escape(visible(text))


def _num(shown: str, path: str, value: Any, css: str = "num") -> str:
    return f'<td class="{css}" data-path="{path}" data-value="{value!r}">{_h(shown)}</td>'


def _answer_paths(comparison: Comparison) -> dict[tuple[ProblemKey, ArmKey], str]:
    """Where each answer's speedup is in the json: its row, or the virtual best's cell."""
    paths = {(r.problem, r.arm): f"rows/{n}/speedup" for n, r in enumerate(comparison.rows) if r.answer}
    oracle = [p for p in comparison.problems if (r := comparison.answer(ORACLE, p)) is not None and r.source]
    paths |= {(p, ORACLE): f"oracle_cells/{n}/speedup" for n, p in enumerate(oracle)}
    return paths


def _matrix_row(comparison: Comparison, problem: ProblemKey, paths: dict) -> str:
    cells = [
        f"<th>{_h(problem_text(comparison.spelled(problem)))}</th><td>{_h(baseline_cell(comparison, problem))}</td>"
    ]
    for arm in comparison.arms:
        text, colour = cell(comparison, arm.arm, problem)
        row = comparison.answer(arm.arm, problem)
        css = "num " + STYLES.get(colour, "")
        if row is not None and row.speedup is not None:
            cells.append(_num(text, paths[(problem, arm.arm)], row.speedup, css))
        else:
            cells.append(f'<td class="{css}">{_h(text)}</td>')
    return "<tr>" + "".join(cells) + "</tr>"


def _summary_rows(comparison: Comparison) -> list[str]:
    arms = list(enumerate(comparison.arms))

    def row(label: str, cells: list[str]) -> str:
        return f"<tr><th>{_h(label)}</th><td></td>{''.join(cells)}</tr>"

    def ratio(n: int, name: str, value: float | None) -> str:
        return '<td class="num">—</td>' if value is None else _num(ratio_text(value), f"arms/{n}/{name}", value)

    lines = [
        row("geomean", [ratio(n, "geomean", a.geomean) for n, a in arms]),
        row("95% CI low", [ratio(n, "ci95/0", a.ci95[0] if a.ci95 else None) for n, a in arms]),
        row("95% CI high", [ratio(n, "ci95/1", a.ci95[1] if a.ci95 else None) for n, a in arms]),
        row("compared (n)", [_num(str(a.compared), f"arms/{n}/compared", a.compared) for n, a in arms]),
        row("with a baseline (N)", [_num(str(a.baselines), f"arms/{n}/baselines", a.baselines) for n, a in arms]),
        row("min", [ratio(n, "min", a.min) for n, a in arms]),
        row("median", [ratio(n, "median", a.median) for n, a in arms]),
        row("max", [ratio(n, "max", a.max) for n, a in arms]),
        row("better than baseline", [_share(n, "fast_1", a.fast_1) for n, a in arms]),
    ]
    for p in comparison.options.fast_p:
        lines.append(row(f"fast_{p}", [_share(n, f"fast_p/{p}", a.fast_p.get(p)) for n, a in arms]))
    for stage in STAGE_LABELS:
        lines.append(row(STAGE_LABELS[stage], [_stage(n, stage, a.stages[stage]) for n, a in arms]))
    return lines


def _share(n: int, path: str, value: float | None) -> str:
    return '<td class="num">—</td>' if value is None else _num(f"{value:.0%}", f"arms/{n}/{path}", value)


def _stage(n: int, stage: str, counts: tuple[int, int, int]) -> str:
    passed, records, candidates = counts
    if not records:
        return '<td class="num">—</td>'
    return _num(f"{passed}/{candidates}", f"arms/{n}/stages/{stage}/pass", passed)


def matrix_html(comparison: Comparison) -> str:
    paths = _answer_paths(comparison)
    head = "".join(f"<th>{_h(a.label)}</th>" for a in comparison.arms)
    body = "".join(_matrix_row(comparison, p, paths) for p in comparison.problems)
    foot = "".join(_summary_rows(comparison))
    return (
        f'<table class="matrix"><thead><tr><th>problem</th><th>baseline</th>{head}</tr></thead>'
        f"<tbody>{body}</tbody><tfoot>{foot}</tfoot></table>"
    )


def pairs_html(found: list[Pair]) -> str:
    if not found:
        return "<p>Fewer than two arms: no pair to compare.</p>"
    rows = []
    for n, p in enumerate(found):
        ratio = '<td class="num">—</td>'
        if p.geomean_ratio is not None:
            ratio = _num(ratio_text(p.geomean_ratio), f"pairs/{n}/geomean_ratio", p.geomean_ratio)
        counts = [_num(str(v), f"pairs/{n}/{k}", v) for k, v in (("problems", p.problems), ("wins", p.wins))]
        counts += [_num(str(v), f"pairs/{n}/{k}", v) for k, v in (("losses", p.losses), ("ties", p.ties))]
        p_value = _num(f"{p.p_value:.3g}", f"pairs/{n}/p_value", p.p_value)
        rows.append(f"<tr><th>{_h(p.a_label)}</th><th>{_h(p.b_label)}</th>{''.join(counts)}{ratio}{p_value}</tr>")
    return (
        '<table class="pairs"><thead><tr><th>A</th><th>B</th><th>problems</th><th>A wins</th><th>A loses</th>'
        "<th>ties (1 %)</th><th>geomean A/B</th><th>sign-test p</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def to_html(comparison: Comparison) -> str:
    warnings = "".join(f'<p class="warning">⚠ {_h(w)}</p>' for w in comparison.warnings())
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>vitis-tui compare: {_h(comparison.options.metric)}</title><style>{STYLE}</style></head><body>"
        f'<h1>Comparison</h1><p class="header">{_h(header(comparison))}</p>{warnings}'
        f"<h2>Matrix</h2>{matrix_html(comparison)}"
        f"<h2>Head to head</h2>{pairs_html(pairs(comparison))}"
        f"<h2>Geomean of each arm, with its 95 % interval</h2>{geomean_plot(comparison)}"
        f"<h2>Pareto front of the suite</h2>{pareto_plot(comparison)}"
        "</body></html>\n"
    )
