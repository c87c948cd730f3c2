"""`vitis-tui browse FILE...`: the records view over JSONL files, followed as they grow."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult, ScreenStackError
from textual.message import Message
from textual.timer import Timer
from textual.widget import MountError
from textual.widgets import Footer, Header, Static
from textual.worker import Worker, WorkerState, get_current_worker

from collectors.aliases import NO_ALIASES, Aliases
from collectors.interpreter import collector_paused, keep_for_good, release_kept
from collectors.problems import Cancelled, Problem
from collectors.records.checker import Checker, CheckerGone, answer, problems_of
from collectors.records.follow import Followed, grows_too_fast, read_new_lines, tail_start
from collectors.records.loader import Batch, Head, load_preparers, prepared_batches, rows_to_check, stream_files
from collectors.records.preparers import Preparers, PreparersGone
from collectors.records.table import Prepared, RecordTable
from collectors.text import visible
from tui.messages import Loaded, SchemaChecked
from tui.records_actions import RECORDS_BINDINGS, RecordsActions
from tui.screens.help import HelpScreen
from tui.signals import exit_on_signals
from tui.widgets.records_view import RecordsPanel, RecordsView
from tui.widgets.tables import LineProblemsTable

FOLLOW_SECONDS = 0.5  # (a change shows within a second: a tick, then its read)
BATCHES_AHEAD = 2  # batches the loader may have handed on that the interface has not appended yet
SWITCH_SECONDS = sys.getswitchinterval()  # Python's own
LOADING_SWITCH_SECONDS = 0.0005  # while loading, the loader thread hands the GIL over this often
SHOW_EVERY_SECONDS = 0.5  # while loading, the view and the status line take new rows this often (each a layout)
SKIP_BYTES = 4 << 20  # grown by this at two follow steps in a row: skip ahead to the latest state
SKIP_KEEP_BYTES = 4 << 20  # then read each file from this far before its end
FOLLOW_STEP_BYTES = 16 << 20  # read at most this much at one follow step (a large append takes several)


class FollowRead(Message):
    """What a follow step read for `table`: rows prepared, problems; or that a file changed
    otherwise than by an append (`replaced`), or grows faster than it can be shown (`skip`)."""

    def __init__(
        self,
        table: RecordTable,
        rows: list[Prepared] | None = None,
        problems: list[Problem] | None = None,
        replaced: bool = False,
        skip: bool = False,
    ) -> None:
        super().__init__()
        self.table = table
        self.rows = rows or []
        self.problems = problems or []
        self.replaced = replaced
        self.skip = skip


class BrowseApp(RecordsActions, App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "vitis-tui browse"
    # the view has the focus from the first frame: a key typed while browse starts comes before
    # on_mount, and went to the first focusable widget, the filter box (a `q` was a filter); and
    # a change of focus later makes the footer lay out its keys again (0.15 s)
    AUTO_FOCUS = "RecordsView"
    BINDINGS = [*RECORDS_BINDINGS]

    def __init__(
        self,
        paths: list[str],
        follow_every: float = FOLLOW_SECONDS,
        aliases: Aliases = NO_ALIASES,
        head: Head | None = None,
    ) -> None:
        """`head`: the first load, begun before the app was made (loader.head_start)."""
        super().__init__()
        self.head = head
        self.paths = paths
        self.aliases = aliases
        self.follow_every = follow_every
        self.followed: list[Followed] = []
        self.load_problems: list[Problem] = []
        self.schema: dict[str, list[Problem]] = {}  # source "file:line" -> its schema problems
        self.loaded = False
        self.loading: RecordTable | None = None  # the table the load under way fills
        self.checker = Checker()
        self.preparers = Preparers(0)  # each load's own (see _reload)
        self._following = False  # a follow step is reading (one at a time)
        self._skip_problems: list[Problem] = []  # the lines left unread to catch up with a fast writer
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
        # the footer comes once the first rows are on the screen: laying out its keys takes
        # 0.1-0.15 s, and the first screen would wait for it (see _show_footer)

    def on_mount(self) -> None:
        self.sub_title = visible(" ".join(self.paths))  # (a file's name may hold any byte)
        self._reload()
        self.set_timer(1.0, self._show_footer)  # (in any case: a load that never shows a first batch)
        self.repaint_after_resume()
        self._signals = exit_on_signals(self)  # SIGTERM, SIGHUP: the same way out as `q`
        self.show_start_warnings()

    def _reload(self, skip: bool = False) -> None:
        """A new load of every file; whatever an older one still sends is left aside. `skip`:
        a file grows faster than it can be shown: each is read from its last SKIP_KEEP_BYTES."""
        starts: dict[str, Followed] = {}
        self._skip_problems = []
        if skip:
            for path in self.paths:
                with suppress(OSError):
                    start, lines = tail_start(path, SKIP_KEEP_BYTES)
                    starts[path] = Followed.from_offset(os.path.abspath(path), start, lines)
                    self._skip_problems.append(Problem(path, _skipped(lines, start)))
        # the old table's objects were frozen out of the collector's sight (see _loaded): those in
        # reference cycles would never be freed, and a file replaced every second would leak a table
        release_kept()
        self.workers.cancel_group(self, "check")  # the checks of the old table: their answers are moot
        self.checker.cancel()
        self.preparers.close()  # the children of the old load; this one's start with its first piece
        head, self.head = self.head, None  # (begun for the first load, which reads from the start)
        self.preparers = head.preparers if head else load_preparers()
        self.loading = RecordTable(self.aliases)
        self.followed = []  # nothing is followed until the new load says how far it read
        self.loaded = self.checked = False
        self._painted = threading.Event()  # the first batch is on the screen
        if head is not None:
            self._show_head(self.loading, head)
        self._load(self.loading, threading.Semaphore(BATCHES_AHEAD), starts, self._painted, self.preparers, head)

    def _show_head(self, table: RecordTable, head: Head) -> None:
        """The first screen's lines, read before the app was made (head_start), taken here as the
        load's first batch, before the first frame: handed to the load's thread, they came a
        frame later (the thread starts, and waits for the first frame's layout to free the GIL).
        The load then reads on from there."""
        for batch in prepared_batches(table, head.source.path, head.lines):
            self._take(table, batch, 0.0)
        head.lines = []

    def _show_footer(self) -> None:
        if not self.query(Footer):
            try:
                self.mount(Footer())
            except (MountError, ScreenStackError):
                pass  # (a `q` typed as browse started: the screen is going, or gone, nothing to mount on)

    @property
    def view(self) -> RecordsView:
        return self.query_one(RecordsPanel).view

    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def _load(
        self,
        table: RecordTable,
        room: threading.Semaphore,
        starts: dict[str, Followed],
        painted: threading.Event,
        preparers: Preparers,
        head: Head | None,
    ) -> None:
        """Read the files in batches: the first screen shows as soon as it is read, the rest
        streams in; the interface's thread only appends what this thread prepared. `room`: one
        permit per batch handed on, given back as the interface appends it. `painted`: set once
        the first batch is on the screen; nothing more is read before it (the interface's thread
        would append batch after batch before its first paint, 0.1-0.2 s later, and the children
        that prepare the pieces would start while it is drawn). `preparers`: this load's own.
        `head`: the load as begun before the app was made."""
        worker = get_current_worker()
        started = time.perf_counter()
        sys.setswitchinterval(LOADING_SWITCH_SECONDS)  # a keystroke waits less for the GIL
        ends: list[int] = []
        try:
            for number, batch in enumerate(stream_files(self.paths, table, starts, preparers, head)):
                if not _wait_for(lambda: room.acquire(timeout=WAIT_STEP), worker):
                    return  # the file was replaced meanwhile: a newer load runs
                self.post_message(Loaded(table, batch, time.perf_counter() - started, room))
                if batch.replaced:
                    return  # the interface starts the load over
                if number == 0:
                    if not _wait_for(lambda: painted.wait(WAIT_STEP), worker):
                        return  # (nothing more is read, nor any child started, before the first paint)
                    preparers.start_all()  # (where a head start began with fewer)
                ends = [source.offset for source in batch.followed or ()]
            for _ in range(BATCHES_AHEAD):  # every batch appended: the check finds every row
                if not _wait_for(lambda: room.acquire(timeout=WAIT_STEP), worker):
                    return
        except PreparersGone:
            return  # a newer load, or the app is closing
        finally:
            sys.setswitchinterval(SWITCH_SECONDS)
            preparers.close()  # (idle children would hold 25 MB each for nothing)
        if starts:  # read from its tail: the rows go by value (every batch is appended by now)
            self._check(table, {"rows": rows_to_check(table, range(len(table.raw)))})
        else:
            self._check(table, {"paths": [os.path.abspath(p) for p in self.paths], "ends": ends})

    @work(thread=True, group="check", exit_on_error=False)
    def _check_later(self, table: RecordTable, rows: list[tuple[int, str, str]]) -> None:
        self._check(table, {"rows": rows})

    def _check(self, table: RecordTable, request: dict[str, Any]) -> None:
        """The full schema check is slower than loading: it runs after, in a process of its own
        (a thread would hold the GIL and make every keystroke wait). Whole files go by path;
        lines appended later go by value, taken on the interface's thread."""
        try:
            worker = get_current_worker()
            answer = self.checker.ask(request, lambda: worker.is_cancelled)
        except CheckerGone:
            return  # the app is closing (or a newer load replaced the checker's work)
        except OSError as exc:  # no process to be had (a sandbox, say): check here instead
            self.log.warning(f"schema check in this process: {exc!r}")
            self.checked_here = True
            found = _check_here(request, get_current_worker())
            if found is None:
                return  # cancelled: the app is closing
            answer = found
        if "refused" in answer:  # (rows found here, not on the interface's thread)
            invalid, unread = table.sources.rows_of(answer["refused"]), table.sources.rows_of(answer["unread"])
        else:
            invalid, unread = answer["invalid"], answer["unread"]
        self.post_message(SchemaChecked(table, invalid, problems_of(answer["problems"]), unread))

    async def on_unmount(self) -> None:
        self._signals.remove()
        self.checker.close()
        self.preparers.close()

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        if message.room is not None:
            message.room.release()
        self._take(message.table, message.batch, message.seconds)

    def _take(self, table: RecordTable, batch: Batch, seconds: float) -> None:
        """A batch of a load appended to its table and shown (the first sets the view's table)."""
        if table is not self.loading or not self.query(RecordsPanel):
            return  # a load that a newer one replaced (or the app is closing)
        if batch.replaced:
            self._reload()  # changed otherwise than by an append while it was read
            return
        with collector_paused():  # (the new rows hold no cycle, and are kept for good below)
            rows = table.append(batch.rows) + (table.append_piece(batch.piece) if batch.piece else [])
        last = batch.followed is not None
        if table is not self.view.table:  # the first batch of a load
            self.load_problems = list(self._skip_problems)
            self.schema = {}
            self._unshown = []
            self.view.set_table(table)
            self.call_after_refresh(self._painted.set)
            self.call_after_refresh(self._show_footer)
            self._shown_at = time.monotonic()
        else:
            self._unshown += rows
            if last or time.monotonic() - self._shown_at >= SHOW_EVERY_SECONDS:
                # each showing costs a layout of the screen (the view's size changed): a few a second
                self.view.data_changed(self._unshown, adapt_columns=last)  # columns follow the data at the end
                self._unshown = []
                self._shown_at = time.monotonic()
        self.load_problems += batch.problems
        self.load_seconds = seconds
        # The table's objects live as long as it does: out of the garbage collector's sight, a full
        # collection (every 25% more objects) no longer walks all of them, pausing this thread
        # for 50 to 160 ms at a time. Cheap: it moves the lists of objects, no walk.
        keep_for_good()
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
        if event.worker.group == "follow" and event.state in (WorkerState.ERROR, WorkerState.CANCELLED):
            self._following = False

    @on(SchemaChecked)
    def _schema_checked(self, message: SchemaChecked) -> None:
        table = message.table  # changed here, on the interface's thread
        if not self.query(RecordsPanel) or table is not self.view.table:  # (the app may be closing)
            return  # the check of a table a reload replaced
        table.invalid.update(message.invalid)  # (what any export leaves out)
        # records the contract refuses, and lines a piece of the load took that are no record:
        # shown no more once known (each is a problem line), as a line the load refuses never is
        gone = [*message.invalid, *message.unread]
        if gone:
            table.drop_rows(gone)
            self.view.data_changed([], adapt_columns=False)
        for problem in message.problems:
            self.schema.setdefault(problem.path, []).append(problem)
        self.checked = True
        self._show_problems()

    def _follow(self) -> None:
        """Each tick: what changed is read in a thread of its own (one at a time), so that a file
        growing fast never holds the keys up; what it prepared is appended here."""
        if not self.loaded or self._following or not self.query(RecordsPanel):
            return  # (none while a load or a step runs, or while the app closes)
        self._following = True
        self._read_on(self.view.table, self.followed)

    @work(thread=True, group="follow", exit_on_error=False)
    def _read_on(self, table: RecordTable, followed: list[Followed]) -> None:
        worker = get_current_worker()
        rows: list[Prepared] = []
        problems: list[Problem] = []
        for source in followed:
            if grows_too_fast(source, SKIP_BYTES):  # faster than it can be shown: its latest state
                self.post_message(FollowRead(table, skip=True))
                return
            lines, replaced = read_new_lines(source, budget=FOLLOW_STEP_BYTES)  # the rest next time
            if replaced:
                self.post_message(FollowRead(table, replaced=True))
                return
            for batch in prepared_batches(table, source.path, lines):
                if worker.is_cancelled:
                    return
                rows += batch.rows
                problems += batch.problems
        self.post_message(FollowRead(table, rows, problems))

    @on(FollowRead)
    def _read(self, message: FollowRead) -> None:
        self._following = False
        table = message.table
        if not self.query(RecordsPanel) or table is not self.view.table or not self.loaded:
            return  # read for a table a reload replaced (or the app is closing)
        if message.replaced or message.skip:
            self._reload(skip=message.skip)
            return
        self.load_problems += message.problems
        if not message.rows:
            if message.problems:
                self._show_problems()
            return
        touched = table.append(message.rows)
        self.view.data_changed(touched, adapt_columns=True)
        self._show_problems()
        self._check_later(table, rows_to_check(table, touched))
        self.compare_records_changed([table.record(i) for i in touched])

    def records_held(self) -> int:
        """Rows of the table held (read by the command once the app has ended)."""
        return 0 if self.loading is None else len(self.loading.raw)

    def all_problems(self) -> list[Problem]:
        """The load's problems, then the check's; each once (the check names again a line a piece
        of the load took and the strict reading refuses: collectors/records/quick.py)."""
        return list(dict.fromkeys(self.load_problems + [p for found in self.schema.values() for p in found]))

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
        if self._skip_problems:
            state += " │ " + "; ".join(p.reason for p in self._skip_problems)
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


WAIT_STEP = 0.05  # seconds between two looks at whether the load was cancelled


def _wait_for(ready: Callable[[], bool], worker: Worker) -> bool:
    """Until `ready()` (which waits up to WAIT_STEP) says so: the interface has appended a batch
    handed on earlier (the rows not read yet wait in the file, not in memory), or painted the
    first; False when the load was cancelled."""
    while not ready():
        if worker.is_cancelled:
            return False
    return not worker.is_cancelled


def _check_here(request: dict[str, Any], worker: Worker) -> dict[str, Any] | None:
    """The checker's answer worked out in this thread (no process could be started); None when
    the worker was cancelled meanwhile."""
    try:
        return answer(request, lambda: worker.is_cancelled)
    except Cancelled:
        return None


def _skipped(lines: int, start: int) -> str:
    return f"skipped lines 1-{lines} ({start / 1e6:.0f} MB) to catch up: the file grows faster than it can be shown"
