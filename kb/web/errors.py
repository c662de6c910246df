"""How a domain error becomes an HTTP answer: the CLI's exit codes (1 domain error, 2 usage
error) mapped to HTTP statuses, for the JSON API and the pages alike."""

from __future__ import annotations

from dataclasses import dataclass

from kb.errors import DamagedIndexError, KbError, NoIndexError, NoSuchRuleError
from kb.i18n import _


class BadRequest(KbError):
    """A parameter the command line would refuse as a usage error (exit 2)."""

    exit_code = 2


class NotFound(KbError):
    """No such rule, card, record or page (exit 1 on the command line)."""


@dataclass(frozen=True, slots=True)
class HttpError:
    status: int
    code: int  # the exit status kb would give on the command line
    kind: str
    message: str

    def as_json(self) -> dict[str, object]:
        return {"error": {"status": self.status, "code": self.code, "kind": self.kind,
                          "message": self.message}}


def http_error(exc: Exception) -> HttpError:
    """404 for what does not exist, 503 when no index is built yet or it is damaged (until
    ``kb build`` repairs it), 400 for a parameter the command line refuses as a usage error
    and for any other domain error (a bad rule number or query: something the request can
    fix), 500 for a bug."""
    if isinstance(exc, NotFound | NoSuchRuleError):
        return HttpError(404, 1, "not-found", str(exc))
    if isinstance(exc, NoIndexError):
        return HttpError(503, 1, "no-index", str(exc))
    if isinstance(exc, DamagedIndexError):
        return HttpError(503, 1, "damaged", str(exc))
    if isinstance(exc, KbError) and exc.exit_code == 2:  # a refused query, a bad parameter
        return HttpError(400, 2, "usage", str(exc))
    if isinstance(exc, KbError):
        return HttpError(400, 1, "domain", str(exc))
    return HttpError(500, 1, "internal", _("internal error: {error}").format(
        error=type(exc).__name__))
