"""``kb diff``: what changed between two versions of the rules, rule by rule."""

from __future__ import annotations

import click

from kb.api import diff_json
from kb.cli._output import Checked, VersionDate, emit_json, json_option, open_kb, table
from kb.cli.history import render_diff
from kb.history import RuleText, VersionChanges, version_changes
from kb.params import SECTION


@click.command("diff")
@click.argument("old", type=VersionDate())
@click.argument("new", type=VersionDate(), default="latest")
@click.option("--section", default=None, type=Checked(SECTION),
              help="Only the rules within this number (7, 702, 702.19).")
@json_option
@click.pass_context
def command(ctx: click.Context, old: str, new: str, section: str | None, as_json: bool) -> None:
    """Compare the rules in force on OLD with those in force on NEW (dates, YYYY-MM-DD, or
    'latest'): added, removed, renumbered and changed rules, a summary first. A rule is
    followed by its identity, so a renumbered rule is not counted as removed and added."""
    with open_kb(ctx) as kb:
        changes = version_changes(kb, old, new, section)
    same = changes.old == changes.new
    if as_json:
        emit_json(diff_json(changes))
        return
    if same:
        click.echo(f"Both dates resolve to the same rules version, {changes.old}: nothing "
                   "changed between them (kb versions lists the versions).")
        return
    _print(changes)


def _print(c: VersionChanges) -> None:
    scope = f", within {c.section}" if c.section else ""
    click.echo(f"Rules {c.old} → {c.new}{scope}")
    table([("", "rules"), ("added", str(len(c.added))), ("removed", str(len(c.removed))),
           ("renumbered", str(len(c.renumbered))), ("changed", str(len(c.changed))),
           ("unchanged", str(c.unchanged))])
    retyped = sum(x.typography_only for x in c.changed)
    if retyped:
        click.echo(f"({retyped} of the changed rules differ in typography only: quotes, "
                   "italics, spacing)")
    _print_texts("Added", c.added)
    _print_texts("Removed", c.removed)
    if c.renumbered:
        click.echo("\nRenumbered:")
        for x in c.renumbered:
            click.echo(f"  {x.old_number} → {x.new_number}  ({x.how}, {x.confidence:.2f})"
                       + ("  changed" if x.changed else ""))
    if c.changed:
        click.echo("\nChanged:")
        for x in c.changed:
            moved = f" (was {x.old_number})" if x.renumbered else ""
            moved += " (typography only)" if x.typography_only else ""
            click.echo(f"  {x.new_number}{moved}: {render_diff(x.diff)}")


def _print_texts(heading: str, rules: list[RuleText]) -> None:
    if rules:
        click.echo(f"\n{heading}:")
        for r in rules:
            click.echo(f"  {r.number}  {r.title or r.text}")
