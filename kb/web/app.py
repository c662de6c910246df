"""The web application of ``kb serve``: routes, security headers and error pages.

Starlette (not FastAPI): the JSON API mirrors the command line's ``--json`` shapes, which the
domain modules already build, so request models and validation layers would only repeat them;
FastAPI's documentation page also loads its script from a CDN, which the site's
Content-Security-Policy (no external assets) forbids. The OpenAPI description is generated from
:data:`kb.web.jsonapi.ENDPOINTS` and shown by a page of our own.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import AsyncIterator, Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from kb import i18n
from kb.errors import KbError
from kb.i18n import _
from kb.indexdir import CorruptIndexError, damage_of
from kb.web.errors import NotFound, http_error
from kb.web.guard import MAX_REQUESTS, Guard, Hosts
from kb.web.jsonapi import ENDPOINTS, handler, json_response, openapi
from kb.web.language import LanguageMiddleware, request_language
from kb.web.pages import Pages, first_language, here
from kb.web.readers import RESPONSES_KEPT, Readers
from kb.web.render import environment


class Site(Starlette):
    """Starlette with :class:`kb.web.guard.Guard` outside everything, its error middleware
    included (a middleware added the usual way sits inside it, and misses its 500s)."""

    def __init__(self, *args: Any, guard: Callable[[ASGIApp], ASGIApp], **kwargs: Any) -> None:
        self._guard = guard
        super().__init__(*args, **kwargs)

    def build_middleware_stack(self) -> ASGIApp:
        return self._guard(super().build_middleware_stack())


def create_app(index_root: Path, threads: int = 3, responses_kept: int = RESPONSES_KEPT, *,
               hosts: Sequence[str] | None = None, max_requests: int = MAX_REQUESTS) -> Starlette:
    """The application over the index folder ``index_root``: ``threads`` reader threads,
    ``responses_kept`` rendered answers kept per generation (0: none), the ``Host`` names it
    answers to (None: any, for a test client or an embedding server; ``kb serve`` gives
    them) and the requests it answers at once (:mod:`kb.web.guard`)."""
    readers = Readers(index_root, threads, responses_kept)
    env = environment()
    pages = Pages(readers, env)

    async def error(request: Request, exc: Exception) -> Response:
        # A bug's answer is made by Starlette's outermost handler: the language is read again
        # here, whatever ran before.
        with i18n.using(request_language(request)):
            if not isinstance(exc, KbError) and (damage := damage_of(index_root)):
                exc = CorruptIndexError(damage)  # a file altered while served: say that, not 500
            found = http_error(exc)
            found = dataclasses.replace(found, message=without_paths(found.message, index_root))
            if request.url.path.startswith("/api/"):
                return json_response(found.as_json(), found.status)
            page = env.get_template("error.html").render(
                error=found, first=first_language(request), path=request.url.path,
                here=here(request), latest=None, nearest=getattr(exc, "nearest", ()),
                nearest_version=getattr(exc, "version", None))
        return HTMLResponse(page, status_code=found.status)

    async def not_found(request: Request, exc: Exception) -> Response:
        return await error(request, NotFound(_("no page at {path}").format(
            path=request.url.path)))

    async def api_index(request: Request) -> Response:
        page = env.get_template("api.html").render(
            spec=openapi(), first=first_language(request), path=request.url.path,
            here=here(request), latest=None)
        return HTMLResponse(page)

    async def api_spec(request: Request) -> Response:
        return json_response(openapi())

    routes = [
        Route("/", pages.home),
        Route("/search", pages.search),
        Route("/rule/{number}", pages.rule),
        Route("/contents", pages.contents),
        Route("/help", pages.help),
        Route("/history/{number}", pages.history),
        Route("/card/{name:path}", pages.card),
        Route("/diff", pages.diff),
        Route("/glossary", pages.glossary),
        Route("/terms", pages.terms),
        Route("/report", pages.report),
        Route("/check", pages.check),
        Route("/versions", pages.versions),
        Route("/record/{id:path}", pages.record),
        Route("/prefs", pages.prefs),
        Route("/api", api_index),
        Route("/api/openapi.json", api_spec),
        *(Route(e.path, handler(readers, e), name=e.name) for e in ENDPOINTS),
        Mount("/static", StaticFiles(directory=str(resources.files("kb.web") / "static")),
              name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        readers.close()

    guard = Hosts(hosts) if hosts is not None else None
    # The language outermost: the guard's own answers (a wrong host, busy) speak it too.
    app = Site(routes=routes, lifespan=lifespan, exception_handlers={
        KbError: error, Exception: error, 404: not_found},
        guard=lambda inner: LanguageMiddleware(Guard(inner, guard, max_requests)))
    app.state.readers = readers
    return app


def without_paths(message: str, index_root: Path) -> str:
    """An error's text for the web: the index folder's place on the server is not the
    visitor's business; a file of the index is named from the index folder."""
    forms = {str(index_root), str(index_root.absolute()), str(index_root.resolve())}
    for form in sorted(forms, key=len, reverse=True):
        message = message.replace(form + os.sep, "").replace(form, _("the index folder"))
    return message
