"""What a live session looks at every second, because no event tells it: its configuration files,
the directories its scan could not read, and its own output.

Each look is a few stats (the configuration: two names per directory from each root up to the
file in use; one listing attempt per unreadable directory; one stat per output file).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from collectors.collect.config import CONFIG_NAME, Settings, logical
from collectors.collect.results import Stamp, stamp
from collectors.problems import Problem

SettingsFor = Callable[[str], Settings]


class ConfigWatch:
    """The configuration a session maps its records with, and the files it came from.

    `load()` reads the configuration again (the function `watch` used at its start), giving the
    settings of each root; it raises where a file cannot be used. `candidates` are every file
    that decides it: from each root up to the file in use (a nearer one made later wins), or
    up to the top where none was found.
    """

    def __init__(self, candidates: Iterable[str], load: Callable[[], SettingsFor], current: SettingsFor) -> None:
        self.candidates = sorted(set(candidates))
        self.load = load
        self.current = current
        self._seen = {path: stamp(path) for path in self.candidates}

    @classmethod
    def of(
        cls, roots: Iterable[str], load: Callable[[], SettingsFor], current: SettingsFor | None = None
    ) -> ConfigWatch:
        """For the settings `current` (by absolute root), or loaded now (raising as `load` does)."""
        current = current or load()
        roots = [os.path.abspath(root) for root in roots]
        return cls([path for root in roots for path in _deciding(root, current(root))], load, current)

    def settings_for(self, root: str) -> Settings:
        return self.current(root)

    def changed(self) -> list[str]:
        """The files made, changed or removed since the last call."""
        now = {path: stamp(path) for path in self.candidates}
        changed = [path for path in self.candidates if now[path] != self._seen[path]]
        self._seen = now
        return changed


def _deciding(root: str, settings: Settings) -> list[str]:
    """The files whose contents decide `root`'s settings (collectors.collect.config.find_config)."""
    files = []
    if settings.source is not None:
        files.append(str(settings.source))
    start = logical(root)  # (looked for along the path given, as find_config does)
    for directory in [start, *start.parents]:
        here = [str(directory / CONFIG_NAME), str(directory / "pyproject.toml")]
        files += here
        if settings.source is not None and str(settings.source) in here:
            break
    return files


# --- directories a scan could not read --------------------------------------------------------------


def listable(directory: str) -> bool:
    try:
        with os.scandir(directory):
            return True
    except OSError:
        return False


def unreadable_directories(problems: Iterable[Problem]) -> list[str]:
    """The directories of a walk's problems that still cannot be listed (a permission, say)."""
    return [p.path for p in problems if os.path.isdir(p.path) and not listable(p.path)]


# --- the output ----------------------------------------------------------------------------------


def replaced(paths: Iterable[str], written: dict[str, Stamp | None]) -> list[str]:
    """The files of `written` (path -> its stamp once written) no longer as they were written."""
    return [path for path in paths if path in written and stamp(path) != written[path]]
