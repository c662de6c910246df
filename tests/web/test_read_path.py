"""Serving a rule page runs no pairing code (issue 21): the build's link stage decides every
pairing once and stores it; the site only reads links. Checked in a fresh interpreter, since the
test session itself imports the link stage to build its indexes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.test_reader import PAIRING

REPO = Path(__file__).resolve().parents[2]
PAGES = ("/rule/702.102", "/rule/702.102a", "/api/rules/702.102a", "/history/702.102",
         "/rule/702.19b?version=2013-05-01&from=2026-04-17", "/card/aetherling")


def test_serving_rule_pages_imports_no_pairing_code(cr_index: Path) -> None:
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from starlette.testclient import TestClient\n"
        "from kb.web.app import create_app\n"
        f"with TestClient(create_app(Path({str(cr_index)!r}))) as client:\n"
        f"    statuses = [client.get(url).status_code for url in {PAGES!r}]\n"
        "print(json.dumps([statuses, sorted(m for m in sys.modules if m.startswith('kb.'))]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=REPO).stdout
    statuses, loaded = json.loads(out.strip().splitlines()[-1])
    assert statuses == [200] * len(PAGES)
    assert "kb.reader" in loaded and "kb.history" in loaded  # the pages were served
    assert sorted(set(loaded) & set(PAIRING)) == []
