"""`vitis-tui browse FILE...`: the records view over JSONL files, followed as they grow."""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.timer import Timer
from textual.widgets import DataTable, Footer, Header, Static
from textual.worker import Worker, WorkerState

from collectors.problems import Problem
from collectors.records.loader import Followed, add_lines, check_files, check_lines, load_files, read_new_lines
from collectors.records.table import RecordTable

from .messages import Loaded, SchemaChecked
from .records_actions import RECORDS_BINDINGS, RecordsActions
from .screens.detail import DetailScreen
from .screens.help import HelpScreen
from .widgets.records_view import RecordsPanel, RecordsView

FOLLOW_SECONDS = 1.0


class BrowseApp(RecordsActions, App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "vitis-tui browse"
    BINDINGS = list(RECORDS_BINDINGS)

    def __init__(self, paths: list[str], follow_every: float = FOLLOW_SECONDS) -> None:
        super().__init__()
        self.paths = paths
        self.follow_every = follow_every
        self.followed: list[Followed] = []
        self.load_problems: list[Problem] = []
        self.schema: dict[str, list[Problem]] = {}  # source "file:line" -> its schema problems
        self.loaded = False
        self._pool: ProcessPoolExecutor | None = None
        self.checked = False  # the background schema check of the loaded lines is over
        self.load_seconds = 0.0
        self.follow_timer: Timer | None = None  # one for the app's life, however often files are replaced

    def compose(self) -> ComposeResult:
        yield Header()
        yield RecordsPanel(id="records-panel")
        problems = DataTable(id="problems", cursor_type="row")
        problems.border_title = "Problems"
        yield problems
        yield Static("loading…", id="status")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#problems", DataTable)
        table.add_column("line", key="line")
        table.add_column("reason", key="reason")
        self.sub_title = " ".join(self.paths)
        self._load()

    @property
    def view(self) -> RecordsView:
        return self.query_one(RecordsPanel).view

    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def _load(self) -> None:
        started = time.perf_counter()
        table, followed, problems, rows = load_files(self.paths)
        self.post_message(Loaded(table, followed, problems, rows, time.perf_counter() - started))
        _ = table.haystack  # the free-text index, built now rather than on the first keystroke
        self._check(table, [f.path for f in followed])

    @work(thread=True, group="check", exit_on_error=False)
    def _check_later(self, table: RecordTable, rows: list[int]) -> None:
        self._check(table, None, rows)

    def _check(self, table: RecordTable, paths: list[str] | None = None, rows: list[int] | None = None) -> None:
        """The full schema check is slower than loading: it runs after, in a process of its own
        (a thread would hold the GIL and make every keystroke wait). Whole files go by path;
        lines appended later go by value."""
        try:
            pool = self._checker()
            if paths is not None:
                refused, problems = pool.submit(check_files, paths).result()
            else:
                work = [(i, table.sources[i], table.raw[i]) for i in rows or []]
                invalid, problems = pool.submit(check_lines, work).result()
                refused = [table.sources[i] for i in invalid]
        except Exception:  # no process to be had (a sandbox, say): check here instead
            work = [(i, table.sources[i], table.raw[i]) for i in (rows if rows is not None else range(len(table)))]
            invalid, problems = check_lines(work)
            refused = [table.sources[i] for i in invalid]
        self.post_message(SchemaChecked(table, refused, problems))

    def _checker(self) -> ProcessPoolExecutor:
        # spawn, not fork: this process runs the interface's threads
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def on_unmount(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        self.followed = message.followed
        self.load_problems = message.problems
        self.load_seconds = message.seconds
        self.view.set_table(message.table)
        self.loaded = True
        self.view.focus()
        self._show_problems()
        if self.follow_timer is None:
            self.follow_timer = self.set_interval(self.follow_every, self._follow)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Worker failures end up here, in one place: shown, never silent."""
        if event.state == WorkerState.ERROR:
            error = f"{event.worker.name} failed: {event.worker.error!r}"
            self.load_problems.append(Problem(" ".join(self.paths), error))
            self.notify(Text(error), severity="error", timeout=10)
            self._show_problems()

    @on(SchemaChecked)
    def _schema_checked(self, message: SchemaChecked) -> None:
        table = message.table  # marked here, on the interface's thread: the export leaves them out
        if message.invalid_sources:
            index = {source: i for i, source in enumerate(table.sources)}
            table.invalid.update(index[s] for s in message.invalid_sources if s in index)
        for problem in message.problems:
            self.schema.setdefault(problem.path, []).append(problem)
        self.checked = True
        self._show_problems()

    def _follow(self) -> None:
        """Read what was appended; a replaced file is read again from the start."""
        table = self.view.table
        touched: list[int] = []
        for source in self.followed:
            lines, replaced = read_new_lines(source)
            if replaced:
                self._load()
                return
            if lines:
                touched += add_lines(table, source.path, lines, self.load_problems)
        if touched:
            self.view.set_table(table)
            self._show_problems()
            self._check_later(table, touched)

    def all_problems(self) -> list[Problem]:
        return self.load_problems + [p for found in self.schema.values() for p in found]

    def _show_problems(self) -> None:
        table = self.query_one("#problems", DataTable)
        table.clear()
        for problem in self.all_problems():
            table.add_row(Text(problem.path), Text(problem.reason))
        self.query_one("#status", Static).update(
            Text(
                f"{len(self.view.table)} records from {len(self.paths)} file(s), loaded in {self.load_seconds:.2f} s │ "
                f"{len(self.all_problems())} problems │ following for changes"
            )
        )

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.binding_help()))

    @on(RecordsView.Selected)
    def _open(self, event: RecordsView.Selected) -> None:
        table = event.view.table
        record = table.record(event.index)
        source = table.sources[event.index]
        problems = self.schema.get(source, [])
        self.push_screen(DetailScreen(source, [record], {str(record.get("report_type")): [source]}, problems, {}))
