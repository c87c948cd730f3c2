"""One project's result: each artifact parsed (bytes in, data out), then its runs and records."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from collectors.collect.accounting import account_project
from collectors.collect.artifacts import ARTIFACTS, LOG_KINDS, QUIET_KINDS
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.config import Settings
from collectors.collect.extensions import build_extension_records, extension_problems
from collectors.collect.mapping import Identity, map_project
from collectors.collect.projects import Project
from collectors.collect.runs import Run, build_runs
from collectors.files import describe_os_error, not_regular, parse_stream, read_report
from collectors.problems import ArtifactError, EmptyFile, NotThisKind, Problem
from collectors.records.model import RecordKey, key_of
from collectors.records.validate import keep_valid

# A file changed this recently and unreadable is probably still being written.
SETTLE_SECONDS = 1.0


@dataclass
class ProjectResult:
    path: str
    root: str
    identity: Identity
    runs: list[Run]
    problems: list[Problem]
    built: bool
    unsettled: list[str] = field(default_factory=list)  # broken files that were still changing
    extension_records: list[dict[str, Any]] = field(default_factory=list)  # AIE, XRT, LOOM (second file)
    accounts: dict[str, str] = field(default_factory=dict)  # file -> what became of it (accounting.py)
    # the lines of `records` and `extension_records`, serialised by the schema check (their order)
    lines: list[str] = field(default_factory=list)
    extension_lines: list[str] = field(default_factory=list)
    # the keys of `lines`, where the records themselves were left out (without_records), and
    # how many runs were left out with them
    keys: list[RecordKey] = field(default_factory=list)
    runs_left_out: int = 0

    @property
    def records(self) -> list[dict[str, Any]]:
        return [record for run in self.runs for record in run.records]

    @property
    def run_count(self) -> int:
        return len(self.runs) + self.runs_left_out


# who the records of a result without them belong to: no one (they are written already)
NO_IDENTITY = Identity({}, {})


def without_records(result: ProjectResult) -> ProjectResult:
    """The result with its runs, their records and its identity left out, and the records' keys
    kept beside their lines: all that `collect` (or compare's collection of a root) writes. A
    worker of such a scan sends it so: the main process unpickles every result, alone while
    the last shares come (on 20,000 light projects, the records' objects were 42 of 85 objects
    each; then the runs and identities were 20 of the 40 ms a share of 2,500 results took)."""
    result.keys = [key_of(record) for record in result.records]
    result.runs_left_out, result.runs = len(result.runs), []  # (counted still)
    result.identity = NO_IDENTITY
    return result


# what tells one state of a file from another: size, modification and change times, inode. Size
# and mtime alone miss a rewrite that keeps them (`cp -p`, `rsync -t`, a rename onto the file);
# the change time is set by the kernel on every write, rename and time change, and a rename
# onto the file brings another inode.
Stamp = tuple[int, int, int, int]

# a parse: (its stamp, result) of a file stat'ed, or a Parsed error where it could not be
Parse = tuple[Stamp, Parsed] | Parsed


def stamp_of(stat: os.stat_result) -> Stamp:
    return (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)


def parse_file(path: str, kind: str, stat: os.stat_result | None = None) -> Parse:
    """Stat (unless given) and parse one artifact: (its stamp, result), or a Parsed error.
    A deferred kind is only stat'ed here: it is read when its facts are first asked for."""
    try:
        stat = stat or os.stat(path)
    except OSError as exc:
        return Parsed(path, kind, 0, None, describe_os_error(exc))
    artifact = ARTIFACTS[kind]
    reason = not_regular(stat.st_mode)
    stamp = stamp_of(stat)
    if reason is not None:  # a FIFO named csynth.xml must never be opened for reading
        return stamp, Parsed(path, kind, stat.st_mtime_ns, None, reason)
    if artifact.parse is None:
        return stamp, Parsed(path, kind, stat.st_mtime_ns, {})
    deferred = artifact.deferred
    quiet = deferred is not None or kind in QUIET_KINDS
    if deferred is not None and deferred(path):
        later = partial(read_and_parse, path, kind, stat.st_mtime_ns)
        return stamp, Parsed(path, kind, stat.st_mtime_ns, None, load=later, quiet=True)
    return stamp, read_and_parse(path, kind, stat.st_mtime_ns, quiet)


def read_and_parse(path: str, kind: str, mtime_ns: int, quiet: bool = False) -> Parsed:
    """Read and parse one (stat'ed, regular) artifact; whatever is wrong with it costs it alone."""
    artifact = ARTIFACTS[kind]
    assert artifact.parse is not None
    data: dict[str, Any] | None = None
    error: str | None = None
    try:
        data = parse_stream(path, artifact.parse) if artifact.stream else artifact.parse(read_report(path))
    except NotThisKind:
        pass  # neither facts nor a problem
    except EmptyFile as exc:
        error = None if kind in LOG_KINDS else str(exc)
    except ArtifactError as exc:
        error = str(exc)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError, UnicodeError) as exc:
        # A parser bug on strange input must cost one file, never the collection.
        error = f"unreadable report: {exc!r}"
    return Parsed(path, kind, mtime_ns, data, error, quiet=quiet)


# the stamp of each artifact of a project, in its order; None where it could not be stat'ed: what
# a scan compares with the last one's to find a project unchanged (Engine.collect_project)
Stat = Stamp | None
Stats = tuple[Stat, ...]


def stat_of(result: Parse) -> Stat:
    return None if isinstance(result, Parsed) else result[0]


def stamp(path: str) -> Stamp | None:
    """Which state of which file `path` is now (stamp_of); None: none (gone, unreadable)."""
    try:
        return stamp_of(os.stat(path))
    except OSError:
        return None


def current_stats(paths: list[str]) -> Stats:
    """The artifacts' stamps now, by stat alone."""
    return tuple(stamp(path) for path in paths)


def parse_batch(items: list[tuple[str, str]]) -> list[Parse]:
    return [parse_file(path, kind) for path, kind in items]


def parsed_of(result: Parse) -> Parsed:
    return result if isinstance(result, Parsed) else result[1]


def collect_parsed(
    project: Project, root: str, settings: Settings, parsed: list[Parsed], accounts: bool = True
) -> ProjectResult:
    """A project's runs, records and problems, from its parsed artifacts (in its own order);
    what became of each file too, where `accounts` are wanted (collect --explain, the dashboard).
    A fault of this code on one project's files costs that project, not the collection: it is
    one problem line, the project's records left out."""
    identity = map_project(project.path, root, settings)
    try:
        return _collect_parsed(project, root, settings, parsed, accounts, identity)
    except Exception as exc:  # noqa: BLE001 (a bug met on real files: reported, never fatal)
        fault = f"not collected: vitis-tui failed on it ({type(exc).__name__}: {exc}), a bug to report"
        return ProjectResult(
            project.path, root, identity, [], [*project.problems, Problem(project.path, fault)], project.built
        )


def _collect_parsed(
    project: Project, root: str, settings: Settings, parsed: list[Parsed], accounts: bool, identity: Identity
) -> ProjectResult:
    for item in parsed:
        item.forget_use()  # a report no run consults this time has no problem to report
    runs, problems = build_runs(project.path, parsed, project.build_dirs, identity)
    problems[:0] = project.problems
    extension = build_extension_records(project.path, parsed, identity, settings, runs)
    problems += extension_problems(extension, project.path)
    lines: list[str] = []
    extension_lines: list[str] = []
    for run in runs:  # nothing its schema rejects is ever written (or shown as collected)
        run.records = keep_valid(run.records, project.path, problems, lines)
    extension = keep_valid(extension, project.path, problems, extension_lines)
    now = time.time_ns()
    # (a time in the future, a clock that runs ahead, is no sign of a writer still at it)
    unsettled = [p.path for p in parsed if p.reported and p.error and 0 <= now - p.mtime_ns < SETTLE_SECONDS * 1e9]
    told = account_project(project.path, parsed, runs, problems, extension) if accounts else {}
    built = project.built
    return ProjectResult(
        project.path, root, identity, runs, problems, built, unsettled, extension, told, lines, extension_lines
    )
