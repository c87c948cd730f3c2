"""Text from build trees made safe to show: control characters visible, always one line.

Report values, file names and log lines can hold terminal escapes (`ESC]2;...BEL` retitles the
terminal, `ESC[31m` recolours it), carriage returns and newlines (which split a line, or a
problem message, in two) and bytes that are not UTF-8 (Python hands them over as lone
surrogates). Everything printed to a terminal or drawn by the interface goes through `visible`.
"""

from __future__ import annotations

import re

# C0 controls, DEL, C1 controls, line/paragraph separators, bidirectional marks, overrides and
# isolates (they reorder what follows), zero-width characters, and lone surrogates (undecodable
# bytes of a name).
_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the original byte of a non-UTF-8 name
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def visible(text: object) -> str:
    """`text` with every control character written as an escape (ESC -> `\\x1b`, a newline ->
    `\\n`, an undecodable byte 0xff -> `\\xff`): safe for a terminal, and always one line."""
    text = text if isinstance(text, str) else str(text)
    if _INVISIBLE.search(text) is None:
        return text  # the common case: nothing to do, no new string
    return _INVISIBLE.sub(_escape, text)


def encodable(text: str) -> bool:
    """Whether `text` can be written as UTF-8 (a name with undecodable bytes cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
