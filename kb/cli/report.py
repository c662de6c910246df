"""``kb report``: where the rules literature disagrees with itself, as text, JSON or HTML."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kb.cli._command import KbCommand
from kb.cli._output import Checked, index_root, json_option, out_option, output_file
from kb.i18n import _
from kb.params import CATEGORIES, LANGS

if TYPE_CHECKING:
    from kb.report.run import Report

FORMATS = ("text", "json", "html")


@click.command("report", cls=KbCommand)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Output format (html: one self-contained page).")
@out_option
@click.option("--category", "categories", multiple=True, type=Checked(CATEGORIES),
              help="Only these categories (repeat or separate with commas): coverage, "
                   "agreement, citations, terminology, examples, ingest.")
@click.option("--lang", "langs", multiple=True, type=Checked(LANGS),
              help="Only findings about texts in these languages (en, fr, pt; repeat or "
                   "separate with commas).")
@click.option("--strict", is_flag=True,
              help="Exit with status 1 when the report holds findings of severity error.")
@json_option
@click.pass_context
def command(ctx: click.Context, fmt: str, out: Path | None,
            categories: tuple[tuple[str, ...], ...], langs: tuple[tuple[str, ...], ...],
            strict: bool, as_json: bool) -> None:
    """Report translation gaps and disagreements, stale citations, outdated wording, failing
    examples and ingest problems of the built index."""
    if as_json and fmt not in ("text", "json"):
        raise click.UsageError(_("--json and --format html contradict each other"))
    fmt = "json" if as_json else fmt
    from kb import api

    report = api.report(index=index_root(ctx), categories=_merged(categories),
                        languages=_merged(langs))
    text = _render(report, fmt)
    if out is None:
        sys.stdout.write(text)
    else:
        with output_file(out) as handle:
            handle.write(text)
        click.echo(_("Wrote the report ({count} findings) to {out}").format(
            count=len(report.findings), out=out), err=True)
    if strict and report.has_errors:
        ctx.exit(1)


def _merged(lists: tuple[tuple[str, ...] | None, ...]) -> list[str] | None:
    """``--lang a --lang b,c`` (each already a checked list) -> [a, b, c], or None."""
    return list(dict.fromkeys(v for values in lists for v in values or ())) or None


def _render(report: Report, fmt: str) -> str:
    if fmt == "json":
        from kb.report.render_json import render
    elif fmt == "html":
        from kb.report.render_html import render
    else:
        from kb.report.render_text import render
    return render(report)
