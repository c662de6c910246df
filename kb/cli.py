"""The ``kb`` command line: click commands over :mod:`kb.api`, nothing else.

Exit status: 0 success, 1 a domain error (no such rule, no index, ...), 2 a usage error.
Messages go to stderr; a traceback only with ``--debug``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import click

from kb import api
from kb.build import BuildReport
from kb.indexdir import BuildLockedError

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


class KbGroup(click.Group):
    """Turns domain errors into one line on stderr and exit 1 (a traceback with --debug)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (api.KbError, BuildLockedError) as exc:
            if ctx.obj and ctx.obj.get("debug"):
                raise
            click.echo(f"kb: {exc}", err=True)
            ctx.exit(1)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrokenPipeError:
            # The reader went away (``kb export | head``): stop quietly, as Python's docs advise.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(1)
        except Exception as exc:
            if ctx.obj and ctx.obj.get("debug"):
                raise
            click.echo(f"kb: internal error: {type(exc).__name__}: {exc} "
                       "(run with --debug for the traceback)", err=True)
            ctx.exit(1)


def json_option(func: F) -> F:
    """The shared output option: ``--json`` prints machine-readable JSON on stdout."""
    return click.option("--json", "as_json", is_flag=True,
                        help="Print JSON for scripts instead of text.")(func)


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=_jsonable))


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON serializable: {type(value).__name__}")


@click.group(cls=KbGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--index", "index_dir", type=click.Path(file_okay=False, path_type=Path),
              envvar="KB_INDEX", help="Index folder (default: $KB_INDEX, the checkout's "
              "indexes/, or ~/.local/share/kb/indexes).")
@click.option("--debug", is_flag=True, help="Show tracebacks on errors.")
@click.version_option(package_name="kb")
@click.pass_context
def cli(ctx: click.Context, index_dir: Path | None, debug: bool) -> None:
    """kb: the bilingual Magic: The Gathering rules knowledge base."""
    ctx.ensure_object(dict)
    ctx.obj["index"] = index_dir or api.default_index_root()
    ctx.obj["debug"] = debug


def _open(ctx: click.Context) -> api.KnowledgeBase:
    return api.KnowledgeBase(ctx.obj["index"])


# -- build -------------------------------------------------------------------------------------


@cli.command("build")
@click.option("--corpus", "corpus_dirs", multiple=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="A folder of documents to ingest besides the embedded corpus (repeatable).")
@click.option("--no-embedded", is_flag=True, help="Leave out the embedded corpus.")
@json_option
@click.pass_context
def build_cmd(ctx: click.Context, corpus_dirs: tuple[Path, ...], no_embedded: bool,
              as_json: bool) -> None:
    """Parse the corpus into a new index, published atomically when complete."""
    report = api.build_index(ctx.obj["index"], list(corpus_dirs), embedded=not no_embedded,
                             progress=_progress_bar)
    if as_json:
        emit_json({
            "index": report.index, "seconds": round(report.seconds, 3),
            "versions": report.versions, "totals": report.totals,
            "unparsed": report.unparsed, "links": report.links, "sources": report.sources,
            "problems": report.problems,
        })
    else:
        _print_build(report)


def _progress_bar(items: list[T]) -> Iterator[T]:
    """A progress bar on stderr when it is a terminal; silence in scripts and CI logs."""
    if not sys.stderr.isatty():
        yield from items
        return
    with click.progressbar(items, label="Building", file=sys.stderr,
                           item_show_func=lambda i: getattr(i, "display", None)) as bar:
        yield from bar


def _print_build(report: BuildReport) -> None:
    parsed = sum(not s.reused for s in report.sources)
    click.echo(f"Built {report.index} in {report.seconds:.1f} s: {len(report.sources)} sources "
               f"({parsed} parsed, {len(report.sources) - parsed} unchanged)")
    if report.versions:
        click.echo(f"Rules versions: {', '.join(report.versions)}")
    rows = [("source", "format", "lang", "version", "records", "inferred", "untranslated",
             "duplicates", "unparsed")]
    for s in report.sources:
        records = sum(n for k, n in s.counts.items() if k != "fragment")
        rows.append((s.file, s.format, s.language or "-", s.version or "-", str(records),
                     *(str(s.flags.get(k, 0)) for k in ("inferred", "untranslated", "duplicates")),
                     str(s.counts.get("fragment", 0))))
    _table(rows)
    click.echo("Records: " + ", ".join(f"{k} {n}" for k, n in report.totals.items()))
    if report.links:
        click.echo("Links: " + ", ".join(f"{k} {n}" for k, n in sorted(report.links.items())))
    not_understood = [s.file for s in report.sources if s.format == "unknown"]
    if not_understood:
        click.echo(f"Not yet understood (kept whole as unparsed): {', '.join(not_understood)}")
    click.echo(f"Unparsed fragments: {report.unparsed} (list them: kb export --kind fragment)")
    if any(s.flags.get("duplicates") for s in report.sources):
        click.echo("Duplicates: records already ingested from an earlier source, kept once")
    for p in report.problems:
        click.echo(f"problem: {p.file}: {p.reason}", err=True)


def _table(rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())


# -- rule --------------------------------------------------------------------------------------


@cli.command("rule")
@click.argument("number")
@click.option("--version", "version", default="latest", show_default=True,
              help="The rules in force on this date (YYYY-MM-DD), or 'latest'.")
@click.option("--lang", type=click.Choice(["en", "fr", "all"]), default="all",
              show_default=True, help="Language of the texts shown.")
@json_option
@click.pass_context
def rule_cmd(ctx: click.Context, number: str, version: str, lang: str, as_json: bool) -> None:
    """Show rule NUMBER (e.g. 702.19b) with its subrules, examples and citations."""
    with _open(ctx) as kb:
        views = kb.rule(number, version, lang)
    if as_json:
        emit_json(views)
        return
    for i, v in enumerate(views):
        if i:
            click.echo()
        head = f"{v.number}." if v.title else v.number
        click.echo(f"{head} {v.title or ''}".rstrip() + f"  [{v.language}, {v.version}, "
                   f"{v.source['file']}:{v.source['line']}]")
        if not v.title:
            click.echo(v.text)
        for example in v.examples:
            click.echo(example)
        if v.cites:
            click.echo(f"Cites: {', '.join(v.cites)}")
        if len(set(v.versions.values())) > 1:
            click.echo("Numbered: " + ", ".join(f"{n} ({d})" for d, n in v.versions.items()))
        for t in v.texts:
            flags = "".join(f", {flag}" for flag, on in (("untranslated", t.untranslated),
                                                          ("number inferred", t.inferred)) if on)
            click.echo(f"  [{t.language}, {t.version}: {t.number}{flags}, "
                       f"{t.source['file']}:{t.source['line']}] {t.title or t.text}")
        if v.cited_by:
            click.echo("Cited by: " + ", ".join(_citing_label(c) for c in v.cited_by))


def _citing_label(c: api.CitingRecord) -> str:
    if c.kind == "rule":
        return c.number or c.id
    return f"{c.id} ({c.kind})"


# -- card --------------------------------------------------------------------------------------


@cli.command("card")
@click.argument("name")
@json_option
@click.pass_context
def card_cmd(ctx: click.Context, name: str, as_json: bool) -> None:
    """Show card NAME (English or French, accents optional) in both languages, with its
    rulings side by side and the rules they cite."""
    with _open(ctx) as kb:
        view = kb.card(name)
    if as_json:
        emit_json(view)
        return
    click.echo(view.name)
    for t in view.texts:
        click.echo(f"\n[{t.language}] {t.name}  ({t.source['file']}:{t.source['line']})")
        for face in t.faces:
            line = " ".join(filter(None, [face.get("mana_cost"), face.get("type_line")]))
            if len(t.faces) > 1 or face.get("name") != t.name:
                click.echo(f"  {face.get('name')}")
            if line:
                click.echo(f"  {line}")
            if face.get("text"):
                click.echo("  " + face["text"].replace("\n", "\n  "))
        if t.card_text:
            click.echo(f"  {t.card_text}")
    if view.rulings:
        click.echo("\nRulings:")
    for pair in view.rulings:
        for side in (pair.en, pair.fr):
            if side is not None:
                click.echo(f"  [{side.language}, {side.date or '-'}] {side.text}")
        click.echo()
    if view.rules:
        click.echo(f"Rules cited: {', '.join(view.rules)}")


# -- versions ----------------------------------------------------------------------------------


@cli.command("versions")
@json_option
@click.pass_context
def versions_cmd(ctx: click.Context, as_json: bool) -> None:
    """List the Comprehensive Rules versions in the index with their record counts."""
    with _open(ctx) as kb:
        infos = kb.versions()
    if as_json:
        emit_json(infos)
        return
    rows = [("version", "file", "rules", "examples", "glossary")]
    for v in infos:
        rows.append((v.version, v.file, str(v.counts.get("rule", 0)),
                     str(v.counts.get("example", 0)), str(v.counts.get("glossary", 0))))
    _table(rows)


# -- export ------------------------------------------------------------------------------------


@cli.command("export")
@click.option("--kind", help="Only records of this kind (rule, example, glossary, toc, "
              "passage, card, ruling, note, fragment).")
@click.option("--version", default="all", show_default=True,
              help="'all', or the rules version in force on this date (YYYY-MM-DD).")
@click.option("--lang", help="Only records in this language (en, fr, ...).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to this file instead of stdout.")
@click.pass_context
def export_cmd(ctx: click.Context, kind: str | None, version: str, lang: str | None,
               out: Path | None) -> None:
    """Write every record as JSON Lines: the open dataset of the rules literature."""
    with _open(ctx) as kb:
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


def main() -> None:
    cli(prog_name="kb")
