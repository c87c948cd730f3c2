"""The dashboard's tables of extension records and of problems, patched row by row (line-API
views: rows_view; the runs table: runs_table).

Each table is told what changed (one project's new result, one delta) and touches only those
rows: the work per update does not grow with the tree.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from collectors.problems import Problem
from collectors.records.model import RecordKey
from collectors.records.store import Delta
from collectors.records.table import extension_summary
from tui.widgets.rows_view import RowsView


class ExtensionsTable(RowsView):
    """AI Engine ports, XRT recipes and LOOM mappings: one row per extension record; shown only
    while there are some."""

    COLUMNS = ("type", "group", "variant", "subject", "target", "device", "summary")

    def on_mount(self) -> None:
        self.display = False

    def apply(self, delta: Delta) -> None:
        for key in delta.removed:
            self.remove_row(key.label())
        for key, line in (*delta.added.items(), *delta.changed.items()):
            self.put_row(key.label(), self._values(key, json.loads(line)))
        self.display = bool(self.cells)

    @staticmethod
    def _values(key: RecordKey, record: dict[str, Any]) -> list[str]:
        return [
            key.report_type,
            "/".join(key.group_path),
            f"{key.variant_index}_{key.variant_name}",
            key.subject,
            key.target,
            key.device,
            extension_summary(record),
        ]


class ProblemsTable(RowsView):
    """Problems by source (a project, or the collection as a whole), with the time first seen:
    a line-API view (a broken tree can have a problem for each of thousands of projects)."""

    COLUMNS = ("file", "reason", "since")
    ZEBRA = False

    def __init__(self, roots: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)  # (a source's rows are a group)
        self.roots = roots
        self.since: dict[Problem, float] = {}

    def replace(self, source: str, problems: list[Problem] | tuple[Problem, ...]) -> None:
        """The problems of one source, in place of its old ones."""
        now = time.time()
        rows = []
        for n, problem in enumerate(problems):
            since = self.since.setdefault(problem, now)
            values = [self.display_path(problem.path), problem.reason, time.strftime("%H:%M:%S", time.localtime(since))]
            rows.append((f"{source}\x1f{n}", values))
        self.put_rows(source, rows)

    def display_path(self, path: str) -> str:
        """Paths below a watched root are shown relative to it: the long prefix says nothing."""
        for root in self.roots:
            if path.startswith(root + os.sep):
                return path[len(root) + 1 :]
        return path


class LineProblemsTable(RowsView):
    """Browse's problems: one row per line a file could not give (its file:line, the reason)."""

    COLUMNS = ("line", "reason")
    ZEBRA = False

    def show(self, problems: list[Problem]) -> None:
        """The problems, in place of those shown (they only grow until the next full load)."""
        if self.row_count != len(problems):
            self.put_rows("", [(str(n), [problem.path, problem.reason]) for n, problem in enumerate(problems)])
