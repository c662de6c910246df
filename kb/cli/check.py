"""``kb check``: replay the worked examples of the corpus on the rules engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from kb.api import check, check_json
from kb.cli._command import KbCommand
from kb.cli._output import emit_json, index_root, json_option, table
from kb.i18n import _, ngettext
from kb.labels import label


@click.command("check", cls=KbCommand)
@click.option("--scenario", "scenarios", multiple=True,
              type=click.Path(exists=True, path_type=Path),
              help="Also play the scenarios of this TOML file or folder (repeatable).")
@click.option("--status", "statuses", multiple=True,
              type=click.Choice(["verified", "contradicted", "era-dependent", "not checkable",
                                 "not modelled"]),
              help="List the examples with this status (repeatable); by default the "
                   "contradicted and era-dependent ones are listed.")
@json_option
@click.pass_context
def command(ctx: click.Context, scenarios: tuple[Path, ...], statuses: tuple[str, ...],
            as_json: bool) -> None:
    """Give every worked example of the index a status by replaying it on the rules engine:
    verified, contradicted, era-dependent, not checkable or not modelled."""
    from kb.check import STATUSES

    report = check(index=index_root(ctx), scenarios=list(scenarios))
    if as_json:
        emit_json(check_json(report))
        return
    rows = [(_("source"), *(label(s) for s in STATUSES))]
    for source, counts in report.by_source().items():
        rows.append((source, *(str(counts[s]) for s in STATUSES)))
    rows.append((_("total"), *(str(report.summary()[s]) for s in STATUSES)))
    table(rows)
    click.echo(ngettext("{n} scenario played.", "{n} scenarios played.", report.scenarios)
               .format(n=report.scenarios))
    click.echo(_shares_line(_("All worked examples"), report.shares()))
    cr = report.cr_coverage()
    if cr is not None:
        click.echo(_shares_line(_("CR {version} examples").format(version=cr["version"]), cr))
        rows = [(_("chapter"), _("examples"), _("with a status"), _("verified"))]
        for chapter, counts in cr["chapters"].items():
            rows.append((f"{chapter}xx", str(counts["examples"]),
                         str(counts["with_status"]), str(counts["verified"])))
        table(rows)
    wanted = statuses or ("contradicted", "era-dependent")
    shown = [r for r in report.results if r.status in wanted]
    fields = {"claim": _("claim:"), "computed": _("computed:"), "changed": _("changed:"),
              "reason": _("reason:")}
    width = max(len(name) for name in fields.values()) + 1
    for r in shown:
        click.echo(f"\n{label(r.status)}: {r.id}  [{r.language}, {r.source}]")
        for key, value in (("claim", r.claim), ("computed", r.computed),
                           ("changed", r.changed_rule), ("reason", r.reason)):
            if value:
                click.echo(f"  {fields[key].ljust(width)}{value}")
    if report.not_in_index:
        click.echo("\n" + _("Not in index ({count} ids named by scenarios; build with the "
                            "corpus that holds them):").format(count=len(report.not_in_index)))
        for record_id, where in report.not_in_index:
            click.echo(f"  {record_id}  ({where})")


def _shares_line(name: str, counts: dict[str, Any]) -> str:
    """"N examples: M with a status (P%), V verified (Q%)": the verified share is given on
    its own, so that marking examples not checkable never looks like verifying them."""
    total = counts["examples"] or 1
    return _("{label}: {examples}, {with_status} with a status ({with_share:.0f}%), "
             "{verified} verified ({verified_share:.0f}%)").format(
        label=name, examples=counts["examples"], with_status=counts["with_status"],
        with_share=100 * counts["with_status"] / total, verified=counts["verified"],
        verified_share=100 * counts["verified"] / total)
