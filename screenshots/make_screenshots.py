"""Regenerate the SVG screenshots of the main screens into screenshots/.

python screenshots/make_screenshots.py            (all of them)
python screenshots/make_screenshots.py compare    (the compare matrix and the Pareto view only)
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from collectors.collect.config import Settings  # noqa: E402
from collectors.demo import build_agent_tree, build_demo_tree, write  # noqa: E402
from collectors.live.session import LiveSession  # noqa: E402
from tui.app import Dashboard  # noqa: E402
from tui.browse import BrowseApp  # noqa: E402


async def wait_until(pilot, condition, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError("the dashboard did not reach the state to capture")
        await pilot.pause(0.05)


async def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        root = build_demo_tree(directory, projects=12)
        broken = os.path.join(
            root,
            "hotspot",
            "hotspot_1_tiling",
            "_x.hw_emu.xilinx_u250_gen3x16_xdma_4_1_202210_1",
            "link",
            "int",
            "systemDiagramModel.json",
        )
        write(broken, '{"system_diagram_metadata": {"xsa": ')  # a link step cut short: shown as a problem
        output = os.path.join(directory, "results.jsonl")
        app = Dashboard(LiveSession([root], output, lambda r: Settings(), rescan_every=3600))
        async with app.run_test(size=(170, 46)) as pilot:
            await wait_until(pilot, lambda: app.scans >= 1)
            await pilot.pause(0.2)
            app.save_screenshot("dashboard.svg", HERE)
            app.query_one("#runs").focus()
            await pilot.press("down", "down", "enter")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "DetailScreen")
            await pilot.pause(0.2)
            app.save_screenshot("detail.svg", HERE)
            await pilot.press("escape", "question_mark")
            await wait_until(pilot, lambda: type(app.screen).__name__ == "HelpScreen")
            await pilot.pause(0.2)
            app.save_screenshot("help.svg", HERE)
        records = os.path.join(directory, "results.jsonl")
        browse = BrowseApp([records])
        async with browse.run_test(size=(170, 46)) as pilot:
            await wait_until(pilot, lambda: browse.loaded and browse.checked)
            await pilot.press("slash", *"type:hls_synth lut>20000", "enter")
            await pilot.press("right", "right", "right", "right", "right", "right", "right", "right", "s", "s")
            await pilot.press("home", "space", "space")
            await wait_until(pilot, lambda: len(browse.view.marks) == 2)
            await pilot.pause(0.2)
            browse.save_screenshot("browse.svg", HERE)
    await compare_screens()
    names = ("dashboard.svg", "detail.svg", "help.svg", "browse.svg", "compare.svg", "pareto.svg")
    print("wrote", ", ".join(os.path.join(HERE, n) for n in names))


async def compare_screens() -> None:
    """The compare matrix and the Pareto view on the headless demo (benchmark tree and AI arm)."""
    from tui.cli import main as cli_main

    with tempfile.TemporaryDirectory() as directory:
        root, agent = build_demo_tree(directory), build_agent_tree(directory)
        records = os.path.join(directory, "demo.jsonl")
        assert cli_main(["collect", root, agent, "-o", records, "--quiet"]) == 0
        browse = BrowseApp([records])
        async with browse.run_test(size=(150, 40)) as pilot:
            await wait_until(pilot, lambda: browse.loaded)
            await pilot.press("c")
            await wait_until(pilot, lambda: type(browse.screen).__name__ == "CompareScreen" and browse.screen.ready)
            await pilot.press("down", "down", "down")  # hotspot, where the agent has three steps
            await pilot.pause(0.2)
            browse.save_screenshot("compare.svg", HERE)
            await pilot.press("p")
            await wait_until(pilot, lambda: type(browse.screen).__name__ == "ParetoScreen")
            await pilot.pause(0.2)
            browse.save_screenshot("pareto.svg", HERE)


if __name__ == "__main__":
    asyncio.run(compare_screens() if sys.argv[1:] == ["compare"] else main())
