"""``kb search`` in a new process, as typed by hand: what it imports (issue 23: a cold search
<= 200 ms, most of it imports). Only what a search runs: not the engine, the web's Jinja2 and
Starlette, the parsers' BeautifulSoup, nor the modules Whoosh imports and kb never calls
(kb.index.loading), nor those only a build uses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

NOT_FOR_A_SEARCH = (
    "kb.engine", "kb.check", "kb.web", "kb.build", "kb.sources", "jinja2", "starlette", "bs4",
    "rich", "urllib.request", "asyncio", "cached_property", "whoosh.lang.morph_en", "filelock",
    "multiprocessing", "ctypes", "tomllib",
    # The index writer (kb.index.files names what it shares with the searcher), the modules of
    # a few lines kb wrote instead: listing the commands (pkgutil), the interface's catalogues
    # (importlib.resources), a random marker (secrets).
    "kb.index.writer", "pkgutil", "importlib.resources", "secrets",
    # What kb rule and kb card show (a dataclass costs about a millisecond to create).
    "kb.views",
)


def test_kb_search_imports_only_what_a_search_runs(default_index: Path):
    code = ("import json, sys\n"
            "from kb.cli import main\n"
            f"sys.argv = ['kb', '--index', {str(default_index)!r}, 'search', '--json', "
            "'trample damage']\n"
            "try:\n    main()\nexcept SystemExit as exit:\n    status = exit.code\n"
            "print(json.dumps([status, sorted(sys.modules)]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=REPO).stdout
    result, (status, modules) = json.loads(out[:out.rindex("\n[")]), json.loads(
        out.splitlines()[-1])
    assert status in (0, None) and result["hits"]
    loaded = [m for m in modules if m.split(".")[0] in NOT_FOR_A_SEARCH
              or any(m == name or m.startswith(name + ".") for name in NOT_FOR_A_SEARCH)]
    assert not loaded
