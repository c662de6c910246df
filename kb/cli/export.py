"""``kb export``: every record as JSON Lines."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

import click

from kb.cli._command import KbCommand
from kb.cli._output import Checked, VersionDate, json_option, open_kb, out_option, output_file
from kb.i18n import ngettext
from kb.params import RECORD_KIND, TEXT_LANG


@click.command("export", cls=KbCommand)
@click.option("--kind", type=Checked(RECORD_KIND), help="Only records of this kind.")
@click.option("--version", type=VersionDate(allow_all=True), default="all", show_default=True,
              help="'all', or the rules version in force on this date (YYYY-MM-DD).")
@click.option("--lang", type=Checked(TEXT_LANG), help="Only records in this language.")
@out_option
@json_option
@click.pass_context
def command(ctx: click.Context, kind: str | None, version: str, lang: str | None,
            out: Path | None, as_json: bool) -> None:
    """Write every record as JSON Lines: the open dataset of the rules literature.

    The output is JSON in any case (one object a line); --json is accepted so that every
    command takes it."""
    with open_kb(ctx) as kb:
        rows = kb.export(kind=kind, version=version, lang=lang)
        if out is None:
            _write_lines(rows, sys.stdout)
            return
        with output_file(out) as handle:
            count = _write_lines(rows, handle)
    click.echo(ngettext("Wrote {count} record to {out}", "Wrote {count} records to {out}",
                        count).format(count=count, out=out), err=True)


def _write_lines(rows: Iterable[dict[str, Any]], handle: TextIO) -> int:
    count = 0
    for row in rows:
        handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        count += 1
    return count
