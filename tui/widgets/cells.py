"""Values into table cells: always as Text (a plain str is parsed as markup, and HLS names are
full of brackets), with control characters made visible (a report can hold terminal escapes)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from collectors.text import visible


def cell(value: Any) -> Text:
    return Text("" if value is None else visible(str(value)))
