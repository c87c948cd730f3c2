"""Names that differ only in spelling: configured alias tables, and `-`/`_` alike in group paths.

Aliases change how records are matched, filtered and shown, never the bytes of a record. The
object is plain (no interface): the compare engine takes it as its `canonical` hook.

    [aliases.suite]
    "hlsfactory" = "hlsfactory_polybench_float_small"
    [aliases.device]
    "xilinx_u280_gen3x16_xdma_1_202211_1" = "xcu280-fsvh2892-2L-e"
    [aliases.group]                 # group paths joined by "/"
    "linalg/gemm_old" = "linalg/gemm"
    [aliases]
    loose_groups = false            # `-` and `_` differ in group paths (alike by default)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

TABLES = ("suite", "device", "group")


def loosen(text: str) -> str:
    """The spelling group paths are compared in when `-` and `_` are alike."""
    return text.replace("-", "_")


@dataclass(frozen=True)
class Aliases:
    suites: Mapping[str, str] = field(default_factory=dict)
    devices: Mapping[str, str] = field(default_factory=dict)
    groups: Mapping[str, str] = field(default_factory=dict)  # "a/b" -> "a/c"
    loose_groups: bool = True

    def suite(self, suite: str) -> str:
        return self.suites.get(suite, suite)

    def device(self, device: str) -> str:
        return self.devices.get(device, device)

    def group(self, path: tuple[str, ...]) -> tuple[str, ...]:
        """The group path to show: the alias of the path (looked up loosely when configured so)."""
        joined = "/".join(path)
        key = loosen(joined) if self.loose_groups else joined
        target = self._group_table.get(key)
        return tuple(target.split("/")) if target is not None else path

    def group_key(self, path: tuple[str, ...]) -> tuple[str, ...]:
        """The group path to match on: aliased, and with `-` as `_` unless turned off."""
        aliased = self.group(path)
        return tuple(map(loosen, aliased)) if self.loose_groups else aliased

    def problem_key(self, record: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
        """(suite, group path) of a record, for pairing records of the same benchmark."""
        problem = record["problem"]
        return self.suite(problem["suite"]), self.group_key(tuple(problem["group_path"]))

    def problem_and_device(self, record: Mapping[str, Any]) -> tuple[tuple[str, tuple[str, ...]], str | None]:
        """The compare engine's pairing of a record: its problem key and its device, aliased."""
        device = (record.get("run") or {}).get("device")
        return self.problem_key(record), None if device is None else self.device(str(device))

    @cached_property
    def _group_table(self) -> dict[str, str]:
        if not self.loose_groups:
            return dict(self.groups)
        return {loosen(spelling): name for spelling, name in self.groups.items()}


NO_ALIASES = Aliases()


def aliases_from(table: Any, source: str) -> Aliases:
    """Aliases from a configuration's `[aliases]` table; ValueError says what is wrong."""
    if table is None:
        return NO_ALIASES
    if not isinstance(table, dict):
        raise ValueError(f"{source}: [aliases] must be a table")
    maps: dict[str, dict[str, str]] = {}
    for name in TABLES:
        entries = table.get(name, {})
        if not isinstance(entries, dict) or not all(isinstance(v, str) and v for v in entries.values()):
            raise ValueError(f"{source}: [aliases.{name}] maps spellings to non-empty names (strings)")
        maps[name] = dict(entries)
    loose = table.get("loose_groups", True)
    if not isinstance(loose, bool):
        raise ValueError(f"{source}: aliases.loose_groups must be true or false")
    unknown = sorted(set(table) - {*TABLES, "loose_groups"})
    if unknown:
        raise ValueError(f"{source}: unknown key(s) in [aliases]: {', '.join(unknown)}")
    return Aliases(maps["suite"], maps["device"], maps["group"], loose)
