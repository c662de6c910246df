"""kb.index.loading: Whoosh imported without urllib.request, the cached_property package and
whoosh.lang.morph_en, which stay importable and work when asked for."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=REPO).stdout.strip()


def test_whoosh_is_imported_without_the_modules_no_search_calls():
    out = run("import sys, kb.index\n"
              "print(sorted(m for m in ('urllib.request', 'asyncio', 'cached_property', "
              "'whoosh.lang.morph_en') if m in sys.modules))")
    assert out == "[]"


def test_what_whoosh_imported_from_them_still_works():
    # whoosh.lang.morph_en's own example: the variations of "pull" hold "puller".
    out = run("import kb.index\n"
              "from whoosh.query import terms\n"
              "import urllib.request, whoosh.compat\n"
              "print('puller' in terms.variations('pull'), "
              "whoosh.compat.urlretrieve is not urllib.request.urlretrieve, "
              "callable(whoosh.compat.urlretrieve))")
    assert out == "True True True"
