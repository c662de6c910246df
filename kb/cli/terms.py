"""``kb terms``: a term's translations, with the records that give each."""

from __future__ import annotations

import click

from kb.cli._output import emit_json, json_option, open_kb, table


@click.command("terms")
@click.argument("word", nargs=-1, required=True)
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
        click.echo(f"No term pair for {text!r} (try --prefix).", err=True)
        ctx.exit(1)
    table([("french", "english", "from", "records"),
           *((p.french, p.english, p.kind, str(p.count)) for p in pairs)])
    for p in pairs:
        click.echo(f"\n{p.french} = {p.english} ({p.kind}), e.g.:")
        for evidence in p.evidence:
            click.echo(f"  {evidence}")
