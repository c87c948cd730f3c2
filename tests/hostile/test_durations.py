"""Durations given to `watch` (`--poll`, `--rescan`, `VITIS_TUI_POLL`): positive and bounded, or a
clear error with exit 2 (a zero or negative period once made an idle watch spin a whole core)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.cli import main

REFUSED = [
    ("--rescan", "0", "0 is out of range: give seconds from 1 to 86400"),
    ("--rescan", "-5", "-5 is out of range: give seconds from 1 to 86400"),
    ("--rescan", "nan", "nan is out of range: give seconds from 1 to 86400"),
    ("--rescan", "inf", "inf is out of range: give seconds from 1 to 86400"),
    ("--rescan", "1e300", "1e300 is out of range: give seconds from 1 to 86400"),
    ("--rescan", "soon", "'soon' is not a number of seconds"),
    ("--poll", "-1", "-1 is out of range: give seconds from 0.1 to 3600"),
    ("--poll", "0", "0 is out of range: give seconds from 0.1 to 3600"),
    ("--poll", "0.001", "0.001 is out of range: give seconds from 0.1 to 3600"),
    ("--poll", "NaN", "NaN is out of range: give seconds from 0.1 to 3600"),
    ("--poll", "-inf", "-inf is out of range: give seconds from 0.1 to 3600"),
    ("--poll", "99999999", "99999999 is out of range: give seconds from 0.1 to 3600"),
]


@pytest.mark.parametrize(("flag", "value", "message"), REFUSED)
def test_a_duration_out_of_range_is_refused(
    tmp_path: Path, flag: str, value: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["watch", str(tmp_path), f"{flag}={value}"])  # (as -inf would read as an option)
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"vitis-tui watch: error: argument {flag}: {message}"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("-1", "-1 is out of range: give seconds from 0.1 to 3600"),
        ("0", "0 is out of range: give seconds from 0.1 to 3600"),
        ("nan", "nan is out of range: give seconds from 0.1 to 3600"),
        ("inf", "inf is out of range: give seconds from 0.1 to 3600"),
        ("1e9", "1e9 is out of range: give seconds from 0.1 to 3600"),
        ("often", "'often' is not a number of seconds"),
    ],
)
def test_the_poll_environment_variable_is_checked_alike(
    tmp_path: Path, value: str, message: str, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VITIS_TUI_POLL", value)
    ran = cli("watch", str(tmp_path))
    assert (ran.code, ran.err) == (2, f"vitis-tui watch: VITIS_TUI_POLL={value}: {message}\n")


@pytest.mark.parametrize(
    ("flag", "value"), [("--poll", "0.1"), ("--poll", "3600"), ("--rescan", "1"), ("--rescan", "86400")]
)
def test_the_bounds_themselves_are_accepted(tmp_path: Path, flag: str, value: str, cli) -> None:
    ran = cli("watch", str(tmp_path), flag, value)
    assert ran.code == 2 and "needs an interactive terminal" in ran.err  # past the checks (no terminal here)


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "1e9"])
def test_the_demo_pace_is_bounded(tmp_path: Path, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["demo", str(tmp_path / "demo"), f"--pace={value}"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"vitis-tui demo: error: argument --pace: {value} is out of range: give times from 0.01 to 100"
    )
