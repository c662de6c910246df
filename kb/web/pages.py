"""The HTML pages: each handler reads its parameters, then gathers and renders on a reader
thread (:mod:`kb.web.readers`). A page is a pure function of its address, the language the
reader chose to see first, the interface language (:mod:`kb.web.language`) and the index
generation, so rendered pages are kept per generation and language."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from kb import i18n
from kb.i18n import _
from kb.params import (
    CATEGORY,
    LANGS,
    SEARCH_KINDS,
    SECTION,
    STATUS,
    VERSION,
    VERSION_OR_ALL,
    VersionDate,
    joined,
)
from kb.query import KINDS
from kb.reader import export_row
from kb.report.finding import CATEGORIES, SEVERITIES
from kb.web import data
from kb.web.contents import outline
from kb.web.documents import document
from kb.web.errors import BadRequest, NotFound
from kb.web.language import UI_COOKIE, UI_PARAM
from kb.web.readers import Reader, Readers
from kb.web.timeline import rows

PAGE_SIZE = 10  # search answers per page
MAX_RESULTS = 200  # as kb search --limit
TERMS_PAGE = 100
DIFF_PAGE = 100
FIRST_COOKIE = "kb_first"
LANGUAGES = ("en", "fr")
# The query parameters each page reads, by the first item of its key: the address a page is
# kept under (and the one its language switch returns to) holds these and no other, so that
# parameters a page ignores never make it be made again.
QUERY = {"search": ("q", "lang", "kind", "version", "page"), "rule": ("version",),
         "history": ("version",), "diff": ("old", "new", "section", "page"),
         "glossary": ("version", "letter", "order"), "terms": ("q", "page"),
         "report": ("category",), "check": ("status",)}


def first_language(request: Request) -> str:
    """Which language the reader wants first: ``?first=`` in the address, else the cookie,
    else the interface's (a French reader reads French first)."""
    chosen = request.query_params.get("first") or request.cookies.get(FIRST_COOKIE)
    return chosen if chosen in LANGUAGES else i18n.current()


def here(request: Request, known: tuple[str, ...] | None = None) -> str:
    """The page's address without the switches' parameters: where a switch comes back to.
    With ``known`` (the parameters the page reads, :data:`QUERY`), only those: the address a
    page is kept under."""
    query = urlencode([(k, v) for k, v in request.query_params.multi_items()
                       if (k in known if known is not None else k not in ("first", UI_PARAM))])
    return request.url.path + (f"?{query}" if query else "")


class Pages:
    def __init__(self, readers: Readers, env: Any) -> None:
        self.readers = readers
        self.env = env

    async def page(self, request: Request, build: Callable[[Reader], tuple[str, dict]],
                   key: tuple | None = None) -> Response:
        """Render ``build(reader)``'s template; kept per generation under ``key``."""
        first = first_language(request)
        back = here(request, QUERY.get(key[0], ()) if key else None)

        def render(reader: Reader) -> str:
            def make() -> str:
                template, context = build(reader)
                return self.env.get_template(template).render(
                    first=first, path=request.url.path, here=back,
                    generation=reader.generation, latest=data.latest(reader),
                    doc=partial(document, reader),
                    timeline=partial(rows, document=partial(document, reader)), **context)
            if key is None:
                return make()
            return reader.cache.response(full_key, make)

        full_key = ("page", first, back, *(key or ()))
        kept = self.readers.kept(full_key) if key is not None else None
        kind = key[0] if key else "page"
        return HTMLResponse(kept if kept is not None else await self.readers.run(kind, render))

    # -- the pages ------------------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        def build(reader: Reader) -> tuple[str, dict]:
            return "home.html", {"versions": reader.kb.versions()}
        return await self.page(request, build, ("home",))

    async def search(self, request: Request) -> Response:
        p = request.query_params
        q = p.get("q", "").strip()
        lang, kind = joined(LANGS(p.get("lang"))), joined(SEARCH_KINDS(p.get("kind")))
        version = VERSION_OR_ALL(p.get("version"))
        page = _int(p.get("page"), 1, 1, MAX_RESULTS // PAGE_SIZE)
        params = {"q": q, "lang": lang, "kind": kind, "version": version}

        def build(reader: Reader) -> tuple[str, dict]:
            context: dict[str, Any] = {"params": params, "kinds": KINDS, "page": page,
                                       "versions": reader.kb.store.versions()}
            if q:
                limit = page * PAGE_SIZE
                # one answer more than the page shows: a "next" link only when it has one
                result = reader.searcher.search(q, lang=lang, kind=kind, limit=limit + 1,
                                                version=version or None)
                groups = result.groups()
                newest = data.latest(reader)
                context.update(
                    result=result,
                    groups=[(data.hit_url(g[0], newest), data.hit_heading(reader, g[0], newest), g)
                            for g in groups[limit - PAGE_SIZE:limit]],
                    has_next=len(groups) > limit and limit < MAX_RESULTS,
                    did_you_mean=data.did_you_mean(reader, q) if not groups else [])
            return "search.html", context
        return await self.page(request, build, ("search", tuple(params.items()), page))

    async def rule(self, request: Request) -> Response:
        number = request.path_params["number"]
        version = VERSION(request.query_params.get("version"))
        full = request.query_params.get("full") == "1"
        followed_from = VERSION(request.query_params.get("from"))  # the version picker's

        def build(reader: Reader) -> tuple[str, dict]:
            return "rule.html", {"r": data.rule_page(reader, number, version, full,
                                                     followed_from)}
        return await self.page(request, build, ("rule", number, version, full, followed_from))

    async def contents(self, request: Request) -> Response:
        version = VERSION(request.query_params.get("version"))

        def build(reader: Reader) -> tuple[str, dict]:
            resolved = reader.kb.resolve_version(version)
            return "contents.html", {"version": resolved,
                                     "chapters": outline(reader, resolved).chapters(),
                                     "versions": reader.kb.store.versions()}
        return await self.page(request, build, ("contents", version))

    async def help(self, request: Request) -> Response:
        def build(reader: Reader) -> tuple[str, dict]:
            return "help.html", {"kinds": KINDS}
        return await self.page(request, build, ("help",))

    async def history(self, request: Request) -> Response:
        number = request.path_params["number"]
        version = VERSION(request.query_params.get("version"))

        def build(reader: Reader) -> tuple[str, dict]:
            return "history.html", {"number": number, "version": version,
                                    "rules": data.history(reader, number, version)}
        return await self.page(request, build, ("history", number, version))

    async def card(self, request: Request) -> Response:
        address = request.path_params["name"]

        def build(reader: Reader) -> tuple[str, dict]:
            return "card.html", {"card": data.card(reader, address)}
        return await self.page(request, build, ("card", address))

    async def diff(self, request: Request) -> Response:
        p = request.query_params
        old, new = VersionDate("old")(p.get("old")), VersionDate("new")(p.get("new"))
        new, section = new or "latest", SECTION(p.get("section"))
        page = _int(p.get("page"), 1, 1, 10_000)

        def build(reader: Reader) -> tuple[str, dict]:
            versions = reader.kb.store.versions()
            context: dict[str, Any] = {"versions": versions, "page": page,
                                       "params": {"old": old, "new": new, "section": section}}
            if old:
                changes = data.diff(reader, old, new, section)
                start = (page - 1) * DIFF_PAGE
                context.update(c=changes, shown=changes.changes[start:start + DIFF_PAGE],
                               has_next=start + DIFF_PAGE < len(changes.changes))
            return "diff.html", context
        return await self.page(request, build, ("diff", old, new, section, page))

    async def glossary(self, request: Request) -> Response:
        """The English glossary of a rules version, or the French glossary of the official
        vocabulary (``order=fr``, the default for a French reader)."""
        p = request.query_params
        version, letter = VERSION(p.get("version")), data.letter_of(p.get("letter") or "A")
        order = p.get("order") if p.get("order") in LANGUAGES else i18n.current()

        def build(reader: Reader) -> tuple[str, dict]:
            if order == "fr":
                resolved, entries = data.french_glossary(reader, version)
                letters = sorted({data.letter_of(e.french) for e in entries})
                shown: list[Any] = [e for e in entries if data.letter_of(e.french) == letter]
            else:
                resolved, rows = data.glossary(reader, version)
                letters = sorted({data.letter_of(r.term) for r in rows})
                shown = [r for r in rows if data.letter_of(r.term) == letter]
            return "glossary.html", {"version": resolved, "rows": shown, "letter": letter,
                                     "letters": letters, "order": order,
                                     "versions": reader.kb.store.versions()}
        return await self.page(request, build, ("glossary", version, letter, order))

    async def terms(self, request: Request) -> Response:
        p = request.query_params
        q, page = p.get("q", "").strip(), _int(p.get("page"), 1, 1, 10_000)

        def build(reader: Reader) -> tuple[str, dict]:
            pairs = data.term_rows(data.terms(reader, q, prefix=True))
            start = (page - 1) * TERMS_PAGE
            return "terms.html", {"q": q, "pairs": pairs[start:start + TERMS_PAGE],
                                  "total": len(pairs), "page": page,
                                  "has_next": start + TERMS_PAGE < len(pairs)}
        return await self.page(request, build, ("terms", q, page))

    async def report(self, request: Request) -> Response:
        category = CATEGORY(request.query_params.get("category"))

        def build(reader: Reader) -> tuple[str, dict]:
            report = data.report(reader)
            # errors first, then warnings, then information; in report order within each
            found = sorted((f for f in report.findings if category in (None, f.category)),
                           key=lambda f: SEVERITIES.index(f.severity))
            return "report.html", {"report": report, "findings": found, "category": category,
                                   "categories": CATEGORIES}
        return await self.page(request, build, ("report", category))

    async def check(self, request: Request) -> Response:
        status = STATUS(request.query_params.get("status"))

        def build(reader: Reader) -> tuple[str, dict]:
            report = data.check_report(reader)
            wanted = (status,) if status else ("contradicted", "era-dependent")
            return "check.html", {"report": report, "status": status,
                                  "shown": [r for r in report.results if r.status in wanted]}
        return await self.page(request, build, ("check", status))

    async def versions(self, request: Request) -> Response:
        def build(reader: Reader) -> tuple[str, dict]:
            return "versions.html", {"infos": reader.kb.versions()}
        return await self.page(request, build, ("versions",))

    async def record(self, request: Request) -> Response:
        record_id = request.path_params["id"]

        def build(reader: Reader) -> tuple[str, dict]:
            record = reader.kb.store.get(record_id)
            if record is None:
                raise NotFound(_("no record {id!r} in the index").format(id=record_id))
            return "record.html", {"row": export_row(record)}
        return await self.page(request, build, ("record", record_id))

    async def prefs(self, request: Request) -> Response:
        """Remember which language comes first, or which language the site speaks, then go
        back (works without JavaScript). The interface language also goes back in the
        address, so that the page comes back in it even where cookies are refused, and a
        link to it keeps it."""
        first = request.query_params.get("first")
        ui = i18n.supported(request.query_params.get(UI_PARAM))
        back = request.query_params.get("next") or "/"
        # Only a path of this site: "//host" and "/\host" are other sites to a browser.
        if not back.startswith("/") or back.startswith("//") or "\\" in back:
            back = "/"
        if ui:
            path, _sep, query = back.partition("?")
            kept = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k != UI_PARAM]
            back = path + "?" + urlencode([*kept, (UI_PARAM, ui)])
        response = RedirectResponse(back, status_code=303)
        if first in LANGUAGES:
            response.set_cookie(FIRST_COOKIE, first, max_age=365 * 86400, samesite="lax")
        if ui:
            response.set_cookie(UI_COOKIE, ui, max_age=365 * 86400, samesite="lax")
        return response


def _int(value: str | None, default: int, low: int, high: int) -> int:
    if value is None or value == "":
        return default
    try:
        number = int(value)
    except ValueError as exc:
        raise BadRequest(_("not a number: {value!r}").format(value=value)) from exc
    if not low <= number <= high:
        raise BadRequest(_("{number} is out of range ({low}-{high})").format(
            number=number, low=low, high=high))
    return number
