"""Which solutions an HLS log's text opens, and where: the scan jumps between the literal starts
of a match (a log is megabytes)."""

from __future__ import annotations

import re

_OPENED = re.compile(
    r"Running: open_solution (?:-\S+ )*\"?([^\s\"]+)"
    r"|(?:Creating and opening|Opening and resetting|Opening) solution '([^']+)'"
)
_OPENED_STARTS = (
    "Running: open_solution ",
    "Creating and opening solution '",
    "Opening and resetting solution '",
    "Opening solution '",
)


def opened_at(text: str) -> list[tuple[int, str]]:
    """(where, path) of each solution the text opens, in order: what `_OPENED.finditer(text)`
    gives, the pattern tried only where one of its literal starts is."""
    found: list[tuple[int, str]] = []
    nexts = {start: text.find(start) for start in _OPENED_STARTS}
    pos = 0
    while True:
        for start, at in nexts.items():
            if -1 < at < pos:
                nexts[start] = text.find(start, pos)
        candidates = [at for at in nexts.values() if at >= 0]
        if not candidates:
            return found
        at = min(candidates)
        match = _OPENED.match(text, at)
        if match is None:
            pos = at + 1
            continue
        found.append((at, match.group(1) or match.group(2)))
        pos = match.end()
