"""Extension records: AI Engine simulator output, XRT run recipes, LOOM mappings (docs/collection.md,
"Extension families").

The same envelope as schema 1.0 with one payload named after `report_type`; they go to a second
file so the schema-1.0 file stays strictly valid. Pure: works on parsed artifacts.
"""

from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Iterable
from typing import Any, cast

from collectors.collect.artifacts import ARTIFACTS
from collectors.collect.artifacts.aie import throughputs
from collectors.collect.artifacts.loom import snapshot_of, split_name
from collectors.collect.artifacts.parsed import Parsed
from collectors.collect.config import Settings
from collectors.collect.mapping import Identity
from collectors.collect.runs import Run
from collectors.problems import Problem
from collectors.records.model import RunFacts, make_record

UNKNOWN = "unknown"


def _envelope(
    report_type: str,
    target: str,
    device: str,
    version: str | None,
    identity: Identity,
    payload: dict[str, Any],
    group_extra: list[str] | None = None,
) -> dict[str, Any]:
    # (an extension record's version may be null where no build names it: the schema allows it)
    run = cast(RunFacts, {"target": target, "device": device, "vitis_version": version, "runtime_seconds": None})
    record = make_record(report_type, run, identity, payload)
    if group_extra:  # (the record's problem is a copy: the identity's stays as it is)
        record["problem"] = {**identity.problem, "group_path": [*identity.problem["group_path"], *group_extra]}
    return record


def _project_device(runs: list[Run]) -> tuple[str, str | None]:
    """The device and Vitis version the project's own builds name, when they name one only."""
    devices = {r.device for r in runs if r.device != UNKNOWN}
    versions = {r.vitis_version for r in runs if r.vitis_version != UNKNOWN}
    return (devices.pop() if len(devices) == 1 else UNKNOWN), (versions.pop() if len(versions) == 1 else None)


def build_extension_records(
    project: str, parsed: Iterable[Parsed], identity: Identity, settings: Settings, runs: list[Run]
) -> list[dict[str, Any]]:
    items = [p for p in parsed if ARTIFACTS[p.kind].family != "hls" and p.ok]  # hls reports stay unread
    cut = len(project) + 1
    rel = {p.path: p.path[cut:] for p in items}
    device, version = _project_device(runs)
    return (
        _aie_records(items, rel, device, version, identity, settings)
        + _xrt_records(items, rel, version, identity)
        + _loom_records(items, identity)
    )


def _aie_records(
    items: list[Parsed],
    rel: dict[str, str],
    device: str,
    version: str | None,
    identity: Identity,
    settings: Settings,
) -> list[dict[str, Any]]:
    """One record per PLIO output file."""
    declared: dict[str, dict[str, Any]] = {}
    widths: set[int] = set()
    for graph in (p for p in items if p.kind == "aie_graph"):
        declared.update(graph.facts["plio"])
        widths.update(graph.facts.get("output_widths", []))
    only_width = next(iter(widths)) if len(widths) == 1 else None  # names built at run time
    records = []
    for item in (p for p in items if p.kind.startswith("aie_output:")):
        simulator = item.kind.partition(":")[2].removesuffix("_output")
        declaration = declared.get(posixpath.basename(rel[item.path]), {})
        per_sample, decided = _values_per_sample(rel[item.path], declaration, settings)
        plio_bits = declaration.get("plio_bits") or only_width
        payload = {
            "subject": rel[item.path],
            "port": declaration.get("port"),
            "simulator": simulator,
            "plio_bits": plio_bits,
            "sample_type": decided,
            **throughputs(item.facts, per_sample, plio_bits),
        }
        run_device, run_version = _aie_run_facts(items, rel, rel[item.path], (device, version))
        records.append(_envelope("aie_sim", f"vitis.{simulator}", run_device, run_version, identity, payload))
    return records


def _aie_run_facts(
    items: list[Parsed], rel: dict[str, str], output: str, project: tuple[str, str | None]
) -> tuple[str, str | None]:
    """The device and version of the simulator's run summary nearest above an output file (in its
    output folder or above it), before what the project's builds name."""
    device, version = project
    folder = posixpath.dirname(output)
    best: tuple[int, Parsed] | None = None
    for summary in (p for p in items if p.kind == "aie_summary"):
        where = posixpath.dirname(rel[summary.path])
        if where == "" or folder == where or folder.startswith(where + "/"):
            if best is None or len(where) > best[0]:
                best = (len(where), summary)
    if best is None:
        return device, version
    facts = best[1].facts
    return facts["platform"] or device, facts["vitis_version"] or version


def _xrt_records(
    items: list[Parsed], rel: dict[str, str], version: str | None, identity: Identity
) -> list[dict[str, Any]]:
    """One record per recipe, with the runner's reports from the same directory."""
    records = []
    for item in (p for p in items if p.kind == "xrt_recipe"):
        jobs: dict[str, Any] = {}
        for report in (p for p in items if p.kind == "xrt_report" and p.facts.get("jobs")):
            if posixpath.dirname(report.path) == posixpath.dirname(item.path):
                jobs.update(report.facts["jobs"])
        payload = {"subject": rel[item.path], **item.facts, "runner_report": jobs or None}
        configuration = item.facts.get("configuration")
        records.append(_envelope("xrt_recipe", "xrt.runner", configuration or UNKNOWN, version, identity, payload))
    return records


EMPTY_MAPPING = {
    "mapped_nodes": None,
    "unmapped_nodes": None,
    "edges": None,
    "timing": None,
    "techmap": None,
    "search": None,
    "memory_regions": None,
}


def _loom_records(items: list[Parsed], identity: Identity) -> list[dict[str, Any]]:
    """One record per (DFG, ADG); snapshots update it while the mapper runs."""
    records = []
    for (dfg, adg), entry in sorted(_loom_mappings(items).items()):
        seen = {_snapshot_key(s): (s, facts) for s, facts in entry["snapshots"] if facts is None}
        seen.update((_snapshot_key(s), (s, facts)) for s, facts in entry["snapshots"] if facts is not None)
        snapshots = sorted(seen.values(), key=lambda s: _snapshot_key(s[0]))
        mapped = [facts for _s, facts in snapshots if facts is not None]
        mapping = entry["final"] or (mapped[-1] if mapped else None)
        payload = {
            "subject": dfg,
            "dfg": dfg,
            "adg": adg,
            "state": "final" if entry["final"] else "in_progress" if snapshots else "config_only",
            **(mapping or EMPTY_MAPPING),
            "config": entry["config"],
            "snapshots": [s for s, _ in snapshots],
        }
        records.append(_envelope("cgra_map", "loom.map", adg, None, identity, payload, [dfg]))
    return records


def _snapshot_key(snapshot: dict[str, Any]) -> tuple[int, int, str]:
    """One place in the sequence per snapshot, whichever of its files (map, config) were seen."""
    return (snapshot["sequence"], snapshot["ordinal"] or 0, snapshot["trigger"] or "")


def _loom_mappings(items: list[Parsed]) -> dict[tuple[str, str], dict[str, Any]]:
    """(DFG, ADG) -> its final mapping, configuration and snapshots."""
    mappings: dict[tuple[str, str], dict[str, Any]] = {}
    for item in (p for p in items if p.kind in ("loom_map", "loom_config", "loom_snapshot")):
        name = posixpath.basename(item.path)
        names = split_name(name)
        if names is None:
            continue  # a snapshot file whose name gives no DFG and ADG feeds no record
        entry = mappings.setdefault(names, {"final": None, "config": None, "snapshots": []})
        snapshot = snapshot_of(name)
        if item.kind == "loom_config":
            entry["config"] = item.facts
        elif snapshot is not None:  # a map.json snapshot carries a mapping; the others only their place
            entry["snapshots"].append((snapshot, item.facts if item.kind == "loom_map" else None))
        elif item.kind == "loom_map":
            entry["final"] = item.facts
    return mappings


def _values_per_sample(path: str, declaration: dict[str, Any], settings: Settings) -> tuple[int, str]:
    """(2 for complex data, 1 for real; how that was decided): the graph's PLIO declaration, else
    configuration, else the reference script's default (real: every value is a sample)."""
    complex_ = declaration.get("complex")
    if complex_ is not None:
        return (2 if complex_ else 1), "declared"
    name = posixpath.basename(path)
    for globs, per_sample in ((settings.aie_complex, 2), (settings.aie_real, 1)):
        if any(fnmatch.fnmatch(name, g) or fnmatch.fnmatch(path, g) for g in globs):
            return per_sample, "configured"
    return 1, "assumed"


def extension_problems(records: list[dict[str, Any]], project: str) -> list[Problem]:
    """Recipe errors are problems of their recipe file; a device nothing names is a problem of
    its run (COLLECTION_RULES 4.4), once per run: a simulator's output folder, a recipe."""
    found = []
    unknown: dict[str, str] = {}
    for record in records:
        kind = record["report_type"]
        subject = record[kind]["subject"]
        if kind == "xrt_recipe":
            path = posixpath.join(project, subject)
            found += [Problem(path, f"recipe: {error}") for error in record[kind]["errors"]]
        if record["run"]["device"] == UNKNOWN and kind in _UNKNOWN_DEVICE:  # (an ADG may be called so)
            where, why = _UNKNOWN_DEVICE[kind](subject)
            unknown.setdefault(posixpath.join(project, where), f"{record['run']['target']} run: device unknown ({why})")
    return found + [Problem(path, text) for path, text in unknown.items()]


def _output_folder(subject: str) -> str:
    """A PLIO output file's simulator output folder (`.../aiesimulator_output`): its run's."""
    parts = subject.split("/")
    ends = [n for n, part in enumerate(parts[:-1]) if part.endswith("simulator_output")]
    return "/".join(parts[: ends[0] + 1]) if ends else posixpath.dirname(subject)


# where a record of each kind has its run, and why its device can be unknown (loom's is its ADG)
_UNKNOWN_DEVICE = {
    "aie_sim": lambda subject: (
        _output_folder(subject),
        "no simulator run summary in or above its output folder, and the runs of the project name no single device",
    ),
    "xrt_recipe": lambda subject: (subject, "the recipe names no xclbin or program"),
}
