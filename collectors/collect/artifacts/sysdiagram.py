"""`systemDiagramModel.json` from the v++ link: the kernel clock (id 0)."""

from __future__ import annotations

from typing import Any

from collectors.files import load_json
from collectors.numbers import MHZ, checked, number_or_none
from collectors.problems import ArtifactError


def parse_system_diagram(data: bytes) -> dict[str, Any]:
    """Return `kernel_clock_freq_mhz`: `spec_frequency` of the clock whose id is 0 (number or string)."""
    model = load_json(data)
    if not isinstance(model, dict) or not isinstance(model.get("system_diagram_metadata"), dict):
        raise ArtifactError("no 'system_diagram_metadata' object")
    xsa = model["system_diagram_metadata"].get("xsa")
    clocks = xsa.get("clocks") if isinstance(xsa, dict) else None
    mhz = None
    for clock in clocks if isinstance(clocks, list) else []:
        if isinstance(clock, dict) and number_or_none(clock.get("id")) == 0:
            mhz = checked(clock.get("spec_frequency"), "spec_frequency of clock 0", MHZ)
            break
    return {"kernel_clock_freq_mhz": mhz}
