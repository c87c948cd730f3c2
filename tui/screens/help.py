"""The help screen: every binding of the app, with what it does."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.keys import QUIT_FROM_MODAL


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark", "app.pop_screen", "Close"), QUIT_FROM_MODAL]

    def __init__(self, bindings: list[tuple[str, str]]) -> None:
        super().__init__()
        self.bindings_list = bindings

    def compose(self) -> ComposeResult:
        table = Table(title="vitis-tui keys", show_header=True, header_style="bold")
        table.add_column("key")
        table.add_column("action")
        for key, description in self.bindings_list:
            table.add_row(Text(key), Text(description))
        yield VerticalScroll(Static(table), id="help")
