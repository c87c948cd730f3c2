"""One artifact after parsing: its facts, or the reason it could not be read.

A kind registered `deferred` (csynth.xml: a v++ build packages 3-6 copies of one report, and
the pick rule chooses among them by path and mtime) is `quiet`: its problems count only once a
run consulted it (asked for its facts, its error or whether it is `ok`). A copy the pick may
pass over is not even read until then (`loaded` says whether it was).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Parsed:
    __slots__ = ("path", "kind", "mtime_ns", "_data", "_error", "_load", "_quiet", "_consulted")

    def __init__(
        self,
        path: str,
        kind: str,
        mtime_ns: int,
        data: dict[str, Any] | None,
        error: str | None = None,
        load: Callable[[], Parsed] | None = None,
        quiet: bool = False,
    ) -> None:
        self.path = path
        self.kind = kind
        self.mtime_ns = mtime_ns
        self._data = data
        self._error = error
        self._load = load  # reads the file when first needed (deferred kinds); None once read
        self._quiet = quiet
        self._consulted = False

    @property
    def loaded(self) -> bool:
        """Whether the file was read (a deferred one is not until its facts are asked for)."""
        return self._load is None

    @property
    def of_another_kind(self) -> bool:
        """Read, and found to be no file of its kind (NotThisKind): neither facts nor a problem."""
        return self.loaded and self._data is None and self._error is None

    @property
    def reported(self) -> bool:
        """Whether its problems count: always, but for a quiet one that no run consulted."""
        return not self._quiet or self._consulted

    def forget_use(self) -> None:
        """Before a project is collected again: what its runs consult is asked afresh."""
        self._consulted = False

    def _settle(self) -> None:
        self._consulted = True
        self._read()

    def _read(self) -> None:
        if self._load is not None:
            done = self._load()
            self._data, self._error, self._load = done._data, done._error, None

    def peek(self) -> dict[str, Any]:
        """Its facts (empty where unreadable) for a detail that may be missing: the look does not
        count as consulting it, so what is wrong with the file is no problem line for it (a
        solution's `.aps`, a marker, read only for the part it names)."""
        self._read()
        return self._data or {}

    @property
    def data(self) -> dict[str, Any] | None:
        self._settle()
        return self._data

    @property
    def error(self) -> str | None:
        self._settle()
        return self._error

    @property
    def ok(self) -> bool:
        return self.data is not None

    @property
    def facts(self) -> dict[str, Any]:
        """The parsed facts; empty for a file that could not be read (callers filter on `ok`)."""
        data = self.data
        return data if data is not None else {}

    def _key(self) -> tuple[str, str, int]:
        return (self.path, self.kind, self.mtime_ns)

    def __eq__(self, other: object) -> bool:
        # Path, kind and mtime first: telling two artifacts apart never reads a deferred one.
        if not isinstance(other, Parsed):
            return NotImplemented
        return self._key() == other._key() and (self.data, self.error) == (other.data, other.error)

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        state = f"data={self._data!r}, error={self._error!r}" if self._load is None else "not read yet"
        return f"Parsed({self.path!r}, {self.kind!r}, {self.mtime_ns}, {state})"

    def __getstate__(self) -> tuple:
        return (self.path, self.kind, self.mtime_ns, self._data, self._error, self._load, self._quiet)

    def __setstate__(self, state: tuple) -> None:
        self.path, self.kind, self.mtime_ns, self._data, self._error, self._load, self._quiet = state
        self._consulted = False
