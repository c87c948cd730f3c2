"""Text from files, made safe to show: control characters become visible escapes."""

from __future__ import annotations

import re

# C0 controls, DEL and C1 controls: an ESC or a CR from a report must never reach a terminal.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    """`text` with every control character written as an escape (`\\x1b`, `\\n`, `\\t`, ...)."""
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
