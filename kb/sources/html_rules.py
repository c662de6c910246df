"""Rendered pages of a Brazilian Portuguese rules site (magicjudgesbr, rules of 2020-11-20).

Every page is a Jekyll "Just the Docs" page: a head with scripts, an SVG sprite, a side bar
whose navigation lists every section and rule, a search box, a breadcrumb, then
``<div id="main-content">`` with the document itself, closed by a fan-content disclaimer
(``<small>``). Four kinds of page:

* a rule page (``<h1>702. Habilidades de Palavra-chave</h1>``): one ``<h3 id="2">`` per
  subrule (``702.2. Deathtouch``) and one ``<h4 id="2a">`` per lettered subrule, each opening
  with its number; ``<blockquote>`` holds an example of the rule above it;
* the glossary (``<h1>Glossário</h1>``): a ``<dl>`` of ``<dt>`` term / ``<dd>`` definition;
* the index: title, effective date ("Estas regras entram em vigor em 20 de Novembro de 2020."),
  introduction, credits (a ``<footer>`` in the main content) and, under the heading "Índice"
  (which, like "Contents" in the text rules, is structure and not stored), the sections; on
  this page only the side-bar navigation is read as the full table of contents, since it is
  the one place the site lists every rule with its Portuguese title.

Everything outside the main content is chrome and is not read, and so are, inside it, the
disclaimer, the link icons (``a.anchor-heading``, ``a.anchor-term``) and the text copy that
follows each symbol image. A mana symbol (``<span class="symbol"><img alt="{W}">...``) becomes
its braces text ``{W}``. HTML whitespace carries no meaning, so stored text has each run of
whitespace collapsed to one space. Any other text of the main content (between elements, where
a damaged page lost a tag, or in elements of unexpected kinds) is kept as a fragment.

The pages say ``lang="en-US"`` even on Portuguese text, and about two thirds of the rules were
still untranslated in 2020, so each paragraph's language is decided from its words; English
rules get ``untranslated=True``. A title-only heading ("702.2. Deathtouch") takes the language
of the subrule under it; the page title (``<h1>``) is the site's translated title, Portuguese.
Only the index states the date; the site publishes one version (2020-11-20), which the other
pages get. Source ids name the page:
``html:pt:2020-11-20:702``, ``html:pt:2020-11-20:glossario``, ``html:pt:2020-11-20:index``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import lxml.html
from lxml import etree

from kb.link.citations import find_citations
from kb.model import (
    Example,
    Fragment,
    GlossaryEntry,
    Loc,
    ParseResult,
    Passage,
    Record,
    Rule,
    TocEntry,
)
from kb.rulenum import RuleNumber
from kb.sources.ids import UniqueIds, slug
from kb.text.language import detect

FORMAT = "html_rules"
LANGUAGE = "pt"
VERSION = "2020-11-20"

_RULE_TEXT = re.compile(r"^(?P<num>\d{3}\.\d{1,3}[a-z]{0,2}|\d{3}|[1-9])\.?\s+(?P<rest>.*)$")
_EXAMPLE = re.compile(r"^(?:Exemplo|Example)\s*:", re.IGNORECASE)
_DATE = re.compile(r"entram em vigor em (?P<day>\d{1,2}) de (?P<month>\w+) de (?P<year>\d{4})")
_MONTHS = (
    "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro"
)
_CHROME_CLASSES = {"anchor-heading", "anchor-term"}
_SKIPPED_TAGS = {"svg", "script", "style", "small"}


def sniff(text: str) -> bool:
    """True for a page of the site: HTML with its main-content block and /regras/cr/ links."""
    head = text[:2000].lower()
    return (
        ("<html" in head or "<!doctype html" in head)
        and 'id="main-content"' in text
        and "/regras/cr/" in text
    )


def language(text: str) -> str:
    """"pt" or "en" (the languages of the site); "und" when the words give no evidence."""
    lang = detect(text)
    return lang if lang in ("pt", "en") else "und"


# -- text of an element ----------------------------------------------------------------------


def _classes(el: etree._Element) -> set[str]:
    return set((el.get("class") or "").split())


def _symbol(el: etree._Element) -> str:
    """``{W}`` for a symbol image (or the span wrapping it), from its alt or file name."""
    img = el if el.tag == "img" else el.find(".//img")
    if img is None:
        return " ".join(el.itertext()).strip()
    alt = (img.get("alt") or "").strip()
    if re.fullmatch(r"\{[^{}]+\}", alt):
        return alt
    stem = (img.get("src") or "").rsplit("/", 1)[-1].split(".")[0]
    return "{" + stem + "}"


def is_chrome(el: etree._Element) -> bool:
    """Nodes inside the main content that are not document text."""
    return (
        not isinstance(el.tag, str)
        or el.tag in _SKIPPED_TAGS
        or bool(_classes(el) & _CHROME_CLASSES)
    )


def text_of(el: etree._Element) -> str:
    """The element's text with symbols in braces and chrome left out, whitespace collapsed."""
    parts: list[str] = []

    def walk(node: etree._Element) -> None:
        if is_chrome(node):
            pass
        elif node.tag == "img" or "symbol" in _classes(node):
            parts.append(_symbol(node))
        else:
            parts.append(node.text or "")
            for child in node:
                walk(child)
                parts.append(child.tail or "")

    walk(el)
    return " ".join("".join(parts).split())


# -- parsing ---------------------------------------------------------------------------------


def parse(text: str, file: str) -> ParseResult:
    """Parse one page's decoded HTML."""
    root = _document(text)
    main = root.get_element_by_id("main-content", None) if root is not None else None
    if main is None:
        source_id = f"html:{LANGUAGE}:{VERSION}:{slug(file)}"
        records = tuple(_whole_page(text, file, source_id))
        return ParseResult(FORMAT, LANGUAGE, VERSION, records, source_id=source_id)
    h1 = main.find(".//h1")
    title = text_of(h1) if h1 is not None else None
    version = _effective_date(text_of(main)) or VERSION
    page = _page_key(main, title, file)
    source_id = f"html:{LANGUAGE}:{version}:{page}"
    parser = _Page(file, source_id, version, h1)
    records = tuple(parser.run(main, root, page))
    return ParseResult(FORMAT, LANGUAGE, version, records, title=title, source_id=source_id)


def _document(text: str) -> lxml.html.HtmlElement | None:
    if not text.strip():
        return None
    try:
        return lxml.html.document_fromstring(text)
    except (etree.ParserError, ValueError):
        return None


def _whole_page(text: str, file: str, source_id: str) -> Iterator[Fragment]:
    """A page without its main content: every non-blank line kept as a fragment."""
    unique = UniqueIds()
    for i, line in enumerate(text.split("\n")):
        if line.strip():
            yield unique.unparsed(source_id, Loc(file, i + 1), line,
                                  "page without a main-content block")


def _effective_date(text: str) -> str | None:
    m = _DATE.search(text)
    if not m or m["month"].lower() not in _MONTHS.split():
        return None
    month = _MONTHS.split().index(m["month"].lower()) + 1
    return f"{int(m['year']):04d}-{month:02d}-{int(m['day']):02d}"


def _page_key(main: etree._Element, title: str | None, file: str) -> str:
    m = _RULE_TEXT.match(title or "")
    if m:
        return m["num"]
    if main.find(".//dl") is not None:
        return "glossario"
    if main.find("ul") is not None and main.find("footer") is not None:
        return "index"
    return slug(title or file)


@dataclass
class _Page:
    file: str
    source_id: str
    version: str
    title_el: etree._Element | None = None
    unique: UniqueIds = field(default_factory=UniqueIds)
    read: set[etree._Element] = field(default_factory=set)  # elements whose text is in records

    def loc(self, el: etree._Element) -> Loc:
        return Loc(self.file, el.sourceline or 1)

    def fragment(self, el: etree._Element, text: str, reason: str) -> Fragment:
        return self.unique.unparsed(self.source_id, self.loc(el), text, reason)

    def run(self, main: etree._Element, root: etree._Element, page: str) -> Iterator[Record]:
        if page == "glossario":
            yield from self.glossary(main)
        elif page == "index":
            yield from self.index(main, root)
        else:
            yield from self.rules(main)
        for el, text in _unread_text(main, self.read):
            yield self.fragment(el, text, "text outside the elements this page is read by")

    # -- rule pages ------------------------------------------------------------------------

    def rules(self, main: etree._Element) -> Iterator[Record]:
        blocks = [(el, text_of(el)) for el in main if not is_chrome(el)]
        self.read.update(el for el, _ in blocks)
        blocks = [(el, text) for el, text in blocks if text]
        rule_langs = [language(t) for el, t in blocks if not _is_example(el, t)]
        rule_index = 0
        current: Rule | None = None
        ordinal = 0
        for el, text in blocks:
            if _is_example(el, text):
                if current is None:
                    yield self.fragment(el, text, "example before any rule")
                    continue
                ordinal += 1
                yield self.example(el, text, current, ordinal)
                continue
            # The page title comes from the site's translated navigation: Portuguese.
            lang = LANGUAGE if el.tag == "h1" else _heading_language(rule_langs, rule_index)
            rule_index += 1
            m = _RULE_TEXT.match(text)
            number = RuleNumber.try_parse(m["num"]) if m else None
            if m is None or number is None:
                yield self.fragment(el, text, "block with no rule number")
                continue
            current, ordinal = self.rule(el, number, m["rest"].strip(), text, lang), 0
            yield current

    def rule(
        self, el: etree._Element, number: RuleNumber, rest: str, text: str, lang: str
    ) -> Rule:
        rid = self.unique(f"{self.source_id}:{number}")
        # A heading carries a title and no sentence: "702.2. Deathtouch", "100. Geral".
        is_title = el.tag == "h1" or (number.depth == 2 and not re.search(r"[.:;)”\"]$", rest))
        parent = number.parent
        return Rule(
            rid,
            str(number),
            rest,
            lang,
            self.version,
            self.loc(el),
            title=rest if is_title else None,
            parent=str(parent) if parent else None,
            citations=find_citations(rid, text),
            untranslated=lang != LANGUAGE,
        )

    def example(self, el: etree._Element, text: str, rule: Rule, ordinal: int) -> Example:
        eid = self.unique(f"{rule.id}/ex{ordinal}")
        lang = language(_EXAMPLE.sub("", text))
        return Example(
            eid, rule.number, ordinal, text, LANGUAGE if lang == "und" else lang,
            self.version, self.loc(el), citations=find_citations(eid, text),
        )

    # -- glossary --------------------------------------------------------------------------

    def glossary(self, main: etree._Element) -> Iterator[Record]:
        term_el: etree._Element | None = None
        for el in main.iter("h1", "dt", "dd"):
            text = text_of(el)
            if el is self.title_el:
                self.read.add(el)
                continue  # the page title, kept as the result's title
            if el.tag == "h1":
                continue  # another heading: not read, so kept as a fragment
            self.read.add(el)
            if el.tag == "dt":
                if term_el is not None:
                    yield self.fragment(term_el, text_of(term_el), "term with no definition")
                term_el = el
            elif term_el is None:
                yield self.fragment(el, text, "definition with no term")
            else:
                yield self.entry(term_el, el, text)
                term_el = None
        if term_el is not None:
            yield self.fragment(term_el, text_of(term_el), "term with no definition")

    def entry(self, term_el: etree._Element, dd: etree._Element, definition: str) -> Record:
        term = text_of(term_el)
        gid = self.unique(f"{self.source_id}:glossary/{term_el.get('id') or slug(term)}")
        lang = language(definition)  # terms were often translated, definitions not
        lang = language(f"{term} {definition}") if lang == "und" else lang
        return GlossaryEntry(
            gid, term, definition, LANGUAGE if lang == "und" else lang, self.version,
            self.loc(term_el), citations=find_citations(gid, definition),
        )

    # -- index -----------------------------------------------------------------------------

    def index(self, main: etree._Element, root: etree._Element) -> Iterator[Record]:
        intro = [el for el in main if el.tag in ("h1", "p", "h2") and "text-delta" not in
                 _classes(el)]
        yield from self.passage("introduction", intro)
        for footer in main.findall("footer"):
            yield from self.passage("credits", [el for el in footer if not is_chrome(el)])
        seen: set[tuple[str | None, str]] = set()
        for link in main.iterfind(".//ul//a"):
            yield from self.toc_link(link, seen)
            self.read.add(link)
        nav = root.get_element_by_id("site-nav", None)
        for link in nav.iter("a") if nav is not None else ():
            if "nav-list-link" in _classes(link):
                yield from self.toc_link(link, seen, from_nav=True)

    def passage(self, role: str, elements: list[etree._Element]) -> Iterator[Passage]:
        self.read.update(elements)
        texts = [text_of(el) for el in elements]
        texts = [t for t in texts if t]
        if texts:
            yield Passage(
                self.unique(f"{self.source_id}:{role}"), role, "\n".join(texts), LANGUAGE,
                self.version, self.loc(elements[0]),
            )

    def toc_link(
        self, link: etree._Element, seen: set[tuple[str | None, str]], from_nav: bool = False
    ) -> Iterator[TocEntry]:
        """A link of the page's list is an entry; one of the navigation is an entry unless
        the list has it already (the same number and title), or has no rule number."""
        text = text_of(link)
        m = _RULE_TEXT.match(text)
        if m and RuleNumber.try_parse(m["num"]) is not None:
            number, title = m["num"], m["rest"].strip()
        elif from_nav or not text:
            return  # site links ("Regras Abrangentes", "Sobre") are navigation chrome
        else:
            number, title = None, text
        if not (from_nav and (number, title) in seen):
            seen.add((number, title))
            yield self.toc_entry(link, number, title)

    def toc_entry(self, el: etree._Element, number: str | None, title: str) -> TocEntry:
        lang = language(title)
        return TocEntry(
            self.unique(f"{self.source_id}:toc/{number or slug(title)}"), number, title,
            LANGUAGE if lang == "und" else lang, self.version, self.loc(el),
        )


def _unread_text(
    main: etree._Element, read: set[etree._Element]
) -> Iterator[tuple[etree._Element, str]]:
    """The text of the main content that no element read holds: a damaged page leaves text
    between elements (a lost ``<dd>`` or ``<h4>`` tag) or in elements of unexpected kinds.
    Each run of such text comes with the element it is in or follows, for its line.
    Chrome and the site's structural headings (``text-delta``) are not document text."""
    run: list[str] = []
    anchor = main

    def walk(el: etree._Element) -> Iterator[tuple[etree._Element, str] | None]:
        if el in read or is_chrome(el) or "text-delta" in _classes(el):
            yield None  # a boundary: the text before and after it is not one run
            return
        if el.tag == "img" or "symbol" in _classes(el):
            yield el, _symbol(el)
            return
        yield el, el.text or ""
        for child in el:
            yield from walk(child)
            yield child, child.tail or ""

    for piece in walk(main):
        if piece is not None and piece[1].strip():
            if not run:
                anchor = piece[0]
            run.append(piece[1])
        elif piece is None and run:
            yield anchor, " ".join("".join(run).split())
            run = []
    if run:
        yield anchor, " ".join("".join(run).split())


def _is_example(el: etree._Element, text: str) -> bool:
    return el.tag == "blockquote" or _EXAMPLE.match(text) is not None


def _heading_language(langs: list[str], index: int) -> str:
    """The paragraph's language; a heading with no evidence takes the next paragraph's."""
    for lang in langs[index:]:
        if lang != "und":
            return lang
    return LANGUAGE
