"""``kb history``: a rule through every version held, renumberings and word-level changes, with
its translations beside the English they correspond to."""

from __future__ import annotations

from itertools import groupby

import click

from kb.cli._command import KbArgument, KbCommand
from kb.cli._output import Checked, VersionDate, emit_json, json_option, open_kb
from kb.cli._terminal import style
from kb.history import HistoryEntry, Piece, rule_history
from kb.i18n import _
from kb.labels import change_label
from kb.params import HISTORY_LANG


@click.command("history", cls=KbCommand)
@click.argument("number", cls=KbArgument)
@click.option("--version", "version", type=VersionDate(), default=None,
              help="Read NUMBER in the rules in force on this date (YYYY-MM-DD); "
                   "default: the newest version that has it.")
@click.option("--lang", type=Checked(HISTORY_LANG), default="all",
              show_default=True,
              help="Texts of other documents shown beside the English: French, Portuguese, "
                   "all, or none (en).")
@click.option("--all", "show_all", is_flag=True,
              help="Show every version, also those where the rule did not change (by default "
                   "a run of them is one line).")
@json_option
@click.pass_context
def command(ctx: click.Context, number: str, version: str | None, lang: str, show_all: bool,
            as_json: bool) -> None:
    """Show every version of a rule and its subrules (702.102, say), followed across
    renumberings, with the words that changed and the translations of each version.

    Versions where nothing changed are shown as one line per run, unless --all."""
    with open_kb(ctx) as kb:
        entries = rule_history(kb, number, version, lang)
    if as_json:
        emit_json(entries)
        return
    for i, (rule, group) in enumerate(groupby(entries, key=lambda e: e.rule)):
        if i:
            click.echo()
        _print_rule(rule, list(group), show_all)


def _print_rule(rule: str, entries: list[HistoryEntry], show_all: bool) -> None:
    english = [e for e in entries if e.language == "en" and e.change not in ("quote",)]
    numbered = [f"{e.number} ({e.version})" for e, before in zip(english, [None, *english],
                                                                  strict=False)
                if e.number and (before is None or before.number != e.number)]
    title = next((e.title for e in reversed(english) if e.title), None)
    click.echo(f"{rule}{'. ' + title if title else ''}  [{' → '.join(numbered)}]")
    for e in entries if show_all else _collapsed(entries):
        if isinstance(e, list):
            click.echo("  " + _("unchanged {first} .. {last}, {count} versions").format(
                first=e[0].version, last=e[-1].version, count=len(e)))
            continue
        if e.change in ("translation", "quote"):
            if e.change == "translation":
                what = (_("translation of {number} ({version}), stale") if e.stale
                        else _("translation of {number} ({version}), current"))
            else:
                what = (_("quote of {number} ({version}), stale") if e.stale
                        else _("quote of {number} ({version}), current"))
            click.echo(f"    [{e.language}, {e.version}: {e.number}, {_where(e)}] "
                       + what.format(number=e.english_number, version=e.corresponds_to))
            click.echo(f"      {e.text}")
            continue
        label = change_label(e.change, e.previous)
        if e.typography_only:
            label += " " + _("(typography only)")
        where = f"  {_where(e)}" if e.change in ("added", "first-held") else ""
        click.echo(f"  {e.version}  {e.number or '-':<9} {label}{where}")
        if e.change in ("added", "first-held"):
            click.echo(f"      {e.text}")
        elif e.diff:
            click.echo(f"      {render_diff(e.diff)}")


def _collapsed(entries: list[HistoryEntry]) -> list[HistoryEntry | list[HistoryEntry]]:
    """The entries with each run of two or more English versions that changed nothing
    replaced by the run (a list): a hundred versions show their real changes, once each."""
    out: list[HistoryEntry | list[HistoryEntry]] = []
    run: list[HistoryEntry] = []
    for e in [*entries, None]:
        if e is not None and e.language == "en" and e.change == "unchanged":
            run.append(e)
            continue
        out += [run] if len(run) > 1 else run
        run = []
        if e is not None:
            out.append(e)
    return out


def _where(e: HistoryEntry) -> str:
    return f"{e.source['file']}:{e.source['line']}" if e.source else "-"


def render_diff(pieces: list[Piece]) -> str:
    """A word diff as text, ``[-deleted-]{+inserted+}`` (in colour on a terminal), with the
    spaces around a change outside its brackets."""
    out = []
    at = 0
    while at < len(pieces):
        piece = pieces[at]
        at += 1
        if piece.op == "equal":
            out.append(piece.text)
            continue
        change = [piece]
        if piece.op == "delete" and at < len(pieces) and pieces[at].op == "insert":
            change.append(pieces[at])
            at += 1
        texts = [p.text for p in change]
        out.append(max((t[:len(t) - len(t.lstrip())] for t in texts), key=len))
        out += [style(f"[-{p.text.strip()}-]", fg="red") if p.op == "delete"
                else style(f"{{+{p.text.strip()}+}}", fg="green") for p in change]
        out.append(max((t[len(t.rstrip()):] for t in texts), key=len))
    return "".join(out)
