"""``kb export``: every record as JSON Lines."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from kb.cli._output import open_kb


@click.command("export")
@click.option("--kind", help="Only records of this kind (rule, example, glossary, toc, "
              "passage, card, ruling, note, fragment).")
@click.option("--version", default="all", show_default=True,
              help="'all', or the rules version in force on this date (YYYY-MM-DD).")
@click.option("--lang", help="Only records in this language (en, fr, ...).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to this file instead of stdout.")
@click.pass_context
def command(ctx: click.Context, kind: str | None, version: str, lang: str | None,
            out: Path | None) -> None:
    """Write every record as JSON Lines: the open dataset of the rules literature."""
    with open_kb(ctx) as kb:
        rows = kb.export(kind=kind, version=version, lang=lang)
        if out is None:
            _write_lines(rows, sys.stdout)
            return
        tmp = out.with_name(out.name + ".partial")
        with tmp.open("w", encoding="utf-8") as handle:
            count = _write_lines(rows, handle)
        tmp.replace(out)
        click.echo(f"Wrote {count} records to {out}", err=True)


def _write_lines(rows: Iterable[dict[str, Any]], handle: Any) -> int:
    count = 0
    for row in rows:
        handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        count += 1
    return count
