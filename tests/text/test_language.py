"""kb.text.language.detect: French, English and Portuguese paragraphs, and undecidable text."""

from __future__ import annotations

import pytest

from kb.text.language import detect


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
