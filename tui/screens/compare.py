"""The compare screen (`c` in watch and browse): the matrix of speedups or resource ratios, with
keys for the metric, the baseline rule, the pick, the policy and --common (all in the header).

The records are read and indexed once, in a thread (with every metric of every candidate
measured ahead, so that a switch reads no record); a switch then recomputes the per-problem
rows from the candidates' kept values, in a thread too (100,000 candidates take 0.4 s: keys and
`q` are read meanwhile, and a newer switch or closing the screen stops it between two problems),
with each arm's bootstrap interval when they are shown (about 1 s an arm at 1,000 problems). A
live update (`records_changed`) recomputes only the problems it touches, on the UI thread (in
that thread too while the intervals are shown).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import Worker, get_current_worker

from collectors.compare.comparison import (
    METRICS,
    Canonical,
    Comparer,
    Comparison,
    Options,
    ProblemKey,
    Spelling,
    arm_key,
    arm_label,
    bulk,
    measure,
)
from collectors.compare.diff import pair_records
from collectors.compare.model import parse_baseline
from collectors.compare.render import header, number_text, problem_text, ratio_text, visible
from collectors.compare.summary import fill_intervals
from collectors.interpreter import keep_for_good
from collectors.problems import Cancelled
from collectors.records.model import RecordKey, key_of
from tui.screens.diff import DiffScreen
from tui.screens.trajectory import TrajectoryScreen
from tui.widgets.compare_matrix import CompareMatrix

Records = Iterable[dict[str, Any]]
METRIC_NAMES = list(METRICS)
METRIC = f"Next / previous metric ({METRIC_NAMES[0]} ... {METRIC_NAMES[-1]})"
LOAD_STEP = 2048  # records between two looks at whether the screen was closed (about 60 ms)
MEASURE_STEP = 256  # candidates measured between two such looks (each metric of each: about 20 ms)
KEYS = (
    "m/M metric  b baseline  k pick  o policy  x common  v virtual best  i intervals  enter records  p Pareto  "
    "t trajectory  h head to head  esc back"
)


class CompareScreen(Screen[None]):
    DEFAULT_CSS = """
    CompareScreen #compare-header { height: auto; padding: 0 1; background: $boost; }
    CompareScreen CompareMatrix { height: 1fr; }
    """
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", tooltip="Back to the records"),
        Binding("m", "metric(1)", "Metric", tooltip=METRIC),
        Binding("M", "metric(-1)", "Previous metric", show=False, tooltip=METRIC),
        Binding("b", "baseline", "Baseline", tooltip="Baseline rule: benchmark, best, or an arm"),
        Binding("k", "pick", "Pick", tooltip="An arm's answer: its final variant or its best passing one"),
        Binding("o", "policy", "Policy", tooltip="Problems without a passing answer: left out or counted as 1.0"),
        Binding("x", "common", "Common", tooltip="Only the problems every arm passed: on / off"),
        Binding("p", "pareto", "Pareto", tooltip="Pareto view (s problem-suite, x y metrics, l log)"),
        Binding("t", "trajectory", "Trajectory", tooltip="Trajectory of the arm under the cursor"),
        Binding(
            "h",
            "head_to_head",
            "Head to head",
            tooltip="Head to head: every pair of arms, wins-losses-ties, geomean ratio, sign-test p",
        ),
        Binding("v", "oracle", "Virtual best", show=False, tooltip="A virtual-best column: on / off"),
        Binding("i", "intervals", "Intervals", show=False, tooltip="Each geomean's 95 % bootstrap interval: on / off"),
    ]

    def __init__(
        self,
        source: Records | Callable[[], Records],
        options: Options | None = None,
        canonical: Canonical | None = None,
        spelling: Spelling | None = None,
        admit: Callable[[list[dict[str, Any]]], list[bool]] | None = None,
    ) -> None:
        """`source`: the records, or a function that returns them (called in the loading thread).
        `admit`: which records of a live change the matrix takes (the records view's filter, the
        contract); a changed record it does not take leaves the matrix."""
        super().__init__()
        self.source = source
        self.admit = admit
        self.query_text = ""  # the records view's filter, shown in the header
        self.comparer = Comparer(options or Options(), canonical, spelling)
        self.comparison: Comparison | None = None
        self.held: dict[ProblemKey, dict[RecordKey, dict[str, Any]]] = {}  # what each problem holds now
        self.problem_of_key: dict[RecordKey, ProblemKey] = {}
        self.pending: list[tuple[list[dict[str, Any]], list[Any]]] = []  # updates while not settled
        self.ready = False
        self.wanted = self.comparer.options  # the options of the last switch asked for
        self.intervals = False  # each geomean with its 95 % interval (`i`), as last asked for
        self.broken = False  # the load failed: nothing to show or update
        self._asked = self._shown = 0  # switches asked for, and the one on the screen
        self._computing = threading.Lock()  # one thread at a time works on the comparer
        self.last_update_seconds = 0.0  # a switch: from the key to the matrix shown; a live update: its time

    @property
    def options(self) -> Options:
        return self.wanted

    @property
    def settled(self) -> bool:
        """Loaded, and the last switch asked for is on the screen (live updates wait for it)."""
        return self.ready and self._asked == self._shown

    def compose(self) -> ComposeResult:
        yield Static(Text("reading the records…"), id="compare-header")
        yield CompareMatrix(id="compare-matrix")
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self._load, thread=True, exclusive=True, group="compare-load")

    # --- loading (a thread) -------------------------------------------------------------------

    def _load(self) -> None:
        """Read, index and measure, looking every LOAD_STEP records, MEASURE_STEP candidates and
        between two problems at whether the screen was closed (`q` on it, or the app ending: its workers
        are cancelled): a worker thread cannot be stopped from outside, and the process waits for
        it (5.2 s on 100,000 records, when `ctrl+q` came during the load)."""
        worker = get_current_worker()
        try:
            with bulk():
                try:
                    comparison = self._indexed(worker)
                finally:
                    # the records stay alive as long as the screen: out of the collector's
                    # sight before it is back, or its first collection walks them all at once
                    # (0.5-0.9 s on 100,000, on this thread or the interface's)
                    keep_for_good()
        except Cancelled:
            return
        except Exception as error:  # (a bug: said, as in _switch; the screen stays empty)
            self.app.call_from_thread(self._load_failed, error)
            return
        self.app.call_from_thread(self._loaded, comparison)

    def _load_failed(self, error: Exception) -> None:
        self.broken = True  # (no live change is kept for a comparison that will never be)
        self.pending = []
        self._say_failed(error)
        self.query_one("#compare-header", Static).update(Text(f"the records could not be compared ({KEYS})"))

    def _indexed(self, worker: Worker[None]) -> Comparison:
        """The records read, held by problem, indexed and measured: their comparison (Cancelled
        once the worker is)."""
        records = _read(self.source() if callable(self.source) else self.source, worker)
        for part in _steps(records, LOAD_STEP, worker):
            self._hold(part, [])
        held = [record for kept in self.held.values() for record in kept.values()]
        for part in _steps(held, LOAD_STEP, worker):
            self.comparer.add(part)
        _measure_ahead(self.comparer, worker)
        comparison = self.comparer.result(lambda: worker.is_cancelled)
        if worker.is_cancelled:
            raise Cancelled
        return comparison

    def _loaded(self, comparison: Comparison) -> None:
        self.ready = True
        self._show(comparison, None)
        self.query_one(CompareMatrix).focus()
        if self.intervals:  # (`i` while the records were read)
            self._ask()
        self._take_pending()

    def _take_pending(self) -> None:
        """The live changes that waited, taken together (with the intervals shown, one
        recomputation in the switch's thread for all of them)."""
        pending, self.pending = self.pending, []
        touched: set[ProblemKey] = set()
        for added, removed in pending:
            touched |= self._apply(added, removed)
        if touched:
            self._recomputed(touched)

    # --- live updates -------------------------------------------------------------------------

    def records_changed(
        self, added_or_changed: Iterable[dict[str, Any]], removed: Iterable[RecordKey | dict[str, Any]] = ()
    ) -> None:
        """Records that appeared or changed (a record replaces the one with its key) and records
        that went away (their keys, or the records). Only the problems they belong to are
        recomputed. Call on the UI thread."""
        if self.broken:
            return
        if not self.settled:  # (a switch's thread is at work on the comparer)
            self.pending.append((list(added_or_changed), list(removed)))
            return
        began = time.perf_counter()
        touched = self._apply(list(added_or_changed), list(removed))
        if touched:
            self._recomputed(touched)
        self.last_update_seconds = time.perf_counter() - began

    def _apply(self, added_or_changed: list[dict[str, Any]], removed: list[Any]) -> set[ProblemKey]:
        """A live change held and indexed (what the records view's filter admits); the problems
        it touched, to recompute."""
        if self.admit is not None and added_or_changed:
            taken = self.admit(added_or_changed)
            removed += [r for r, keep in zip(added_or_changed, taken, strict=True) if not keep]
            added_or_changed = [r for r, keep in zip(added_or_changed, taken, strict=True) if keep]
        touched = self._hold(added_or_changed, removed)
        for problem in touched:
            self.comparer.discard(problem)
            self.comparer.add(self.held.get(problem, {}).values())
        return touched

    def _recomputed(self, touched: set[ProblemKey]) -> None:
        if self.intervals:
            self._ask()  # (every arm's interval is computed again: in the switch's thread)
            return
        try:
            comparison = self.comparer.result()
        except Exception as error:  # (a bug: as in _switch)
            self._say_failed(error)
            return
        self._show(comparison, touched)

    def _hold(self, added: Iterable[dict[str, Any]], removed: Iterable[RecordKey | dict[str, Any]]) -> set[ProblemKey]:
        """Note what each problem holds now; returns the problems touched."""
        touched: set[ProblemKey] = set()
        for gone in removed:
            key = gone if isinstance(gone, RecordKey) else key_of(gone)
            problem = self.problem_of_key.pop(key, None)
            if problem is not None:
                self.held.get(problem, {}).pop(key, None)
                touched.add(problem)
        for record in added:
            problem = self._problem_of(record)
            if problem is None:
                self.comparer.skipped += 1
                continue
            key = key_of(record)
            before = self.problem_of_key.get(key)
            if before is not None and before != problem:  # moved to another problem (an alias changed)
                self.held[before].pop(key, None)
                touched.add(before)
            self.problem_of_key[key] = problem
            self.held.setdefault(problem, {})[key] = record
            touched.add(problem)
        return touched

    def _problem_of(self, record: Any) -> ProblemKey | None:
        try:
            return self.comparer.canonical(record)[0] if isinstance(record, dict) else None
        except (KeyError, TypeError, ValueError, AttributeError):
            return None

    # --- showing ------------------------------------------------------------------------------

    def _show(self, comparison: Comparison, touched: set[ProblemKey] | None) -> None:
        self.comparison = comparison
        matrix = self.query_one(CompareMatrix)
        # shown once worked out (in the switch's thread: never here, a second an arm)
        matrix.intervals = self.intervals and all("ci95" in arm.__dict__ for arm in comparison.arms)
        matrix.show(comparison, touched)
        skipped = f" · {self.comparer.skipped} records without suite, group, origin or variant" * bool(
            self.comparer.skipped
        )
        query = f" · filter {visible(self.query_text)}" * bool(self.query_text)
        self.query_one("#compare-header", Static).update(
            Text(
                f"{header(comparison)}{query}\n{len(comparison.problems)} problems, "
                f"{len(comparison.with_baseline)} with a baseline · {len(comparison.arms)} arms{skipped}\n"
                f"{tie_line(comparison)}{KEYS}"
            )
        )

    def _set(self, **changes: Any) -> None:
        if not self.ready:
            return
        self.wanted = replace(self.wanted, **changes)
        self._ask()

    def _ask(self) -> None:
        """The comparison as last asked for (options, intervals), worked out in a thread."""
        self._asked += 1
        self._switch(self.wanted, self.intervals, self._asked, time.perf_counter())

    @work(thread=True, exclusive=True, group="compare-switch", exit_on_error=False)
    def _switch(self, options: Options, intervals: bool, asked: int, began: float) -> None:
        """The comparison under `options` (the problems touched since recomputed), with each
        arm's interval when `intervals`, shown; a newer switch (this worker is cancelled:
        exclusive) or the screen closing stops it between two problems or within an interval,
        what was not recomputed left for the next."""
        worker = get_current_worker()

        def stopped() -> bool:
            return worker.is_cancelled

        with self._computing:  # (a cancelled switch may still be finishing its problem)
            try:
                if worker.is_cancelled:
                    return
                if options != self.comparer.options:
                    self.comparer.reconfigure(options)
                comparison = self.comparer.result(stopped)
                if intervals:
                    fill_intervals(comparison.arms, stopped)
            except Cancelled:
                return
            except Exception as error:  # (a bug: said, and the screen goes on with what it showed)
                self.app.call_from_thread(self._failed, error, asked)
                return
        self.app.call_from_thread(self._switched, comparison, asked, began)

    def _failed(self, error: Exception, asked: int) -> None:
        if asked != self._asked:
            return
        self._shown = asked
        self._say_failed(error)
        if self.comparison is not None:  # the switch did not happen: back to what is shown
            self.wanted = self.comparison.options
            self.comparer.reconfigure(self.wanted)
        self._take_pending()

    def _say_failed(self, error: Exception) -> None:
        self.notify(visible(f"the comparison could not be worked out: {error!r}"), severity="error", markup=False)

    def _switched(self, comparison: Comparison, asked: int, began: float) -> None:
        if asked != self._asked:
            return  # a newer switch is under way: it shows its own
        self._shown = asked
        self._show(comparison, None)
        self.last_update_seconds = time.perf_counter() - began
        self._take_pending()

    def action_metric(self, step: int) -> None:
        self._set(metric=METRIC_NAMES[(METRIC_NAMES.index(self.options.metric) + step) % len(METRIC_NAMES)])

    def baseline_rules(self) -> list[str]:
        """benchmark, best, then each arm (origin@version) of the records as an explicit rule, where
        the rule's words can name it (an empty version, or a `#` or `@` in a name, cannot: `ai@`
        is no rule, and `bi@v#1` names variant 1 of bi@v)."""
        arms = {(c.origin, c.origin_version) for cs in self.comparer.candidates.values() for c in cs.values()}
        explicit = sorted(o if v is None else f"{o}@{v}" for o, v in arms if _nameable(o, v))
        return ["benchmark", "best", *explicit]

    def action_baseline(self) -> None:
        rules = self.baseline_rules()
        at = rules.index(self.options.baseline) if self.options.baseline in rules else -1
        self._set(baseline=rules[(at + 1) % len(rules)])

    def action_pick(self) -> None:
        self._set(pick="best" if self.options.pick == "final" else "final")

    def action_policy(self) -> None:
        self._set(policy="one" if self.options.policy == "exclude" else "exclude")

    def action_common(self) -> None:
        self._set(common=not self.options.common)

    def action_oracle(self) -> None:
        self._set(oracle=not self.options.oracle)

    def action_intervals(self) -> None:
        """Each geomean with its 95 % interval (10,000 resamples per arm: off by default)."""
        self.intervals = not self.intervals
        if self.ready:  # (else when the records are read: _loaded)
            self._ask()

    # --- the views behind a cell --------------------------------------------------------------

    @on(CompareMatrix.Selected)
    def _open_cell(self, event: CompareMatrix.Selected) -> None:
        comparison = self.comparison
        if comparison is None:
            return
        result = comparison.results[event.problem]
        row = None if event.arm is None else comparison.answer(event.arm, event.problem)
        baseline = result.baseline
        if event.arm is not None and row is None:
            self.notify("this arm has no record of the metric's kind for this problem", markup=False)
            return
        left = row.candidate if row is not None else baseline
        if left is None:
            self.notify("this problem has no baseline under the current rule", markup=False)
            return
        right = baseline if row is not None else None
        speedup = "" if row is None or row.speedup is None else f" · {ratio_text(row.speedup)}"
        title = (
            f"{problem_text(comparison.spelled(event.problem))} · {comparison.options.metric}{speedup}\n"
            f"candidate: {_describe(left, comparison)}\n"
            f"baseline:  {_describe(right, comparison) if right is not None else '(none: the baseline alone)'}"
        )
        pairs = pair_records(left.records, right.records if right is not None else [])
        self.app.push_screen(DiffScreen(title, "candidate", "baseline", pairs))

    def action_pareto(self) -> None:
        from tui.screens.pareto import ParetoScreen  # (plotting is imported when first asked for: 50 ms)

        if self.comparison is not None:
            current = self.query_one(CompareMatrix).current()
            self.app.push_screen(ParetoScreen(self.comparison, current[0] if current else None))

    def action_head_to_head(self) -> None:
        from tui.screens.headtohead import HeadToHeadScreen

        if self.comparison is not None:
            self.app.push_screen(HeadToHeadScreen(self.comparison))

    def action_trajectory(self) -> None:
        comparison, current = self.comparison, self.query_one(CompareMatrix).current()
        if comparison is None or current is None:
            return
        problem, arm = current
        by = comparison.options.by
        counts: dict[Any, int] = {}
        for candidate in comparison.candidates.get(problem, []):
            key = arm_key(candidate, by)
            counts[key] = counts.get(key, 0) + 1
        several = sorted((a for a, n in counts.items() if n > 1), key=lambda a: arm_label(a, by))
        if arm not in several:
            if arm is not None or not several:
                what = "this arm has" if arm is not None else "no arm has"
                self.notify(
                    f"{what} several variants of {problem_text(comparison.spelled(problem))}: no trajectory",
                    markup=False,
                )
                return
            arm = several[0]
        assert arm is not None
        self.app.push_screen(TrajectoryScreen(comparison, several, arm, problem))


def _nameable(origin: str, version: str | None) -> bool:
    """Whether the arm's rule, as `baseline_rules` writes it, reads back as that arm (the rule's
    own parser decides: an empty version, a `#` or `@` in a name, an origin named `best`...)."""
    try:
        rule = parse_baseline(origin if version is None else f"{origin}@{version}")
    except ValueError:
        return False
    return (rule.kind, rule.origin, rule.version, rule.variant) == ("explicit", origin, version, None)


def tie_line(comparison: Comparison) -> str:
    """The first warning (ties for final, merged setups) and how many there are, on one line."""
    warnings = comparison.warnings()
    if not warnings:
        return ""
    more = f" (and {len(warnings) - 1} more)" if len(warnings) > 1 else ""
    return visible(f"⚠ {warnings[0]}{more}") + "\n"


def _describe(candidate: Any, comparison: Comparison) -> str:
    value = measure(candidate, comparison.options.measure)
    shown = number_text(value.value) if value.status == "pass" else value.status
    version = "" if candidate.origin_version is None else f"@{candidate.origin_version}"
    return visible(f"{candidate.origin}{version} #{candidate.index} {candidate.name} ({shown})")


def _read(records: Records, worker: Worker[None]) -> list[dict[str, Any]]:
    """The records a source gives (read as it gives them); Cancelled once the worker is."""
    read: list[dict[str, Any]] = []
    for record in records:
        read.append(record)
        if len(read) % LOAD_STEP == 0 and worker.is_cancelled:
            raise Cancelled
    return read


def _measure_ahead(comparer: Comparer, worker: Worker[None]) -> None:
    """Every metric of every candidate, measured once: a switch then reads no record. Cancelled is
    raised once the worker is."""
    candidates = [candidate for group in comparer.candidates.values() for candidate in group.values()]
    for part in _steps(candidates, MEASURE_STEP, worker):
        for candidate in part:
            for metric in METRICS.values():
                measure(candidate, metric)


def _steps(items: list[Any], size: int, worker: Worker[None]) -> Iterator[list[Any]]:
    """`items` `size` at a time; Cancelled before a step once the worker is."""
    for start in range(0, len(items), size):
        if worker.is_cancelled:
            raise Cancelled
        yield items[start : start + size]
