"""The line-API tables' rows (tui/widgets/rows_view.py), through the problems table."""

from __future__ import annotations

from textual.app import App, ComposeResult

from collectors.problems import Problem
from tui.widgets.tables import ProblemsTable


class ProblemsApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ProblemsTable(["/t"], id="problems")


async def test_a_source_whose_problems_are_replaced_keeps_one_row_each() -> None:
    """Replacing a source's problems removes its rows and puts rows under the same keys again, in
    one batch: each is shown once, in its place; the source's other row goes."""
    app = ProblemsApp()
    async with app.run_test() as pilot:
        table = app.query_one(ProblemsTable)
        table.replace("/t/a", [Problem("/t/a/x.xml", "truncated"), Problem("/t/a/y.xml", "empty")])
        table.replace("/t/b", [Problem("/t/b/z.xml", "unreadable")])
        table.replace("/t/a", [Problem("/t/a/x.xml", "truncated")])
        await pilot.pause()
        assert table.rows == ["/t/a\x1f0", "/t/b\x1f0"]
        assert [table.get_row(key)[:2] for key in table.rows] == [["a/x.xml", "truncated"], ["b/z.xml", "unreadable"]]
        lines = ["".join(segment.text for segment in table.render_line(y)) for y in range(1, 4)]
        assert "a/x.xml" in lines[0] and "b/z.xml" in lines[1] and lines[2].strip() == ""
