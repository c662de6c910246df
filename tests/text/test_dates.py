"""kb.text.dates.find_date: the date a rules document takes effect, written in its language."""

from __future__ import annotations

from datetime import date

import pytest

from kb.text.dates import find_date


@pytest.mark.parametrize(
    ("text", "language", "day"),
    [
        # The first lines of the Chinese and Korean translations (shared corpus, cr-other/).
        ("此规则于2022年6月10日起生效。", "zh", date(2022, 6, 10)),
        ("이 규칙은 2021년 11월 19일부터 시행됩니다.", "ko", date(2021, 11, 19)),
        # The English CR's own sentence.
        ("These rules are effective as of June 10, 2022.", "en", date(2022, 6, 10)),
        ("Ces règles entrent en vigueur le 10 juin 2022.", "fr", date(2022, 6, 10)),
        ("Le 1er mai 2022", "fr", date(2022, 5, 1)),
        ("Diese Regeln gelten ab dem 10. Juni 2022.", "de", date(2022, 6, 10)),
        ("Estas reglas entran en vigor el 10 de junio de 2022.", "es", date(2022, 6, 10)),
        # The genitive month name, as Russian writes a date.
        ("Эти правила вступают в силу 10 июня 2022 года.", "ru", date(2022, 6, 10)),
        ("effective 2022-06-10", None, date(2022, 6, 10)),
    ],
)
def test_a_date_in_its_language(text: str, language: str | None, day: date) -> None:
    assert find_date(text, language) == day


@pytest.mark.parametrize("text", ["no date here, 2022", "06/10/2022", "le 31 février 2022"])
def test_no_date_rather_than_a_guess(text: str) -> None:
    # A numeric day and month cannot be told apart; an impossible day is no date.
    assert find_date(text, "fr") is None


def test_the_first_date_of_the_text_wins() -> None:
    assert find_date("Mis à jour le 2 mars 2023. En vigueur le 10 juin 2022.", "fr") == \
        date(2023, 3, 2)
