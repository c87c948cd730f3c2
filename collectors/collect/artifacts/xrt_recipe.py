"""XRT runner recipes (`recipe*.json`, the XRT runner's format): validity, the runner's own load-time checks, counts.

The shipped recipe schema lags the runner, so its failures are warnings; what the runner itself
refuses when it loads a recipe is an error.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from importlib import resources
from typing import Any

from collectors.files import load_json
from collectors.problems import NotThisKind
from collectors.records.model import as_dict

RECIPE_SECTIONS = frozenset({"header", "resources", "execution"})


@cache
def recipe_schema():
    from jsonschema import Draft202012Validator  # imported when a recipe is seen: collect starts faster

    text = resources.files("collectors.records.schema").joinpath("xrt-recipe.schema.json").read_text(encoding="utf-8")
    return Draft202012Validator(json.loads(text))


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def runner_errors(recipe: dict) -> list[str]:
    """What xrt::runner refuses at load time (the schema does not say all of it)."""
    resources_ = as_dict(recipe.get("resources"))
    buffers = [as_dict(b) for b in _list(resources_.get("buffers"))]
    kernels = [as_dict(k) for k in _list(resources_.get("kernels"))]
    cpus = [as_dict(c) for c in _list(resources_.get("cpus"))]
    errors = _duplicate_names({"buffers": buffers, "kernels": kernels, "cpus": cpus})
    errors += [
        f"resources.buffers: internal buffer {b.get('name')!r} has no size"
        for b in buffers
        if b.get("type") == "internal" and "size" not in b
    ]
    errors += [_cpu_error(cpu) for cpu in cpus if "library_name" not in cpu]
    names = {
        "buffers": {b.get("name") for b in buffers},
        "kernels": {k.get("name") for k in kernels},
        "cpus": {c.get("name") for c in cpus},
    }
    for number, run in enumerate(_list(as_dict(recipe.get("execution")).get("runs"))):
        errors += _run_errors(number, as_dict(run), names)
    return errors


def _duplicate_names(sections: dict[str, list[dict]]) -> list[str]:
    errors = []
    for section, items in sections.items():
        counts = Counter(item.get("name") for item in items)
        errors += [f"resources.{section}: duplicate name {name!r}" for name, n in counts.items() if n > 1]
    return errors


def _cpu_error(cpu: dict) -> str:
    """A cpu without library_name: runner.cpp create_cpu loads it; the documented library_path is not read."""
    if "library_path" in cpu:
        return (
            f"resources.cpus: {cpu.get('name')!r} gives library_path, which the runner does not read:"
            " it needs library_name"
        )
    return f"resources.cpus: {cpu.get('name')!r} has no library_name"


def _run_errors(number: int, run: dict, names: dict[str, set]) -> list[str]:
    """One run's references to resources and its argument indices."""
    errors = []
    name, where = run.get("name"), run.get("where", "npu")
    label = f"execution.runs[{number}] ({name})"
    if where == "cpu" and name not in names["cpus"]:
        errors.append(f"{label}: no cpu function {name!r} in resources.cpus")
    elif where != "cpu" and name not in names["kernels"]:
        errors.append(f"{label}: no kernel {name!r} in resources.kernels")
    used: dict[Any, str] = {}
    for argument in map(as_dict, _list(run.get("arguments"))):
        if argument.get("name") not in names["buffers"]:
            errors.append(f"{label}: argument buffer {argument.get('name')!r} is not in resources.buffers")
        if argument.get("argidx") in used:
            errors.append(f"{label}: argidx {argument.get('argidx')} used twice")
        used[argument.get("argidx")] = "argument"
    for constant in map(as_dict, _list(run.get("constants"))):
        index = constant.get("argidx")
        if index in used:
            errors.append(f"{label}: argidx {index} is both a {used[index]} and a constant")
        used[index] = "constant"
        if constant.get("type") == "int" and isinstance(constant.get("value"), str):
            errors.append(f"{label}: int constant at argidx {index} is given as the string {constant.get('value')!r}")
    return errors


def runlists(runs: list) -> tuple[int, int]:
    """(CPU runlists, NPU runlists): the runner groups each contiguous stretch of one kind."""
    cpu = npu = 0
    previous = None
    for run in runs:
        where = "cpu" if as_dict(run).get("where") == "cpu" else "npu"
        if where != previous:
            cpu, npu = (cpu + 1, npu) if where == "cpu" else (cpu, npu + 1)
            previous = where
    return cpu, npu


def parse_recipe(data: bytes) -> dict[str, Any]:
    recipe = load_json(data, "recipe")
    if not isinstance(recipe, dict) or not RECIPE_SECTIONS & recipe.keys():
        raise NotThisKind("no header, resources or execution section: not a run recipe")
    warnings = [
        f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
        for e in sorted(recipe_schema().iter_errors(recipe), key=lambda e: list(map(str, e.absolute_path)))
    ]
    errors = runner_errors(recipe)
    resources_ = as_dict(recipe.get("resources"))
    runs = _list(as_dict(recipe.get("execution")).get("runs"))
    cpu, npu = runlists(runs)
    header = as_dict(recipe.get("header"))
    return {
        "valid": not errors,
        "errors": errors,
        "schema_warnings": warnings,
        "configuration": header.get("xclbin") or header.get("program"),
        "buffers": dict(Counter(str(as_dict(b).get("type")) for b in _list(resources_.get("buffers")))),
        "buffers_total": len(_list(resources_.get("buffers"))),
        "kernels": len(_list(resources_.get("kernels"))),
        "cpu_functions": len(_list(resources_.get("cpus"))),
        "runs": len(runs),
        "cpu_runlists": cpu,
        "npu_runlists": npu,
    }


def parse_runner_report(data: bytes) -> dict[str, Any]:
    """An xrt-runner jobs report (`{"jobs": {name: {cpu, hwctx, resources, xclbin}}}`): per job,
    elapsed and latency (us), throughput (op/s), iterations. A JSON file of another kind is
    another tool's file, not a problem: report names are not distinctive enough to claim."""
    report = load_json(data, "runner report")
    jobs = report.get("jobs") if isinstance(report, dict) else None
    if not isinstance(jobs, dict):
        raise NotThisKind("no jobs: not an xrt-runner report")
    out = {}
    for name, job in sorted(jobs.items()):
        cpu, res = as_dict(as_dict(job).get("cpu")), as_dict(as_dict(job).get("resources"))
        out[str(name)] = {
            "elapsed_us": cpu.get("elapsed"),
            "latency_us": cpu.get("latency"),
            "throughput_ops": cpu.get("throughput"),
            "iterations": cpu.get("iterations"),
            "runs": res.get("runs"),
            "buffers": res.get("buffers"),
        }
    return {"jobs": out}
