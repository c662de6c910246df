"""The ``kb`` command line: click commands over :mod:`kb.api` and the other domain modules.

Each command lives in its own module of this package, ``kb/cli/<name>.py``, exporting
``command``; the group finds them by name and imports only the one being run, so ``kb search``
never pays for the parsers or the engine (cold start matters for a command typed by hand), and a
new command is one new module. ``kb --help`` imports none of them: it lists :data:`SUMMARIES`
(a test keeps them equal to each command's own help).

The contract every command keeps (:meth:`KbGroup.main`): exit 0 success, 1 a domain error (no
such rule, no index, a file that cannot be written), 2 a usage error. Messages go to stderr,
one line, a traceback only with ``--debug``; under ``--json`` an error is the JSON object
``{"error": message, "code": status}`` on stderr. A reader that goes away (``kb export | head``)
ends the command quietly with status 0; a standard output that cannot be written (a full disk)
is status 1 with a message.

Every word is said in the interface language (:mod:`kb.i18n`): ``--ui-lang``, else the locale
of the environment (LC_ALL, LC_MESSAGES, LANG); help is translated where it is shown
(:class:`~kb.cli._command.KbCommand`), click's own messages by its gettext calls.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import gc
import importlib
import json
import os
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from kb import i18n
from kb.cli._command import KbCommand
from kb.errors import KbError
from kb.i18n import _

i18n.install_click()

# The commands that look something up and exit: they run without the cyclic garbage
# collector when started as the ``kb`` command (kb.entry); any other command turns it back on.
LOOKUPS = frozenset({"search", "rule", "card", "terms", "versions"})

# The first paragraph of each command's help, for ``kb --help`` without importing the commands
# (the same text is the command's first paragraph, so one translation serves both).
SUMMARIES = {
    "build": "Parse the corpus into a new index, published atomically when complete.",
    "card": "Show card NAME (English or French, accents optional) in both languages, with "
            "its rulings side by side and the rules they cite.",
    "check": "Give every worked example of the index a status by replaying it on the rules "
             "engine: verified, contradicted, refused, era-dependent, not checkable or not "
             "modelled.",
    "diff": "Compare the rules in force on OLD with those in force on NEW (dates, YYYY-MM-DD, "
            "or 'latest'): added, removed, renumbered and changed rules, a summary first.",
    "doctor": "Check that the index is whole: every file of the current generation against "
              "the checksum recorded when it was built, the store (SQLite's integrity check, "
              "each record's checksum) and each segment of the search index.",
    "export": "Write every record as JSON Lines: the open dataset of the rules literature.",
    "fetch": "Download the current Comprehensive Rules text from the official rules page, "
             "check that it parses, store it named by its effective date, and rebuild the "
             "index with it.",
    "history": "Show every version of a rule and its subrules (702.102, say), followed across "
               "renumberings, with the words that changed and the translations of each "
               "version.",
    "numbering": "Make the numbering table of every version of the Comprehensive Rules in the "
                 "--from folders: each rule's number and heading title in each version, and "
                 "each rule followed across versions (renumberings, additions, removals), as "
                 "the build pairs versions.",
    "report": "Report translation gaps and disagreements, stale citations, outdated wording, "
              "failing examples and ingest problems of the built index.",
    "rule": "Show a rule (702.19b, say, or a glossary word: trample, piétinement) with its "
            "subrules, examples and citations.",
    "search": "Search for QUERY in French or English: a question as you would ask it, key "
              "words, \"phrases\", +word (required), -word (excluded), prefix*, AND/OR/NOT, "
              "[[Card Name]], and the filters lang:fr kind:rule rule:702.19* "
              "version:2013-06-01 card:\"Name\".",
    "serve": "Serve the current index at http://HOST:PORT/: rules side by side in French and "
             "English, search, cards, history, diffs, glossary, terms, the consistency report, "
             "and the JSON API under /api/ (the same shapes as --json).",
    "terms": "The French and English forms of WORD (either language, accents optional), "
             "derived from the data: rule titles, contents, card keyword lines and card "
             "names.",
    "versions": "List the Comprehensive Rules versions in the index with their record counts.",
}


class KbGroup(KbCommand, click.Group):
    """Loads commands lazily from this package and keeps the error contract of the module
    docstring for every command."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        # The package's modules read off its folders (pkgutil's import costs a cold command 8 ms).
        return sorted(Path(entry).stem for folder in __path__ for entry in os.listdir(folder)
                      if entry.endswith(".py") and not entry.startswith("_"))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name.startswith("_") or cmd_name not in self.list_commands(ctx):
            return None
        if cmd_name not in LOOKUPS:
            gc.enable()  # kb.entry started without it
        return importlib.import_module(f"{__name__}.{cmd_name}").command

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            import difflib  # a mistyped command only

            close = difflib.get_close_matches(name, self.list_commands(ctx), n=3, cutoff=0.6)
            if close:
                ctx.fail(_("no such command {name!r}; did you mean: {close}? (kb --help lists "
                           "them)").format(name=name, close=", ".join(close)))
            ctx.fail(_("no such command {name!r} (kb --help lists them)").format(name=name))
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        limit = formatter.width - 6 - max(len(n) for n in self.list_commands(ctx))
        for name in self.list_commands(ctx):
            summary = SUMMARIES.get(name)
            if summary is None:  # a command added without a summary: ask the module
                command = self.get_command(ctx, name)
                summary = i18n.paragraphs(command.help or "")[0] if command else ""
            rows.append((name, textwrap.shorten(_(summary), limit, placeholder="...")))
        with formatter.section(_("Commands")):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # here, before click's main turns it into status 1
            _reader_gone()
        except (KbError, click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as exc:
            # A flipped byte in a search segment makes Whoosh fail in a dozen ways: when the
            # published index fails its checksums, say that (and the fix), not "internal error".
            from kb.indexdir import damage_of

            if ctx.obj and not ctx.obj.get("debug") and (damage := damage_of(ctx.obj["index"])):
                raise KbError(damage) from exc
            raise

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """Run one command and exit with the contract's status (see the module docstring)."""
        argv = list(sys.argv[1:] if args is None else args)
        with i18n.using(_ui_language(argv)):
            self._main(argv, prog_name, complete_var, **extra)

    def _main(self, argv: list[str], prog_name: str | None, complete_var: str | None,
              **extra: Any) -> NoReturn:
        as_json = "--json" in (argv[: argv.index("--")] if "--" in argv else argv)
        debug = "--debug" in argv
        from kb.cli import _terminal as terminal

        terminal.install()  # text is data on a terminal: control characters shown, not obeyed
        try:
            _check_arguments(argv)
            # Not standalone: click returns the status of ``ctx.exit(n)`` instead of exiting.
            status = super().main(argv, prog_name, complete_var, standalone_mode=False,
                                  **extra)
            _flush_stdout()
            sys.exit(status if isinstance(status, int) else 0)
        except click.exceptions.Exit as exc:
            _flush_stdout()
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            _fail(_("interrupted"), 130, as_json)  # 128 + SIGINT, as shells report it
        except click.ClickException as exc:
            if as_json:
                _fail(exc.format_message(), exc.exit_code, True)
            exc.show()
            sys.exit(exc.exit_code)
        except KbError as exc:
            if debug:
                raise
            _fail(str(exc), exc.exit_code, as_json)
        except BrokenPipeError:
            _reader_gone()
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                _reader_gone()
            if debug:
                raise
            _fail(_os_message(exc), 1, as_json)
        except Exception as exc:
            if debug:
                raise
            _fail(_("internal error: {error}: {message} (run 'kb --debug ...' for the "
                    "traceback, and report it)").format(error=type(exc).__name__, message=exc),
                  1, as_json)


def _ui_language(argv: list[str]) -> str:
    """The interface language: ``--ui-lang`` (read here, before click parses anything, so that
    its messages and ``--help`` speak it wherever the option is written), else the locale of
    the environment."""
    words = argv[: argv.index("--")] if "--" in argv else argv
    for i, word in enumerate(words):
        if word == "--ui-lang" and i + 1 < len(words):
            return words[i + 1]
        if word.startswith("--ui-lang="):
            return word.partition("=")[2]
    return i18n.from_environment(os.environ)


def _check_arguments(argv: list[str]) -> None:
    """Python hands bytes that are not UTF-8 over as lone surrogates, which no output can
    print; say which argument it is instead of failing later on."""
    for i, arg in enumerate(argv, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as exc:
            raw = arg.encode("utf-8", "surrogateescape")
            raise click.UsageError(
                _("argument {n} ({raw}) is not UTF-8 text: write it in UTF-8 (check the "
                  "terminal's encoding)").format(n=i, raw=repr(raw))) from exc


def _flush_stdout() -> None:
    """Flush now, so that a full disk or a closed pipe is seen here rather than at exit."""
    sys.stdout.flush()


def _reader_gone() -> NoReturn:
    """The reader of stdout went away: point stdout at /dev/null so that the interpreter's
    final flush cannot fail again, and stop quietly with success (as ``head`` intends)."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(0)


def _os_message(exc: OSError) -> str:
    """An OSError that reached the group: a file named by the error, else standard output
    (every file kb opens itself is checked where it is opened)."""
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOSPC:
        reason = _("{reason} (disk full: free some space or write elsewhere)").format(
            reason=reason)
    if exc.filename:
        return _("{file}: {reason}").format(file=exc.filename, reason=reason)
    return _("cannot write to standard output: {reason}").format(reason=reason)


def _fail(message: str, code: int, as_json: bool) -> NoReturn:
    if as_json:
        line = json.dumps({"error": message, "code": code}, ensure_ascii=False)
    else:
        line = f"kb: {message}"
    with contextlib.suppress(OSError):
        click.echo(line, err=True)
    sys.exit(code)


class _VersionMessage:
    """click's ``--version`` line, "kb, version 0.1.0", translated when it is printed (click
    makes the message when the option is declared, before the language is known)."""

    def __mod__(self, values: dict[str, str]) -> str:
        return _("%(prog)s, version %(version)s") % values


@click.group(cls=KbGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--index", "index_dir", type=click.Path(file_okay=False, path_type=Path),
              envvar="KB_INDEX", help="Index folder (default: $KB_INDEX, else the indexes/ of "
              "the kb checkout kb runs from, else the platform's user data folder, "
              "~/.local/share/kb/indexes on Linux: the same from every folder).")
@click.option("--ui-lang", type=click.Choice(i18n.LANGUAGES),
              help="The language kb speaks: en or fr (default: the locale's, from LC_ALL, "
                   "LC_MESSAGES or LANG; English otherwise).")
@click.option("--debug", is_flag=True, help="Show tracebacks on errors.")
@click.version_option(package_name="kb", message=_VersionMessage())  # type: ignore[arg-type]
@click.pass_context
def cli(ctx: click.Context, index_dir: Path | None, ui_lang: str | None, debug: bool) -> None:
    """kb: the bilingual Magic: The Gathering rules knowledge base."""
    from kb.paths import default_index_root

    ctx.ensure_object(dict)
    ctx.obj["index"] = index_dir or default_index_root()
    ctx.obj["debug"] = debug
    if os.environ.get("NO_COLOR"):  # https://no-color.org: any non-empty value
        ctx.color = False


def main() -> None:
    """The ``kb`` console script.

    Once the command has run, its output is flushed and the exit handlers it registered have
    run, the process ends there (``os._exit``), skipping the interpreter's teardown, which
    frees every module and object one by one: 25-30 ms, a tenth of a cold ``kb search``, for
    nothing a command leaves behind (kb closes its files and commits its stores where it
    writes them). An exception that escapes (``--debug``) ends the usual way.
    """
    ending = _Ending()
    atexit.register(ending.now)  # registered first, so called last: handlers run in reverse
    try:
        cli(prog_name="kb")
    except SystemExit as done:
        ending.status = done.code if isinstance(done.code, int) else 0 if done.code is None else 1
        raise


class _Ending:
    """The exit handler that ends the process with the command's status."""

    status: int | None = None  # None: no status yet, the interpreter ends as usual

    def now(self) -> None:
        if self.status is None:
            return
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(self.status)
