"""The detail screen: records as JSON, the files they came from, their problems."""

from __future__ import annotations

import json
from typing import Any

from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from collectors.problems import Problem
from collectors.records.table import note
from collectors.records.validate import NOT_IN_SCHEMA, extra_fields
from collectors.text import visible


class DetailScreen(Screen[None]):
    """Records as highlighted JSON, the source files they came from, and the project's problems."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(
        self,
        title: str,
        records: list[dict[str, Any]],
        sources: dict[str, list[str]],
        problems: list[Problem],
        notes: dict[str, str],
        files: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.records = records
        self.sources = sources
        self.problems = problems
        self.notes = notes
        # every file the run was given -> what became of it (collectors/collect/accounting.py)
        self.files = files or {}

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="detail"):
            yield Static(Text(visible(self.title_text), style="bold"), id="detail-title")
            if not self.records:
                yield Static(Text("No record yet: the run is still building, or nothing tells its status."))
            for record in self.records:
                yield Static(
                    # JSON escapes C0 controls itself; DEL, C1 and bidi controls it leaves alone
                    # (its own line breaks sit between lines, so each line is made visible)
                    Syntax(
                        "\n".join(map(visible, json.dumps(record, indent=2, ensure_ascii=False).split("\n"))),
                        "json",
                        theme="ansi_dark",
                        word_wrap=True,
                    )
                )
            sources = Table.grid(padding=(0, 1))
            sources.add_column(style="bold")
            sources.add_column()
            for report_type, files in sorted(self.sources.items()):
                for path in files or ["(no source file: status from runner metadata or logs)"]:
                    sources.add_row(report_type, Text(visible(path)))
            yield from self._producer_fields()
            yield Static(Text("Sources", style="bold underline"))
            yield Static(sources)
            yield from self._files()
            if self.notes:
                yield Static(Text("Runner notes", style="bold underline"))
                yield Static(Text("\n".join(visible(f"{k} = {v}") for k, v in sorted(self.notes.items()))))
            yield Static(Text(f"Problems ({len(self.problems)})", style="bold underline"))
            yield Static(Text("\n".join(str(p) for p in self.problems) or "none"))
        yield Footer()

    def _files(self) -> ComposeResult:
        """The run's files: those its records used, then those it passed over, each with why."""
        if not self.files:
            return
        used = sorted(path for path, verdict in self.files.items() if verdict.startswith("record:"))
        over = sorted(path for path in self.files if path not in used)
        yield Static(Text(f"Files ({len(used)} used, {len(over)} passed over)", style="bold underline"))
        lines = [f"used    {path}" for path in used] + [f"passed  {path}: {self.files[path]}" for path in over]
        yield Static(Text("\n".join(map(visible, lines))), id="detail-files")

    def _producer_fields(self) -> ComposeResult:
        """What producers add beyond the contract: a failed build's error text first, then every
        field the schema does not name, by its path."""
        extras = [(record, extra_fields(record)) for record in self.records]
        notes = [text for record, found in extras if (text := note(record, found))]
        if notes:
            yield Static(Text("Note", style="bold underline"))
            shown = "\n".join(visible(line) for text in notes for line in text.splitlines())  # keep its lines
            yield Static(Text(shown), id="detail-note")
        lines = [
            f"{path} = {json.dumps(value, ensure_ascii=False)}" for _record, found in extras for path, value in found
        ]
        if lines:
            yield Static(Text(f"Fields {NOT_IN_SCHEMA}", style="bold underline"))
            yield Static(Text("\n".join(map(visible, lines))), id="detail-extra")
