"""``kb versions``: the Comprehensive Rules versions in the index."""

from __future__ import annotations

import click

from kb.cli._command import KbCommand
from kb.cli._output import emit_json, json_option, open_kb, table
from kb.i18n import _


@click.command("versions", cls=KbCommand)
@json_option
@click.pass_context
def command(ctx: click.Context, as_json: bool) -> None:
    """List the Comprehensive Rules versions in the index with their record counts."""
    with open_kb(ctx) as kb:
        infos = kb.versions()
    if as_json:
        emit_json(infos)
        return
    rows = [(_("version"), _("file"), _("rules"), _("examples"), _("glossary"))]
    for v in infos:
        rows.append((v.version, v.file, str(v.counts.get("rule", 0)),
                     str(v.counts.get("example", 0)), str(v.counts.get("glossary", 0))))
    table(rows)
