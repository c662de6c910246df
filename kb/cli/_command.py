"""Help in the interface's language: click keeps each command's and option's help as the
English it was written in (docstrings and ``help=`` texts, made at import time, before the
language is known), so the help is translated where it is shown, paragraph by paragraph, from
the catalogue (:mod:`kb.i18n_catalog` extracts the same paragraphs)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Sequence
from typing import Any

import click

from kb.i18n import N_, _, gettext, translate_text

# The names of arguments and option values in usage lines and option lists ("kb rule
# [OPTIONS] NUMBER", "--out FILE"), said in the interface language ("NUMÉRO", "FICHIER"); the
# French help's paragraphs use the same words.
METAVARS = {"NUMBER": N_("NUMBER"), "NAME": N_("NAME"), "QUERY": N_("QUERY"),
            "WORD": N_("WORD"), "DATE": N_("DATE"), "FILE": N_("FILE"),
            "DIRECTORY": N_("DIRECTORY"), "PATH": N_("PATH"), "TEXT": N_("TEXT"),
            "INTEGER": N_("INTEGER"), "FLOAT": N_("FLOAT"), "COMMAND": N_("COMMAND"),
            "ARGS": N_("ARGS"), "OPTIONS": N_("OPTIONS"), "HOST": N_("HOST"),
            "PORT": N_("PORT"), "SECONDS": N_("SECONDS"), "OLD": N_("OLD"), "NEW": N_("NEW")}
_METAVAR = re.compile(r"\b[A-Z]{2,}\b")


def metavars(text: str) -> str:
    """``text`` with the argument and value names of :data:`METAVARS` in the interface
    language."""
    return _METAVAR.sub(lambda m: gettext(METAVARS[m.group()]) if m.group() in METAVARS
                        else m.group(), text)


@contextlib.contextmanager
def _translated(things: list[Any]) -> Iterator[None]:
    """Each thing's ``help`` in the current language for the block, the English after (the
    command objects live as long as the process: a test may ask for help in both)."""
    kept = [(thing, thing.help) for thing in things if getattr(thing, "help", None)]
    try:
        for thing, text in kept:
            thing.help = translate_text(text)
        yield
    finally:
        for thing, text in kept:
            thing.help = text


class KbArgument(click.Argument):
    """An argument named in the interface language in errors too ("Argument manquant
    'NUMÉRO'"), as the usage line names it: every ``kb`` argument is made with
    ``@click.argument("name", cls=KbArgument)``."""

    def make_metavar(self, ctx: click.Context) -> str:
        return metavars(super().make_metavar(ctx))


class _Formatter(click.HelpFormatter):
    """click's help formatter, with the colon of a section heading placed as the language
    places it ("Options:", "Options :")."""

    def write_heading(self, heading: str) -> None:
        line = _("{heading}:").format(heading=heading)
        self.write(f"{'':>{self.current_indent}}{line}\n")

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, metavars(args), prefix)

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30,
                 col_spacing: int = 2) -> None:
        super().write_dl([(metavars(term), text) for term, text in rows], col_max, col_spacing)


class _Context(click.Context):
    formatter_class = _Formatter


class KbCommand(click.Command):
    """A click command whose help, and its parameters', is shown translated: every ``kb``
    command is made with ``@click.command("name", cls=KbCommand)``, and the group is one."""

    context_class = _Context

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with _translated([self, *self.get_params(ctx)]):
            super().format_help(ctx, formatter)
