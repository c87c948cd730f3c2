"""The terminal's settings as the command found them, and the one it changes before Textual runs.

Until Textual takes the terminal (its imports: about 0.2 s), a key typed waits in the terminal's
line buffer and reaches the app once it reads, except ctrl+q and ctrl+s: with flow control on
(IXON, the usual setting) the kernel takes them for itself, and a ctrl+q typed at once never
quit. An interactive command turns flow control off first thing (`keep_early_keys`); however it
ends, the settings go back as they were (`put_back`, also from tui/signals.py's last resort).
"""

from __future__ import annotations

import sys
from typing import Any

_found: list[Any] | None = None  # the settings before keep_early_keys changed them


def attributes_now() -> list[Any] | None:
    """The terminal's settings now; None without a terminal (or with one hung up)."""
    try:
        import termios

        stdin = sys.__stdin__
        return termios.tcgetattr(stdin.fileno()) if stdin is not None and stdin.isatty() else None
    except Exception:  # (termios.error is no OSError: a terminal hung up raises it)
        return None


def keep_early_keys() -> None:
    global _found
    found = attributes_now()
    if found is None or _found is not None:
        return
    import termios

    changed = [found[0] & ~termios.IXON, *found[1:]]
    if _set(changed):
        _found = found


def found_attributes(otherwise: list[Any] | None) -> list[Any] | None:
    """The settings to put back at the end: those the command found, where it changed them."""
    return _found if _found is not None else otherwise


def put_back() -> None:
    """The settings as the command found them (nothing where keep_early_keys changed nothing)."""
    global _found
    if _found is not None and _set(_found):
        _found = None


def _set(attributes: list[Any]) -> bool:
    try:
        import termios

        if sys.__stdin__ is None:
            return False
        termios.tcsetattr(sys.__stdin__.fileno(), termios.TCSANOW, attributes)
        return True
    except Exception:  # (termios.error is no OSError: the terminal may be gone)
        return False
