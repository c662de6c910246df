"""``kb rule``: one rule in every language, with its subrules, examples and citations."""

from __future__ import annotations

import click

from kb import api
from kb.cli._output import emit_json, json_option, open_kb


@click.command("rule")
@click.argument("number")
@click.option("--version", "version", default="latest", show_default=True,
              help="The rules in force on this date (YYYY-MM-DD), or 'latest'.")
@click.option("--lang", type=click.Choice(["en", "fr", "all"]), default="all",
              show_default=True, help="Language of the texts shown.")
@json_option
@click.pass_context
def command(ctx: click.Context, number: str, version: str, lang: str, as_json: bool) -> None:
    """Show a rule (702.19b, say) with its subrules, examples and citations."""
    with open_kb(ctx) as kb:
        views = kb.rule(number, version, lang)
    if as_json:
        emit_json(views)
        return
    for i, v in enumerate(views):
        if i:
            click.echo()
        head = f"{v.number}." if v.title else v.number
        click.echo(f"{head} {v.title or ''}".rstrip() + f"  [{v.language}, {v.version}, "
                   f"{v.source['file']}:{v.source['line']}]")
        if not v.title:
            click.echo(v.text)
        for example in v.examples:
            click.echo(example)
        if v.cites:
            click.echo(f"Cites: {', '.join(v.cites)}")
        if len(set(v.versions.values())) > 1:
            click.echo("Numbered: " + ", ".join(f"{n} ({d})" for d, n in v.versions.items()))
        for t in v.texts:
            flags = "".join(f", {flag}" for flag, on in (("untranslated", t.untranslated),
                                                          ("number inferred", t.inferred)) if on)
            click.echo(f"  [{t.language}, {t.version}: {t.number}{flags}, "
                       f"{t.source['file']}:{t.source['line']}] {t.title or t.text}")
        if v.cited_by:
            click.echo("Cited by: " + ", ".join(_citing_label(c) for c in v.cited_by))


def _citing_label(c: api.CitingRecord) -> str:
    if c.kind == "rule":
        return c.number or c.id
    return f"{c.id} ({c.kind})"
