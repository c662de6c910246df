"""``kb numbering``: make the table of every published version's rule numbers from rules files."""

from __future__ import annotations

from pathlib import Path

import click

from kb.cli._output import emit_json, json_option, out_option, output_file, progress_bar
from kb.errors import KbError


@click.command("numbering")
@click.option("--from", "folders", multiple=True, required=True,
              type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A folder of Comprehensive Rules text files, gzip or not (repeatable): one "
                   "per published version.")
@out_option
@json_option
def command(folders: tuple[Path, ...], out: Path | None, as_json: bool) -> None:
    """Make the numbering table of every version of the Comprehensive Rules in the --from
    folders: each rule's number and heading title in each version, and each rule followed
    across versions (renumberings, additions, removals), as the build pairs versions.

    The table ships with kb as corpus/numbering/cr-en.tsv; a table in the numbering/ folder of
    a corpus folder whose newest version is newer is used instead (write it to
    <your corpus folder>/numbering/cr-en.tsv). Files that are not rules files are skipped and
    named. The table goes to --out (or stdout), what it holds to stderr; --json prints that
    summary on stdout, so it needs --out."""
    if as_json and out is None:
        raise click.UsageError("--json prints the summary on stdout: give the table --out FILE")
    from kb.link.numbering import make_table  # the parsers and the matcher load only here

    made = make_table(list(folders), lambda items: progress_bar(items, "Reading"))
    if not made.table.versions:
        raise KbError(f"no Comprehensive Rules file in {', '.join(map(str, folders))}")
    if out is None:
        made.table.write(click.get_text_stream("stdout"))
    else:
        with output_file(out) as handle:
            made.table.write(handle)
    summary = {**made.table.summary(), "out": str(out) if out else None,
               "skipped": [{"file": f, "reason": r} for f, r in made.skipped]}
    if as_json:
        emit_json(summary)
        return
    for file, reason in made.skipped:
        click.echo(f"skipped: {file}: {reason}", err=True)
    click.echo(f"{summary['versions']} versions ({summary['first']} .. {summary['latest']}), "
               f"{summary['rules']} rules in {summary['runs']} runs: "
               f"{summary['renumberings']} renumberings, {summary['additions']} additions, "
               f"{summary['removals']} removals" + (f"; written to {out}" if out else ""),
               err=True)
