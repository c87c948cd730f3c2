"""Where every file a project's walk found ended up: the source of a record, a copy the pick
passed over, a file read for a run's facts, or a problem line (`collect --explain`, the run
detail). Nothing the registry claims is dropped without a trace."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from typing import Any

from collectors.collect.artifacts import REPORT_KINDS
from collectors.collect.artifacts.loom import split_name
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.discovery import inside
from collectors.collect.projects import NO_PROJECT
from collectors.collect.runs import FEEDS, Run
from collectors.problems import Problem
from collectors.records.model import TARGET_REPORTS, RecordKey, key_of
from collectors.records.store import lost_line

# what each file became, the first word of its line (grep for it)
RECORD, COPY, FACTS, PROBLEM, SKIPPED, UNUSED = "record", "copy", "facts", "problem", "skipped", "unused"
UNWRITTEN = "unwritten"  # a report of a run whose target writes no record of its type (hw, sw_emu)
# files that describe a run or a project rather than report a result of their own
DESCRIBING = frozenset(
    {
        "runner_meta",
        "ide_prj",
        "aps",
        "hls_app",
        "hls_script",
        "hls_config",
        "vitis_comp",
        "aie_graph",
        "aie_summary",
        "xrt_report",
    }
)
LOOM_KINDS = ("loom_map", "loom_config", "loom_snapshot")


def run_label(run: Run) -> str:
    variant = f" {run.variant['index']}_{run.variant['name']}" if run.variant else ""
    return f"{run.target} on {run.device}{variant}"


def account_project(
    project: str,
    parsed: list[Parsed],
    runs: list[Run],
    problems: list[Problem],
    extension_records: list[dict[str, Any]],
) -> dict[str, str]:
    """File path -> what became of it (`VERDICT: detail`), for every artifact of a project."""
    accounts: dict[str, list[str]] = {}
    for run in runs:
        labels = {record["report_type"]: key_of(record).label() for record in run.records}
        for report_type, files in run.sources.items():
            for path in files:
                accounts.setdefault(path, []).append(labels.get(report_type, report_type))
    _extension_sources(project, parsed, extension_records, accounts)
    told = {path: _record_line(fed) for path, fed in accounts.items()}
    on_file = {p.path: p.reason for p in problems}
    for item in parsed:
        if item.path not in told and item.path in on_file:
            told[item.path] = f"{PROBLEM}: {on_file[item.path]}"
    # a solution's line (left out: the path gives the variant, or another solution speaks), deepest first
    folders = sorted((p for p in problems if p.path.startswith(project + os.sep)), key=lambda p: -len(p.path))
    for item in parsed:
        if item.path not in told and (line := _folder_problem(item, folders)) is not None:
            told[item.path] = line
    _run_files(runs, parsed, told)
    for item in parsed:
        if item.path not in told:
            told[item.path] = _rest(item)
    return told


def _extension_sources(
    project: str, parsed: list[Parsed], records: list[dict[str, Any]], accounts: dict[str, list[str]]
) -> None:
    """AIE port files and recipes are their records' subjects; a LOOM record takes every file of
    its DFG and ADG (final mapping, configuration, snapshots)."""
    by_rel = {p.path[len(project) + 1 :].replace(os.sep, "/"): p.path for p in parsed}
    loom = [p for p in parsed if p.kind in LOOM_KINDS]
    for record in records:
        report_type = record["report_type"]
        payload = record[report_type]
        label = key_of(record).label()
        if report_type == "cgra_map":
            for item in loom:
                if split_name(posixpath.basename(item.path)) == (payload["dfg"], payload["adg"]):
                    accounts.setdefault(item.path, []).append(label)
        elif payload["subject"] in by_rel:
            accounts.setdefault(by_rel[payload["subject"]], []).append(label)


def _run_files(runs: list[Run], parsed: list[Parsed], told: dict[str, str]) -> None:
    """A run's other files: a report its target writes no record from (a sw_emu build's system
    diagram, a hw build's reports) is unwritten; another report the run passed over (the pick's
    other copies, an older profile) is a copy; the rest gave the run its facts."""
    by_path = {p.path: p for p in parsed}
    found: dict[str, tuple[int, str]] = {}  # path -> (rank, line): a copy over unwritten over facts
    for run in runs:
        for path in run.files:
            if path in told:
                continue
            item = by_path.get(path)
            report_type = FEEDS.get(item.kind if item else "")
            if item is not None and item.of_another_kind:
                line = (2, _neither(item))
            elif report_type is None:
                line = (2, f"{FACTS}: read for the {run_label(run)} run")
            elif report_type not in TARGET_REPORTS.get(run.target, ()):
                line = (1, f"{UNWRITTEN}: a {run.target} run writes no {report_type} record")
            elif _no_verdict(item) and not run.sources.get(report_type):
                line = (0, f"{SKIPPED}: no C simulation verdict in it: the {run_label(run)} run has no sw_run record")
            else:
                chosen = run.sources.get(report_type, [])
                over = f" (used: {', '.join(chosen)})" if chosen else " (no record yet)"
                line = (0, f"{COPY}: passed over for {report_type} by the {run_label(run)} run{over}")
            found[path] = min(found.get(path, line), line)
    told.update((path, line) for path, (_rank, line) in found.items())


_OTHER_TOOLS = SKIPPED + ": another tool's file of the same name, not a {}"
_EMPTY = SKIPPED + ": an empty {}, nothing in it to read"


def _neither(item: Parsed) -> str:
    """Why a read file gave neither data nor a problem: empty (a log: no problem; psiddire/
    VivadoHLSProjects's solution4.log was called another tool's file), or another tool's."""
    try:
        empty = os.stat(item.path).st_size == 0
    except OSError:
        empty = False
    return (_EMPTY if empty else _OTHER_TOOLS).format(item.kind)


def _no_verdict(item: Parsed | None) -> bool:
    """A C simulation's log that gives no verdict (`csim_design -setup` built the test bench and
    ran nothing: Jasmine-Mao's idct_csim.log, the run's only one, was 'copy: passed over')."""
    return item is not None and item.kind == "csim_log" and item.ok and item.facts.get("csim_status") is None


def _folder_problem(item: Parsed, folders: list[Problem]) -> str | None:
    for problem in folders:
        if item.path.startswith(problem.path.rstrip(os.sep) + os.sep):
            return f"{PROBLEM}: {problem.reason} ({problem.path})"
    return None


def _rest(item: Parsed) -> str:
    """A file no record or run took: another tool's file, a file that describes the project, a
    log no run reads, or (what must never happen to a report) unused."""
    if item.of_another_kind:
        return _neither(item)
    if item.kind in DESCRIBING:
        return f"{FACTS}: describes the project ({item.kind})"
    if item.kind not in REPORT_KINDS:  # a log of another session or tool (an AI Engine tile's <dir>/<dir>.log)
        return f"{SKIPPED}: a {item.kind} that no run of this project reads"
    return f"{UNUSED}: in no run of this project"


def _record_line(labels: list[str]) -> str:
    return f"{RECORD}: {'; '.join(labels)}"


def _labels_fed(line: str) -> list[str]:
    """The keys (labels) a `record:` line says the file fed; none for any other line."""
    return line.removeprefix(f"{RECORD}: ").split("; ") if line.startswith(f"{RECORD}: ") else []


def explain_lines(accounts: dict[str, str], wanted: Iterable[str] = ()) -> list[str]:
    """`PATH: VERDICT: detail` per file, sorted, only those at or below a wanted path (all without)."""
    prefixes = [os.path.abspath(w) for w in wanted]
    lines = []
    for path in sorted(accounts):
        if not prefixes or inside(path, prefixes):
            lines.append(f"{path}: {accounts[path]}")
    return lines


def tree_accounts(
    project_accounts: dict[str, dict[str, str]],
    walk_problems: Iterable[Problem],
    lost: Iterable[tuple[str, RecordKey, str]] = (),
) -> dict[str, str]:
    """Every file of a collection: the projects' accounts (by project) and the reports in no
    project. `lost`: (project, key, owner) of each record not written, another project's line
    holding its key: the files that fed it fed nothing written."""
    merged: dict[str, str] = {}
    for accounts in project_accounts.values():
        for path, told in accounts.items():
            # (a folder's session log is each HLS project's beside it: the run that read it says so)
            if merged.get(path, SKIPPED).startswith(SKIPPED):
                merged[path] = told
    for project, key, owner in lost:
        for path, told in project_accounts.get(project, {}).items():
            fed = _labels_fed(told)
            if key.label() in fed:
                kept = [label for label in fed if label != key.label()]
                merged[path] = _record_line(kept) if kept else f"{PROBLEM}: {lost_line(owner)}"
    for problem in walk_problems:
        if problem.reason == NO_PROJECT:
            merged.setdefault(problem.path, f"{PROBLEM}: {problem.reason}")
    return merged
