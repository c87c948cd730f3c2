"""`vitis-tui browse FILE...`: the records view over JSONL files, followed as they grow."""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from concurrent.futures import CancelledError, ProcessPoolExecutor

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.timer import Timer
from textual.widgets import Footer, Header, Static
from textual.worker import Worker, WorkerState, get_current_worker

from collectors.aliases import NO_ALIASES, Aliases
from collectors.collect.engine import prepare_spawning, start_pool, stop_pool
from collectors.problems import Problem
from collectors.records.loader import Followed, add_lines, check_files, check_lines, read_new_lines, stream_files
from collectors.records.table import RecordTable
from collectors.text import visible
from tui.messages import Loaded, SchemaChecked
from tui.records_actions import RECORDS_BINDINGS, RecordsActions
from tui.screens.help import HelpScreen
from tui.signals import exit_on_signals
from tui.widgets.records_view import RecordsPanel, RecordsView
from tui.widgets.tables import LineProblemsTable

FOLLOW_SECONDS = 1.0
BATCHES_AHEAD = 2  # batches the loader may have handed on that the interface has not appended yet
SWITCH_SECONDS = sys.getswitchinterval()  # Python's own
LOADING_SWITCH_SECONDS = 0.0005  # while loading, the loader thread hands the GIL over this often
SHOW_EVERY_SECONDS = 0.25  # while loading, the view and the status line take new rows this often


class BrowseApp(RecordsActions, App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "vitis-tui browse"
    BINDINGS = list(RECORDS_BINDINGS)

    def __init__(self, paths: list[str], follow_every: float = FOLLOW_SECONDS, aliases: Aliases = NO_ALIASES) -> None:
        super().__init__()
        prepare_spawning()  # the schema check's process is spawned once Textual captures stderr
        self.paths = paths
        self.aliases = aliases
        self.follow_every = follow_every
        self.followed: list[Followed] = []
        self.load_problems: list[Problem] = []
        self.schema: dict[str, list[Problem]] = {}  # source "file:line" -> its schema problems
        self.loaded = False
        self.loading: RecordTable | None = None  # the table the load under way fills
        self._pool: ProcessPoolExecutor | None = None
        self.checked = False  # the background schema check of the loaded lines is over
        self.checked_here = False  # a check ran in this process: no other process could be started
        self.load_seconds = 0.0
        self.follow_timer: Timer | None = None  # one for the app's life, however often files are replaced
        self._unshown: list[int] = []  # rows a load appended that the view has not taken yet
        self._shown_at = 0.0

    def compose(self) -> ComposeResult:
        yield Header()
        yield RecordsPanel(id="records-panel")
        problems = LineProblemsTable(id="problems")
        problems.border_title = "Problems"
        yield problems
        yield Static("loading…", id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = " ".join(self.paths)
        # focused now, not when the first rows come: a change of focus makes the footer lay out
        # its keys again (0.15 s), and the first keystrokes would wait behind it
        self.view.focus()
        self.call_after_refresh(self._reload)
        self._signals = exit_on_signals(self)  # SIGTERM, SIGHUP: the same way out as `q`

    def _reload(self) -> None:
        """A new load of every file; whatever an older one still sends is left aside."""
        self.loading = RecordTable(self.aliases)
        self.followed = []  # nothing is followed until the new load says how far it read
        self.loaded = self.checked = False
        self._load(self.loading, threading.Semaphore(BATCHES_AHEAD))

    @property
    def view(self) -> RecordsView:
        return self.query_one(RecordsPanel).view

    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def _load(self, table: RecordTable, room: threading.Semaphore) -> None:
        """Read the files in batches: the first screen shows as soon as it is read, the rest
        streams in; the interface's thread only appends what this thread prepared. `room`: one
        permit per batch handed on, given back as the interface appends it."""
        worker = get_current_worker()
        started = time.perf_counter()
        sys.setswitchinterval(LOADING_SWITCH_SECONDS)  # a keystroke waits less for the GIL
        try:
            for batch in stream_files(self.paths, table):
                if not _wait_for_room(room, worker):
                    return  # the file was replaced meanwhile: a newer load runs
                self.post_message(Loaded(table, batch, time.perf_counter() - started, room))
            for _ in range(BATCHES_AHEAD):  # every batch appended: the check finds every row
                if not _wait_for_room(room, worker):
                    return
        finally:
            sys.setswitchinterval(SWITCH_SECONDS)
        paths = [os.path.abspath(p) for p in self.paths]
        self._check(table, paths)

    @work(thread=True, group="check", exit_on_error=False)
    def _check_later(self, table: RecordTable, work: list[tuple[int, str, str]]) -> None:
        self._check(table, None, work)

    def _check(
        self, table: RecordTable, paths: list[str] | None = None, work: list[tuple[int, str, str]] | None = None
    ) -> None:
        """The full schema check is slower than loading: it runs after, in a process of its own
        (a thread would hold the GIL and make every keystroke wait). Whole files go by path;
        lines appended later go by value."""
        work = work or []  # (row, source, line), taken on the interface's thread
        try:
            pool = self._checker()
            if paths is not None:
                refused, problems = pool.submit(check_files, paths).result()
                invalid = table.sources.rows_of(refused)  # here, not on the interface's thread
            else:
                invalid, problems = pool.submit(check_lines, work).result()
        except CancelledError:
            return  # the app is closing
        except Exception as exc:  # no process to be had (a sandbox, say): check here instead
            self.log.warning(f"schema check in this process: {exc!r}")
            self.checked_here = True
            if paths is not None:
                refused, problems = check_files(paths)
                invalid = table.sources.rows_of(refused)
            else:
                invalid, problems = check_lines(work)
        self.post_message(SchemaChecked(table, invalid, problems))

    def _checker(self) -> ProcessPoolExecutor:
        if self._pool is None:  # niced: on a busy machine the check waits, not the interface
            self._pool = start_pool(1, nice=10)
            if self._pool is None:
                raise OSError("no process could be started")
        return self._pool

    async def on_unmount(self) -> None:
        self._signals.remove()
        if self._pool is not None:
            stop_pool(self._pool)

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        table, batch = message.table, message.batch
        if message.room is not None:
            message.room.release()
        if table is not self.loading or not self.query(RecordsPanel):
            return  # a load that a newer one replaced (or the app is closing)
        rows = table.append(batch.rows)
        last = batch.followed is not None
        if table is not self.view.table:  # the first batch of a load
            self.load_problems = []
            self.schema = {}
            self._unshown = []
            self.view.set_table(table)
            self._shown_at = time.monotonic()
        else:
            self._unshown += rows
            if last or time.monotonic() - self._shown_at >= SHOW_EVERY_SECONDS:
                # each showing costs a layout of the screen (the view's size changed): a few a second
                self.view.data_changed(self._unshown, adapt_columns=last)  # columns follow the data at the end
                self._unshown = []
                self._shown_at = time.monotonic()
        self.load_problems += batch.problems
        self.load_seconds = message.seconds
        # The table's objects live as long as it does: out of the garbage collector's sight, a full
        # collection (every 25% more objects) no longer walks all of them, pausing this thread
        # for 50 to 160 ms at a time. Cheap: it moves the lists of objects, no walk.
        gc.freeze()
        if batch.followed is not None:  # the last batch
            self.followed = batch.followed
            self.loaded = True
            if self.follow_timer is None:
                self.follow_timer = self.set_interval(self.follow_every, self._follow)
        if not self._unshown:
            self._show_problems()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Worker failures end up here, in one place: shown, never silent."""
        if event.state == WorkerState.ERROR:
            error = f"{event.worker.name} failed: {event.worker.error!r}"
            self.load_problems.append(Problem(" ".join(self.paths), error))
            self.notify(visible(error), severity="error", timeout=10, markup=False)
            self._show_problems()

    @on(SchemaChecked)
    def _schema_checked(self, message: SchemaChecked) -> None:
        table = message.table  # marked here, on the interface's thread: the export leaves them out
        if not self.query(RecordsPanel) or table is not self.view.table:  # (the app may be closing)
            return  # the check of a table a reload replaced
        table.invalid.update(message.invalid)
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
                self._reload()
                return
            if lines:
                touched += add_lines(table, source.path, lines, self.load_problems)
        if touched:
            self.view.set_table(table)
            self._show_problems()
            self._check_later(table, [(i, table.sources[i], table.raw[i]) for i in touched])
            self.compare_records_changed([table.record(i) for i in touched])

    def all_problems(self) -> list[Problem]:
        return self.load_problems + [p for found in self.schema.values() for p in found]

    def _show_problems(self) -> None:
        found = self.query("#problems").results(LineProblemsTable)
        table = next(iter(found), None)
        if table is None:
            return  # the app is closing: its widgets are being removed (a check may end now)
        problems = self.all_problems()
        table.show(problems)
        state = (
            f"loaded in {self.load_seconds:.2f} s │ following for changes"
            if self.loaded
            else f"loading… ({self.load_seconds:.1f} s)"
        )
        self.query_one("#status", Static).update(
            Text(f"{len(self.view.table)} records from {len(self.paths)} file(s), {state} │ {len(problems)} problems")
        )

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.binding_help()))

    @on(RecordsView.Selected)
    def _open(self, event: RecordsView.Selected) -> None:
        from tui.screens.detail import DetailScreen  # (when first opened: see records_actions)

        table = event.view.table
        record = table.record(event.index)
        source = table.sources[event.index]
        problems = self.schema.get(source, [])
        self.push_screen(DetailScreen(source, [record], {str(record.get("report_type")): [source]}, problems, {}))


def _wait_for_room(room: threading.Semaphore, worker: Worker) -> bool:
    """Until the interface has appended a batch handed on earlier (the rows not read yet wait in
    the file, not in memory); False when the load was cancelled."""
    while not room.acquire(timeout=0.2):
        if worker.is_cancelled:
            return False
    return not worker.is_cancelled
