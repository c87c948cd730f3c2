"""`profile_kernels.csv` from hardware emulation: compute-unit running times."""

from __future__ import annotations

import csv
from typing import Any

from ..files import decode_text
from ..problems import ArtifactError

CU_SECTION = "Compute Units: Running Time and Stalls"
RUNTIME_COLUMN = "Running Time (us)"


def parse_profile_kernels(data: bytes) -> dict[str, Any]:
    """Sum `Running Time (us)` over the compute-unit rows; a malformed row refuses the file.

    Header cells are padded with spaces in real files, so they are compared stripped.
    """
    lines = decode_text(data).splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == CU_SECTION)
    except StopIteration:
        raise ArtifactError(f"no '{CU_SECTION}' section") from None
    body: list[str] = []
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        body.append(line)
    if not body:
        raise ArtifactError("compute-unit section has no header (file cut short?)")
    rows = list(csv.reader(body))
    header = [cell.strip() for cell in rows[0]]
    if RUNTIME_COLUMN not in header:
        raise ArtifactError(f"compute-unit header lacks '{RUNTIME_COLUMN}': {header}")
    column = header.index(RUNTIME_COLUMN)
    units: dict[str, float] = {}
    for offset, row in enumerate(rows[1:], start + 3):
        if len(row) != len(header):
            raise ArtifactError(f"line {offset}: {len(row)} cells where the header has {len(header)}")
        try:
            value = float(row[column])
        except ValueError:
            raise ArtifactError(f"line {offset}: running time {row[column]!r} is not a number") from None
        name = row[0].strip()
        units[name] = units.get(name, 0.0) + value
    total = round(sum(units.values()), 9) if units else None
    return {"compute_units": units, "kernel_runtime_us": total}
