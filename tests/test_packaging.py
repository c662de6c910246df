"""The wheel holds every package of kb: ``pyproject.toml`` lists them by hand (the embedded
corpus is mapped into the package), and a package missing from the list imports from a
checkout but not from an install (``kb.check`` once did: ``kb serve`` failed in CI only)."""

from __future__ import annotations

import tomllib

from tests.conftest import REPO


def test_every_package_of_kb_ships_in_the_wheel():
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
                 ["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(REPO).parts)
             for p in (REPO / "kb").rglob("__init__.py")}
    assert found - listed == set()


def test_the_compiled_catalogues_ship_in_the_wheel():
    """kb/locale is no package: its compiled catalogues ship as kb's package data, or an
    installed kb speaks English only."""
    import fnmatch

    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["kb"]
    compiled = [p.relative_to(REPO / "kb").as_posix() for p in (REPO / "kb").rglob("*.mo")]
    assert compiled, "no compiled catalogue: python -m kb.i18n_catalog"
    for path in compiled:
        assert any(fnmatch.fnmatch(path, pattern) for pattern in patterns), path
