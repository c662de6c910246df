"""``kb search``: ranked bilingual search over rules, examples, glossary, rulings, notes, cards."""

from __future__ import annotations

import re
import sys

import click

from kb.api import search_json
from kb.cli._command import KbArgument, KbCommand
from kb.cli._output import Checked, VersionDate, emit_json, index_root, json_option
from kb.cli._terminal import style
from kb.i18n import _
from kb.labels import label, language_name
from kb.params import LANGS, SEARCH_KINDS, joined

_MARKED = re.compile(r"\*\*(.+?)\*\*")


@click.command("search", cls=KbCommand, context_settings={"ignore_unknown_options": True})
@click.argument("query", nargs=-1, required=True, cls=KbArgument)
@click.option("--lang", type=Checked(LANGS),
              help="Only texts in these languages (fr, en, pt; comma-separated).")
@click.option("--kind", type=Checked(SEARCH_KINDS),
              help="Only these kinds of record (rule, example, glossary, ruling, note, card; "
                   "comma-separated).")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 200),
              help="How many answers (a rule's texts in every language count as one).")
@click.option("--version", type=VersionDate(allow_all=True),
              help="Search the rules in force on this date (YYYY-MM-DD), "
              "'latest' (the default) or 'all'.")
@click.option("--no-translate", is_flag=True,
              help="Do not also search the other language's terms.")
@json_option
@click.pass_context
def command(ctx: click.Context, query: tuple[str, ...], lang: tuple[str, ...] | None,
            kind: tuple[str, ...] | None,
            limit: int, version: str | None, no_translate: bool, as_json: bool) -> None:
    """Search for QUERY in French or English: a question as you would ask it, key words,
    "phrases", +word (required), -word (excluded), prefix*, AND/OR/NOT, [[Card Name]], and the
    filters lang:fr kind:rule rule:702.19* version:2013-06-01 card:"Name".

    Words are optional: answers holding more of them (the rarer ones count more) come first;
    a long question is carried by its rarest words, and a word no text holds, an unknown
    card or a quoted fragment of a question counts less (kb says so). Accents, elisions,
    plurals and verb forms are ignored; a word that no dictionary of either language and no
    text knows is corrected; a French word also searches its English term and the other way
    round.

    Exit status: 0 answers found, 1 no results (or no index), 2 the query is refused (it
    cannot be read, a filter's value is not valid, a prefix stands for too many words)."""
    from kb.search import Searcher  # the index loads only for the commands that need it

    unknown = [word for word in query if word.startswith("--") and len(word) > 2]
    if unknown:  # "-token" is a word to exclude, "--tokn" a mistyped option
        raise click.UsageError(_("no such option: {option}").format(option=unknown[0]))

    with Searcher(index_root(ctx)) as searcher:
        result = searcher.search(" ".join(query), lang=joined(lang), kind=joined(kind),
                                 limit=limit, version=version, translate=not no_translate)
    if as_json:
        emit_json(search_json(result))
        if not result.hits:
            ctx.exit(1)
        return
    for typed, corrected in result.corrected.items():
        click.echo(_("Showing results for {corrected!r} (no text holds {typed!r})").format(
            corrected=corrected, typed=typed))
    for t in result.translations:
        click.echo(_("Also searched: {word} -> {terms} ({evidence})").format(
            word=t.word, terms=", ".join(t.terms), evidence=", ".join(map(label, t.kinds))))
    for line in result.said():
        click.echo(line)
    if result.version:
        click.echo(_("Rules version: {version} (other versions: --version DATE or all)")
                   .format(version=result.version))
    if result.dropped and result.hits:
        click.echo(_("No text holds every word; the first answer lacks: {words}").format(
            words=", ".join(result.dropped)))
    if not result.hits:
        click.echo(_("No results."))
        ctx.exit(1)
    if result.missing_language:
        click.echo(_("None of these answers has a {language} text in the index: they are "
                     "shown in English.").format(language=language_name(result.missing_language)))
    for n, group in enumerate(result.groups(), 1):
        first = group[0]
        head = first.group.removeprefix("rule ") if first.group.startswith("rule ") else (
            first.title or first.id)
        click.echo(f"\n{n}. {head}")
        for hit in group:
            where = f"{hit.source.get('file')}:{hit.source.get('line')}" if hit.source else ""
            click.echo(f"   [{label(hit.kind)}, {hit.language}, {hit.version or '-'}] {hit.id}  "
                       f"{where}")
            click.echo(f"     {_show(hit.snippet)}")


def _show(snippet: str) -> str:
    """A snippet with its matches (``**word**``) in bold on a terminal; marked so in pipes."""
    if not sys.stdout.isatty():
        return snippet
    return _MARKED.sub(lambda m: style(m.group(1), bold=True), snippet)
