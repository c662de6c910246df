"""The language the site speaks to one request: the switch's choice (``?ui=fr`` in the address,
else the ``kb_ui`` cookie the switch sets), else the browser's ``Accept-Language``, else
English. Every request runs in its language (:func:`kb.i18n.using`), so pages, JSON errors and
the worker threads that render them (which run in a copy of the request's context) speak it.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from kb import i18n

UI_PARAM = "ui"
UI_COOKIE = "kb_ui"


def request_language(connection: HTTPConnection) -> str:
    """The interface language of a request (see the module docstring)."""
    chosen = (i18n.supported(connection.query_params.get(UI_PARAM))
              or i18n.supported(connection.cookies.get(UI_COOKIE)))
    return (chosen or i18n.from_accept_language(connection.headers.get("accept-language"))
            or i18n.DEFAULT)


# Every answer depends on the headers that choose its language: a shared cache must not serve
# one reader's French to another reader's English (kb.web.guard sends it with every answer).
VARY = (b"vary", b"Accept-Language, Cookie")


class LanguageMiddleware:
    """Runs each HTTP request in its interface language."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with i18n.using(request_language(HTTPConnection(scope))):
            await self.app(scope, receive, send)
