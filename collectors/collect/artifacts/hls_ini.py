"""The design settings an HLS log's sessions applied from a configuration (`Applying ini ...`,
2024.2+): what tells two steps of one component that ran two designs apart."""

from __future__ import annotations

import re

# what the design is made from, of the configuration a unified component's step applied (2024.2+
# logs echo it: `Applying ini 'syn.top=attention'`, 2025.2 `Applying config ini '...'`; not the step's own options:
# cosim.*, csim.*, package.*, tb.*, vivado.*): two steps that applied other values ran two designs
_INI_DESIGN = re.compile(r"Applying (?:config )?ini '((?:syn\.[\w.]+|clock|clock_uncertainty|part|flow_target)=[^']*)'")
ECHOED = "ini '"  # (in every such line: a text without it applied none)
# of those, what only the C and RTL simulations' test benches read (UG1399): no other design
_SIMULATION_ONLY = ("syn.csimflags", "syn.file_csimflags", "syn.debug.")
_CLOCK = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(MHz|mhz|ns)?\s*")


def ini_design(sessions: list[str]) -> list[str]:
    """The design settings the last session that applied a configuration applied, "key=value":
    a source file by its name alone (a workspace moved or opened from another checkout keeps its
    files' names: j1hye0n/vitis_hls's /home/hyeon/workspace -> /home/hyeon/vitis_hls/workspace),
    the clock as its period in ns (100MHz and 10ns are one clock)."""
    applied = next((found for text in reversed(sessions) if (found := _INI_DESIGN.findall(text))), [])
    design = set()
    for setting in applied:
        key, _, value = setting.partition("=")
        if not key.startswith(_SIMULATION_ONLY):
            design.add(f"{key}={_design_value(key, value)}")
    return sorted(design)


def _design_value(key: str, value: str) -> str:
    if key == "syn.file":
        return value.replace("\\", "/").rstrip("/").rpartition("/")[2]
    if key == "clock" and (match := _CLOCK.fullmatch(value)):
        number = float(match.group(1))
        period = 1000 / number if (match.group(2) or "").lower() == "mhz" and number else number
        return f"{round(period, 6):g}ns"
    return value
