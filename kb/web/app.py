"""The web application of ``kb serve``: routes, security headers and error pages.

Starlette (not FastAPI): the JSON API mirrors the command line's ``--json`` shapes, which the
domain modules already build, so request models and validation layers would only repeat them;
FastAPI's documentation page also loads its script from a CDN, which the site's
Content-Security-Policy (no external assets) forbids. The OpenAPI description is generated from
:data:`kb.web.jsonapi.ENDPOINTS` and shown by a page of our own.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kb import i18n
from kb.errors import KbError
from kb.i18n import _
from kb.web.errors import NotFound, http_error
from kb.web.jsonapi import ENDPOINTS, handler, json_response, openapi
from kb.web.language import VARY, LanguageMiddleware, request_language
from kb.web.pages import Pages, first_language, here
from kb.web.readers import RESPONSES_KEPT, Readers
from kb.web.render import environment

# No script but the site's own file, no inline style, no outside request of any kind.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    VARY,  # the language
]


class SecurityHeaders:
    """Adds the Content-Security-Policy and its companions to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(index_root: Path, threads: int = 3,
               responses_kept: int = RESPONSES_KEPT) -> Starlette:
    """The application over the index folder ``index_root``: ``threads`` reader threads,
    ``responses_kept`` rendered answers kept per generation (0: none)."""
    readers = Readers(index_root, threads, responses_kept)
    env = environment()
    pages = Pages(readers, env)

    async def error(request: Request, exc: Exception) -> Response:
        # A bug's answer is made outside the middlewares (Starlette's outermost handler):
        # the language is read again here.
        with i18n.using(request_language(request)):
            found = http_error(exc)
            if request.url.path.startswith("/api/"):
                return json_response(found.as_json(), found.status)
            page = env.get_template("error.html").render(
                error=found, first=first_language(request), path=request.url.path,
                here=here(request), latest=None)
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

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        KbError: error, Exception: error, 404: not_found})
    app.add_middleware(LanguageMiddleware)
    app.add_middleware(SecurityHeaders)
    app.state.readers = readers
    return app


def from_environment() -> Starlette:
    """The application as each worker process of ``kb serve --workers N`` builds it: uvicorn
    starts workers from an import path, so the options travel in the environment."""
    return create_app(Path(os.environ[_ENV_INDEX]), int(os.environ[_ENV_THREADS]),
                      int(os.environ[_ENV_CACHE]))


_ENV_INDEX, _ENV_THREADS, _ENV_CACHE = "KB_SERVE_INDEX", "KB_SERVE_THREADS", "KB_SERVE_CACHE"


def serve(index_root: Path, host: str, port: int, *, threads: int, cache: int,
          workers: int = 1) -> None:
    """Run the site until interrupted: one process, or ``workers`` processes sharing the
    port (each with its own readers and caches; a Python process uses one core)."""
    import uvicorn

    options: dict[str, Any] = {"host": host, "port": port, "log_level": "warning",
                               "access_log": False}
    if workers == 1:
        uvicorn.run(create_app(index_root, threads, cache), **options)
        return
    os.environ.update({_ENV_INDEX: str(index_root), _ENV_THREADS: str(threads),
                       _ENV_CACHE: str(cache)})
    uvicorn.run(f"{__name__}:from_environment", factory=True, workers=workers, **options)
