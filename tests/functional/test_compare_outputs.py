"""`--format latex` and `--format html`: escapes, a page that works offline, every number equal to
the json output's, and the page as a real browser draws it (headless Chromium, where installed)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from collectors.compare.comparison import compare
from collectors.compare.model import Options
from collectors.compare.render import render, visible
from collectors.compare.render_latex import tex
from tui.cli import main

from ..compare_records import synth
from ..png import read_png

PRODUCERS = Path(__file__).resolve().parents[1] / "fixtures" / "producers"
SONNET = PRODUCERS / "c2hls__u280_sonnet_vs_gold__first35.jsonl"
OPTIONS = ["--oracle", "--fast-p", "1,2"]


def test_latex_is_a_booktabs_tabular_with_every_special_escaped(capsys: pytest.CaptureFixture) -> None:
    assert tex("a&b_%$#{}~^\\ 1.5× 1–2 —") == (
        r"a\&b\_\%\$\#\{\}\textasciitilde{}\textasciicircum{}\textbackslash{} 1.5$\times$ 1--2 ---"
    )
    assert tex("x\x1by") == r"x\textbackslash{}x1by"  # a control character made visible, then escaped
    records = [synth("p&q", "x_benchmark", worst=300), synth("p&q", "50%_{ai}", worst=100)]
    text = render(compare(records, Options()), "latex")
    lines = text.splitlines()
    assert lines[1] == r"\begin{tabular}{llr}" and lines[2] == r"\toprule" and lines[-1] == r"\end{tabular}"
    assert r"problem & baseline & 50\%\_\{ai\} \\" in lines
    assert r"s/p\&q & x\_benchmark\#0 v: 300 & 3$\times$ \\" in lines
    assert r"geomean [95\% CI] (n/N) &  & 3$\times$ [3-3] (1/1) \\" in lines
    for line in (line for line in lines[1:] if not line.startswith("\\")):  # cells: no special left bare
        bare = re.sub(r"\\(textbackslash|textasciitilde|textasciicircum)\{\}|\\[&%$#_{}]|\$\\times\$|\\\\", "", line)
        assert not re.search(r"[&%$#_{}~^]", bare.replace(" & ", " ")), line
    assert main(["compare", str(SONNET), "--format", "latex"]) == 0
    assert r"\bottomrule" in capsys.readouterr().out


class Numbers(HTMLParser):
    """Every element with data-path: (path, value); and anything that would reach outside the page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []
        self.outside: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if "data-path" in named and "data-value" in named:
            self.found.append((str(named["data-path"]), str(named["data-value"])))
        if tag in ("script", "link", "img", "iframe") or any(k in ("src", "href") for k in named):
            self.outside.append(tag)


def at(data: Any, path: str) -> Any:
    for part in path.split("/"):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def test_every_number_of_the_html_equals_the_json_output(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["compare", str(SONNET), "--format", "json", *OPTIONS]) == 0
    data = json.loads(capsys.readouterr().out)
    page = tmp_path / "report.html"
    assert main(["compare", str(SONNET), "-o", str(page), *OPTIONS]) == 0  # the ending picks html
    text = page.read_text(encoding="utf-8")
    numbers = Numbers()
    numbers.feed(text)
    assert numbers.outside == [] and "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    paths = {path for path, _ in numbers.found}
    # the 8 answers and 4 virtual-best cells, every arm's geomean, interval and spread, the pair
    assert {f"rows/{n}/speedup" for n in range(8)} <= paths and "oracle_cells/3/speedup" in paths
    assert {"arms/0/geomean", "arms/2/ci95/0", "arms/1/ci95/1", "arms/1/fast_p/2", "pairs/0/p_value"} <= paths
    for path, value in numbers.found:
        assert float(value) == at(data, path), path
    assert len(numbers.found) >= 60
    # the text shown is the table's rounding of the same number: no_skills' geomean 5.6436x
    assert 'data-path="arms/1/geomean" data-value="5.6436057' in text and ">5.64×</td>" in text


def test_the_page_in_a_real_browser(tmp_path: Path) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("no chromium here (.ci/run installs it)")
    page, shot = tmp_path / "report.html", tmp_path / "shot.png"
    assert main(["compare", str(SONNET), "-o", str(page), "--format", "html"]) == 0
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    command += ["--window-size=900,700", f"--screenshot={shot}", page.as_uri()]
    subprocess.run(command, capture_output=True, timeout=120, check=False)
    pixels = read_png(shot.read_bytes())
    assert len(pixels) == 700 and len(pixels[0]) == 900
    colours: dict[tuple[int, int, int], int] = {}
    for row in pixels[::2]:
        for pixel in row[::2]:
            colours[pixel] = colours.get(pixel, 0) + 1
    # the better cells' green (#c8e6c9: 2mm, atax, bicg of both arms) and the worse cell's red
    # (#ffcdd2: base_skills' 3mm) are drawn, over large areas: the page is laid out, not blank
    assert colours.get((0xC8, 0xE6, 0xC9), 0) > 2000
    assert colours.get((0xFF, 0xCD, 0xD2), 0) > 300
    assert sum(n for c, n in colours.items() if sum(c) < 200) > 500  # dark text
    assert visible("ok") == "ok"


def test_hostile_names_stay_text_in_the_page_and_the_table() -> None:
    evil = '<script>alert("x")</script>\x1b[31m&'
    records = [synth("p", "x_benchmark", worst=300), synth(evil, "x_benchmark", worst=300)]
    records += [synth("p", evil, worst=100), synth(evil, evil, worst=100)]
    result = compare(records, Options(oracle=True))
    page = render(result, "html")
    numbers = Numbers()
    numbers.feed(page)
    assert numbers.outside == [] and "<script>" not in page and "\x1b" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\\x1b[31m&amp;" in page
    latex = render(result, "latex")
    assert "\x1b" not in latex and r"<script>alert(\"x\")" not in latex and r"\textbackslash{}x1b[31m\&" in latex
