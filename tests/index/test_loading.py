"""kb.index.loading: Whoosh imported without urllib.request, the cached_property package,
whoosh.lang.morph_en, porter and dmetaphone, which stay importable and work when asked for."""

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
              "'whoosh.lang.morph_en', 'whoosh.lang.porter', 'whoosh.lang.dmetaphone') "
              "if m in sys.modules))")
    assert out == "[]"


def test_what_whoosh_imported_from_them_still_works():
    # whoosh.lang.morph_en's own example: the variations of "pull" hold "puller".
    out = run("import kb.index\n"
              "from whoosh.query import terms\n"
              "import urllib.request, whoosh.compat\n"
              "from whoosh.analysis import morph\n"
              "from whoosh.lang import dmetaphone, porter\n"
              "print('puller' in terms.variations('pull'), "
              "whoosh.compat.urlretrieve is not urllib.request.urlretrieve, "
              "callable(whoosh.compat.urlretrieve), "
              "morph.stem is not porter.stem, morph.stem('rendering') == 'render', "
              "morph.double_metaphone('Thompson') == dmetaphone.double_metaphone('Thompson'))")
    assert out == "True True True True True True"
