"""``kb report``: where the rules literature disagrees with itself, as text, JSON or HTML."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kb.cli._output import json_option, open_kb

if TYPE_CHECKING:
    from kb.report.run import Report

FORMATS = ("text", "json", "html")


def _split(values: tuple[str, ...]) -> list[str]:
    """``--category a --category b,c`` -> [a, b, c]."""
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


@click.command("report")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Output format (html: one self-contained page).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to this file instead of stdout.")
@click.option("--category", "categories", multiple=True, metavar="NAME",
              help="Only these categories (repeat or separate with commas): coverage, "
                   "agreement, citations, terminology, examples, ingest.")
@click.option("--lang", "languages", multiple=True, metavar="CODE",
              help="Only findings about texts in these languages (fr, en, ...).")
@click.option("--strict", is_flag=True,
              help="Exit with status 1 when the report holds findings of severity error.")
@json_option
@click.pass_context
def command(ctx: click.Context, fmt: str, out: Path | None, categories: tuple[str, ...],
            languages: tuple[str, ...], strict: bool, as_json: bool) -> None:
    """Report translation gaps and disagreements, stale citations, outdated wording, failing
    examples and ingest problems of the built index."""
    from kb.report.finding import CATEGORIES

    if as_json and fmt not in ("text", "json"):
        raise click.UsageError("--json and --format html contradict each other")
    fmt = "json" if as_json else fmt
    chosen = _split(categories)
    unknown = [c for c in chosen if c not in CATEGORIES]
    if unknown:
        raise click.BadParameter(f"unknown: {', '.join(unknown)} (choose from "
                                 f"{', '.join(CATEGORIES)})", param_hint="--category")
    report = _build(ctx, chosen or None, _split(languages) or None)
    text = _render(report, fmt)
    if out is None:
        sys.stdout.write(text)
    else:
        tmp = out.with_name(out.name + ".partial")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(out)
        click.echo(f"Wrote the report ({len(report.findings)} findings) to {out}", err=True)
    if strict and report.has_errors:
        ctx.exit(1)


def _build(ctx: click.Context, categories: list[str] | None,
           languages: list[str] | None) -> Report:
    from kb.api import consistency_report

    with open_kb(ctx) as kb:
        return consistency_report(kb, categories, languages)


def _render(report: Report, fmt: str) -> str:
    if fmt == "json":
        from kb.report.render_json import render
    elif fmt == "html":
        from kb.report.render_html import render
    else:
        from kb.report.render_text import render
    return render(report)
