"""Text from files, made safe to show: control characters become visible escapes."""

from __future__ import annotations

import unicodedata
from typing import Any


def visible(text: Any) -> str:
    """`text` with every control character and invisible format character (bidi overrides,
    zero-width ones) written as an escape (`\\x1b`, `\\u202e`): an ESC or a CR from a report must
    never reach a terminal, nor text that reads backwards."""
    text = str(text)
    if text.isprintable():  # the common case, at C speed: no control or format character
        return text
    return "".join(_escape(ch) if unicodedata.category(ch) in ("Cc", "Cf") else ch for ch in text)


def _escape(ch: str) -> str:
    return ch.encode("unicode_escape").decode("ascii")
