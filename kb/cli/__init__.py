"""The ``kb`` command line: click commands over :mod:`kb.api` and the other domain modules.

Each command lives in its own module of this package, ``kb/cli/<name>.py``, exporting
``command``; the group finds them by name and imports only the one being run, so ``kb search``
never pays for the parsers or the engine (cold start matters for a command typed by hand), and a
new command is one new module.

Exit status: 0 success, 1 a domain error (no such rule, no index, ...), 2 a usage error.
Messages go to stderr; a traceback only with ``--debug``.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from pathlib import Path
from typing import Any

import click

from kb.errors import KbError


class KbGroup(click.Group):
    """Loads commands lazily from this package and turns domain errors into one line on stderr
    and exit 1 (a traceback with --debug)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name.startswith("_") or cmd_name not in self.list_commands(ctx):
            return None
        return importlib.import_module(f"{__name__}.{cmd_name}").command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KbError as exc:
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
            from kb.indexdir import damage_of

            if ctx.obj and (damage := damage_of(ctx.obj["index"])):
                click.echo(f"kb: {damage}", err=True)
                ctx.exit(1)
            click.echo(f"kb: internal error: {type(exc).__name__}: {exc} "
                       "(run with --debug for the traceback)", err=True)
            ctx.exit(1)


@click.group(cls=KbGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--index", "index_dir", type=click.Path(file_okay=False, path_type=Path),
              envvar="KB_INDEX", help="Index folder (default: $KB_INDEX, the checkout's "
              "indexes/, or ~/.local/share/kb/indexes).")
@click.option("--debug", is_flag=True, help="Show tracebacks on errors.")
@click.version_option(package_name="kb")
@click.pass_context
def cli(ctx: click.Context, index_dir: Path | None, debug: bool) -> None:
    """kb: the bilingual Magic: The Gathering rules knowledge base."""
    from kb.paths import default_index_root

    ctx.ensure_object(dict)
    ctx.obj["index"] = index_dir or default_index_root()
    ctx.obj["debug"] = debug


def main() -> None:
    cli(prog_name="kb")
