"""The JSON API answers what the command line's --json prints, maps errors to HTTP statuses,
and documents itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from kb.cli import cli
from kb.web.jsonapi import ENDPOINTS


def cli_json(index: Path, *args: str) -> object:
    result = CliRunner().invoke(cli, ["--index", str(index), *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize(("url", "command"), [
    ("/api/rules/702.102b", ["rule", "702.102b"]),
    ("/api/rules/702.19?version=2013-06-01&lang=en",
     ["rule", "702.19", "--version", "2013-06-01", "--lang", "en"]),
    ("/api/search?q=pi%C3%A9tinement&limit=5", ["search", "piétinement", "--limit", "5"]),
    ("/api/search?q=trample&lang=en&kind=rule&version=all",
     ["search", "trample", "--lang", "en", "--kind", "rule", "--version", "all"]),
    ("/api/cards/%C3%86therlin", ["card", "Ætherlin"]),
    ("/api/history/702.102", ["history", "702.102"]),
    ("/api/diff?old=2025-02-07&section=702.19", ["diff", "2025-02-07", "--section", "702.19"]),
    ("/api/terms?q=fusion", ["terms", "fusion"]),
    ("/api/versions", ["versions"]),
    ("/api/report?category=citations", ["report", "--category", "citations"]),
])
def test_answers_are_the_cli_json(client: TestClient, cr_index: Path, url: str,
                                  command: list[str]) -> None:
    response = client.get(url)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == cli_json(cr_index, *command)


def test_check_is_the_cli_json(client: TestClient, cr_index: Path) -> None:
    assert client.get("/api/check").json() == cli_json(cr_index, "check")


def test_a_rule_as_the_rules_say_it(client: TestClient) -> None:
    # CR 2026-04-17: "702.102b A fused split spell has the combined characteristics of its
    # two halves. (See rule 709.4.)"; the 2013-05-01 rules have "702.100. Fuse" (line 3477).
    views = client.get("/api/rules/702.102b").json()
    assert views[0]["number"] == "702.102b"
    assert views[0]["version"] == "2026-04-17"
    assert views[0]["text"].startswith("A fused split spell has the combined characteristics")
    assert views[0]["cites"] == ["709.4"]
    fuse = client.get("/api/rules/702.102").json()[0]
    assert (fuse["title"], fuse["versions"]["2013-05-01"]) == ("Fuse", "702.100")


def test_a_card_by_its_address(client: TestClient) -> None:
    # The Dragon's Maze FAQ (French) names the card Ætherlin; MTGJSON's DGM set Aetherling.
    by_french = client.get("/api/cards/aetherlin").json()
    by_english = client.get("/api/cards/aetherling").json()
    assert by_french == by_english
    names = {t["name"] for t in by_french["texts"]}
    assert {"Aetherling", "Ætherlin"} <= names


@pytest.mark.parametrize(("url", "status", "code", "kind"), [
    ("/api/rules/999.9", 404, 1, "not-found"),
    ("/api/rules/702.19?version=yesterday", 400, 2, "usage"),  # kb rule --version: exit 2
    ("/api/rules/not-a-rule", 404, 1, "not-found"),  # read as a glossary word, not found
    ("/api/rules/702.19?lang=de", 400, 2, "usage"),
    ("/api/rules/702.19?colour=blue", 400, 2, "usage"),
    ("/api/cards/no-such-card-anywhere", 404, 1, "not-found"),
    ("/api/search", 400, 2, "usage"),
    ("/api/search?q=trample&limit=0", 400, 2, "usage"),
    ("/api/search?q=%22unclosed", 400, 2, "usage"),
    ("/api/diff", 400, 2, "usage"),
    ("/api/report?category=nonsense", 400, 2, "usage"),
    ("/api/report?lang=zz", 400, 2, "usage"),  # issue 25, case 6: was 200, an empty report
    ("/api/report?lang=en,zz", 400, 2, "usage"),
    ("/api/search?q=trample&lang=zz", 400, 2, "usage"),
    ("/api/search?q=trample&kind=rules", 400, 2, "usage"),
    ("/api/diff?old=2025-02-07&section=x", 400, 2, "usage"),
    ("/api/history/702.19?lang=de", 400, 2, "usage"),
    ("/api/history/999.9", 404, 1, "not-found"),
])
def test_errors_are_json_with_the_cli_code(client: TestClient, url: str, status: int,
                                           code: int, kind: str) -> None:
    response = client.get(url)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert (error["status"], error["code"], error["kind"]) == (status, code, kind)
    assert error["message"]


def test_no_such_rule_names_the_nearest(client: TestClient) -> None:
    message = client.get("/api/rules/702.193").json()["error"]["message"]
    assert "nearest" in message and "702.192" in message


def test_openapi_describes_every_endpoint(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert set(spec["paths"]) == {e.path for e in ENDPOINTS}
    for path, item in spec["paths"].items():
        assert {"200", "400", "404"} <= set(item["get"]["responses"]), path
    page = client.get("/api")
    assert page.status_code == 200
    for endpoint in ENDPOINTS:
        assert endpoint.path in page.text


def test_suggestions(client: TestClient) -> None:
    numbers = client.get("/api/suggest?q=702.19").json()
    assert numbers[0] == {"label": "702.19", "kind": "rule", "url": "/rule/702.19",
                          "detail": "Trample", "language": "", "tag": "rule"}
    cards = client.get("/api/suggest?q=%C3%A6therl").json()  # æ for Æ, folded
    assert {"label": "Ætherlin", "kind": "card", "url": "/card/aetherlin", "detail": "",
            "language": "fr", "tag": "card"} in cards
    glossary = client.get("/api/suggest?q=deathto").json()
    assert any(s["kind"] == "glossary" and s["label"] == "Deathtouch" for s in glossary)
    assert client.get("/api/suggest?q=").json() == []


# The same wrong value given to a command and to the API: both refuse it as a usage error
# (exit 2, HTTP 400) with the same words, naming the valid values (issue 25, case 6).
SAME_CHECK = [
    (["rule", "702.19", "--lang", "de"], "/api/rules/702.19?lang=de"),
    (["history", "702.19", "--lang", "de"], "/api/history/702.19?lang=de"),
    (["search", "trample", "--lang", "zz"], "/api/search?q=trample&lang=zz"),
    (["search", "trample", "--kind", "rules"], "/api/search?q=trample&kind=rules"),
    (["search", "trample", "--version", "someday"], "/api/search?q=trample&version=someday"),
    (["report", "--lang", "en,zz"], "/api/report?lang=en,zz"),
    (["report", "--category", "nope"], "/api/report?category=nope"),
    (["diff", "2025-02-07", "--section", "x"], "/api/diff?old=2025-02-07&section=x"),
]


@pytest.mark.parametrize(("argv", "url"), SAME_CHECK)
def test_the_api_and_the_command_line_refuse_alike(client: TestClient, cr_index, argv, url):
    from click.testing import CliRunner

    from kb.cli import cli

    command = CliRunner().invoke(cli, ["--index", str(cr_index), *argv])
    assert command.exit_code == 2
    response = client.get(url)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == 2 and error["kind"] == "usage"
    reason = error["message"].split(": ", 1)[1]
    assert "is not one of" in reason or "not a" in reason
    assert reason in " ".join(command.output.split())


def test_suggestions_keep_to_the_language_of_what_is_typed(client: TestClient,
                                                          cr_index: Path) -> None:
    """Issue 22: "piét" suggested Italian card names. It is French: French terms and French
    card names only; a text in neither language says which (tram) gets both, never a third."""
    from kb.model import Card
    from kb.reader import KnowledgeBase
    from kb.text.normal import fold

    with KnowledgeBase(cr_index) as kb:
        names = [(lang, name) for card in kb.store.query(kind="card") if isinstance(card, Card)
                 for lang, name in ((card.language, card.name), *card.names)]
    italian = {name for lang, name in names if lang == "it" and fold(name).startswith("piet")}
    assert italian  # the fixture's set file holds Italian names starting so
    french = client.get("/api/suggest?q=pi%C3%A9t").json()
    assert french and {s["language"] for s in french} <= {"", "fr"}
    assert not italian & {s["label"] for s in french}
    assert any(s["label"].lower() == "piétinement" for s in french)
    english = client.get("/api/suggest?q=Voice%20of").json()
    assert english and {s["language"] for s in english} <= {"", "en"}
    either = client.get("/api/suggest?q=tram").json()
    assert {s["language"] for s in either} <= {"", "en", "fr"}
    assert any(s["label"] == "Trample" for s in either)
