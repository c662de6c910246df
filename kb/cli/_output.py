"""What every command shares: the ``--json`` option, JSON and table output, the progress bar,
and opening the index named by the group's ``--index``."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

import click

from kb.codec import jsonable
from kb.errors import KbError
from kb.i18n import _

if TYPE_CHECKING:
    from kb.reader import KnowledgeBase

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


def json_option(func: F) -> F:
    """The shared output option: ``--json`` prints machine-readable JSON on stdout."""
    return click.option("--json", "as_json", is_flag=True,
                        help="Print JSON for scripts instead of text.")(func)


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=_jsonable))


def _jsonable(value: Any) -> Any:
    return str(value) if isinstance(value, Path) else jsonable(value)


class Checked(click.ParamType):
    """An option checked by its :mod:`kb.params` parameter, the one the web's parameter of
    the same name uses: a value it refuses is a usage error (exit 2) with its reason."""

    def __init__(self, check: Callable[[Any], Any], metavar: str | None = None) -> None:
        self.check = check
        self.name = metavar or getattr(check, "name", "value").upper()

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str | None:
        choices = getattr(self.check, "choices", None)
        return f"[{'|'.join(choices)}]" if choices else self.name

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        from kb.params import InvalidValue

        try:
            return self.check(value)
        except InvalidValue as exc:
            self.fail(exc.reason, param, ctx)


class VersionDate(Checked):
    """``--version``: 'latest', a date (YYYY-MM-DD) or, where ``allow_all``, 'all'. A date
    that cannot be read is a usage error (exit 2), found before the index is opened."""

    def __init__(self, allow_all: bool = False) -> None:
        from kb.params import VERSION, VERSION_OR_ALL

        super().__init__(VERSION_OR_ALL if allow_all else VERSION, "DATE")


def echo_paged(lines: list[str]) -> None:
    """Print ``lines``, through the pager ($PAGER, else less) when stdout is a terminal and
    they do not fit on the screen; straight out in pipes and scripts."""
    if sys.stdout.isatty() and len(lines) > shutil.get_terminal_size().lines - 1:
        from kb.cli._terminal import render

        click.echo_via_pager(render("\n".join(lines) + "\n"))  # the pager gets no raw ESC
    else:
        for line in lines:
            click.echo(line)


def out_option(func: F) -> F:
    """``--out FILE``: "-" is stdout (None), as in most tools; an empty name is refused."""

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
        if value is None or value == "-":
            return None
        if not value.strip() or value.endswith(("/", os.sep)):
            raise click.BadParameter(_("{value!r} is not a file name").format(value=value),
                                     ctx, param)
        return Path(value)

    return click.option("--out", callback=check, metavar="FILE",
                        help="Write to FILE (or a device, or a pipe; '-': stdout) instead of "
                             "stdout.")(func)


@contextmanager
def output_file(path: Path) -> Iterator[TextIO]:
    """``--out PATH`` as UTF-8 text, every write and the final flush checked.

    A regular file or a new path is written aside and renamed over it, so that a failure
    leaves the old file whole; a device, a pipe or a symlink is written straight into (the
    rename would replace the device or the link itself, and never reach the link's target).
    Any failure is a :class:`KbError` naming the file and what to do; nothing is half-done.
    A path inside an index folder (the live store, say) is refused: the index is kb build's."""
    from kb.indexdir import index_folder_of

    if (index := index_folder_of(path)) is not None:
        raise KbError(_("cannot write {path}: it is inside the index folder {index}, which "
                        "only kb build writes; choose another --out").format(path=path,
                                                                             index=index))
    try:
        kind = os.lstat(path).st_mode
    except FileNotFoundError:
        kind = None
    except OSError as exc:
        raise KbError(_cannot(path, exc)) from exc
    if kind is not None and not stat.S_ISREG(kind):
        try:
            with open(path, "w", encoding="utf-8") as handle:
                yield handle
        except OSError as exc:
            raise KbError(_cannot(path, exc)) from exc
        return
    folder = path.parent
    if not folder.is_dir():
        raise KbError(_("cannot write {path}: the folder {folder} does not exist (create it, "
                        "or give --out a path in an existing folder)").format(path=path,
                                                                            folder=folder))
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=folder)
    except OSError as exc:
        raise KbError(_cannot(path, exc)) from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, stat.S_IMODE(kind) if kind is not None else 0o666 & ~_umask())
        os.replace(temp, path)
    except OSError as exc:
        raise KbError(_cannot(path, exc)) from exc
    finally:
        Path(temp).unlink(missing_ok=True)


def _cannot(path: Path, exc: OSError) -> str:
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOSPC:
        return _("cannot write {path}: disk full ({reason}); free some space or write "
                 "elsewhere").format(path=path, reason=reason)
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return _("cannot write {path}: {reason} (the folder or file is read-only: choose "
                 "another --out)").format(path=path, reason=reason)
    return _("cannot write {path}: {reason}").format(path=path, reason=reason)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def index_root(ctx: click.Context) -> Path:
    """The index folder chosen by ``kb --index`` (or its default)."""
    return ctx.find_root().obj["index"]


def open_kb(ctx: click.Context) -> KnowledgeBase:
    from kb.reader import KnowledgeBase

    return KnowledgeBase(index_root(ctx))


def progress_bar(items: list[T], label: str | None = None) -> Iterator[T]:
    """A progress bar on stderr when it is a terminal; silence in scripts and CI logs."""
    if not sys.stderr.isatty():
        yield from items
        return
    from kb.cli._terminal import escape, raw

    def shown(item: T | None) -> str | None:
        name = getattr(item, "display", None)
        return escape(name) if name is not None else None

    with click.progressbar(items, label=label or _("Building"), file=raw(sys.stderr),
                           item_show_func=shown) as bar:
        yield from bar


def table(rows: list[tuple[str, ...]]) -> None:
    """Left-aligned columns, the first row being the header."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())
