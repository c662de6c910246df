"""``kb rule``: one rule in every language, with its subrules, examples and citations."""

from __future__ import annotations

import dataclasses

import click

from kb import api
from kb.cli._command import KbArgument, KbCommand
from kb.cli._output import Checked, VersionDate, echo_paged, emit_json, json_option, open_kb
from kb.i18n import _
from kb.labels import language_name
from kb.params import RULE_LANG
from kb.rulenum import RuleNumber


@click.command("rule", cls=KbCommand)
@click.argument("number", cls=KbArgument)
@click.option("--version", "version", type=VersionDate(), default="latest",
              show_default=True, help="The rules in force on this date (YYYY-MM-DD), or 'latest'.")
@click.option("--lang", type=Checked(RULE_LANG), default=None,
              help="Only this language's texts (fr: the French text and examples, the English "
                   "where there is none; zh, ko ...: any language the index holds, community "
                   "translations included); all: every language.  [default: English and "
                   "French]")
@click.option("--depth", type=click.IntRange(min=0), default=None, metavar="N",
              help="Subrules down to N levels below the rule (0: the rule alone).")
@json_option
@click.pass_context
def command(ctx: click.Context, number: str, version: str, lang: str | None,
            depth: int | None, as_json: bool) -> None:
    """Show a rule (702.19b, say, or a glossary word: trample, piétinement) with its
    subrules, examples and citations.

    NUMBER may be written 702.19B, "CR 702.19b", "rule 702.19b", "règle 702.19b" or
    "r. 702.19b". Long output goes through a pager on a terminal. --json prints the list of
    rules; for a word, {"word": how it was found, "rules": that list}."""
    with open_kb(ctx) as kb:
        word = None
        if RuleNumber.try_read(number) is None:
            word = kb.lookup_word(number, version)
            number = word.rule
        views = kb.rule(number, version, lang, depth)
    if as_json:
        emit_json({"word": word, "rules": views} if word else views)
        return
    lines: list[str] = []
    if word is not None:
        definition = f": {word.definition}" if word.definition else ""
        lines.append(f"{word.term}{definition}  [{word.via}]")
        lines.append("")
    for i, v in enumerate(views):
        if i:
            lines.append("")
        lines += _french_only(v) if lang == "fr" else _view(v)
    echo_paged(lines)


def _view(v: api.RuleView) -> list[str]:
    head = f"{v.number}." if v.title else v.number
    lines = [f"{head} {v.title or ''}".rstrip() + f"  [{v.language}, {v.version}, "
             f"{v.source['file']}:{v.source['line']}]"]
    if not v.title:
        lines.append(v.text)
    lines += v.examples
    if v.missing:
        lines.append(_("(no {languages} text of {number} in the index)").format(
            languages=", ".join(language_name(code) for code in v.missing), number=v.number))
    if v.cites:
        lines.append(_("Cites: {numbers}").format(numbers=", ".join(v.cites)))
    if len(set(v.versions.values())) > 1:
        lines.append(_("Numbered: {numbers}").format(
            numbers=", ".join(f"{n} ({d})" for d, n in v.versions.items())))
    for t in v.texts:
        flags = "".join(f", {flag}" for flag, on in ((_("untranslated"), t.untranslated),
                                                      (_("number inferred"), t.inferred),
                                                      (_("community translation"), t.community))
                        if on)
        lines.append(f"  [{t.language}, {t.version}: {t.number}{flags}, "
                     f"{t.source['file']}:{t.source['line']}] {t.title or t.text}")
        lines += [f"    {example}" for example in t.examples]
        lines += _cites(t, "    ")
    if v.cited_by:
        # Two documents of one language citing by the same number read as one entry.
        labels = dict.fromkeys(_citing_label(c, v) for c in v.cited_by)
        lines.append(_("Cited by: {records}").format(records=", ".join(labels)))
    return lines


def _french_only(v: api.RuleView) -> list[str]:
    """``--lang fr``: the French texts and their examples; the English, said so, when the
    rule has no French text."""
    french = [t for t in v.texts if t.language == "fr" and not t.untranslated]
    if v.language == "fr":
        return _view(v)
    if not french:
        # A paragraph a French document left in English may still have French examples.
        kept = [f"  [{t.source['file']}:{t.source['line']}] {example}"
                for t in v.texts if t.untranslated for example in t.examples]
        return [_("{number}: no French text in the index; the English follows.").format(
                    number=v.number),
                *_view(dataclasses.replace(v, missing=[], texts=[])),
                *([_("Examples of the French document:"), *kept] if kept else [])]
    lines = []
    for t in french:
        head = f"{t.number}." if t.title else t.number
        lines.append(f"{head} {t.title or ''}".rstrip() + f"  [fr, {t.version}, "
                     f"{t.source['file']}:{t.source['line']}]"
                     + ("" if t.number == v.number
                        else "  " + _("(today {number})").format(number=v.number)))
        if not t.title:
            lines.append(t.text)
        lines += t.examples
        lines += _cites(t)
    return lines


def _cites(text: api.LinkedText, indent: str = "") -> list[str]:
    """The rules a text cites, saying today's number where it changed since the text was
    written ("Cites: 708 in 2013, today 709")."""
    if not any(c.note for c in text.cites):
        return []
    cited = ", ".join(dict.fromkeys(c.note or c.number for c in text.cites))
    return [indent + _("Cites: {rules}").format(rules=cited)]


def _citing_label(c: api.CitingRecord, view: api.RuleView) -> str:
    """A citing rule by its number, another record by its id; another language's citing
    record says its language (the French 708.2 beside the English 708.2)."""
    label = (c.number or c.id) if c.kind == "rule" else f"{c.id} ({c.kind})"
    if c.language and c.language != view.language:
        label += f" [{c.language}]"
    return label
