"""Export, copy, compare and diff of the records view, shared by the dashboard and browse."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.worker import get_current_worker

from collectors.records.jsonl import loads_read
from collectors.records.model import RecordKey
from collectors.records.table import exported_rows, plan_export, plan_pieces
from collectors.text import visible
from tui.keys import FILTER_LANGUAGE, PALETTE_KEY, help_lines, palette
from tui.widgets.line_table import CURSOR_BINDINGS
from tui.widgets.records_view import FilterBox, RecordsPanel, RecordsView

if TYPE_CHECKING:
    from textual.driver import Driver

    from collectors.records.writers import ExportPlan
    from tui.screens.compare import CompareScreen

# the screens a key opens are imported when first opened (here and in the apps: the detail
# screen's JSON highlighting, the diff's and the export's modules were 50 ms of every start)

COMPARE_READ_ROWS = 4096  # the compare screen reads the records' lines this many at a time

# the keys both apps share (each adds its own)
RECORDS_BINDINGS = [
    Binding("q", "quit", "Quit"),
    # ctrl+c quits too (Textual only tells how to quit), whatever has the focus, the filter box
    # included: in browse, and in watch since a helper found it only told there
    Binding("ctrl+c", "quit", "Quit", tooltip="Quit, also from the filter box", show=False, priority=True),
    Binding("question_mark", "help", "Help", key_display="?", tooltip="Every key, and the filter language"),
    Binding(
        "e",
        "export",
        "Export",
        tooltip="Export the marked records (or, with none marked, those shown): JSONL, CSV or Markdown",
    ),
    Binding("y", "copy", "Copy", tooltip="Copy the same to the clipboard (OSC 52), in the last export format"),
    Binding(
        "c",
        "compare",
        "Compare",
        tooltip="Compare: speedups (or resource ratios) of every arm against the baseline, per problem",
    ),
    Binding("d", "diff", "Diff", tooltip="Diff the two marked records: every field side by side, with Δ and %"),
    # job control, as every terminal program has it (Textual leaves ctrl+z unbound)
    Binding("ctrl+z", "suspend_process", "Suspend", show=False, tooltip="Suspend to the shell; fg comes back"),
]


class RecordsActions:
    """Mixed into an App that has one RecordsPanel."""

    export_format = "md"

    def get_driver_class(self) -> type[Driver]:
        """Textual's Linux driver, whose input thread stops at once (tui/driver.py: 0.2 s off every
        quit); any other (Windows, one named in TEXTUAL_DRIVER) as Textual picks it."""
        picked: type[Driver] = super().get_driver_class()  # type: ignore[misc]
        if picked.__name__ == "LinuxDriver" and picked.__module__ == "textual.drivers.linux_driver":
            from tui.driver import PromptDriver

            return PromptDriver
        return picked

    @property
    def records_view(self) -> RecordsView:
        return self.query_one(RecordsPanel).view  # type: ignore[attr-defined]

    def _selection(self) -> tuple[list[int], str]:
        view = self.records_view
        rows = view.selection()
        return rows, "marked records" if view.marks else "records shown"

    def action_export(self) -> None:
        view = self.records_view
        rows, what = self._selection()

        from tui.screens.export import ExportScreen

        screen = ExportScreen(view.table, rows, list(view.columns), what, fmt=self.export_format)

        def done(path: str | None) -> None:
            if path:
                self.export_format = screen.fmt  # `y` copies in the format last exported
                written = len(exported_rows(view.table, rows))  # rows the contract refuses are left out
                refused = f" ({len(rows) - written} refused by the schema left out)" if written < len(rows) else ""
                self.notify(visible(f"wrote {written} {what} to {path}{refused}"), markup=False)  # type: ignore[attr-defined]

        self.push_screen(screen, done)  # type: ignore[attr-defined]

    def action_copy(self) -> None:
        """The rows taken here, their text made in a thread: 100,000 rows as Markdown held the
        keys up (quit too) for as long as it took."""
        view = self.records_view
        rows, what = self._selection()
        plan = plan_export(view.table, rows, list(view.columns), self.export_format)
        self._copy(plan, f"copied {len(rows)} {what} as {self.export_format}")

    @work(thread=True, exclusive=True, group="copy", exit_on_error=False)
    def _copy(self, plan: ExportPlan, told: str) -> None:
        worker = get_current_worker()
        pieces = []
        try:
            for piece in plan_pieces(plan):
                if worker.is_cancelled:
                    return
                pieces.append(piece)
        except Exception as error:  # (told in both apps: the dashboard has no worker handler)
            told, pieces = visible(f"copy failed: {error!r}"), []
        self.call_from_thread(self._copied, "".join(pieces), told)  # type: ignore[attr-defined]

    def _copied(self, text: str, told: str) -> None:
        if text:
            self.copy_to_clipboard(text)  # type: ignore[attr-defined]
        self.notify(told, markup=False)  # type: ignore[attr-defined]

    # the warnings the command printed before the screen opened (the configuration's, an output
    # without a lock): the screen covers them, so they are told again once it is up
    start_warnings: tuple[str, ...] = ()

    def show_start_warnings(self) -> None:
        for line in self.start_warnings:
            self.notify(visible(line), title="warning", severity="warning", timeout=20, markup=False)  # type: ignore[attr-defined]

    def repaint_after_resume(self) -> None:
        """Back from ctrl+z (`fg`): the terminal's screen was the shell's meanwhile, and Textual
        draws only what changed: the whole screen is drawn again."""
        self.app_resume_signal.subscribe(self, lambda _app: self.screen.refresh(layout=True))  # type: ignore[attr-defined]

    def binding_help(self) -> list[tuple[str, str]]:
        """Every key of the app, the records view's and the compare screen's, and the filter language."""
        from tui.screens.compare import CompareScreen
        from tui.widgets.compare_matrix import CompareMatrix  # (imported when first asked for: the start is sooner)

        app_bindings = type(self).BINDINGS  # type: ignore[attr-defined]
        return [
            *help_lines(RecordsPanel.BINDINGS, FilterBox.BINDINGS, RecordsView.BINDINGS, CURSOR_BINDINGS, app_bindings),
            PALETTE_KEY,
            ("", ""),
            *FILTER_LANGUAGE,
            ("", ""),
            *help_lines(CompareScreen.BINDINGS, CompareMatrix.SELECT, prefix="compare: "),
        ]

    async def action_quit(self) -> None:
        """Quit, every worker told to stop first: one busy in a thread (the comparison's load)
        sees it at its next look, not once the app's shutdown reaches it (ctrl+q during the
        load of 100,000 records: 0.7-1.0 s, the thread holding the interpreter meanwhile)."""
        self.workers.cancel_all()  # type: ignore[attr-defined]
        self.exit()  # type: ignore[attr-defined]

    # --- compare and diff ---------------------------------------------------------------------

    compare_screen: CompareScreen | None = None

    def action_compare(self) -> None:
        """The compare screen over the records the records view shows (its filter), less those the
        contract refuses, read in the screen's thread."""
        view = self.records_view
        table = view.table
        invalid = table.invalid
        # the rows as they are now, in file order (the rule for tied variants is read order),
        # taken here on the interface's thread; later changes come through compare_records_changed.
        # Their lines are read in the screen's thread, a block at a time: all of them at once, here,
        # held the keys up 1.5 s on 100,000 records (and the lines' text beside the records)
        rows = [i for i in sorted(view.rows) if i not in invalid]

        def records() -> Iterator[dict[str, Any]]:  # (read as the screen asks: it stops when closed)
            for start in range(0, len(rows), COMPARE_READ_ROWS):
                for line in table.raw.many(rows[start : start + COMPARE_READ_ROWS]):
                    yield loads_read(line)

        from collectors.compare.inputs import admitted, valid_records
        from collectors.compare.model import spelled_with
        from collectors.records.query import unparse
        from tui.screens.compare import CompareScreen  # (imported when first opened: the start is sooner)

        aliases = table.aliases  # pair names as the records view shows them
        node = view.query_node

        def admit(changed: list[dict[str, Any]]) -> list[bool]:
            valid = {id(r) for r in valid_records(changed)}
            matched = admitted(changed, node, aliases)
            return [id(r) in valid and m for r, m in zip(changed, matched, strict=True)]

        self.compare_screen = CompareScreen(
            records, canonical=aliases.problem_and_device, spelling=spelled_with(aliases), admit=admit
        )
        self.compare_screen.query_text = unparse(node)
        self.push_screen(self.compare_screen)  # type: ignore[attr-defined]

    def compare_records_changed(
        self, added_or_changed: Iterable[dict[str, Any]], removed: Iterable[RecordKey | dict[str, Any]] = ()
    ) -> None:
        """Pass a live change on to the compare screen while it is open (the apps call this after
        patching the records table: the records added or changed, the keys removed)."""
        screen = self.compare_screen
        if screen is not None and screen.is_attached:
            screen.records_changed(added_or_changed, removed)

    def action_diff(self) -> None:
        view = self.records_view
        if len(view.marks) != 2:
            self.notify(  # type: ignore[attr-defined]
                f"mark exactly two records (space) to diff them; {len(view.marks)} marked", markup=False
            )
            return
        first, second = view.selection()
        table = view.table
        labels = [visible(table.keys[i][1].label()) for i in (first, second)]
        title = f"A: {labels[0]}\nB: {labels[1]}"
        pair = ("A against B (Δ = A − B)", table.record(first), table.record(second))
        from tui.screens.diff import DiffScreen

        self.push_screen(DiffScreen(title, "A", "B", [pair]))  # type: ignore[attr-defined]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Compare and diff start from the records view: not from a screen opened over it."""
        if action in ("compare", "diff") and len(self.screen_stack) > 1:  # type: ignore[attr-defined]
            return False
        return super().check_action(action, parameters)  # type: ignore[misc]

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)  # type: ignore[misc]
        yield from palette(self, type(self).BINDINGS)  # type: ignore[arg-type, attr-defined]
