"""A problem: something about one file (or run) that kept a value from being collected."""

from __future__ import annotations

from dataclasses import dataclass

from collectors.text import visible


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    reason: str

    def __str__(self) -> str:
        """`PATH: reason` on one line, control characters and undecodable bytes made visible."""
        return visible(f"{self.path}: {self.reason}")


class ArtifactError(Exception):
    """Raised by a pure parser when the contents are not a valid report of its kind."""


class EmptyFile(ArtifactError):
    """A file with nothing in it (a problem for a report; a log that says nothing is no file)."""


class Cancelled(Exception):
    """Work stopped half-way because its caller asked: the program closing, a screen or a dialog
    closed (a schema check, the comparison's load, an export's write)."""


class NotThisKind(Exception):
    """Raised by a parser when a file its name claimed turns out to be another tool's file
    (the HLS code analyzer's recipe.json, the AIE simulator's options): skipped, no problem."""
