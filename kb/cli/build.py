"""``kb build``: parse the corpus into a new index, published atomically."""

from __future__ import annotations

from pathlib import Path

import click

from kb import api
from kb.build import BuildReport
from kb.cli._output import emit_json, index_root, json_option, progress_bar, table


@click.command("build")
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
@json_option
@click.pass_context
def command(ctx: click.Context, corpus_dirs: tuple[Path, ...], only: bool, replace: bool,
            no_embedded: bool, strict: bool, follow_links: bool, as_json: bool) -> None:
    """Parse the corpus into a new index, published atomically when complete.

    The index remembers its folders: with no option, the same set is rebuilt (at first, the
    embedded corpus and the folder of 'kb fetch'). Nothing is written when nothing changed.
    A build that would drop a rules version or a source the index has is refused unless
    --replace. A file that cannot be read (empty, binary, unreadable, a link loop, ...) is
    named on stderr with the reason and left out; the rest is built. The exit status is 0 all
    the same, unless --strict."""
    if only and not corpus_dirs:
        raise click.UsageError("--only needs at least one --corpus folder")
    report = api.build_index(index_root(ctx), list(corpus_dirs), embedded=not no_embedded,
                             progress=progress_bar, only=only, replace=replace,
                             follow_links=follow_links)
    if as_json:
        emit_json({
            "index": report.index, "seconds": round(report.seconds, 3),
            "unchanged": report.unchanged,
            "versions": report.versions, "totals": report.totals,
            "unparsed": report.unparsed, "links": report.links, "sources": report.sources,
            "problems": report.problems, "copies": report.copies,
        })
    else:
        _print_build(report)
    if strict and report.problems:
        click.echo(f"kb: {len(report.problems)} problem(s) in the corpus (--strict)", err=True)
        ctx.exit(1)


def _print_build(report: BuildReport) -> None:
    parsed = sum(not s.reused for s in report.sources)
    if report.unchanged:
        click.echo(f"Nothing changed since the last build of {report.index} "
                   f"({len(report.sources)} sources, checked in {report.seconds:.1f} s)")
    else:
        click.echo(f"Built {report.index} in {report.seconds:.1f} s: {len(report.sources)} "
                   f"sources ({parsed} parsed, {len(report.sources) - parsed} unchanged)")
    if len(report.versions) > 8:  # a hundred dates on one line say nothing
        click.echo(f"Rules versions: {len(report.versions)}, {report.versions[0]} .. "
                   f"{report.versions[-1]} (kb versions lists them)")
    elif report.versions:
        click.echo(f"Rules versions: {', '.join(report.versions)}")
    rows = [("source", "format", "lang", "version", "records", "inferred", "untranslated",
             "duplicates", "unparsed")]
    for s in report.sources:
        records = sum(n for k, n in s.counts.items() if k != "fragment")
        rows.append((s.file, s.format, s.language or "-", s.version or "-", str(records),
                     *(str(s.flags.get(k, 0)) for k in ("inferred", "untranslated", "duplicates")),
                     str(s.counts.get("fragment", 0))))
    table(rows)
    click.echo("Records: " + ", ".join(f"{k} {n}" for k, n in report.totals.items()))
    if report.links:
        click.echo("Links: " + ", ".join(f"{k} {n}" for k, n in sorted(report.links.items())))
    not_understood = [s.file for s in report.sources if s.format == "unknown"]
    if not_understood:
        click.echo(f"Not yet understood (kept whole as unparsed): {', '.join(not_understood)}")
    click.echo(f"Unparsed fragments: {report.unparsed}, not searchable (list them: kb export "
               "--kind fragment)")
    if any(s.flags.get("duplicates") for s in report.sources):
        click.echo("Duplicates: records already ingested from an earlier source, kept once")
    for c in report.copies:
        click.echo(f"Same file twice: {c.file}: {c.reason}")
    for p in report.problems:
        click.echo(f"problem: {p.file}: {p.reason}", err=True)
