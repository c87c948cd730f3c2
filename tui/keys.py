"""The help screen's lines and the command palette's entries, read from the bindings.

Each binding says what it does once: its `tooltip` is its help line (its `description`, the
footer's word, where it has none). Keys with the same help share one line (`[ / ]`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType

from collectors.records.fields import NUMBER_FIELDS, TEXT_FIELDS

FILTER_LANGUAGE = [
    ("filter language", "terms are ANDed; `or` between terms; `-term` or `not term` negates; (...) groups"),
    ("field:value", f"{' '.join(TEXT_FIELDS)}; * and ? globs; = and != too"),
    ("number<value", f"{' '.join(NUMBER_FIELDS)}; < <= > >= = !="),
    (
        "meta.KEY",
        "an origin_meta key (meta.model:claude*, meta.temperature<0.5); run.clock_ns: a field not in the schema",
    ),
    ("text", 'free text: a substring of any field, origin_meta included; "quoted text" keeps spaces'),
    ("example", "type:hls_synth status:pass group:cfd/* lut<30000 or cycles>1e6"),
]
PALETTE_KEY = ("ctrl+p", "Command palette")  # (Textual's own binding, added by the app)
# a modal screen does not hear the app's keys: each binds `q` to quit itself (in a text box, `q`
# is still a letter: the box takes it first)
QUIT_FROM_MODAL = Binding("q", "app.quit", "Quit", show=False)
KEY_NAMES = {"question_mark": "?", "slash": "/", "escape": "esc", "pageup": "pgup", "pagedown": "pgdn"}


def key_text(binding: Binding) -> str:
    if binding.key_display:
        return binding.key_display
    return " / ".join(KEY_NAMES.get(key, key) for key in binding.key.split(","))


def _bindings(owners: Iterable[Sequence[BindingType]]) -> list[Binding]:
    return [binding for bindings in owners for binding in bindings if isinstance(binding, Binding)]


def help_lines(*owners: Sequence[BindingType], prefix: str = "") -> list[tuple[str, str]]:
    """(keys, what they do) for the bindings of `owners` in order; keys with one help share a line."""
    keys_of: dict[str, list[str]] = {}
    for binding in _bindings(owners):
        keys = keys_of.setdefault(binding.tooltip or binding.description, [])
        if key_text(binding) not in keys:
            keys.append(key_text(binding))
    return [(prefix + " / ".join(keys), help) for help, keys in keys_of.items()]


def palette(app: App, *owners: Sequence[BindingType]) -> Iterable[SystemCommand]:
    """A palette entry for each binding of `owners` that has a help line (quitting has its own)."""
    for binding in _bindings(owners):
        if binding.tooltip and binding.action != "quit":
            yield SystemCommand(binding.description, binding.tooltip, partial(app.run_action, binding.action))
