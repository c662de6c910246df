"""The read path goes one way down: the modules that read records import :mod:`kb.reader`,
never the facade :mod:`kb.api` above them (issue 21: a five-file import circle ran through
``kb.api``)."""

from __future__ import annotations

import ast
from pathlib import Path

import kb

PACKAGE = Path(kb.__file__).parent

# Everything the facade, the CLI and the web sit on.
BELOW_THE_FACADE = ["reader.py", "search.py", "history.py", "check", "report", "index", "store.py"]
# The code that decides pairings, run once by the build's link stage (issue 21): the read path
# (the modules below the facade, the web, lag) reads its links and imports none of it.
PAIRING = ("kb.link.identity", "kb.link.pairing", "kb.link.stage", "kb.link.anchors",
           "kb.link.numbering", "kb.link.terms")
READ_PATH = [*BELOW_THE_FACADE, "lag.py", "web"]


def _imports(path: Path) -> set[str]:
    """The kb modules ``path`` imports at run time (``if TYPE_CHECKING:`` blocks aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for stmt in ast.walk(tree) if isinstance(stmt, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(stmt.test)
                   for node in ast.walk(stmt)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m for m in found if m == "kb" or m.startswith("kb.")}


def _files(entry: str) -> list[Path]:
    path = PACKAGE / entry
    return sorted(path.rglob("*.py")) if path.is_dir() else [path]


def test_nothing_below_the_facade_imports_it_or_what_sits_on_it() -> None:
    above = ("kb.api", "kb.cli", "kb.web")
    offenders = {
        str(f.relative_to(PACKAGE)): sorted(m for m in _imports(f) if m.startswith(above))
        for entry in BELOW_THE_FACADE for f in _files(entry)
    }
    assert {f: m for f, m in offenders.items() if m} == {}


def test_the_read_path_imports_no_pairing_code() -> None:
    offenders = {
        str(f.relative_to(PACKAGE)): sorted(m for m in _imports(f) if m.startswith(PAIRING))
        for entry in READ_PATH for f in _files(entry)
    }
    assert {f: m for f, m in offenders.items() if m} == {}


def test_the_facade_still_offers_the_reader() -> None:
    from kb import api, reader

    assert api.KnowledgeBase is reader.KnowledgeBase


# -- one card across sources and spellings (issue 21, item 5) -----------------------------------


def test_one_card_and_each_ruling_once_with_every_source(cr_index: Path) -> None:
    # The English Dragon's Maze FAQ (2013-03-21) prints "Ætherling" and two rulings; MTGJSON's
    # DGM set prints "Aetherling" and the same two, dated 2013-04-15; the French FAQ
    # (seed 001) translates them.
    from kb.reader import KnowledgeBase

    with KnowledgeBase(cr_index) as base:
        view = base.card("Aetherling")
        assert base.card("Ætherling") == view
    assert view.name == "Aetherling"
    assert len(view.rulings) == 2
    first = next(p for p in view.rulings if p.en and "first ability will return it" in p.en.text)
    assert {(s.date, s.source["file"]) for s in first.sources} == {
        ("2013-03-21", "ormos_dgm_faq_2013-04-22.md"), ("2013-04-15", "mtgjson_v5.2.0_DGM.json")}
    assert first.fr is not None and first.fr.text.startswith(
        "La première capacité de l'Ætherlin le renvoie sur le champ de bataille")
    # The FAQ's printed text and the Oracle text differ: both kept, each dated.
    faq = next(t for t in view.texts if t.source["file"] == "ormos_dgm_faq_2013-04-22.md")
    oracle = next(t for t in view.texts if t.source["file"] == "mtgjson_v5.2.0_DGM.json")
    assert "Ætherling is unblockable this turn" in faq.faces[0]["text"]
    assert faq.date == "2013-03-21"
    assert "Aetherling can't be blocked this turn" in oracle.faces[0]["text"]
    assert oracle.date is not None
