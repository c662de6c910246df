"""``kb check``: replay the worked examples of the corpus on the rules engine, or play the
scenarios a user gives (``--scenario``) and report each."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from kb.api import check, check_json, check_scenarios
from kb.cli._command import KbCommand
from kb.cli._output import Checked, emit_json, index_root, json_option, table
from kb.i18n import _, ngettext
from kb.labels import counted, label
from kb.params import STATUS


@click.command("check", cls=KbCommand)
@click.option("--scenario", "scenarios", multiple=True,
              type=click.Path(exists=True, path_type=Path),
              help="Play the scenarios of this TOML file or folder (repeatable) and report "
                   "each one: verified, contradicted (with the first differing fact), "
                   "refused (file, line and reason) or answered. A scenario with no "
                   "'verifies' is a question: the state it reached and the rules applied "
                   "are shown. Needs no index (one is used, if built, to check quotes).")
@click.option("--status", "statuses", multiple=True, type=Checked(STATUS),
              help="List the examples with this status (repeatable); by default the "
                   "contradicted, refused and era-dependent ones are listed.")
@click.option("--missing", is_flag=True,
              help="List the example ids the scenarios name that this index does not hold "
                   "(those of the shared corpus, when only the embedded one is built).")
@json_option
@click.pass_context
def command(ctx: click.Context, scenarios: tuple[Path, ...], statuses: tuple[str, ...],
            missing: bool, as_json: bool) -> None:
    """Give every worked example of the index a status by replaying it on the rules engine:
    verified, contradicted, refused, era-dependent, not checkable or not modelled.

    With --scenario, play your own scenarios instead and report each."""
    if scenarios:
        _user(ctx, scenarios, as_json)
        return
    from kb.check import STATUSES

    report = check(index=index_root(ctx))
    if as_json:
        emit_json(check_json(report))
        return
    rows = [(_("source"), *(label(s) for s in STATUSES))]
    for source, counts in report.by_source().items():
        rows.append((source, *(str(counts[s]) for s in STATUSES)))
    rows.append((_("total"), *(str(report.summary()[s]) for s in STATUSES)))
    table(rows)
    played = ngettext("{n} scenario played.", "{n} scenarios played.",
                      report.scenarios).format(n=report.scenarios)
    if report.not_in_index and not missing:
        played += " " + ngettext("{n} example id they name is not in this index "
                                 "(--missing lists it).",
                                 "{n} example ids they name are not in this index "
                                 "(--missing lists them).",
                                 len(report.not_in_index)).format(n=len(report.not_in_index))
    click.echo(played)
    click.echo(_shares_line(_("All worked examples"), report.shares()))
    cr = report.cr_coverage()
    if cr is not None:
        click.echo(_shares_line(_("CR {version} examples").format(version=cr["version"]), cr))
        rows = [(_("chapter"), _("examples"), _("with a status"), _("verified"))]
        for chapter, counts in cr["chapters"].items():
            rows.append((f"{chapter}xx", str(counts["examples"]),
                         str(counts["with_status"]), str(counts["verified"])))
        table(rows)
    wanted = statuses or ("contradicted", "refused", "era-dependent")
    shown = [r for r in report.results if r.status in wanted]
    fields = {"claim": _("claim:"), "computed": _("computed:"), "changed": _("changed:"),
              "reason": _("reason:")}
    width = max(len(name) for name in fields.values()) + 1
    for r in shown:
        click.echo("\n" + _("{status}: {what}").format(status=label(r.status), what=r.id)
                   + f"  [{r.language}, {r.source}]")
        for key, value in (("claim", r.claim), ("computed", r.computed),
                           ("changed", r.changed_rule), ("reason", r.reason)):
            if value:
                click.echo(f"  {fields[key].ljust(width)}{value}")
    if missing and report.not_in_index:
        click.echo("\n" + _("Not in this index ({n} ids named by scenarios; build with the "
                            "corpus that holds them):").format(n=len(report.not_in_index)))
        for record_id, where in report.not_in_index:
            click.echo(f"  {record_id}  ({_short(where)})")


def _short(where: str) -> str:
    """A scenario's place without the folder it is installed in ("cards.toml:12 (...)")."""
    path, _sep, rest = where.partition(":")
    return f"{Path(path).name}:{rest}"


def _user(ctx: click.Context, paths: tuple[Path, ...], as_json: bool) -> None:
    """Play the user's scenarios and report each; exit 1 if any is contradicted or refused."""
    report = check_scenarios(list(paths), index=index_root(ctx))
    if as_json:
        emit_json(report.as_dict())
    else:
        for result in report.results:
            _show(result)
        counts = report.summary()
        click.echo("\n" + ngettext("{n} scenario: {counts}", "{n} scenarios: {counts}",
                                   len(report.results)).format(
            n=len(report.results),
            counts=", ".join(counted(status, n) for status, n in counts.items() if n)))
    if not report.ok:
        sys.exit(1)


def _show(result: Any) -> None:
    place = f"{result.file}:{result.line}" if result.line else result.file
    click.echo("\n" + _("{status}: {what}").format(status=label(result.status),
                                                    what=result.name or place)
               + (f"  ({place})" if result.name else ""))
    if result.source:
        click.echo("  " + _("source: {source}").format(source=result.source))
    if result.status == "contradicted" and result.reason:
        click.echo("  " + _("first difference: {fact}").format(fact=result.reason))
    elif result.reason:
        click.echo("  " + _("reason: {reason}").format(reason=result.reason))
    elif result.facts and not result.question:
        click.echo("  " + _("facts: {facts}").format(facts=result.facts))
    for claim in result.claims:
        where = (_("not checked: no index") if claim.in_index is None
                 else _("not in this index") if not claim.in_index
                 else _("quote found") if claim.found else _("quote not found"))
        click.echo("  " + _("verifies {id}: {where}").format(id=claim.id, where=where))
    if result.question and result.final_state is not None:
        from kb.check.snapshot import describe

        click.echo("  " + _("final state:"))
        for line in describe(dict(result.final_state)):
            click.echo(f"    {line}")
        click.echo("  " + _("rules applied:"))
        for rule, what in result.rules:
            click.echo(f"    {rule:<9} {what}")
        if result.facts:
            click.echo("  " + _("facts: {facts}").format(facts=result.facts))


def _shares_line(name: str, counts: dict[str, Any]) -> str:
    """"N examples: M with a status (P%), V verified (Q%)": the verified share is given on
    its own, so that marking examples not checkable never looks like verifying them."""
    total = counts["examples"] or 1
    return _("{label}: {examples}, {with_status} with a status ({with_share:.0f}%), "
             "{verified} verified ({verified_share:.0f}%)").format(
        label=name, examples=counts["examples"], with_status=counts["with_status"],
        with_share=100 * counts["with_status"] / total, verified=counts["verified"],
        verified_share=100 * counts["verified"] / total)
