"""The deployment recipe of docs/deploy.md, run as written (issue 25): Debian's nginx with
docs/deploy/kb-nginx.conf in front of two ``kb serve`` processes that share one index, each
process in a mount namespace where the index folder is read-only."""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

import pytest

from tests.web.test_serve_command import KB, free_port

REPO = Path(__file__).resolve().parents[2]
RECIPE = REPO / "docs" / "deploy" / "kb-nginx.conf"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def _read_only_mounts() -> bool:
    """Whether this machine lets a process see a folder read-only (a private mount
    namespace, with a user namespace when not root)."""
    if shutil.which("unshare") is None:
        return False
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(["unshare", "-rm", "sh", "-c", f'mount --bind "{folder}" '
                               f'"{folder}" && mount -o remount,bind,ro "{folder}" && '
                               f'! touch "{folder}/x" 2>/dev/null'], capture_output=True)
    return done.returncode == 0


pytestmark = [
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed (.ci/run installs it: "
                                             "apt-get install nginx)"),
    pytest.mark.skipif(not _read_only_mounts(), reason="no mount namespaces here (unshare "
                                                       "-rm) to show the index read-only"),
]


def get(url: str, host: str = "localhost") -> tuple[int, Message, str]:
    """(status, headers (any case), body) of a GET with this Host."""
    request = urllib.request.Request(url, headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read().decode()


def wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            get(url)
            return
        except OSError:
            assert time.monotonic() < deadline, f"nothing answers at {url}"
            time.sleep(0.2)


def read_only_kb_serve(index: Path, port: int) -> subprocess.Popen:
    """``kb serve`` seeing ``index`` through a read-only bind mount of its own."""
    script = (f'mount --bind "{index}" "{index}" && mount -o remount,bind,ro "{index}" && '
              f'exec "{KB}" --index "{index}" serve --port {port}')
    return subprocess.Popen(["unshare", "-rm", "sh", "-c", script],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


@contextlib.contextmanager
def deployment(index: Path, prefix: Path
               ) -> Iterator[tuple[int, list[subprocess.Popen], list[int]]]:
    """nginx (the recipe's server block) on a free port in front of two kb serve processes:
    (nginx's port, the kb serve processes, their ports)."""
    ports = [free_port(), free_port()]
    backends = [read_only_kb_serve(index, port) for port in ports]
    front = free_port()
    server = (RECIPE.read_text(encoding="utf-8")
              .replace("127.0.0.1:8801", f"127.0.0.1:{ports[0]}")
              .replace("127.0.0.1:8802", f"127.0.0.1:{ports[1]}")
              .replace("listen 80 ", f"listen 127.0.0.1:{front} ")
              .replace("server_name rules.example.org;", "server_name localhost;"))
    (prefix / "logs").mkdir(parents=True, exist_ok=True)
    (prefix / "nginx.conf").write_text(f"""
worker_processes 2;
worker_rlimit_nofile 16384;
error_log {prefix}/logs/error.log warn;
pid {prefix}/nginx.pid;
events {{ worker_connections 4096; multi_accept on; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
{server}
}}
""", encoding="utf-8")
    nginx = subprocess.Popen([str(NGINX), "-p", str(prefix), "-c", str(prefix / "nginx.conf"),
                              "-g", "daemon off;"], stderr=subprocess.PIPE, text=True)
    try:
        for port in ports:
            wait_for(f"http://127.0.0.1:{port}/api/versions")
        wait_for(f"http://127.0.0.1:{front}/api/versions")
        yield front, backends, ports
    finally:
        nginx.send_signal(signal.SIGQUIT)
        for process in (nginx, *backends):
            if process.poll() is None:
                process.terminate()
            process.wait(30)


def test_the_recipe_serves_a_read_only_index_and_outlives_a_process(cr_index: Path,
                                                                     tmp_path: Path) -> None:
    with deployment(cr_index, tmp_path / "nginx") as (port, backends, _):
        status, headers, html = get(f"http://127.0.0.1:{port}/rule/702.19b")
        assert status == 200 and "702.19b" in html
        assert "default-src 'none'" in headers["Content-Security-Policy"]  # kb's, through nginx
        status, _, body = get(f"http://127.0.0.1:{port}/api/search?q=pi%C3%A9tinement")
        assert status == 200 and "702.19" in body
        status, _, _ = get(f"http://127.0.0.1:{port}/", host="evil.example")
        assert status == 400  # kb refuses a name it was not given, behind nginx too
        backends[0].terminate()
        backends[0].wait(30)
        for _ in range(6):  # the other process answers everything
            assert get(f"http://127.0.0.1:{port}/api/versions")[0] == 200
    errors = [p.stderr.read() for p in backends if p.stderr]
    assert not any("Read-only" in e or "Traceback" in e for e in errors), errors


@pytest.mark.slow
def test_slowloris_against_nginx_in_front(small_index: Path, tmp_path: Path) -> None:
    """2,000 idle connections held against nginx: real requests are answered within 1 s."""
    sys.path.insert(0, str(REPO / "bench"))
    from slowloris import attack

    with deployment(small_index, tmp_path / "nginx") as (port, _, ports):
        for backend in ports:  # each process has made the page once, as kb serve alone
            get(f"http://127.0.0.1:{backend}/rule/702.19b")
        outcome = attack("127.0.0.1", port, connections=2000, seconds=5, path="/rule/702.19b")
    print(outcome.summary())
    assert outcome.held >= 2000 and outcome.held_at_end >= 1900
    assert not outcome.failures and len(outcome.latencies) >= 10
    assert outcome.worst < 1.0
