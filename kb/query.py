"""The query language of ``kb search``, parsed into a small tree; no index knowledge here.

    trample                      a word (any language; accents, case and inflection ignored)
    "champ de bataille"          a phrase (must match)
    +trample                     a word that must match
    regenera*                    a prefix (at least two letters)
    echo AND upkeep, echo OR écho, NOT token, -token, ( ... )
    lang:fr kind:rule rule:702.19* version:2013-06-01 card:"Voice of Resurgence"
    [[Doubling Season]]          a card name, as Discord users type them

Words side by side are a question, not a conjunction (:class:`Loose`): each is optional and
the searcher ranks records by how many of them they hold, so a pasted question ("a creature
with deathtouch and trample is blocked, how much damage?") finds its rules. Explicit ``AND``,
``"phrases"`` and ``+word`` keep their strict meaning. ``OR`` binds looser than ``AND``;
operators are upper case (lower-case "and"/"or"/"not" are ordinary words). ``?``, ``!``, ``¿``,
``¡`` and brackets that do not pair are punctuation, because people paste questions. In prose (a
query of ``PROSE_WORDS`` words or more, or one that ends as a sentence does) the capitals are a
player's emphasis ("Madness does NOT work during the cleanup step"), so ``AND``, ``OR`` and
``NOT`` are words of the question, and a ``*`` inside a word (a pasted "*/1+*") is punctuation;
:attr:`Query.as_words` keeps the operators so read. Filters
apply to the whole query, so they are only allowed outside parentheses and never negated. A
query that cannot be read raises :class:`QuerySyntaxError` saying where and why: users see a
message, never a traceback. A query of any length is read: the searcher bounds its work (a long
question is carried by its rarest words), not the question.
"""

from __future__ import annotations

import re

from msgspec import Struct, field

from kb.errors import KbError
from kb.i18n import _

# Parentheses and NOT/+ nested deeper than this are refused: every later stage walks the tree
# by recursion, and no question needs more.
MAX_DEPTH = 20
MIN_PREFIX = 2
FILTERS = ("lang", "kind", "rule", "version", "card")
KINDS = ("rule", "example", "glossary", "ruling", "note", "card")


class QueryRefused(KbError):
    """A query kb will not run as written (it cannot be read, a filter's value is not one of
    the valid ones, a prefix stands for too many words): exit status 2, as a usage error, so
    that a script tells it from a query that ran and found nothing (exit status 1)."""

    exit_code = 2


class QuerySyntaxError(QueryRefused):
    def __init__(self, message: str, column: int | None = None) -> None:
        if column is None:
            super().__init__(_("cannot read the query: {problem}").format(problem=message))
        else:
            super().__init__(_("cannot read the query: {problem} (at character {column})")
                             .format(problem=message, column=column + 1))


class Word(Struct, frozen=True):
    text: str
    prefix: bool = False


class Phrase(Struct, frozen=True):
    words: tuple[str, ...]


class And(Struct, frozen=True):
    items: tuple[Node, ...]


class Loose(Struct, frozen=True):
    """Words side by side: each optional (ranked by how many match), except the
    :class:`Required`, :class:`Phrase`, :class:`And` and :class:`Not` items among them."""

    items: tuple[Node, ...]


class Required(Struct, frozen=True):
    """``+word``: an item that must match even among optional words."""

    item: Node


class CardName(Struct, frozen=True):
    """A card named in a question (``[[Doubling Season]]``), as the index keys of the card
    and of what it is part of (a split card's half names the whole card)."""

    name: str
    keys: tuple[str, ...]
    # The rules the card's keywords name (702.19 for a card with trample), searched with it.
    rules: tuple[str, ...] = ()


class Or(Struct, frozen=True):
    items: tuple[Node, ...]


class Not(Struct, frozen=True):
    item: Node


Node = Word | Phrase | And | Loose | Required | Or | Not | CardName


class Query(Struct, frozen=True):
    """A parsed query: the text part (None when only filters were given) and the filters."""

    text: str
    root: Node | None
    filters: dict[str, str] = field(default_factory=dict)
    cards: tuple[str, ...] = ()  # names written [[like this]]
    as_words: tuple[str, ...] = ()  # operators read as words of prose ("does NOT work")

    def words(self) -> list[Word]:
        return [n for n in _walk(self.root) if isinstance(n, Word)]

    def phrases(self) -> list[Phrase]:
        return [n for n in _walk(self.root) if isinstance(n, Phrase)]


def _walk(node: Node | None) -> list[Node]:
    if node is None:
        return []
    if isinstance(node, And | Loose | Or):
        return [node, *(n for item in node.items for n in _walk(item))]
    if isinstance(node, Not | Required):
        return [node, *_walk(node.item)]
    return [node]


_LEXER = re.compile(r"""
    (?P<space>\s+)
  | (?P<lparen>\()
  | (?P<rparen>\))
  | (?P<filter>(?P<fname>[A-Za-z]+):(?=\S))
  | (?P<quote>["«»])
  | (?P<stats>[+-][\dXx*]+/[+-]?[\dXx*]+(?=[\s()?!.,;:]|$))
  | (?P<signed>[+-]\d+(?=[\s()?!.,;:']|’|$))
  | (?P<minus>-(?=[\w"(]))
  | (?P<plus>\+(?=[\w"(]))
  | (?P<word>[^\s()"«»]+)
""", re.VERBOSE)
_WORD = re.compile(r"[^\s()\"«»]+")
_QUOTE = re.compile(r"[\"«»]")
# Curly double quotes are read as straight ones before the lexer, which then needs no
# character beyond Latin-1 in its classes: a class holding one compiles into a table of
# Unicode's first plane (0.3-0.5 ms each, in every cold ``kb search``).
_CURLY_QUOTES = str.maketrans("“”", '""')
_OPERATORS = {"AND", "OR", "NOT"}
# Sentence punctuation around a word ("table,", "(ici)", "702.19b."), never part of it; a
# prefix's "*" stays.
_AROUND = re.compile(r"^[^\w*]+|[^\w*]+$")
_WORD_CHARS = re.compile(r"\w")
# A query of this many words, operators aside, is prose a player typed or pasted, and so is one
# that ends as a sentence does: the development half's reports write "it will NOT apply", "in the
# graveyard AND on the battlefield", and query syntax is typed in a few words.
PROSE_WORDS = 6
_SENTENCE_END = re.compile(r"[?.!…]\s*$")


class _Tok(Struct, frozen=True):
    kind: str  # word, phrase, and, or, not, plus, lparen, rparen
    value: str
    column: int
    prefix: bool = False


_CARD = re.compile(r"\[\[([^\[\]]+)\]\]")
# Sentence punctuation, never query syntax: "?" was a wildcard nobody meant.
_PUNCTUATION = re.compile(r"[?!¿¡\[\]{}]")


def parse(text: str) -> Query:
    """Parse a query; raise :class:`QuerySyntaxError` with the column of the problem."""
    cleaned = "".join(" " if ord(c) < 32 or 127 <= ord(c) < 160 else c for c in text)
    cards = tuple(" ".join(m.split()) for m in _CARD.findall(cleaned) if m.strip())
    plain = _PUNCTUATION.sub(" ", cleaned).translate(_CURLY_QUOTES)
    tokens, filters = _tokens(plain, prose=_is_prose(cleaned))
    if not _balanced(tokens):  # "1)" in a pasted list, a smiley: punctuation too
        tokens = [t for t in tokens if t.kind not in ("lparen", "rparen")]
    parser = _Parser(tokens)
    root = parser.parse()
    if root is None and not filters:
        raise QuerySyntaxError(_("nothing to search for"))
    as_words = tuple(dict.fromkeys(t.value for t in tokens if t.kind == "word"
                                   and t.value in _OPERATORS))
    return Query(cleaned.strip(), root, filters, cards, as_words)


def _is_prose(text: str) -> bool:
    """Whether a query is a player's sentence rather than query syntax: ``PROSE_WORDS``
    words or more, or a sentence's last punctuation ("C'est NOT normal ?")."""
    words = sum(1 for chunk in text.split()
                if chunk not in _OPERATORS and _WORD_CHARS.search(chunk))
    return words >= PROSE_WORDS or _SENTENCE_END.search(text) is not None


def _balanced(tokens: list[_Tok]) -> bool:
    """Whether the parentheses pair up, none of them empty."""
    depth, previous = 0, None
    for token in tokens:
        if token.kind == "lparen":
            depth += 1
        elif token.kind == "rparen":
            depth -= 1
            if depth < 0 or previous == "lparen":
                return False
        previous = token.kind
    return depth == 0


def _tokens(text: str, prose: bool = False) -> tuple[list[_Tok], dict[str, str]]:
    tokens: list[_Tok] = []
    filters: dict[str, str] = {}
    pos, depth = 0, 0
    while pos < len(text):
        m = _LEXER.match(text, pos)
        assert m is not None  # every character is matched by one alternative
        kind, start = m.lastgroup, pos
        pos = m.end()
        if kind == "space":
            continue
        if kind in ("lparen", "rparen"):
            depth += 1 if kind == "lparen" else -1
            tokens.append(_Tok(kind, m.group(), start))
        elif kind == "filter":
            name = m.group("fname").lower()
            if name not in FILTERS:  # "ex:foo" is just a word
                word = _WORD.match(text, start)
                assert word is not None  # the filter alternative saw a word here
                tokens.extend(_word_token(word.group(), start, prose))
                pos = word.end()
                continue
            if depth or (tokens and tokens[-1].kind in ("not", "plus")):
                raise QuerySyntaxError(_("the filter {name}: applies to the whole query; put "
                                         "it outside parentheses and do not negate it")
                                       .format(name=name), start)
            value, pos = _filter_value(text, pos, name)
            if name in filters and filters[name] != value:
                raise QuerySyntaxError(_("two values for {name}: ({first!r}, {second!r})")
                                       .format(name=name, first=filters[name], second=value),
                                       start)
            filters[name] = value
        elif kind == "quote":
            end = _closing_quote(text, pos)
            if end is None:
                raise QuerySyntaxError(_("a quotation mark is not closed"), start)
            words = text[pos:end].split()
            pos = end + 1
            if words:
                tokens.append(_Tok("phrase", " ".join(words), start))
        elif kind == "minus":
            tokens.append(_Tok("not", "-", start))
        elif kind == "plus":
            tokens.append(_Tok("plus", "+", start))
        elif kind == "stats":  # "+1/+1", "-1/-1", "+X/+0": a power/toughness change
            tokens.append(_Tok("word", m.group(), start))
        elif kind == "signed":  # a loyalty ability's "-2", a commander tax's "+4": a number
            tokens.append(_Tok("word", m.group()[1:], start))
        elif word := _AROUND.sub("", m.group()):  # "table," is "table"; "..." nothing
            tokens.extend(_word_token(word, start, prose))
    return tokens, filters


def _filter_value(text: str, pos: int, name: str) -> tuple[str, int]:
    if text[pos] in "\"«»":
        end = _closing_quote(text, pos + 1)
        if end is None:
            raise QuerySyntaxError(_("the quoted value of {name}: is not closed").format(
                name=name), pos)
        return " ".join(text[pos + 1:end].split()), end + 1
    m = _WORD.match(text, pos)
    assert m is not None  # the lexer saw a non-space character here
    return m.group(), m.end()


def _closing_quote(text: str, pos: int) -> int | None:
    m = _QUOTE.search(text, pos)
    return m.start() if m else None


def _word_token(word: str, column: int, prose: bool = False) -> list[_Tok]:
    """A word's token (none for a prose word that was only punctuation): an operator, a
    prefix, or a word; in prose, an operator is a word and a misplaced ``*`` punctuation."""
    if word in _OPERATORS:
        return [_Tok("word" if prose else word.lower(), word, column)]
    prefix = word.endswith("*")
    stem = word.rstrip("*")
    misplaced = "*" in stem or prefix and len(_WORD_CHARS.findall(stem)) < MIN_PREFIX
    if misplaced and prose:
        parts = (_AROUND.sub("", part) for part in word.replace("*", " ").split())
        return [_Tok("word", part, column) for part in parts if part]
    if "*" in stem:
        raise QuerySyntaxError(_("a wildcard is only allowed at the end of a word "
                                 "(regenera*)"), column)
    if prefix and len(_WORD_CHARS.findall(stem)) < MIN_PREFIX:
        raise QuerySyntaxError(_("a prefix needs at least {count} letters before the *")
                               .format(count=MIN_PREFIX), column)
    return [_Tok("word", stem, column, prefix)]


class _Parser:
    """Recursive descent: or := and (OR and)*; and := unary (AND? unary)*;
    unary := NOT unary | atom; atom := word | phrase | ( or )."""

    def __init__(self, tokens: list[_Tok]) -> None:
        self.tokens = tokens
        self.i = 0
        self.depth = 0

    def deeper(self, token: _Tok) -> None:
        """One more level of nesting (a parenthesis, a NOT, a +), refused past MAX_DEPTH."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise QuerySyntaxError(_("parentheses, NOT and + nested more than {depth} "
                                     "deep").format(depth=MAX_DEPTH), token.column)

    def peek(self) -> _Tok | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> _Tok:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def parse(self) -> Node | None:
        if not self.tokens:
            return None
        node = self.parse_or()
        assert self.peek() is None  # parentheses pair up (parse drops them otherwise)
        return node

    def parse_or(self) -> Node:
        items = [self.parse_and()]
        while (token := self.peek()) is not None and token.kind == "or":
            self.take()
            items.append(self.parse_and(after=token))
        return items[0] if len(items) == 1 else Or(tuple(items))

    def parse_and(self, after: _Tok | None = None) -> Node:
        """Items side by side; those joined by an explicit AND must all match."""
        items = [self.parse_unary(after)]
        strict = [False]
        while (token := self.peek()) is not None and token.kind not in ("or", "rparen"):
            if token.kind == "and":
                self.take()
                strict[-1] = True
                items.append(self.parse_unary(token))
                strict.append(True)
            else:
                items.append(self.parse_unary())
                strict.append(False)
        if all(isinstance(i, Not) for i in items):
            raise QuerySyntaxError(_("NOT needs something to exclude from: add a word before "
                                     "it"), after.column if after else 0)
        if len(items) == 1:
            return items[0]
        if all(strict):
            return And(tuple(items))
        return Loose(tuple(Required(i) if s and not isinstance(i, Not | Required) else i
                           for i, s in zip(items, strict, strict=True)))

    def parse_unary(self, after: _Tok | None = None) -> Node:
        token = self.peek()
        if token is None or token.kind in ("and", "or", "rparen"):
            operator = after or token
            what = (_("{operator} needs a word after it").format(operator=operator.value)
                    if operator else _("a word is missing"))
            raise QuerySyntaxError(what, operator.column if operator else None)
        if token.kind in ("not", "plus"):
            self.take()
            self.deeper(token)
            inner = self.parse_unary(token)
            self.depth -= 1
            return Not(inner) if token.kind == "not" else Required(inner)
        return self.parse_atom()

    def parse_atom(self) -> Node:
        token = self.take()
        if token.kind == "lparen":  # paired and not empty: see _balanced
            self.deeper(token)
            node = self.parse_or()
            self.take()
            self.depth -= 1
            return node
        if token.kind == "phrase":
            return Phrase(tuple(token.value.split()))
        return Word(token.value, token.prefix)
