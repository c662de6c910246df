"""``kb serve``: the knowledge base as a local web site and JSON API (read-only)."""

from __future__ import annotations

import threading
import webbrowser

import click

from kb.cli._command import KbCommand
from kb.cli._output import emit_json, index_root, json_option
from kb.i18n import _
from kb.paths import shown


@click.command("serve", cls=KbCommand)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (another than 127.0.0.1 exposes the site to the "
                   "network).")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(1, 65535),
              help="Port to listen on.")
@click.option("--open", "open_browser", is_flag=True, help="Open the site in a browser.")
@click.option("--threads", default=3, show_default=True, type=click.IntRange(1, 64),
              help="Reader threads for quick answers, and as many for slow ones (each "
                   "keeps its own connection to the index).")
@click.option("--cache", "cache", default=2000, show_default=True,
              type=click.IntRange(0, 1_000_000),
              help="Rendered pages and answers kept per index generation (0: none).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes sharing the port (a process uses one core).")
@json_option
@click.pass_context
def command(ctx: click.Context, host: str, port: int, open_browser: bool, threads: int,
            cache: int, workers: int, as_json: bool) -> None:
    """Serve the current index at http://HOST:PORT/: rules side by side in French and
    English, search, cards, history, diffs, glossary, terms, the consistency report, and the
    JSON API under /api/ (the same shapes as --json).

    A new 'kb build' is picked up without a restart. Stop with Ctrl-C.

    With --json, print the addresses as JSON once the server listens."""
    from kb.reader import KnowledgeBase
    from kb.web.app import serve

    root = index_root(ctx)
    with KnowledgeBase(root):  # no index: say so now, exit 1, rather than on every request
        pass
    url = f"http://{host if ':' not in host else f'[{host}]'}:{port}/"
    if as_json:
        emit_json({"url": url, "api": url + "api/", "openapi": url + "api/openapi.json",
                   "index": str(root)})
    else:
        click.echo(_("Serving {index} at {url} (API: {url}api/); Ctrl-C stops.").format(
            index=shown(root), url=url), err=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    serve(root, host, port, threads=threads, cache=cache, workers=workers)
