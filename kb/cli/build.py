"""``kb build``: parse the corpus into a new index, published atomically."""

from __future__ import annotations

from pathlib import Path

import click

from kb import api
from kb.build import BuildReport
from kb.cli._command import KbCommand
from kb.cli._output import emit_json, index_root, json_option, progress_bar, table
from kb.i18n import _, ngettext
from kb.labels import label
from kb.paths import shown


@click.command("build", cls=KbCommand)
@click.option("--corpus", "corpus_dirs", multiple=True,
              type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A folder of documents to add to those the index was built from "
                   "(repeatable; remembered for the next builds).")
@click.option("--only", is_flag=True,
              help="Build exactly the --corpus folders (not the embedded corpus nor the "
                   "folders remembered).")
@click.option("--replace", is_flag=True,
              help="Allow the build to drop rules versions or sources the current index has.")
@click.option("--no-embedded", is_flag=True, help="Leave out the embedded corpus.")
@click.option("--strict", is_flag=True,
              help="Exit with status 1 when any file had a problem (the index is still "
                   "built from the others).")
@click.option("--follow-links", is_flag=True,
              help="Follow links that lead out of a corpus folder (not followed by default).")
@click.option("--model", type=click.Path(exists=True, file_okay=False, path_type=Path),
              envvar="KB_MODEL",
              help="A sentence model's folder (model.onnx and tokenizer.json, a "
                   "Sentence-Transformers ONNX export such as all-MiniLM-L6-v2, which kb fetch "
                   "--model downloads and builds with): today's "
                   "English rules are embedded, and search blends the model's nearness to "
                   'English queries into its ranking. Needs pip install "kb[semantic]"; '
                   "remembered for the next builds.")
@click.option("--no-model", is_flag=True, help="Build without the model remembered.")
@json_option
@click.pass_context
def command(ctx: click.Context, corpus_dirs: tuple[Path, ...], only: bool, replace: bool,
            no_embedded: bool, strict: bool, follow_links: bool, model: Path | None,
            no_model: bool, as_json: bool) -> None:
    """Parse the corpus into a new index, published atomically when complete.

    The index remembers its folders: with no option, the same set is rebuilt (at first, the
    embedded corpus and the folder of 'kb fetch'). Nothing is written when nothing changed.
    A build that would drop a rules version or a source the index has is refused unless
    --replace. A file that cannot be read (empty, binary, unreadable, a link loop, ...) is
    named on stderr with the reason and left out; the rest is built. The exit status is 0 all
    the same, unless --strict."""
    if only and not corpus_dirs:
        raise click.UsageError(_("--only needs at least one --corpus folder"))
    report = api.build_index(index_root(ctx), list(corpus_dirs), embedded=not no_embedded,
                             progress=progress_bar, only=only, replace=replace,
                             follow_links=follow_links, model=model, no_model=no_model)
    if as_json:
        emit_json({
            "index": report.index, "seconds": round(report.seconds, 3),
            "unchanged": report.unchanged,
            "versions": report.versions, "totals": report.totals,
            "unparsed": report.unparsed, "links": report.links, "sources": report.sources,
            "problems": report.problems, "copies": report.copies, "vectors": report.vectors,
        })
    else:
        _print_build(report)
    if strict and report.problems:
        click.echo("kb: " + ngettext("{n} problem in the corpus (--strict)",
                                     "{n} problems in the corpus (--strict)",
                                     len(report.problems)).format(n=len(report.problems)),
                   err=True)
        ctx.exit(1)


def _print_build(report: BuildReport) -> None:
    parsed = sum(not s.reused for s in report.sources)
    if report.unchanged:
        click.echo(_("Nothing changed since the last build of {index} ({sources} sources, "
                     "checked in {seconds:.1f} s)").format(
            index=shown(report.index), sources=len(report.sources), seconds=report.seconds))
    else:
        click.echo(_("Built {index} in {seconds:.1f} s: {sources} sources ({parsed} parsed, "
                     "{unchanged} unchanged)").format(
            index=shown(report.index), seconds=report.seconds, sources=len(report.sources),
            parsed=parsed, unchanged=len(report.sources) - parsed))
    if len(report.versions) > 8:  # a hundred dates on one line say nothing
        click.echo(_("Rules versions: {count}, {first} .. {last} (kb versions lists them)")
                   .format(count=len(report.versions), first=report.versions[0],
                           last=report.versions[-1]))
    elif report.versions:
        click.echo(_("Rules versions: {versions}").format(versions=", ".join(report.versions)))
    rows = [(_("source"), _("format"), _("lang"), _("version"), _("records"), _("inferred"),
             _("untranslated"), _("duplicates"), _("unparsed"))]
    for s in report.sources:
        records = sum(n for k, n in s.counts.items() if k != "fragment")
        rows.append((s.file, s.format, s.language or "-", s.version or "-", str(records),
                     *(str(s.flags.get(k, 0)) for k in ("inferred", "untranslated", "duplicates")),
                     str(s.counts.get("fragment", 0))))
    table(rows)
    click.echo(_("Records: {counts}").format(
        counts=", ".join(f"{label(k)} {n}" for k, n in report.totals.items())))
    if report.vectors:
        click.echo(_("Semantic ranking: {count} English rules and examples embedded").format(
            count=report.vectors))
    if report.links:
        click.echo(_("Links: {counts}").format(
            counts=", ".join(f"{k} {n}" for k, n in sorted(report.links.items()))))
    not_understood = [s.file for s in report.sources if s.format == "unknown"]
    if not_understood:
        click.echo(_("Not yet understood (kept whole as unparsed): {files}").format(
            files=", ".join(not_understood)))
    click.echo(_("Unparsed fragments: {count}, not searchable (list them: kb export --kind "
                 "fragment)").format(count=report.unparsed))
    if any(s.flags.get("duplicates") for s in report.sources):
        click.echo(_("Duplicates: records already ingested from an earlier source, kept once"))
    for c in report.copies:
        click.echo(_("Same file twice: {file}: {reason}").format(file=c.file, reason=c.reason))
    for p in report.problems:
        click.echo(_("problem: {file}: {reason}").format(file=p.file, reason=p.reason),
                   err=True)
