"""`--format latex`: the matrix and its summary rows as a booktabs tabular, ready for `\\input`.

Every text from the records has its control characters made visible, then the ten TeX specials
escaped; the renderer's own symbols become TeX (× as `$\\times$`, – and — as `--` and `---`).
Needs `\\usepackage{booktabs}` in the including document, nothing else.
"""

from __future__ import annotations

from collectors.compare.comparison import Comparison
from collectors.compare.render import arm_lines, baseline_cell, cell, header, problem_text
from collectors.text import visible

SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
SYMBOLS = {"×": r"$\times$", "–": "--", "—": "---", "⚠": "!"}


def tex(text: str) -> str:
    """Text from the records or the renderer, safe inside a tabular cell."""
    escaped = "".join(SPECIALS.get(ch, ch) for ch in visible(text))
    for symbol, replacement in SYMBOLS.items():
        escaped = escaped.replace(symbol, replacement)
    return escaped


def to_latex(comparison: Comparison) -> str:
    arms = comparison.arms
    lines = [
        f"% vitis-tui compare: {tex(header(comparison))}",
        r"\begin{tabular}{ll" + "r" * len(arms) + "}",
        r"\toprule",
        " & ".join(["problem", "baseline", *(tex(a.label) for a in arms)]) + r" \\",
        r"\midrule",
    ]
    for problem in comparison.problems:
        cells = [tex(cell(comparison, a.arm, problem)[0]) for a in arms]
        first = [tex(problem_text(comparison.spelled(problem))), tex(baseline_cell(comparison, problem))]
        lines.append(" & ".join(first + cells) + r" \\")
    labels, texts = arm_lines(comparison, intervals=True)
    if labels:
        lines.append(r"\midrule")
    for n, label in enumerate(labels):
        lines.append(" & ".join([tex(label), "", *(tex(each[n]) for each in texts)]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"
