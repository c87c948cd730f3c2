"""The filter language, shared by the records view and `vitis-tui export` (pure, no I/O).

    type:hls_synth status:pass group:cfd/* lut<30000        terms are ANDed
    target:hw_emu or target:cosim                             `or` between terms
    -status:pass   not device:xcu*                            `-` or `not` negates
    (type:rtl_sim cycles>1e6) or "memory coalescing"          parentheses, quoted text
    pipeline                                                  free text over all fields

Text fields take `field:value` (or `=`, `!=`) with `*` and `?` globs, case-insensitive.
Number fields take `<`, `<=`, `>`, `>=`, `=`, `!=` (and `:` as `=`); a record without the
number never matches a comparison. The fields are the table's columns (collectors.records.fields);
`meta.KEY` and the dotted path of a field the schema does not name take both kinds.
Nesting (parentheses and negations) is bounded: a deeper query is an error, never a crash.
"""

from __future__ import annotations

import fnmatch
import math
import re
from dataclasses import dataclass

from collectors.records.fields import NAMES, NUMBER_FIELDS, TEXT_FIELDS, is_dynamic
from collectors.text import visible

MAX_NESTING = 100  # parentheses and negations, one inside another
OPERATORS = ("<=", ">=", "!=", "<", ">", "=", ":")
KEYWORDS = ("or", "and", "not")


class QueryError(ValueError):
    """A query that does not parse: `position` is the character where it fails."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.message = message
        self.position = position

    def pointer(self, query: str) -> str:
        """The query with a caret under the failing character, for the screen: three lines, the
        query's control characters made visible and the caret counted after them (escaping the
        whole text made it one line, the caret pointing nowhere)."""
        at = len(visible(query[: self.position]))
        return f"{visible(query)}\n{' ' * at}^ {visible(self.message)}"


@dataclass(frozen=True)
class Text:
    """Free text: a case-insensitive substring of any field."""

    value: str


@dataclass(frozen=True)
class Match:
    field: str
    value: str  # a glob
    negated: bool = False  # `!=`


@dataclass(frozen=True)
class Compare:
    field: str
    op: str  # one of < <= > >= = !=
    number: float


@dataclass(frozen=True)
class Not:
    term: Node


@dataclass(frozen=True)
class And:
    terms: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    terms: tuple[Node, ...]


@dataclass(frozen=True)
class Everything:
    """The empty query."""


Node = Text | Match | Compare | Not | And | Or | Everything

_TERM = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*(?:\.[^\s:<>=!()\"]+)?)(<=|>=|!=|<|>|=|:)(.*)$", re.S)


@dataclass(frozen=True)
class _Token:
    kind: str  # "word", "(", ")", "-"
    text: str
    position: int
    quoted: bool = False


def _tokenize(query: str) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(query)
    while i < n:
        char = query[i]
        if char.isspace():
            i += 1
            continue
        if char in "()":
            tokens.append(_Token(char, char, i))
            i += 1
            continue
        if char == "-" and (i + 1 < n and not query[i + 1].isspace()):
            tokens.append(_Token("-", char, i))
            i += 1
            continue
        start, out, quoted = i, [], False
        while i < n and not query[i].isspace() and query[i] not in "()":
            if query[i] == '"':
                end = query.find('"', i + 1)
                if end < 0:
                    raise QueryError("unclosed quote", i)
                out.append(query[i + 1 : end])
                quoted = True
                i = end + 1
            else:
                out.append(query[i])
                i += 1
        tokens.append(_Token("word", "".join(out), start, quoted))
    return tokens


class _Parser:
    def __init__(self, query: str) -> None:
        self.query = query
        self.tokens = _tokenize(query)
        self.at = 0
        self.depth = 0

    def deeper(self, token: _Token) -> None:
        """One more level of nesting; Python's own recursion limit would otherwise end the parse."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise QueryError(f"nested deeper than {MAX_NESTING} levels (parentheses and negations)", token.position)

    def peek(self) -> _Token | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def is_keyword(self, token: _Token | None, word: str) -> bool:
        return token is not None and token.kind == "word" and not token.quoted and token.text.lower() == word

    def parse(self) -> Node:
        if not self.tokens:
            return Everything()
        node = self.parse_or()
        token = self.peek()
        if token is not None:
            raise QueryError("unexpected ')'" if token.kind == ")" else f"unexpected {token.text!r}", token.position)
        return node

    def parse_or(self) -> Node:
        terms = [self.parse_and()]
        while self.is_keyword(self.peek(), "or"):
            token = self.tokens[self.at]
            self.at += 1
            after = self.peek()
            if after is None or after.kind == ")" or self.is_keyword(after, "or"):
                raise QueryError("'or' needs a term after it", token.position)
            terms.append(self.parse_and())
        return terms[0] if len(terms) == 1 else Or(tuple(terms))

    def parse_and(self) -> Node:
        terms: list[Node] = []
        while True:
            token = self.peek()
            if token is None or token.kind == ")" or self.is_keyword(token, "or"):
                break
            if self.is_keyword(token, "and"):
                self.at += 1
                continue
            terms.append(self.parse_unary())
        if not terms:
            token = self.peek()
            position = token.position if token is not None else len(self.query)
            raise QueryError("a term is missing here", position)
        return terms[0] if len(terms) == 1 else And(tuple(terms))

    def parse_unary(self) -> Node:
        token = self.tokens[self.at]
        if token.kind == "-" or self.is_keyword(token, "not"):
            self.at += 1
            following = self.peek()
            if following is None or following.kind == ")" or self.is_keyword(following, "or"):
                raise QueryError(f"'{token.text}' needs a term after it", token.position)
            self.deeper(token)
            negated = Not(self.parse_unary())
            self.depth -= 1
            return negated
        if token.kind == "(":
            self.at += 1
            self.deeper(token)
            node = self.parse_or()
            closing = self.peek()
            if closing is None or closing.kind != ")":
                raise QueryError("'(' is never closed", token.position)
            self.at += 1
            self.depth -= 1
            return node
        if token.kind == ")":
            raise QueryError("unexpected ')'", token.position)
        self.at += 1
        return self.parse_term(token)

    def parse_term(self, token: _Token) -> Node:
        raw = self.query[token.position : token.position + len(token.text) + 2 * token.text.count('"')]
        match = None if raw.startswith('"') else _TERM.match(token.text)
        if match is None:
            return Text(token.text)
        name, op, value = match.group(1), match.group(2), match.group(3)
        value_at = token.position + len(name) + len(op)
        field = name if is_dynamic(name) else NAMES.get(name.lower(), name.lower())
        if is_dynamic(field):
            return self.dynamic_term(field, op, value, value_at)
        if field in TEXT_FIELDS:
            if op not in (":", "=", "!="):
                raise QueryError(
                    f"'{field}' is text: use {field}:value, {field}=value or {field}!=value",
                    token.position + len(match.group(1)),
                )
            if value == "":
                raise QueryError(f"'{field}' needs a value", value_at)
            return Match(field, value, negated=(op == "!="))
        if field in NUMBER_FIELDS:
            return Compare(field, "=" if op == ":" else op, _number_at(value, value_at))
        raise QueryError(
            f"unknown field '{field}' (text: {', '.join(TEXT_FIELDS)}; numbers: {', '.join(NUMBER_FIELDS)}; "
            "meta.KEY; the dotted path of a field not in the schema)",
            token.position,
        )

    def dynamic_term(self, field: str, op: str, value: str, value_at: int) -> Node:
        """`meta.model:claude*` matches text; `meta.temperature<0.5` compares numbers."""
        if op in (":", "=", "!="):
            if value == "":
                raise QueryError(f"'{field}' needs a value", value_at)
            return Match(field, value, negated=(op == "!="))
        return Compare(field, op, _number_at(value, value_at))


def _number_at(value: str, position: int) -> float:
    try:
        number = float(value)
    except ValueError:
        raise QueryError(f"'{value}' is not a number", position) from None
    if math.isnan(number):
        raise QueryError("NaN compares with nothing", position)
    return number


def parse(query: str) -> Node:
    """Parse a query; raises QueryError with the failing position."""
    return _Parser(query).parse()


def _quote(value: str) -> str:
    needs = (
        value == ""
        or any(c.isspace() or c in '()"' for c in value)
        or value.lower() in KEYWORDS
        or value.startswith("-")
        or _TERM.match(value) is not None
    )
    if not needs:
        return value
    if '"' in value:
        raise ValueError("a value with a double quote cannot be written back")
    return f'"{value}"'


def _number(value: float) -> str:
    return repr(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def unparse(node: Node) -> str:
    """Write a parsed query back as text that parses to the same tree."""
    if isinstance(node, Everything):
        return ""
    if isinstance(node, Text):
        return _quote(node.value)
    if isinstance(node, Match):
        value = node.value
        written = value if value and not any(c.isspace() or c in '()"' for c in value) else f'"{value}"'
        return f"{node.field}{'!=' if node.negated else ':'}{written}"
    if isinstance(node, Compare):
        return f"{node.field}{node.op}{_number(node.number)}"
    if isinstance(node, Not):
        inner = unparse(node.term)
        return f"-({inner})" if isinstance(node.term, (And, Or)) else f"-{inner}"
    if isinstance(node, And):
        return " ".join(f"({unparse(t)})" if isinstance(t, Or) else unparse(t) for t in node.terms)
    if isinstance(node, Or):
        return " or ".join(f"({unparse(t)})" if isinstance(t, Or) else unparse(t) for t in node.terms)
    raise TypeError(node)


def glob(value: str) -> re.Pattern[str]:
    """A case-insensitive glob (`*`, `?`) as a compiled pattern matching the whole value."""
    return re.compile(fnmatch.translate(value), re.IGNORECASE)
