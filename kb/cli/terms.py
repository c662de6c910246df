"""``kb terms``: a term's translations, with the records that give each."""

from __future__ import annotations

import click

from kb.cli._command import KbArgument, KbCommand
from kb.cli._output import emit_json, json_option, open_kb, table
from kb.i18n import _
from kb.labels import label


@click.command("terms", cls=KbCommand)
@click.argument("word", nargs=-1, required=True, cls=KbArgument)
@click.option("--prefix", is_flag=True, help="Also terms that start with WORD.")
@json_option
@click.pass_context
def command(ctx: click.Context, word: tuple[str, ...], prefix: bool, as_json: bool) -> None:
    """The French and English forms of WORD (either language, accents optional), derived from
    the data: rule titles, contents, card keyword lines and card names."""
    from kb.text.normal import fold

    text = " ".join(word)
    with open_kb(ctx) as kb:
        pairs = kb.store.terms(fold(text), prefix=prefix)
    if as_json:
        emit_json(pairs)
        return
    if not pairs:
        click.echo(_("No term pair for {word!r} (try --prefix).").format(word=text), err=True)
        ctx.exit(1)
    table([(_("French"), _("English"), _("from"), _("records")),
           *((p.french, p.english, label(p.kind), str(p.count)) for p in pairs)])
    for p in pairs:
        click.echo("\n" + _("{french} = {english} ({evidence}), e.g.:").format(
            french=p.french, english=p.english, evidence=label(p.kind)))
        for evidence in p.evidence:
            click.echo(f"  {evidence}")
