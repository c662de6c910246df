"""``kb diff``: what changed between two versions of the rules, rule by rule."""

from __future__ import annotations

import click

from kb.api import diff_json
from kb.cli._command import KbArgument, KbCommand
from kb.cli._output import Checked, VersionDate, emit_json, json_option, open_kb, table
from kb.cli.history import render_diff
from kb.history import RuleText, VersionChanges, version_changes
from kb.i18n import _, pgettext
from kb.params import SECTION


@click.command("diff", cls=KbCommand)
@click.argument("old", type=VersionDate(), metavar="OLD", cls=KbArgument)
@click.argument("new", type=VersionDate(), default="latest", metavar="[NEW]", cls=KbArgument)
@click.option("--section", default=None, type=Checked(SECTION),
              help="Only the rules within this number (7, 702, 702.19).")
@json_option
@click.pass_context
def command(ctx: click.Context, old: str, new: str, section: str | None, as_json: bool) -> None:
    """Compare the rules in force on OLD with those in force on NEW (dates, YYYY-MM-DD, or
    'latest'): added, removed, renumbered and changed rules, a summary first.

    A rule is followed by its identity, so a renumbered rule is not counted as removed and
    added."""
    with open_kb(ctx) as kb:
        changes = version_changes(kb, old, new, section)
    same = changes.old == changes.new
    if as_json:
        emit_json(diff_json(changes))
        return
    if same:
        click.echo(_("Both dates resolve to the same rules version, {version}: nothing "
                     "changed between them (kb versions lists the versions).").format(
            version=changes.old))
        return
    _print(changes)


def _print(c: VersionChanges) -> None:
    if c.section:
        click.echo(_("Rules {old} → {new}, within {section}").format(
            old=c.old, new=c.new, section=c.section))
    else:
        click.echo(_("Rules {old} → {new}").format(old=c.old, new=c.new))
    table([("", _("rules")), *((pgettext("rules", word), str(count)) for word, count in (
        ("added", len(c.added)), ("removed", len(c.removed)),
        ("renumbered", len(c.renumbered)), ("changed", len(c.changed)),
        ("unchanged", c.unchanged)))])
    retyped = sum(x.typography_only for x in c.changed)
    if retyped:
        click.echo(_("({count} of the changed rules differ in typography only: quotes, "
                     "italics, spacing)").format(count=retyped))
    _print_texts(_("Added:"), c.added)
    _print_texts(_("Removed:"), c.removed)
    if c.renumbered:
        click.echo("\n" + _("Renumbered:"))
        for x in c.renumbered:
            click.echo(f"  {x.old_number} → {x.new_number}  ({x.how}, {x.confidence:.2f})"
                       + ("  " + _("changed") if x.changed else ""))
    if c.changed:
        click.echo("\n" + _("Changed:"))
        for x in c.changed:
            moved = " " + _("(was {number})").format(number=x.old_number) if x.renumbered else ""
            moved += " " + _("(typography only)") if x.typography_only else ""
            click.echo("  " + _("{number}{moved}: {diff}").format(
                number=x.new_number, moved=moved, diff=render_diff(x.diff)))


def _print_texts(heading: str, rules: list[RuleText]) -> None:
    if rules:
        click.echo(f"\n{heading}")
        for r in rules:
            click.echo(f"  {r.number}  {r.title or r.text}")
