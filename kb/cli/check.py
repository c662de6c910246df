"""``kb check``: replay the worked examples of the corpus on the rules engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from kb.api import check, check_json
from kb.cli._output import Checked, emit_json, index_root, json_option, table
from kb.params import STATUS


@click.command("check")
@click.option("--scenario", "scenarios", multiple=True,
              type=click.Path(exists=True, path_type=Path),
              help="Also play the scenarios of this TOML file or folder (repeatable).")
@click.option("--status", "statuses", multiple=True,
              type=Checked(STATUS),
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
    rows = [("source", *STATUSES)]
    for source, counts in report.by_source().items():
        rows.append((source, *(str(counts[s]) for s in STATUSES)))
    rows.append(("total", *(str(report.summary()[s]) for s in STATUSES)))
    table(rows)
    click.echo(f"{report.scenarios} scenarios played.")
    click.echo(_shares_line("All worked examples", report.shares()))
    cr = report.cr_coverage()
    if cr is not None:
        click.echo(_shares_line(f"CR {cr['version']} examples", cr))
        rows = [("chapter", "examples", "with a status", "verified")]
        for chapter, counts in cr["chapters"].items():
            rows.append((f"{chapter}xx", str(counts["examples"]),
                         str(counts["with_status"]), str(counts["verified"])))
        table(rows)
    wanted = statuses or ("contradicted", "era-dependent")
    shown = [r for r in report.results if r.status in wanted]
    for r in shown:
        click.echo(f"\n{r.status}: {r.id}  [{r.language}, {r.source}]")
        click.echo(f"  claim:    {r.claim}")
        if r.computed:
            click.echo(f"  computed: {r.computed}")
        if r.changed_rule:
            click.echo(f"  changed:  {r.changed_rule}")
        if r.reason:
            click.echo(f"  reason:   {r.reason}")
    if report.not_in_index:
        click.echo(f"\nNot in index ({len(report.not_in_index)} ids named by scenarios; "
                   "build with the corpus that holds them):")
        for record_id, where in report.not_in_index:
            click.echo(f"  {record_id}  ({where})")


def _shares_line(label: str, counts: dict[str, Any]) -> str:
    """"N examples: M with a status (P%), V verified (Q%)": the verified share is given on
    its own, so that marking examples not checkable never looks like verifying them."""
    total = counts["examples"] or 1
    return (f"{label}: {counts['examples']}, {counts['with_status']} with a status "
            f"({100 * counts['with_status'] / total:.0f}%), {counts['verified']} verified "
            f"({100 * counts['verified'] / total:.0f}%)")
