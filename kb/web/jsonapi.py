"""The JSON API under ``/api/``: the same answers as the command line's ``--json``, built by
the same functions (``kb rule --json`` is ``GET /api/rules/{number}``), and its OpenAPI
description, generated from the table of endpoints below so that the two cannot disagree.

Errors are JSON too (:mod:`kb.web.errors`): ``{"error": {"status", "code", "kind",
"message"}}`` with the CLI's exit code beside the HTTP status.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from kb import api, params
from kb.codec import jsonable
from kb.i18n import N_, _
from kb.params import joined
from kb.report.render_json import as_data
from kb.web import data
from kb.web.errors import BadRequest
from kb.web.readers import Reader, Readers


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    where: str  # "path" or "query"
    description: str
    default: Any = None
    # The check of the command line's option of the same meaning (:mod:`kb.params`): the API
    # refuses what the command refuses, and answers what it answers.
    check: Callable[[Any], Any] | None = None
    kind: str = "string"

    @property
    def enum(self) -> tuple[str, ...]:
        choices = getattr(self.check, "choices", ())
        return choices if not getattr(self.check, "many", False) else ()


@dataclass(frozen=True, slots=True)
class Endpoint:
    path: str
    name: str
    summary: str
    cli: str  # the command whose --json this mirrors
    params: tuple[Param, ...]
    answer: Callable[[Reader, dict[str, Any]], Any]


def json_response(payload: Any, status: int = 200) -> Response:
    return Response(dumps(payload), status_code=status, media_type="application/json")


def dumps(payload: Any) -> str:
    return json.dumps(payload, ensure_ascii=False, default=jsonable)


# -- answers (each the function its command calls) ------------------------------------------


def _rules(reader: Reader, p: dict[str, Any]) -> Any:
    return reader.kb.rule(p["number"], p["version"], p["lang"])


def _search(reader: Reader, p: dict[str, Any]) -> Any:
    if not p["q"]:
        raise BadRequest(_("missing parameter: q (the query)"))
    result = reader.searcher.search(p["q"], lang=joined(p["lang"]), kind=joined(p["kind"]),
                                    limit=p["limit"], version=p["version"],
                                    translate=p["translate"])
    return api.search_json(result)


def _cards(reader: Reader, p: dict[str, Any]) -> Any:
    return data.card(reader, p["name"])


def _history(reader: Reader, p: dict[str, Any]) -> Any:
    return data.rule_history(reader, p["number"], p["version"], p["lang"])


def _diff(reader: Reader, p: dict[str, Any]) -> Any:
    if not p["old"]:
        raise BadRequest(_("missing parameter: old (a date, YYYY-MM-DD)"))
    return api.diff_json(data.diff(reader, p["old"], p["new"], p["section"]))


def _terms(reader: Reader, p: dict[str, Any]) -> Any:
    return data.terms(reader, p["q"], p["prefix"])


def _versions(reader: Reader, p: dict[str, Any]) -> Any:
    return reader.kb.versions()


def _report(reader: Reader, p: dict[str, Any]) -> Any:
    return as_data(data.report(reader, p["category"], p["lang"]))


def _check(reader: Reader, p: dict[str, Any]) -> Any:
    return api.check_json(data.check_report(reader))


def _suggest(reader: Reader, p: dict[str, Any]) -> Any:
    return data.suggest(reader, p["q"] or "")


_VERSION = Param("version", "query",
                 N_("The rules in force on this date (YYYY-MM-DD), or 'latest'."),
                 check=params.VERSION)
ENDPOINTS = (
    Endpoint("/api/rules/{number}", "rules", N_("A rule with its subrules, examples, citations "
             "both ways, texts in other languages and numbers in every version."), "kb rule",
             (Param("number", "path", N_("A rule number: 702.19b, 702, 100.1a.")),
              _VERSION, Param("lang", "query", N_("Languages of the texts shown."), "all",
                              params.RULE_LANG)), _rules),
    Endpoint("/api/search", "search", N_("Ranked bilingual search (the query language of kb "
             "search)."), "kb search",
             (Param("q", "query", N_("The query: words, \"phrases\", prefix*, AND/OR/NOT, "
                                     "filters lang: kind: rule: version: card:.")),
              Param("lang", "query", N_("Only texts in these languages (fr, en, pt; commas)."),
                    check=params.LANGS),
              Param("kind", "query", N_("Only these kinds (rule, example, glossary, ruling, "
                                        "note, card; commas)."), check=params.SEARCH_KINDS),
              Param("limit", "query", N_("How many answers."), 10, params.LIMIT, "integer"),
              Param("version", "query",
                    N_("The rules in force on this date, 'latest' or 'all'."),
                    check=params.VERSION_OR_ALL),
              Param("translate", "query", N_("Also search the other language's terms."), True,
                    params.Flag("translate"), "boolean")), _search),
    Endpoint("/api/cards/{name}", "cards", N_("A card by its English or French name (or its "
             "address, aetherling), with rulings paired FR/EN and the rules they cite."),
             "kb card", (Param("name", "path", N_("The card's name or address.")),), _cards),
    Endpoint("/api/history/{number}", "history", N_("A rule and its subrules through every "
             "version held, with word diffs and translations."), "kb history",
             (Param("number", "path", N_("A rule number.")),
              Param("version", "query",
                    N_("Read the number in the rules in force on this date."),
                    check=params.VERSION),
              Param("lang", "query", N_("Texts of other documents shown."), "all",
                    params.HISTORY_LANG)), _history),
    Endpoint("/api/diff", "diff", N_("What changed between two versions of the rules."),
             "kb diff",
             (Param("old", "query", N_("The older date (YYYY-MM-DD)."),
                    check=params.VersionDate("old")),
              Param("new", "query", N_("The newer date, or 'latest'."), "latest",
                    params.VersionDate("new")),
              Param("section", "query", N_("Only the rules within this number."),
                    check=params.SECTION)), _diff),
    Endpoint("/api/terms", "terms", N_("French/English term pairs derived from the data (all "
             "without q)."), "kb terms",
             (Param("q", "query", N_("A word in either language.")),
              Param("prefix", "query", N_("Also terms starting with q."), False,
                    params.Flag("prefix"), "boolean")),
             _terms),
    Endpoint("/api/versions", "versions", N_("The Comprehensive Rules versions in the index."),
             "kb versions", (), _versions),
    Endpoint("/api/report", "report", N_("The consistency report."), "kb report --json",
             (Param("category", "query", N_("Only these categories (commas): coverage, "
                    "agreement, citations, terminology, examples, ingest."),
                    check=params.CATEGORIES),
              Param("lang", "query", N_("Only findings about texts in these languages (en, fr, "
                    "pt; commas)."), check=params.LANGS)),
             _report),
    Endpoint("/api/check", "check", N_("Every worked example with its status from the rules "
             "engine."), "kb check", (), _check),
    Endpoint("/api/suggest", "suggest", N_("Search-as-you-type: rule numbers, glossary terms, "
             "French terms and card names starting with q."), "(web only)",
             (Param("q", "query", N_("What was typed so far.")),), _suggest),
)


def _value(param: Param, raw: str | None) -> Any:
    if raw is None or raw == "":
        return param.default
    return param.check(raw) if param.check is not None else raw


def handler(readers: Readers, endpoint: Endpoint) -> Callable[[Request], Any]:
    async def answer(request: Request) -> Response:
        known = {p.name for p in endpoint.params}
        unknown = sorted(set(request.query_params) - known)
        if unknown:
            raise BadRequest(_("unknown parameter: {names}").format(names=", ".join(unknown)))
        values = {p.name: _value(p, request.path_params.get(p.name)
                                 if p.where == "path" else request.query_params.get(p.name))
                  for p in endpoint.params}

        key = ("api", endpoint.name, tuple(sorted(values.items())))

        def work(reader: Reader) -> str:
            return reader.cache.response(key, lambda: dumps(endpoint.answer(reader, values)))
        kept = readers.kept(key)
        body = kept if kept is not None else await readers.run(endpoint.name, work)
        return Response(body, media_type="application/json")
    return answer


def openapi() -> dict[str, Any]:
    """The OpenAPI 3.1 description of :data:`ENDPOINTS`."""
    error = {"description": "An error: {\"error\": {\"status\", \"code\", \"kind\", "
                            "\"message\"}}",
             "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    paths = {}
    for e in ENDPOINTS:
        parameters = []
        for p in e.params:
            schema: dict[str, Any] = {"type": p.kind}
            if p.default is not None:
                schema["default"] = p.default
            if p.enum:
                schema["enum"] = list(p.enum)
            parameters.append({"name": p.name, "in": p.where, "required": p.where == "path",
                               "description": p.description, "schema": schema})
        paths[e.path] = {"get": {
            "operationId": e.name, "summary": e.summary,
            "description": f"The JSON of `{e.cli}`." if e.cli.startswith("kb") else e.summary,
            "parameters": parameters,
            "responses": {"200": {"description": "The answer, as the command's --json.",
                                  "content": {"application/json": {}}},
                          "400": error, "404": error, "500": error, "503": error},
        }}
    return {
        "openapi": "3.1.0",
        "info": {"title": "kb", "version": "1",
                 "description": "The bilingual Magic: The Gathering rules knowledge base, "
                                "read-only. Answers mirror the command line's --json."},
        "paths": paths,
        "components": {"schemas": {"Error": {"type": "object", "properties": {"error": {
            "type": "object", "properties": {
                "status": {"type": "integer"}, "code": {"type": "integer"},
                "kind": {"type": "string",
                         "enum": ["usage", "domain", "not-found", "no-index", "damaged",
                                  "internal"]},
                "message": {"type": "string"}}}}}}},
    }
