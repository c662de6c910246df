"""The gettext catalogue of kb's interface, kept with Babel (a developer's tool, in the test
extra; kb itself reads the compiled catalogue with the standard library).

``python -m kb.i18n_catalog`` is the one command to run after changing any message: it
extracts every message (kb's Python and templates as ``babel.cfg`` maps them, and click's own
messages from the click modules kb makes speak its language, :data:`kb.i18n.CLICK_MODULES`),
merges them into ``kb/locale/<lang>/LC_MESSAGES/kb.po`` (a new message gets an empty
translation, an unused one is dropped), compiles ``kb.mo`` beside it, and lists the messages
still untranslated (``tests/test_i18n_catalog.py`` fails while there are any).

The compiled ``kb.mo`` is committed, not compiled at install time: kb installs as a plain
Python package (setuptools has no gettext step, and Babel would become a build requirement of
every install), and the test checks that the committed file says what the ``.po`` says.
"""

from __future__ import annotations

import ast
import inspect
import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from kb import i18n

PACKAGE = Path(__file__).resolve().parent
MAPPING = PACKAGE.parent / "babel.cfg"
LOCALE = PACKAGE / "locale"
TRANSLATED = tuple(lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT)
# Click's modules whose messages a user of kb can see; decorators.py's are made at import
# time in English ("Show this message and exit.") and translated where they are shown.
CLICK_SOURCES = (*i18n.CLICK_MODULES, "decorators")
UPDATE = "python -m kb.i18n_catalog"
# What a catalogue's header says of itself (Babel's defaults are placeholders).
HEADER = {"project": "kb", "version": "1", "copyright_holder": "the kb authors",
          "msgid_bugs_address": "the kb issue tracker", "last_translator": "kb",
          "language_team": "kb", "header_comment": "# The interface of kb (gettext catalogue, "
          "kept by python -m kb.i18n_catalog).\n#"}


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


# -- extraction ---------------------------------------------------------------------------------


def extract_python(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                   options: dict[str, Any]) -> Iterator[tuple[int, str | None, Any, list[str]]]:
    """Babel's Python extractor, plus click's help: the docstring of a function decorated as
    a click command or group, and every ``help="..."`` text, paragraph by paragraph as
    :func:`kb.i18n.paragraphs` cuts them (the unit :class:`kb.cli._command.KbCommand`
    translates). Help is found without being marked, so that a new option's help is never
    left out of the catalogue."""
    from babel.messages.extract import extract_python as babel_python

    source = fileobj.read()
    yield from babel_python(io.BytesIO(source), keywords, comment_tags, options)
    for lineno, text in _click_help(ast.parse(source)):
        for paragraph in i18n.paragraphs(text):
            yield lineno, None, paragraph, []


def _click_help(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                value = keyword.value
                if (keyword.arg == "help" and isinstance(value, ast.Constant)
                        and isinstance(value.value, str)):
                    yield value.lineno, inspect.cleandoc(value.value)
        elif isinstance(node, ast.FunctionDef) and any(
                _is_command(d) for d in node.decorator_list):
            doc = ast.get_docstring(node)
            if doc:
                yield node.body[0].lineno, doc.partition("\f")[0]


def _is_command(decorator: ast.expr) -> bool:
    """``@click.command(...)``, ``@click.group(...)``, ``@cli.command()`` and the like."""
    func = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in ("command", "group")


def extract() -> Any:
    """Every message of kb and of click's shown modules, as a Babel catalogue template."""
    import click
    from babel.messages.catalog import Catalog
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
    from babel.messages.frontend import parse_mapping_cfg

    with MAPPING.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle, str(MAPPING))
    template = Catalog(project="kb", domain=i18n.DOMAIN, charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            PACKAGE, method_map, options_map, keywords=DEFAULT_KEYWORDS):
        template.add(message, None, [(f"kb/{filename}", lineno)], auto_comments=comments,
                     context=context)
    click_folder = Path(click.__file__).parent
    for name in CLICK_SOURCES:
        for lineno, message, comments, context in extract_from_file(
                "python", click_folder / f"{name}.py", keywords=DEFAULT_KEYWORDS):
            template.add(message, None, [(f"click/{name}.py", lineno)],
                         auto_comments=comments, context=context)
    return template


# -- the catalogues -----------------------------------------------------------------------------


def read(language: str) -> Any:
    from babel.messages.pofile import read_po

    with po_path(language).open("rb") as handle:
        return read_po(handle, locale=language, domain=i18n.DOMAIN)


def untranslated(template: Any, language: str) -> list[str]:
    """The messages of ``template`` that ``language``'s catalogue does not translate (absent,
    empty, or fuzzy: gettext ignores a fuzzy translation)."""
    catalog = read(language)
    missing = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        strings = found.string if found is not None else None
        if isinstance(strings, str):
            strings = (strings,)
        if found is None or found.fuzzy or not strings or not all(strings):
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    return missing


def compiled(language: str) -> bytes:
    """``language``'s catalogue compiled as gettext's ``.mo``."""
    from babel.messages.mofile import write_mo

    out = io.BytesIO()
    write_mo(out, read(language))
    return out.getvalue()


def update() -> dict[str, list[str]]:
    """Merge today's messages into every catalogue and compile it; the untranslated messages
    of each language."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    template = extract()
    missing = {}
    for language in TRANSLATED:
        path = po_path(language)
        if path.exists():
            catalog = read(language)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, domain=i18n.DOMAIN, charset="utf-8",
                              fuzzy=False, **HEADER)
        # No fuzzy matching: a guessed translation of a new message would hide it.
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        with path.open("wb") as handle:
            # Sorted and without line numbers: an edit elsewhere in a file changes nothing
            # here, and branches that add messages merge.
            write_po(handle, catalog, width=100, sort_output=True, ignore_obsolete=True,
                     include_lineno=False)
        mo_path(language).write_bytes(compiled(language))
        missing[language] = untranslated(template, language)
    return missing


def main() -> None:
    missing = update()
    for language, messages in missing.items():
        print(f"{po_path(language).relative_to(PACKAGE.parent)}: {len(messages)} untranslated")
        for message in messages:
            print(f"  {message!r}")
    sys.exit(1 if any(missing.values()) else 0)


if __name__ == "__main__":
    main()
