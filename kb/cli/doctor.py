"""``kb doctor``: check the published index, every file against its checksum, the store page by
page and record by record, and the search index segment by segment."""

from __future__ import annotations

import click

from kb.cli._command import KbCommand
from kb.cli._output import emit_json, index_root, json_option
from kb.i18n import _


@click.command("doctor", cls=KbCommand)
@json_option
@click.pass_context
def command(ctx: click.Context, as_json: bool) -> None:
    """Check that the index is whole: every file of the current generation against the
    checksum recorded when it was built, the store (SQLite's integrity check, each record's
    checksum) and each segment of the search index.

    Exit 1, naming what is damaged and the fix, when anything is."""
    from kb.doctor import diagnose
    from kb.errors import NoIndexError
    from kb.indexdir import IndexDir
    from kb.paths import no_index_message, shown

    root = index_root(ctx)
    if IndexDir(root).current() is None:
        raise NoIndexError(no_index_message(root))
    problems, checked = diagnose(root)
    if as_json:
        emit_json({"index": root, "checked": checked, "problems": problems})
    elif not problems:
        click.echo(_("{root}: the index is whole ({count} files checked)").format(
            root=shown(root), count=checked))
    for problem in problems if not as_json else []:
        click.echo(_("damaged: {problem}").format(problem=problem), err=True)
    if problems:
        click.echo("kb: " + _("the index is damaged: run 'kb build' to rebuild it (damaged "
                              "files are never reused)"), err=True)
        ctx.exit(1)
