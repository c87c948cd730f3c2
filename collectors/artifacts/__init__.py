"""The one registry of artifact parsers.

Each entry says which file names it claims and which pure function turns the file's bytes
into facts. The engine only ever goes through `classify` and `ARTIFACTS`, so a new family
plugs in here without touching discovery or the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .cosim import parse_cosim_rpt
from .csynth import parse_csynth
from .hls_log import parse_csim_log, parse_hls_log
from .latrpt import parse_lat_rpt
from .profile import parse_profile_kernels
from .runner_meta import parse_runner_meta
from .summary import parse_build_summary
from .sysdiagram import parse_system_diagram
from .vpp_log import parse_vpp_log

Parser = Callable[[bytes], dict[str, Any]]
Claim = Callable[[str, str], bool]  # (file name, parent directory name) -> claimed?


@dataclass(frozen=True)
class Artifact:
    kind: str
    claims: Claim
    parse: Parser | None  # None: a structural marker, never read


ARTIFACTS: dict[str, Artifact] = {}


def register(kind: str, claims: Claim, parse: Parser | None) -> None:
    ARTIFACTS[kind] = Artifact(kind, claims, parse)


def _exact(name: str) -> Claim:
    return lambda file, parent: file == name


register("csynth", _exact("csynth.xml"), parse_csynth)
register("lat_rpt", _exact("lat.rpt"), parse_lat_rpt)
register("cosim_rpt", lambda f, p: f.endswith("cosim.rpt"), parse_cosim_rpt)
register("profile", _exact("profile_kernels.csv"), parse_profile_kernels)
register("sysdiagram", _exact("systemDiagramModel.json"), parse_system_diagram)
register("vpp_log", lambda f, p: f.startswith("v++") and f.endswith(".log"), parse_vpp_log)
register("hls_log", lambda f, p: f in ("vitis_hls.log", "vivado_hls.log") or f == p + ".log", parse_hls_log)
register("csim_log", lambda f, p: f.endswith("_csim.log") and p == "report", parse_csim_log)
register("summary", lambda f, p: f.endswith(("compile_summary", "link_summary")), parse_build_summary)
register("runner_meta", lambda f, p: f.startswith("vitis_run.") and f.endswith(".meta"), parse_runner_meta)
register("aps", lambda f, p: f.endswith(".aps"), None)
register("hls_app", lambda f, p: f in ("hls.app", "vivado_hls.app"), None)
register("vitis_comp", _exact("vitis-comp.json"), None)

# Cheap pre-filter on the hot path of the walk: most build files end otherwise.
_ENDINGS = (".xml", ".rpt", ".csv", ".json", ".log", "_summary", ".meta", ".aps", ".app")


def classify(name: str, parent: str) -> str | None:
    """The kind of artifact a file is, from its name and its parent directory's name."""
    if not name.endswith(_ENDINGS):
        return None
    for artifact in ARTIFACTS.values():
        if artifact.claims(name, parent):
            return artifact.kind
    return None
