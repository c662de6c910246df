"""``kb numbering``: make the table of every published version's rule numbers from rules files."""

from __future__ import annotations

from pathlib import Path

import click

from kb.cli._command import KbCommand
from kb.cli._output import emit_json, json_option, out_option, output_file, progress_bar
from kb.errors import KbError
from kb.i18n import gettext as _


@click.command("numbering", cls=KbCommand)
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
        raise click.UsageError(_("--json prints the summary on stdout: give the table --out FILE"))
    from kb.link.numbering import make_table  # the parsers and the matcher load only here

    made = make_table(list(folders), lambda items: progress_bar(items, "Reading"))
    if not made.table.versions:
        raise KbError(_("no Comprehensive Rules file in {folders}").format(
            folders=", ".join(map(str, folders))))
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
        click.echo(_("skipped: {file}: {reason}").format(file=file, reason=reason), err=True)
    click.echo(_("{versions} versions ({first} .. {latest}), {rules} rules in {runs} runs: "
                 "{renumberings} renumberings, {additions} additions, {removals} removals"
                 ).format(**summary) + (_("; written to {out}").format(out=out) if out else ""),
               err=True)
