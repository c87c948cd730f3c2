"""Output formats of a comparison: json, csv (rows as a long table), md and a rich table (the matrix).

Values come from untrusted files: every string meant for a terminal has its control characters
made visible, rich markup is never interpreted, and CSV cells that a spreadsheet would run as a
formula get a leading quote unless `raw`.
"""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

from collectors.compare.comparison import ArmSummary, Comparison, ProblemKey
from collectors.compare.model import STAGES, arm_label
from collectors.compare.summary import fill_intervals
from collectors.text import visible

if TYPE_CHECKING:
    from rich.table import Table

FORMATS = ("table", "csv", "md", "json", "latex", "html")
STAGE_LABELS = {"sw_run": "C sim pass", "hls_synth": "synth pass", "rtl_sim": "cosim/hw_emu pass"}
FORMULA_START = ("=", "+", "-", "@", "\t")


def ratio_text(value: float) -> str:
    """Significant digits, never fixed decimals: 0.0045×, 1.94×, 224×, 12,345×."""
    if value >= 1000:
        return f"{value:,.0f}×"
    return f"{value:.3g}×"


def number_text(value: float | None) -> str:
    if value is None:
        return ""
    if float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value)}"
    return f"{value:.6g}"


def problem_text(problem: ProblemKey) -> str:
    return visible(f"{problem[0]}/{'/'.join(problem[1])}")


def header(comparison: Comparison) -> str:
    o = comparison.options
    return (
        f"metric {o.metric} ({o.measure.label}; {o.measure.direction}) · baseline {visible(o.baseline)} · "
        f"pick {o.pick} · policy {o.policy} · common {'on' if o.common else 'off'} · by {visible(o.by)}"
        + " · virtual best" * o.oracle
        + (f" · fast_p {','.join(o.fast_p)}" if o.fast_p else "")
        + " · samples (pass@k)" * o.samples
    )


def cell(comparison: Comparison, arm: tuple, problem: ProblemKey) -> tuple[str, str]:
    """The matrix cell of one arm and problem, and its colour (green better, red worse)."""
    row = comparison.answer(arm, problem)
    if row is None:  # candidates without a record of the metric's kind (cosim skipped, say): missing
        tried = any(r.arm == arm for r in comparison.results[problem].rows)
        return ("missing", "magenta") if tried else ("—", "dim")
    tie = " (tie)" if row.tied else ""
    if row.status == "pass" and row.speedup is None and row.value is not None:  # a zero: no ratio, the number
        return f"{number_text(row.value)} (no ratio){tie}", "yellow"
    if row.speedup is None or row.status != "pass":
        return visible(row.status) + tie, "yellow" if row.status == "no baseline" else "magenta"
    verdict = comparison.options.measure.better(row.speedup)
    better, worse = verdict > 0, verdict < 0
    text = ratio_text(row.speedup) + ("" if problem in comparison.with_baseline else " (not common)") + tie
    if row.source is not None:  # the virtual best says whose answer it is
        text += f" {visible(arm_label(row.source, comparison.options.by))}"
    return text, "green" if better else "red" if worse else ""


def baseline_cell(comparison: Comparison, problem: ProblemKey) -> str:
    result = comparison.results[problem]
    if result.baseline is None or result.baseline_measured is None:
        return "none"
    b, got = result.baseline, result.baseline_measured
    value = number_text(got.value) if got.status == "pass" else got.status
    return visible(f"{b.origin}#{b.index} {b.name}: {value}")


def interval_text(interval: tuple[float, float] | None) -> str:
    """'[1.05-1.71]': the bounds with the significant digits of `ratio_text`, without the ×."""
    if interval is None:
        return ""
    low, high = (ratio_text(v).rstrip("×") for v in interval)
    return f" [{low}-{high}]"


def summary_lines(arm: ArmSummary, intervals: bool = False, samples: bool = False) -> list[tuple[str, str]]:
    """(label, text) lines under an arm's column: geomean n/N (with its 95 % interval when
    `intervals`), min–max, fast_1 (and fast_p), the answers, stage pass rates (and pass@k)."""

    def r(v: float | None) -> str:
        return "—" if v is None else ratio_text(v)

    ci = interval_text(arm.ci95) if intervals else ""
    lines = [
        (f"geomean{' [95% CI]' * intervals} (n/N)", f"{r(arm.geomean)}{ci} ({arm.compared}/{arm.baselines})"),
        ("min–max", f"{r(arm.min)}–{r(arm.max)}" if arm.min is not None else "—"),
        ("median", r(arm.median)),
        ("better than baseline", "—" if arm.fast_1 is None else f"{arm.fast_1:.0%}"),
        ("answers", ", ".join(f"{visible(k)} {v}" for k, v in sorted(arm.status_counts.items())) or "—"),
    ]
    lines += [(f"fast_{p}", "—" if v is None else f"{v:.0%}") for p, v in arm.fast_p.items()]
    lines += [
        (STAGE_LABELS[s], f"{arm.stages[s][0]}/{arm.stages[s][2]}" if arm.stages[s][1] else "—") for s in STAGES
    ]  # a stage no record reports: no rate rather than 0/N
    return lines + (pass_at_lines(arm) if samples else [])


def pass_at_lines(arm: ArmSummary) -> list[tuple[str, str]]:
    """'synth pass@1' ... for each stage and k = 1, 5, 10 ('—' where no problem has n >= k)."""
    lines = []
    for stage in STAGES:
        for k in ("1", "5", "10"):
            value = arm.pass_at_k.get(stage, {}).get(k)
            lines.append(
                (f"{STAGE_LABELS[stage].removesuffix(' pass')} pass@{k}", "—" if value is None else f"{value:.0%}")
            )
    return lines


def arm_lines(comparison: Comparison, intervals: bool = False) -> tuple[list[str], list[list[str]]]:
    """The summary's labels and, per arm, its texts (the same lines for every arm)."""
    per_arm = [summary_lines(a, intervals, comparison.options.samples) for a in comparison.arms]
    labels = [label for label, _ in per_arm[0]] if per_arm else []
    return labels, [[text for _, text in lines] for lines in per_arm]


def to_table(comparison: Comparison) -> Table:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(header(comparison)), title_justify="left")
    table.add_column("problem")
    table.add_column("baseline")
    for arm in comparison.arms:
        table.add_column(Text(visible(arm.label)), justify="right")
    for problem in comparison.problems:
        cells = [cell(comparison, arm.arm, problem) for arm in comparison.arms]
        table.add_row(
            Text(problem_text(comparison.spelled(problem))),
            Text(baseline_cell(comparison, problem)),
            *(Text(text, style=style) for text, style in cells),
        )
    table.add_section()
    labels, texts = arm_lines(comparison, intervals=True)
    for n, label in enumerate(labels):
        table.add_row(Text(label, style="bold"), Text(""), *(Text(each[n]) for each in texts))
    return table


def render_table(comparison: Comparison, color: bool = False, width: int | None = None) -> str:
    from rich.console import Console

    console = Console(file=io.StringIO(), force_terminal=color, no_color=not color, width=width or 200)
    console.print(to_table(comparison))
    return console.file.getvalue()  # type: ignore[attr-defined]


def _md(text: str) -> str:
    return visible(text).replace("\\", "\\\\").replace("|", "\\|")


def to_markdown(comparison: Comparison) -> str:
    arms = comparison.arms
    lines = [
        f"**{_md(header(comparison))}**",
        "",
        "| " + " | ".join(["problem", "baseline"] + [_md(a.label) for a in arms]) + " |",
        "|" + "---|" * (2 + len(arms)),
    ]
    for problem in comparison.problems:
        cells = [_md(cell(comparison, a.arm, problem)[0]) for a in arms]
        lines.append(
            "| "
            + " | ".join(
                [_md(problem_text(comparison.spelled(problem))), _md(baseline_cell(comparison, problem))] + cells
            )
            + " |"
        )
    labels, texts = arm_lines(comparison, intervals=True)
    for n, label in enumerate(labels):
        lines.append("| " + " | ".join([f"**{label}**", ""] + [_md(each[n]) for each in texts]) + " |")
    return "\n".join(lines) + "\n"


CSV_COLUMNS = (
    "suite",
    "group_path",
    "arm",
    "origin",
    "origin_version",
    "variant_index",
    "variant_name",
    "device",
    "answer",
    "status",
    "value",
    "baseline_value",
    "speedup",
)


def _csv_cell(value: Any, raw: bool) -> Any:
    if not isinstance(value, str) or raw:
        return value
    value = visible(value)
    return "'" + value if value.startswith(FORMULA_START) else value


def to_csv(comparison: Comparison, raw: bool = False) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    from collectors.compare.render_json import row_json

    for row in comparison.rows:
        d = row_json(row, comparison)
        values = [
            d["suite"],
            "/".join(d["group_path"]),
            d["arm"],
            d["origin"],
            d["origin_version"],
            d["variant"]["index"],
            d["variant"]["name"],
            d["device"],
            d["answer"],
            d["status"],
            d["value"],
            d["baseline_value"],
            d["speedup"],
        ]
        writer.writerow([_csv_cell(v, raw) for v in values])
    return out.getvalue()


def render(
    comparison: Comparison, fmt: str, inputs: list[dict[str, Any]] | None = None, raw: bool = False, color: bool = False
) -> str:
    from collectors.compare.render_json import to_json

    if fmt != "csv":  # (each arm's interval, shown: worked out for all arms at once)
        fill_intervals(comparison.arms, suites=fmt == "json")
    if fmt == "json":
        return to_json(comparison, inputs or [])
    if fmt == "csv":
        return to_csv(comparison, raw)
    if fmt == "md":
        return to_markdown(comparison)
    if fmt == "table":
        return render_table(comparison, color)
    if fmt == "latex":
        from collectors.compare.render_latex import to_latex

        return to_latex(comparison)
    if fmt == "html":
        from collectors.compare.render_html import to_html

        return to_html(comparison)
    raise ValueError(f"unknown format {fmt!r}; valid formats: {', '.join(FORMATS)}")
