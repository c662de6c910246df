"""Domain errors: what the user did or what the index lacks, shown as one line and exit 1.

They live apart from :mod:`kb.api` so that a command importing only what it needs (the search
path must start fast) can still raise and catch them.
"""


class KbError(Exception):
    """A domain error: shown to the user as a one-line message, exit status ``exit_code``."""

    exit_code = 1


class NoIndexError(KbError):
    """No index has been built yet, or it was built by another schema version."""


class NoSuchRuleError(KbError):
    """The rule number exists in no ingested version; the message names the nearest ones,
    which ``nearest`` holds (numbers of the rules of ``version``) for pages that link them."""

    def __init__(self, message: str, nearest: tuple[str, ...] = (),
                 version: str | None = None) -> None:
        super().__init__(message)
        self.nearest = nearest
        self.version = version


class DamagedIndexError(KbError):
    """A file of the index is missing or altered since it was built: 'kb build' repairs it.
    Never answered from: the web says 503, the command line one line and exit 1."""
