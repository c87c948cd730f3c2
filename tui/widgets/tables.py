"""The dashboard's tables of extension records and problems, patched row by row (the runs
table, which holds a row per run of the tree, draws only what is on screen: runs_table).

Each table is told what changed (one project's new result, one delta) and touches only those
rows: the work per update does not grow with the tree.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from typing import Any

from rich.text import Text
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

from collectors.problems import Problem
from collectors.records.model import RecordKey
from collectors.records.store import Delta
from collectors.records.table import extension_summary

from .cells import cell


def patch_row(table: DataTable[Text], key: str, cells: list[Text]) -> None:
    """Update the cells that changed. Only a wider value widens its column: Textual re-measures
    every row of a column for a narrower one, which costs seconds at 20,000 rows."""
    for (column_key, column), value in zip(table.columns.items(), cells):
        old = table.get_cell(key, column_key)
        if old != value or old.style != value.style:  # Text's == looks at the text and spans only
            wider = column.auto_width and value.cell_len > column.content_width
            table.update_cell(key, column_key, value, update_width=wider)


class TextTable(DataTable[Text]):
    """A DataTable whose cells are one-line Text: a new row's cells are measured by their cell
    length. (Textual measures each through Rich's console, which asks the terminal for its size
    every time: about 20 us a cell, seconds when a scan brings 20,000 runs.)"""

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        columns = self.ordered_columns
        for row_key in new_rows:
            cells = self._data.get(row_key)  # (it may have been removed before the table was idle)
            if cells is None:
                continue
            # a row's cells are kept in column order (get_row would sort the columns per row:
            # most of the time 20,000 new rows took)
            values = cells.values() if len(cells) == len(columns) else self.get_row(row_key)
            for column, value in zip(columns, values):
                width = value.cell_len
                if width > column.content_width:
                    column.content_width = width
        super()._update_dimensions(())  # the table's size from the widths


class ExtensionsTable(TextTable):
    """AI Engine ports, XRT recipes and LOOM mappings: one row per extension record."""

    LABELS = ("type", "group", "variant", "subject", "target", "device", "summary")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.present: set[str] = set()

    def on_mount(self) -> None:
        for label in self.LABELS:
            self.add_column(label, key=label)
        self.display = False

    def apply(self, delta: Delta) -> None:
        for key in delta.removed:
            self.remove_row(key.label())
            self.present.discard(key.label())
        for key, line in (*delta.added.items(), *delta.changed.items()):
            cells = self._cells(key, json.loads(line))
            if key.label() in self.present:
                patch_row(self, key.label(), cells)
            else:
                self.add_row(*cells, key=key.label())
                self.present.add(key.label())
        self.display = bool(self.present)

    @staticmethod
    def _cells(key: RecordKey, record: dict[str, Any]) -> list[Text]:
        return [
            cell(key.report_type),
            cell("/".join(key.group_path)),
            cell(f"{key.variant_index}_{key.variant_name}"),
            cell(key.subject),
            cell(key.target),
            cell(key.device),
            cell(extension_summary(record)),
        ]


class ProblemsTable(TextTable):
    """Problems by source (a project, or the collection as a whole), with the time first seen."""

    def __init__(self, roots: list[str], **kwargs: Any) -> None:
        super().__init__(cursor_type="row", **kwargs)
        self.roots = roots
        self.rows_of: dict[str, list[str]] = {}
        self.since: dict[Problem, float] = {}

    def on_mount(self) -> None:
        for label in ("file", "reason", "since"):
            self.add_column(label, key=label)

    def replace(self, source: str, problems: list[Problem] | tuple[Problem, ...]) -> None:
        """The problems of one source, in place of its old ones."""
        for key in self.rows_of.pop(source, ()):
            self.remove_row(key)
        now = time.time()
        keys = []
        for n, problem in enumerate(problems):
            since = self.since.setdefault(problem, now)
            key = f"{source}\x1f{n}"
            self.add_row(
                cell(self.display_path(problem.path)),
                cell(problem.reason),
                cell(time.strftime("%H:%M:%S", time.localtime(since))),
                key=key,
            )
            keys.append(key)
        if keys:
            self.rows_of[source] = keys

    def display_path(self, path: str) -> str:
        """Paths below a watched root are shown relative to it: the long prefix says nothing."""
        for root in self.roots:
            if path.startswith(root + os.sep):
                return path[len(root) + 1 :]
        return path
