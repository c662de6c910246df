"""The engine's modules import downward only (kb.engine.LAYERS): no import circle."""

from __future__ import annotations

import ast
from pathlib import Path

import kb.engine
from kb.engine import LAYERS

ENGINE = Path(kb.engine.__file__).parent
ORDER = [name for _, names in LAYERS for name in names]


def _runtime_imports(path: Path) -> set[str]:
    """The engine modules a file imports when it runs (not those under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for branch in ast.walk(tree) if isinstance(branch, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(branch.test)
                   for node in ast.walk(branch)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only or not isinstance(node, ast.ImportFrom):
            continue
        if node.module == "kb.engine":
            found |= {alias.name for alias in node.names}
        elif node.module and node.module.startswith("kb.engine."):
            found.add(node.module.split(".")[2])
    return found


def test_every_module_has_a_layer() -> None:
    modules = {p.stem for p in ENGINE.glob("*.py")} - {"__init__"}
    assert sorted(ORDER) == sorted(modules)
    assert len(ORDER) == len(set(ORDER))


def test_modules_import_only_from_lower_layers() -> None:
    upward = []
    for name in ORDER:
        below = set(ORDER[:ORDER.index(name)])
        for imported in _runtime_imports(ENGINE / f"{name}.py") - {name}:
            if imported not in below:
                upward.append(f"{name} imports {imported}")
    assert not upward


def test_the_check_detects_an_upward_import(tmp_path: Path) -> None:
    """The test above can fail: a function-local import of a higher module is seen."""
    path = tmp_path / "mana.py"
    path.write_text("def f():\n    from kb.engine.game import Game\n", encoding="utf-8")
    assert _runtime_imports(path) == {"game"}
    typed = tmp_path / "typed.py"
    typed.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from kb.engine.state import GameState\n", encoding="utf-8")
    assert _runtime_imports(typed) == set()
