"""Text is data on a terminal: control characters in what kb prints are shown, not obeyed.

A rules document, a card's text or a corpus file's name may hold control characters (ESC
sequences that set the window title, write the clipboard through OSC 52, clear the screen,
move the cursor). Printed raw, they would act on the user's terminal. So when standard output
or standard error is a terminal, :func:`install` puts a filter before it that writes each C0
control character (but tab and line feed), DEL and each C1 control character as ``\\u001b``,
the form a JSON string would use (``--json`` output stays valid JSON with the same value);
pipes and files get the text as it is.

kb's own colours (a word diff, search matches in bold) go through :func:`style`, which marks
its escape sequences with a token drawn at random for this process: the filter turns that
token, and only it, back into ESC after escaping everything else, so no text from the corpus
can produce a sequence the terminal obeys. Progress bars draw on the terminal itself
(:func:`raw`), the file names they show escaped.
"""

from __future__ import annotations

import io
import os
import re
import sys
from typing import Any, TextIO

import click

# C0 controls but tab and line feed, DEL, C1 controls.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Stands for ESC in kb's own styling; unknown to any document, different in every process.
_MARK = "\ue000" + os.urandom(12).hex()


def escape(text: str) -> str:
    """``text`` with every control character (but tab and line feed) written as ``\\uXXXX``."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def render(text: str) -> str:
    """What a terminal is given: ``text`` escaped, kb's own styles made real."""
    return escape(text).replace(_MARK, "\x1b")


class TerminalWriter(io.TextIOBase):
    """A text stream that writes through :func:`render` to the terminal it wraps."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(render(text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.stream.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.stream.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self.stream.errors

    def __getattr__(self, name: str) -> Any:
        if name == "buffer":  # bytes would pass the filter by: there is none to write to
            raise AttributeError(name)
        return getattr(self.stream, name)


def install() -> None:
    """Filter standard output and standard error where they are terminals."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, TerminalWriter) and _is_tty(stream):
            setattr(sys, name, TerminalWriter(stream))


def raw(stream: TextIO) -> TextIO:
    """The terminal behind ``stream``, for kb's own drawing (a progress bar redraws its line
    with a carriage return and hides the cursor): what goes there must be escaped first."""
    return stream.stream if isinstance(stream, TerminalWriter) else stream


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def style(text: str, **styles: Any) -> str:
    """``text`` in colour or bold (``click.style``'s arguments) on a colour terminal; as it is
    in pipes, files and under ``NO_COLOR``. (The text itself is escaped like all output.)"""
    if not isinstance(sys.stdout, TerminalWriter) or os.environ.get("NO_COLOR"):
        return text
    return click.style(text, **styles).replace("\x1b", _MARK)
