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
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Also answer requests for this host name (repeatable; *.example.org for "
                   "its subdomains). By default only localhost, 127.0.0.1 and ::1 are "
                   "answered (and the --host address), so that no other web site can reach "
                   "the server through its own name (DNS rebinding).")
@click.option("--open", "open_browser", is_flag=True, help="Open the site in a browser.")
@click.option("--threads", default=3, show_default=True, type=click.IntRange(1, 64),
              help="Reader threads for quick answers, and as many for slow ones (each "
                   "keeps its own connection to the index).")
@click.option("--cache", "cache", default=2000, show_default=True,
              type=click.IntRange(0, 1_000_000),
              help="Rendered pages and answers kept per index generation (0: none).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes sharing the port (a process uses one core).")
@click.option("--limit-concurrency", "max_requests", default=100, show_default=True,
              type=click.IntRange(1, 100_000),
              help="Requests answered at once by a process; more are answered 503 at once.")
@click.option("--header-timeout", default=10.0, show_default=True,
              type=click.FloatRange(0.1, 3600),
              help="Seconds a connection has to send a whole request head (a slow client, "
                   "or one that never sends, is closed).")
@json_option
@click.pass_context
def command(ctx: click.Context, host: str, port: int, allow_hosts: tuple[str, ...],
            open_browser: bool, threads: int, cache: int, workers: int, max_requests: int,
            header_timeout: float, as_json: bool) -> None:
    """Serve the current index at http://HOST:PORT/: rules side by side in French and
    English, search, cards, history, diffs, glossary, terms, the consistency report, and the
    JSON API under /api/ (the same shapes as --json).

    A new 'kb build' is picked up without a restart. Stop with Ctrl-C.

    To put it on a network, run it behind a reverse proxy (docs/deploy.md: nginx, several
    kb serve processes sharing one read-only index).

    With --json, print the addresses as JSON once the server listens."""
    from kb.reader import KnowledgeBase
    from kb.web.guard import LOCAL_HOSTS, is_loopback
    from kb.web.server import Settings, listen, serve

    root = index_root(ctx)
    with KnowledgeBase(root):  # no index: say so now, exit 1, rather than on every request
        pass
    sock = listen(host, port)  # an address that cannot be used: one line, exit 1
    url = f"http://{host if ':' not in host else f'[{host}]'}:{port}/"
    wildcard = host in ("0.0.0.0", "::", "")
    hosts = (*LOCAL_HOSTS, *(() if wildcard else (host,)), *allow_hosts)
    if not is_loopback(host):
        click.echo(_("kb: warning: listening on {host} exposes the site to the network; it "
                     "answers only the host names {names} (add yours with --allow-host) and "
                     "is meant to run behind a reverse proxy (docs/deploy.md)").format(
                         host=host, names=", ".join(dict.fromkeys(hosts))), err=True)
    if as_json:
        emit_json({"url": url, "api": url + "api/", "openapi": url + "api/openapi.json",
                   "index": str(root)})
    else:
        click.echo(_("Serving {index} at {url} (API: {url}api/); Ctrl-C stops.").format(
            index=shown(root), url=url), err=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    settings = Settings(str(root), threads, cache, tuple(dict.fromkeys(hosts)), max_requests,
                        header_timeout)
    serve(settings, sock, workers)
