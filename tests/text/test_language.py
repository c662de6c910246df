"""kb.text.language.detect: French, English and Portuguese paragraphs, and undecidable text."""

from __future__ import annotations

import pytest

from kb.text.language import detect, script


@pytest.mark.parametrize(
    "text",
    [
        # corpus/000 (a French keyword page), lines 4 and 7
        "702.27a L'écho est une capacité déclenchée. « Écho [coût] » signifie « Au début de "
        "votre entretien, si ce permanent est passé sous votre contrôle depuis le début de "
        "votre dernier entretien, sacrifiez le à moins que vous ne payiez son coût d'écho. »",
        "- Payer l'écho est toujours optionnel.",
        # corpus/004, line 1: the machine-translation notice
        "Clarifications officielles de Wizards of the Coast. La traduction FR ci-dessous est "
        "générée automatiquement (IA) — l'original anglais reste la source de vérité.",
        "La traduction française des règles a dit :",
    ],
)
def test_french(text: str) -> None:
    assert detect(text) == "fr"


@pytest.mark.parametrize(
    "text",
    [
        "702.27a Echo is a triggered ability. “Echo [cost]” means “At the beginning of your "
        "upkeep, if this permanent came under your control since the beginning of your last "
        "upkeep, sacrifice it unless you pay [cost].”",
        "If the copied permanent has {X} in its mana cost, X is 0.",
        "Damage dealt to a battle causes that many defense counters to be removed from it.",
        "Cycling is an ability, not a spell, so it can't be countered.",
    ],
)
def test_english(text: str) -> None:
    assert detect(text) == "en"


@pytest.mark.parametrize(
    "text",
    [
        "Eco é uma habilidade desencadeada.",
        "O controlador de uma criatura atacante com atropelar atribui dano às criaturas que a "
        "estão bloqueando.",
        "Se uma criatura com atropelar é bloqueada, mas não há criaturas bloqueando-a quando o "
        "dano é atribuído, todo o seu dano é atribuído ao jogador.",
    ],
)
def test_portuguese(text: str) -> None:
    assert detect(text) == "pt"


@pytest.mark.parametrize(
    "text", ["", "   ", "702.27. Écho", "Echo", "{2}{W}", "14 avril 2023 · source : wotc"]
)
def test_undetermined(text: str) -> None:
    assert detect(text) == "und"


def test_mixed_text_goes_to_the_majority() -> None:
    # An English ruling naming a card is English; a French note quoting "Echo" is French.
    assert detect("Awaken the Maelstrom has two targets: the player who will draw cards.") == "en"
    assert detect("Le mot-clé Echo est une capacité déclenchée de l'Oracle.") == "fr"


# -- other scripts: the writing system decides ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "language"),
    [
        # The Chinese translation of the CR of 2022-06-10, lines 3 and 3631.
        ("此规则于2022年6月10日起生效。", "zh"),
        ("具有践踏的攻击生物之操控者，首先将伤害分配给所有阻挡它的生物。", "zh"),
        # The Korean translation of 2021-11-19: a heading with its English title, and an
        # example naming an English card (lines 3562 and 405).
        ("702.19. 돌진 Trample", "ko"),
        ("Example: Meteor Crater는 다음과 같은 능력을 가지고 있습니다.", "ko"),
        ("マナ・コストに{X}を含む呪文を唱える場合、Xの値を決める。", "ja"),
        ("Существо с пробивным ударом наносит урон игроку.", "ru"),
        ("Істота з проривом завдає шкоди гравцеві і його планесволкеру.", "uk"),
        ("Ένα πλάσμα με ποδοπάτημα αναθέτει ζημιά.", "el"),
        ("المخلوق الذي يملك الدهس يوزع الضرر", "ar"),
    ],
)
def test_a_script_names_its_language(text: str, language: str) -> None:
    assert detect(text) == language


def test_a_few_letters_of_another_script_do_not_decide() -> None:
    # An English sentence quoting one Korean word is English.
    assert script("The Korean translation calls trample 돌진 throughout its rules.") == "LATIN"
    assert detect("The Korean translation calls trample 돌진 throughout its rules.") == "en"


def test_script_of_text_without_letters_is_none() -> None:
    assert script("702.19 {2} 3/3") is None


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Las criaturas con la habilidad de volar no pueden ser bloqueadas por criaturas sin "
         "volar.", "es"),
        ("La creatura non può bloccare in questo turno, e il suo controllore perde 2 punti vita.",
         "it"),
        ("Die Kreatur erhält +1/+1 bis zum Ende des Zuges und wird getappt.", "de"),
    ],
)
def test_latin_script_languages_by_their_words(text: str, language: str) -> None:
    assert detect(text) == language
