"""One artifact after parsing: its facts, or the reason it could not be read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Parsed:
    path: str
    kind: str
    mtime_ns: int
    data: dict[str, Any] | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.data is not None

    @property
    def facts(self) -> dict[str, Any]:
        """The parsed facts; empty for a file that could not be read (callers filter on `ok`)."""
        return self.data if self.data is not None else {}
