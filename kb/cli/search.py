"""``kb search``: ranked bilingual search over rules, examples, glossary, rulings, notes, cards."""

from __future__ import annotations

import re
import sys

import click

from kb.api import search_json
from kb.cli._command import KbCommand
from kb.cli._output import VersionDate, emit_json, index_root, json_option
from kb.i18n import _
from kb.labels import label, language_name
from kb.query import KINDS

_MARKED = re.compile(r"\*\*(.+?)\*\*")


@click.command("search", cls=KbCommand, context_settings={"ignore_unknown_options": True})
@click.argument("query", nargs=-1, required=True)
@click.option("--lang", help="Only texts in these languages (fr, en, pt; comma-separated).")
@click.option("--kind", help="Only these kinds of record (rule, example, glossary, ruling, note, "
                             "card; comma-separated).")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 200),
              help="How many answers (a rule's texts in every language count as one).")
@click.option("--version", type=VersionDate(allow_all=True),
              help="Search the rules in force on this date (YYYY-MM-DD), "
              "'latest' (the default) or 'all'.")
@click.option("--no-translate", is_flag=True,
              help="Do not also search the other language's terms.")
@json_option
@click.pass_context
def command(ctx: click.Context, query: tuple[str, ...], lang: str | None, kind: str | None,
            limit: int, version: str | None, no_translate: bool, as_json: bool) -> None:
    """Search for QUERY in French or English: a question as you would ask it, key words,
    "phrases", +word (required), -word (excluded), prefix*, AND/OR/NOT, [[Card Name]], and the
    filters lang:fr kind:rule rule:702.19* version:2013-06-01 card:"Name".

    Words are optional: answers holding more of them (the rarer ones count more) come first.
    Accents, elisions, plurals and verb forms are ignored; a word the index does not know is
    corrected; a French word also searches its English term and the other way round.
    Exit 1 when nothing matches."""
    from kb.index.analysis import LANGUAGES
    from kb.search import Searcher  # the index loads only for the commands that need it

    unknown = [word for word in query if word.startswith("--") and len(word) > 2]
    if unknown:  # "-token" is a word to exclude, "--tokn" a mistyped option
        raise click.UsageError(_("no such option: {option}").format(option=unknown[0]))
    for name, value, allowed in (("--lang", lang, LANGUAGES), ("--kind", kind, KINDS)):
        wrong = [v for v in (value or "").split(",") if v.strip() and v.strip() not in allowed]
        if wrong:
            raise click.BadParameter(_("{wrong} is not one of {valid}").format(
                wrong=", ".join(wrong), valid=", ".join(allowed)), param_hint=name)

    with Searcher(index_root(ctx)) as searcher:
        result = searcher.search(" ".join(query), lang=lang, kind=kind, limit=limit,
                                 version=version, translate=not no_translate)
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
    bold = sys.stdout.isatty()
    for n, group in enumerate(result.groups(), 1):
        first = group[0]
        head = first.group.removeprefix("rule ") if first.group.startswith("rule ") else (
            first.title or first.id)
        click.echo(f"\n{n}. {head}")
        for hit in group:
            where = f"{hit.source.get('file')}:{hit.source.get('line')}" if hit.source else ""
            click.echo(f"   [{label(hit.kind)}, {hit.language}, {hit.version or '-'}] {hit.id}  "
                       f"{where}")
            click.echo(f"     {_show(hit.snippet, bold)}")


def _show(snippet: str, bold: bool) -> str:
    if not bold:
        return snippet
    return _MARKED.sub(lambda m: click.style(m.group(1), bold=True), snippet)
