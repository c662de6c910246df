"""``kb fetch`` against an HTTP server started on 127.0.0.1 by the test, never the internet.

The server serves tests/fixtures/fetch/rules.html (a small page laid out like the official
rules page; its links to media.wizards.com are pointed at the local server) and, under the
name that page links, a shared-corpus CR file. MagicCompRules 20260417.txt says "These rules
are effective as of April 17, 2026." (line 5).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import cli
from kb.fetch import FetchError, check_rules, find_rules_link
from kb.paths import user_corpus_dir
from kb.reader import KnowledgeBase
from tests.conftest import REPO, cr_file

PAGE = REPO / "tests" / "fixtures" / "fetch" / "rules.html"
OFFICIAL = "https://magic.wizards.com/en/rules"
TXT_PATH = "/2026/downloads/MagicCompRules%2020260417.txt"


# -- finding the link ----------------------------------------------------------------------------


def test_the_txt_link_of_the_saved_page():
    html = PAGE.read_text(encoding="utf-8")
    assert find_rules_link(html, OFFICIAL) == f"https://media.wizards.com{TXT_PATH}"


def test_relative_links_and_the_latest_of_several():
    html = ('<a href="/dl/MagicCompRules 20250207.txt">old</a>'
            '<a href="/dl/MagicCompRules%2020260417.txt">TXT</a>'
            '<a href="/robots.txt">robots</a>')
    assert find_rules_link(html, "http://example.test/en/rules") == (
        "http://example.test/dl/MagicCompRules%2020260417.txt")


def test_a_page_without_the_link_is_a_clear_error():
    with pytest.raises(FetchError, match=r"^http://x.test/: no link to a Comprehensive Rules"):
        find_rules_link('<a href="/robots.txt">robots</a><a href="/r.pdf">PDF</a>',
                        "http://x.test/")


def test_only_a_whole_rules_text_passes_the_check():
    with pytest.raises(FetchError, match="not a Comprehensive Rules text"):
        check_rules(PAGE.read_bytes(), "http://x.test/rules.txt")
    with pytest.raises(FetchError, match="not a text file"):
        check_rules(bytes(range(256)) * 64, "http://x.test/rules.txt")


def test_a_truncated_rules_text_fails_the_check():
    data = cr_file("20260417").read_bytes()
    with pytest.raises(FetchError, match=r"incomplete rules text \(\d+ rules, 0 glossary"):
        check_rules(data[: len(data) // 2], "http://x.test/rules.txt")


def test_user_corpus_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("KB_CORPUS", str(tmp_path / "mine"))
    assert user_corpus_dir() == tmp_path / "mine"
    monkeypatch.delenv("KB_CORPUS")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert user_corpus_dir() == tmp_path / "data" / "kb" / "corpus"


# -- against a local server ----------------------------------------------------------------------


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch):
    """The local server is reached directly, whatever proxy the environment names."""
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


@dataclass
class Site:
    """What the local server answers: path -> (status, body); ``delay`` before answering."""

    base: str = ""
    routes: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    delay: float = 0.0
    lengths: dict[str, int] = field(default_factory=dict)  # a Content-Length to announce


@pytest.fixture
def site() -> Iterator[Site]:
    served = Site()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
            time.sleep(served.delay)
            status, body = served.routes.get(self.path, (404, b"not found"))
            try:
                self.send_response(status)
                self.send_header("Content-Length",
                                 str(served.lengths.get(self.path, len(body))))
                self.end_headers()
                self.wfile.write(body)
            except ConnectionError:  # the client gave up waiting (the timeout test)
                pass

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    served.base = f"http://127.0.0.1:{server.server_address[1]}"
    page = PAGE.read_text(encoding="utf-8").replace("https://media.wizards.com", served.base)
    served.routes["/en/rules"] = (200, page.encode())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield served
    server.shutdown()
    server.server_close()


def fetch(index: Path, *args: str):
    return CliRunner().invoke(cli, ["--index", str(index), "fetch", *args])


def newer_rules(effective: str = "June 12, 2026") -> bytes:
    """The 2026-04-17 rules as a later release would be: the same text, a later date on its
    line 3 ("These rules are effective as of April 17, 2026.")."""
    data = cr_file("20260417").read_bytes()
    old = b"These rules are effective as of April 17, 2026."
    assert data.index(old) < 100  # line 3 (the credits repeat it)
    return data.replace(old, f"These rules are effective as of {effective}.".encode(), 1)


def test_fetch_stores_a_newer_file_and_the_build_serves_it_as_latest(site, tmp_path):
    data = newer_rules()
    site.routes[TXT_PATH] = (200, data)
    corpus, index = tmp_path / "corpus", tmp_path / "index"
    result = fetch(index, "--url", f"{site.base}/en/rules", "--dest", str(corpus), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    stored = corpus / "MagicCompRules 2026-06-12.txt"
    assert report["path"] == str(stored)
    assert report["version"] == "2026-06-12"
    assert report["url"] == f"{site.base}{TXT_PATH}"
    assert stored.read_bytes() == data
    assert sorted(p.name for p in corpus.iterdir()) == [stored.name]
    # The embedded 2026-04-17 stays; the fetched one is the latest.
    assert report["built"]["versions"][-2:] == ["2026-04-17", "2026-06-12"]
    with KnowledgeBase(index) as kb:
        (trample,) = [v for v in kb.rule("702.19b") if v.language == "en"]
        assert trample.source["file"] == stored.name
        assert trample.version == "2026-06-12"
        assert trample.text.startswith("The controller of an attacking creature with trample")
    again = fetch(index, "--url", f"{site.base}/en/rules", "--dest", str(corpus), "--no-build")
    assert again.exit_code == 0
    assert "already stored, unchanged" in again.output


def test_fetch_from_a_closed_port_fails_in_one_line_and_leaves_the_corpus(tmp_path):
    with socket.socket() as s:  # a port that was free a moment ago and is closed now
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "mine.txt").write_text("kept")
    result = fetch(tmp_path / "index", "--url", f"http://127.0.0.1:{port}/en/rules",
                   "--dest", str(corpus))
    assert result.exit_code == 1
    assert result.output.startswith(f"kb: cannot reach 127.0.0.1:{port}: ")
    assert result.output.count("\n") == 1
    assert [p.name for p in corpus.iterdir()] == ["mine.txt"]
    assert not (tmp_path / "index").exists()


def test_fetch_errors_leave_no_file(site, tmp_path):
    corpus = tmp_path / "corpus"
    url = f"{site.base}/en/rules"
    missing = fetch(tmp_path / "index", "--url", url, "--dest", str(corpus))
    assert missing.exit_code == 1
    assert missing.output == f"kb: {site.base}{TXT_PATH}: HTTP 404 Not Found\n"
    site.routes[TXT_PATH] = (200, PAGE.read_bytes())
    wrong = fetch(tmp_path / "index", "--url", url, "--dest", str(corpus))
    assert wrong.exit_code == 1
    assert "not a Comprehensive Rules text" in wrong.output
    assert not corpus.exists()


def test_fetch_times_out(site, tmp_path):
    site.delay = 1.0
    result = fetch(tmp_path / "index", "--url", f"{site.base}/en/rules", "--timeout", "0.2",
                   "--dest", str(tmp_path / "corpus"))
    assert result.exit_code == 1
    assert "not complete within 0.2 s" in result.output
    assert result.output.count("\n") == 1


def test_fetch_refuses_other_schemes(tmp_path):
    result = fetch(tmp_path / "index", "--url", "file:///etc/passwd")
    assert result.exit_code == 2
    assert "not an http(s) address: file:///etc/passwd" in result.output


def test_build_reads_the_user_corpus_folder_once(tmp_path, monkeypatch):
    """`kb build` ingests the folder `kb fetch` fills, even when it is also given by
    --corpus."""
    from kb.api import build_index

    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copyfile(cr_file("20260417"), mine / "MagicCompRules 20260417.txt")
    monkeypatch.setenv("KB_CORPUS", str(mine))
    report = build_index(tmp_path / "idx", [mine], embedded=False)
    assert report.versions == ["2026-04-17"]
    assert [s.file for s in report.sources] == ["MagicCompRules 20260417.txt"]
    assert not report.problems


# -- issue 17: nothing cut, nothing endless, nothing secret printed ------------------------------


def served_file(site: Site, body: bytes, *, length: int | None = None) -> None:
    """Serve ``body`` as the rules file, announcing ``length`` bytes (the true length when
    None): the fixture's server writes what it is given."""
    site.routes[TXT_PATH] = (200, body)
    site.lengths[TXT_PATH] = len(body) if length is None else length


@pytest.mark.parametrize("share", [0.90, 0.97])
def test_a_cut_download_with_a_matching_length_writes_nothing(site, tmp_path, share):
    data = newer_rules()
    served_file(site, data[: int(len(data) * share)])
    corpus = tmp_path / "corpus"
    result = fetch(tmp_path / "index", "--url", f"{site.base}/en/rules", "--dest", str(corpus))
    assert result.exit_code == 1
    assert "incomplete rules text" in result.output and "nothing written" in result.output
    assert not corpus.exists() and not (tmp_path / "index").exists()


def test_a_body_shorter_than_its_content_length_writes_nothing(site, tmp_path):
    data = newer_rules()
    served_file(site, data[: len(data) * 9 // 10], length=len(data))
    result = fetch(tmp_path / "index", "--url", f"{site.base}/en/rules",
                   "--dest", str(tmp_path / "corpus"))
    assert result.exit_code == 1
    assert "download cut short" in result.output
    assert result.output.count("\n") == 1
    assert not (tmp_path / "corpus").exists()


def test_a_newer_file_missing_many_rules_writes_nothing(site, tmp_path):
    """Whole at both ends (title, glossary, credits) but a tenth of the rules gone."""
    lines = newer_rules().decode("utf-8-sig").split("\n")
    rules = [i for i, line in enumerate(lines) if line[:1].isdigit() and i > 300]
    cut = set(rules[len(rules) // 3: len(rules) // 3 + len(rules) // 10])
    served_file(site, "\n".join(x for i, x in enumerate(lines) if i not in cut).encode())
    corpus = tmp_path / "corpus"
    result = fetch(tmp_path / "index", "--url", f"{site.base}/en/rules", "--dest", str(corpus))
    assert result.exit_code == 1
    assert "the download looks cut; nothing written" in result.output
    assert "3294 in the installed 2026-04-17" in result.output
    assert not corpus.exists()


def test_rules_no_newer_than_the_installed_ones_are_not_written(site, tmp_path):
    served_file(site, cr_file("20250207").read_bytes())
    corpus = tmp_path / "corpus"
    result = fetch(tmp_path / "index", "--url", f"{site.base}/en/rules", "--dest", str(corpus))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("The rules online (2025-02-07) are not newer than the "
                                    "installed 2026-04-17")
    assert not corpus.exists() and not (tmp_path / "index").exists()


class RawServer:
    """A server on 127.0.0.1 that answers every connection with ``answer(conn)``: what
    http.server cannot be made to do (trickle headers, never end)."""

    def __init__(self, answer: Callable[[socket.socket], None]) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.answer = answer
        self.requests: list[bytes] = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self.handle, args=(conn,), daemon=True).start()

    def handle(self, conn: socket.socket) -> None:
        with conn:
            self.requests.append(conn.recv(65536))
            with contextlib.suppress(OSError):  # the client hung up: what the tests want
                self.answer(conn)

    def close(self) -> None:
        self.sock.close()


def endless(conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n")
    while True:
        conn.sendall(b"x" * 65536)


def slowloris(conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n")
    while True:
        conn.sendall(b"1")
        time.sleep(0.05)


def slow_headers(conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\n")
    while True:
        conn.sendall(b"X: y\r\n")
        time.sleep(0.05)


@pytest.fixture
def raw() -> Iterator[Callable[[Callable[[socket.socket], None]], RawServer]]:
    servers: list[RawServer] = []

    def start(answer: Callable[[socket.socket], None]) -> RawServer:
        servers.append(RawServer(answer))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


@pytest.mark.parametrize("answer", [slowloris, slow_headers])
def test_a_server_that_trickles_is_cut_at_the_overall_deadline(raw, tmp_path, answer):
    server = raw(answer)
    began = time.monotonic()
    result = fetch(tmp_path / "index", "--url", f"{server.base}/en/rules", "--timeout", "1",
                   "--dest", str(tmp_path / "corpus"))
    assert time.monotonic() - began < 5
    assert result.exit_code == 1
    assert "not complete within 1 s" in result.output and "--timeout" in result.output
    assert result.output.count("\n") == 1
    assert not (tmp_path / "corpus").exists()


def test_an_endless_body_is_cut_at_the_size_cap(raw, tmp_path):
    from kb.fetch import fetch as fetch_rules

    server = raw(endless)
    with pytest.raises(FetchError, match=r"more than 1 MB and still sending"):
        fetch_rules(tmp_path / "corpus", f"{server.base}/en/rules", timeout=20,
                    max_bytes=1 << 20)
    assert not (tmp_path / "corpus").exists()


def test_a_password_in_the_address_is_sent_but_never_printed(raw, tmp_path):
    def refuse(conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n")

    server = raw(refuse)
    url = server.base.replace("//", "//judge:s3cr%21t@") + "/en/rules"
    result = fetch(tmp_path / "index", "--url", url, "--dest", str(tmp_path / "corpus"))
    assert result.exit_code == 1
    assert "s3cr" not in result.output and "judge" not in result.output
    assert f"{server.base}/en/rules: HTTP 401" in result.output
    assert b"Authorization: Basic anVkZ2U6czNjciF0" in server.requests[0]  # judge:s3cr!t


@pytest.mark.parametrize(("args", "message"), [
    (["--timeout", "nan"], "nan is not a number of seconds"),
    (["--timeout", "inf"], "--timeout"),
    (["--url", "http://[::1/en/rules"], "Invalid IPv6 URL"),
    (["--url", "http://127.0.0.1:99999/"], "not a valid address"),
])
def test_unreadable_options_are_usage_errors(tmp_path, args, message):
    result = fetch(tmp_path / "index", *args, "--dest", str(tmp_path / "corpus"))
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "corpus").exists()
