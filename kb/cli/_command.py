"""Help in the interface's language: click keeps each command's and option's help as the
English it was written in (docstrings and ``help=`` texts, made at import time, before the
language is known), so the help is translated where it is shown, paragraph by paragraph, from
the catalogue (:mod:`kb.i18n_catalog` extracts the same paragraphs)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import click

from kb.i18n import _, translate_text


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


class _Formatter(click.HelpFormatter):
    """click's help formatter, with the colon of a section heading placed as the language
    places it ("Options:", "Options :")."""

    def write_heading(self, heading: str) -> None:
        line = _("{heading}:").format(heading=heading)
        self.write(f"{'':>{self.current_indent}}{line}\n")


class _Context(click.Context):
    formatter_class = _Formatter


class KbCommand(click.Command):
    """A click command whose help, and its parameters', is shown translated: every ``kb``
    command is made with ``@click.command("name", cls=KbCommand)``, and the group is one."""

    context_class = _Context

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with _translated([self, *self.get_params(ctx)]):
            super().format_help(ctx, formatter)
