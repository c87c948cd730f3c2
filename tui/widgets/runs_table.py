"""The runs table: one row per run of the tree (a rows_view table)."""

from __future__ import annotations

import time
from typing import Any

from collectors.collect.engine import ProjectResult
from tui.widgets.figures import FIGURE_COLUMNS, run_figures, statuses
from tui.widgets.rows_view import RowsView

CHANGED_MARK_SECONDS = 10.0  # how long a row keeps its "just changed" marker
MARK = "●"


def group_label(result: ProjectResult) -> str:
    return "/".join(result.identity.problem["group_path"])


def variant_label(result: ProjectResult, run: Any = None) -> str:
    """The run's own variant (one of several HLS solutions), else the project's."""
    variant = getattr(run, "variant", None) or result.identity.implementation["variant"]
    return f"{variant['index']}_{variant['name']}"


class RunsTable(RowsView):
    """One row per run, sorted by group, variant and target; a `●` on rows that just changed."""

    COLUMNS = ("", "group", "variant", "target", "device", "status", *FIGURE_COLUMNS, "changed")  # "": the marker

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # (a project's rows are a group: rows_of, group_of)
        self.changed_at: dict[str, float] = {}  # project -> when it last changed (marked ones)

    def show_all(self, results: list[tuple[str, ProjectResult | None]], changed: bool) -> None:
        """Put each project's runs in place of its old rows; a batch that changed (not the initial
        scan's, which is sorted once when it ends) is sorted, new rows in place."""
        added = False
        for project, result in results:
            added |= self.show(project, result, changed)
        if added and changed:
            self.sort_rows()

    def show(self, project: str, result: ProjectResult | None, changed: bool) -> bool:
        """One project's runs in place of its old rows; True when rows were added."""
        if changed:
            self.changed_at[project] = time.time()
        rows = []
        if result is not None:
            rows = [
                (self.key(result, run.target, run.device, run.variant), self._values(project, result, run))
                for run in result.runs
            ]
        if not rows:
            self.changed_at.pop(project, None)
        return self.put_rows(project, rows)

    def sort_rows(self) -> None:
        self.sort_rows_by(slice(1, 4))  # group, variant, target

    def expire_marks(self) -> None:
        """Clear the marker of rows whose change is old now (only the marked ones are looked at)."""
        now = time.time()
        expired = [p for p, at in self.changed_at.items() if now - at >= CHANGED_MARK_SECONDS]
        for project in expired:
            for key in self.rows_of.get(project, ()):
                self.cells[key][0] = ""
            # the time of the change stays in its column; only the marker goes
            del self.changed_at[project]
        if expired:
            self.redraw()

    def marked(self, column: int, value: str) -> bool:
        return column == 0 and value == MARK

    @staticmethod
    def key(result: ProjectResult, target: str, device: str, variant: dict[str, Any] | None = None) -> str:
        # a project's runs differ by target, device and (several HLS solutions) variant; the path
        # keeps apart two projects that map to one identity
        own = f"\x1f{variant['name']}" if variant else ""
        return f"{result.path}\x1f{target}\x1f{device}{own}"

    def _values(self, project: str, result: ProjectResult, run: Any) -> list[str]:
        figures = run_figures(run.records)
        changed_at = self.changed_at.get(project)
        fresh = changed_at is not None and time.time() - changed_at < CHANGED_MARK_SECONDS
        return [
            MARK if fresh else "",
            group_label(result),
            variant_label(result, run),
            run.target.removeprefix("vitis."),
            run.device,
            statuses(run.records),
            *(figures[c] for c in FIGURE_COLUMNS),
            time.strftime("%H:%M:%S", time.localtime(changed_at)) if changed_at else "",
        ]
