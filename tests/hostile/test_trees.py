"""Names that are not UTF-8, profiles still being written or cut short,
and symbolic links that lead out of the tree."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from collectors.collect.config import Settings
from collectors.live.session import LiveCollection

from .. import trees
from ..conftest import place, set_mtime
from .conftest import records

PROFILE = ".run/1585848/hw_em/device0/binary_0/behav_waveform/xsim/profile_kernels.csv"
HEADER = (
    "Compute Units: Running Time and Stalls\n"
    "Compute Unit, Running Time (us), Intra-Kernel Dataflow Stalls (%), External Memory Stalls (%), "
    "External Stream Stalls (%)\n"
)
ROWS = [f"topKQueryScores_{n},1000.000,0.000,0.148,0.000\n" for n in range(1, 5)]
REST = "\nFunctions: Running Time and Stalls\nCompute Unit, Function, Running Time (us)\n"


def rtl_sim_us(out: Path) -> list[float | None]:
    return [r["rtl_sim"]["kernel_runtime_us"] for r in records(out) if r["report_type"] == "rtl_sim"]


# --- item 2: names that are not valid UTF-8 ---------------------------------------------------


def test_directory_name_not_utf8_is_a_problem_shown_escaped(tmp_path: Path, cli) -> None:
    root = tmp_path / "root"
    project = trees.hls_two_solutions(root)
    trees.hw_emu_build(root)
    bad = os.fsencode(project.parent.parent) + b"/gr\xffoup"
    os.rename(os.fsencode(project.parent), bad)
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(root), "-o", str(out))
    assert ran.code == 0
    shown = f"{root}/Benchmarks/gr\\xffoup/fft_2_opt"
    assert ran.problems == [
        f"{shown}: {kind} record of {target} on xc7z030-sbv485-1 not written: "
        "a name that is not valid UTF-8 cannot be written in JSON"
        for kind, target in (("hls_synth", "vitis.cosim"), ("rtl_sim", "vitis.cosim"), ("sw_run", "vitis.csim"))
    ]
    assert len(records(out)) == 2  # the other project is whole
    out.read_bytes().decode("utf-8")  # strict UTF-8


def test_file_names_not_utf8_beside_reports_cost_nothing(tmp_path: Path, cli) -> None:
    root = tmp_path / "root"
    project = trees.hls_two_solutions(root)
    (Path(os.fsdecode(os.fsencode(project) + b"/notes-\xe9\xff.txt"))).write_text("x")
    os.mkdir(os.fsencode(project) + b"/proj/\xfe\xfe")
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(root), "-o", str(out))
    assert (ran.code, ran.problems, len(records(out))) == (0, [], 3)  # (but the left-out solution's line)


# --- item 10: a profile is read only when complete ---------------------------------------------


def test_profile_cut_after_two_of_four_units_is_a_problem_not_a_partial_sum(tmp_path: Path, cli) -> None:
    project = trees.hw_emu_build(tmp_path / "root")
    profile = project / PROFILE
    profile.write_text(HEADER + "".join(ROWS[:2]))
    set_mtime(profile, 60)  # long finished: not a file still being written
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(tmp_path / "root"), "-o", str(out))
    assert f"{profile}: compute-unit section has no end (file cut short or still being written)" in ran.problems
    assert rtl_sim_us(out) == []


def test_complete_profile_sums_every_unit(tmp_path: Path, cli) -> None:
    project = trees.hw_emu_build(tmp_path / "root")
    (project / PROFILE).write_text(HEADER + "".join(ROWS) + REST)
    out = tmp_path / "out.jsonl"
    assert cli("collect", str(tmp_path / "root"), "-o", str(out)).code == 0
    assert rtl_sim_us(out) == [4000.0]


def test_profile_written_row_by_row_while_watching_is_retried_never_partial(tmp_path: Path) -> None:
    root = tmp_path / "root"
    project = trees.hw_emu_build(root)
    profile = project / PROFILE
    live = LiveCollection([str(root)], str(tmp_path / "out.jsonl"), lambda r: Settings())
    live.scan()

    def runtimes() -> list[float]:
        records = [json.loads(line) for line in live.output.records.render().splitlines()]
        return [r["rtl_sim"]["kernel_runtime_us"] for r in records if r["report_type"] == "rtl_sim"]

    seen = []
    for count in range(5):
        profile.write_text(HEADER + "".join(ROWS[:count]))  # the writer is at it: mtime is now
        live.refresh([str(project)])
        assert live.results[str(project)].unsettled  # looked at again later, not a record with a part
        seen += runtimes()
    profile.write_text(HEADER + "".join(ROWS) + REST)
    live.refresh([str(project)])
    assert not live.results[str(project)].unsettled
    assert seen == []
    assert runtimes() == [4000.0]


# --- item 14: symbolic links out of the roots ---------------------------------------------------


def test_directory_link_to_slash_is_not_walked(tmp_path: Path, cli) -> None:
    root = tmp_path / "root"
    project = trees.hls_two_solutions(root)
    os.symlink("/", project / "everything")
    out = tmp_path / "out.jsonl"
    started = time.monotonic()
    ran = cli("collect", str(root), "-o", str(out))
    assert time.monotonic() - started < 10
    assert ran.problems == [
        f"{project / 'everything'}: symbolic link to /, outside the roots: not followed (--follow-outside allows it)"
    ]
    assert len(records(out)) == 3


def test_runner_metadata_linked_to_etc_passwd_is_not_read(tmp_path: Path, cli) -> None:
    root = tmp_path / "root"
    project = trees.hls_two_solutions(root)
    secret = tmp_path / "outside" / "passwd"
    place(tmp_path, "outside/passwd", text="".join(f"user{n}:x:{n}:{n}::/home/user{n}:/bin/sh\n" for n in range(25)))
    os.symlink(secret, project / "vitis_run.meta")
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(root), "-o", str(out))
    assert ran.problems == [
        f"{project / 'vitis_run.meta'}: symbolic link to {secret}, outside the roots: not followed "
        "(--follow-outside allows it)"
    ]
    assert "user1" not in ran.err


def test_report_linked_from_outside_gives_no_values_unless_allowed(tmp_path: Path, cli) -> None:
    root = tmp_path / "root"
    project = trees.waiting_solution(root)
    outside = place(tmp_path, "elsewhere/csynth.xml", "SherlockChristie-FFT__FFT_sol_2__opt1__syn__report__csynth.xml")
    link = project / "proj/solution1/syn/report/csynth.xml"
    link.parent.mkdir(parents=True)
    os.symlink(outside, link)
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(root), "-o", str(out))
    assert f"{link}: symbolic link to {outside}, outside the roots: not followed (--follow-outside allows it)" in (
        ran.problems
    )
    assert [r["run"]["device"] for r in records(out)] == []  # nothing from the file outside
    allowed = cli("collect", str(root), "-o", str(out), "--follow-outside")
    assert [r["run"]["device"] for r in records(out)] == ["xc7z030-sbv485-1"]
    assert "outside the roots" not in allowed.err


def test_link_inside_the_roots_is_followed(tmp_path: Path, cli) -> None:
    root = tmp_path / "root"
    project = trees.waiting_solution(root)
    shared = place(root, "shared-reports/csynth.xml", "SherlockChristie-FFT__FFT_sol_2__opt1__syn__report__csynth.xml")
    link = project / "proj/solution1/syn/report/csynth.xml"
    link.parent.mkdir(parents=True)
    os.symlink(shared, link)
    out = tmp_path / "out.jsonl"
    ran = cli("collect", str(root), "-o", str(out))
    assert (ran.code, [r["run"]["device"] for r in records(out)]) == (0, ["xc7z030-sbv485-1"])
    assert "outside the roots" not in ran.err  # (the shared folder itself is in no project: said so)


def test_a_file_that_is_not_runner_metadata_is_not_echoed_line_by_line(tmp_path: Path, cli) -> None:
    root = tmp_path / "root"
    project = trees.hls_two_solutions(root)
    lines = "".join(f"user{n}:x:{n}:{n}:Full Name of user number {n}:/home/user{n}:/bin/sh\n" for n in range(25))
    meta = place(project, "vitis_run.meta", text=lines)
    ran = cli("collect", str(root), "-o", str(tmp_path / "out.jsonl"))
    assert [p for p in ran.problems if p.startswith(str(meta))] == [
        f"{meta}: line 1: expected key=value, got 'user0:x:0:0:Full Name of user number 0:/'",
        f"{meta}: line 2: expected key=value, got 'user1:x:1:1:Full Name of user number 1:/'",
        f"{meta}: line 3: expected key=value, got 'user2:x:2:2:Full Name of user number 2:/'",
        f"{meta}: 22 more malformed lines not shown",
    ]
