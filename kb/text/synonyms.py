"""Two ways of saying the same thing in one language, where a player's words and the rules'
words differ and no stem joins them: a player asks what happens when all players lose "at
the same time", 104.4a says they "lose simultaneously". Each pair is data with its evidence:
where the corpus itself uses both phrasings for one thing (a rule and a ruling that restates
it, two rules of the same version describing the same timing), the rules' own older wording
of a thing the rules now name otherwise (an earlier version's text of the same rule), or the
players' slang for a game term as a published reference records it. Search treats each side as
the other (kb.search: a question's run of words that is one side is searched as either), and a
word of either side is never taken for a typo.
"""

from __future__ import annotations

from msgspec import Struct


class Synonym(Struct, frozen=True):
    language: str
    one: str
    other: str
    evidence: str
    # The player's or the older wording (``one``) is searched as the rules' word (``other``)
    # and not the other way round: "mana value" must not bring every ruling that still says
    # "converted mana cost", nor "flying" the word "flyer".
    one_way: bool = False


SYNONYMS = (
    Synonym("en", "at the same time", "simultaneously",
            "CR 2026-04-17 101.4 'take actions at the same time' and 502.3 'untap them all "
            "simultaneously' name one timing; the Dragon's Maze ruling 'all chosen permanents "
            "are sacrificed at the same time' (MTGJSON DGM) is 'sacrifiés simultanément' in "
            "the French FAQ of the same card (corpus seed 001)"),
    Synonym("en", "empty library", "library with no cards",
            "CR 2026-04-17 704.5b 'attempted to draw a card from a library with no cards in it "
            "since the last time state-based actions were checked'; the MTGJSON rulings restate "
            "it as 'tried to draw a card from an empty library since the last time state-based "
            "actions were checked'"),
    Synonym("en", "empty hand", "no cards in hand",
            "MTGJSON rulings: 'if your hand is empty' (USG) and 'while you have no cards in "
            "hand' (DGM, Blood Scrivener) for one condition"),
    Synonym("fr", "en même temps", "simultanément",
            "the French FAQ of Dragon's Maze (corpus seed 001) writes both: 'sacrifiés "
            "simultanément' and 'arrive sur le champ de bataille en même temps'"),
    # The rules' older wording: players who learnt the game then still write it.
    Synonym("en", "converted mana cost", "mana value",
            "CR 2013-05-01 202.3 'The converted mana cost of an object is a number equal to "
            "the total amount of mana in its mana cost' and CR 2026-04-17 202.3 'The mana "
            "value of an object is a number equal to ...': one rule, renamed", one_way=True),
    Synonym("en", "comes into play", "enters the battlefield",
            "CR 2006-10-01 212.4d 'An Aura comes into play attached to a permanent or player' "
            "(the zone was 'in play', 217.1); today's rules say it enters the battlefield "
            "(303.4, 403.1 'the battlefield')", one_way=True),
    Synonym("en", "state-based effects", "state-based actions",
            "CR 2009-05-01 420 'State-Based Effects' ('State-based effects are a special "
            "category ...') and CR 2009-07-11 704 'State-Based Actions': one rule, renamed",
            one_way=True),
    Synonym("en", "casting cost", "mana cost",
            "CR 2026-04-17 glossary, 'Casting Cost (Obsolete)': 'An obsolete term for mana "
            "cost' (CR 202.1)", one_way=True),
    Synonym("en", "transforming double-faced card", "nonmodal double-faced card",
            "CR 2026-04-17 712.1 'nonmodal double-faced cards (previously called "
            "\"transforming double-faced cards\")'", one_way=True),
    Synonym("en", "play a spell", "cast a spell",
            "CR 2026-04-17 glossary, Play: '(Obsolete) Casting a spell used to be known as "
            "playing a spell. Cards with that text have received errata in the Oracle card "
            "reference. See Cast.'", one_way=True),
    Synonym("en", "play an activated ability", "activate an activated ability",
            "CR 2026-04-17 glossary, Play: '(Obsolete) Activating an activated ability used to "
            "be known as playing an activated ability.'", one_way=True),
    Synonym("en", "put into play", "put onto the battlefield",
            "CR 2008-02-01 308.4 'If a creature is put into play attacking, its controller "
            "chooses ...' and CR 2026-04-17 508.4 'If a creature is put onto the battlefield "
            "attacking, its controller chooses ...': one rule, reworded", one_way=True),
    Synonym("en", "leaves play", "leaves the battlefield",
            "CR 2008-02-01 306.4 'A creature or planeswalker is removed from combat if it "
            "leaves play' and CR 2026-04-17 506.4 'A permanent is removed from combat if it "
            "leaves the battlefield': one rule, reworded", one_way=True),
    Synonym("en", "removed from the game", "exiled",
            "CR 2006-10-01 217.7a 'Effects can remove objects from the game'; CR 2026-04-17 "
            "406.1 'Some spells and abilities exile an object'", one_way=True),
    # Players' slang, as the MTG Wiki's List of Magic slang (mtg.wiki/page/List_of_Magic_slang)
    # and Wizards' own articles record it.
    Synonym("en", "flyer", "flying",
            "MTG Wiki, List of Magic slang: a flier (also flyer) is a creature with flying "
            "(CR 702.9)", one_way=True),
    Synonym("en", "flier", "flying",
            "MTG Wiki, List of Magic slang: a flier is a creature with flying (CR 702.9)",
            one_way=True),
    Synonym("en", "etb", "enters the battlefield",
            "MTG Wiki, List of Magic slang: ETB, short for 'enters the battlefield' (CR 603.6a "
            "enters-the-battlefield abilities)", one_way=True),
    Synonym("en", "ltb", "leaves the battlefield",
            "MTG Wiki, List of Magic slang: LTB, short for 'leaves the battlefield' (CR 603.6c "
            "leaves-the-battlefield abilities)", one_way=True),
    # Abbreviations and nicknames of rules terms, each as a page about the term records it
    # (issue 23: "fizzle", "sba", "cmc" and "tutor" found nothing; a judge's question in a
    # player's words uses them).
    Synonym("en", "cmc", "mana value",
            "MTG Wiki, Mana value (mtg.wiki/page/Mana_value): converted mana cost, 'CMC' for "
            "short, was renamed mana value in 2021 (CR 202.3)", one_way=True),
    Synonym("en", "sba", "state-based actions",
            "the judges' Rules Tips, 'Triggers vs. State-Based Actions' (blogs.magicjudges.org/"
            "rulestips/2019/01/triggers-vs-state-based-actions): 'SBAs, as they are frequently "
            "called' (CR 704)", one_way=True),
    Synonym("en", "fizzle", "doesn't resolve",
            "MTG Wiki, Fizzle (mtg.fandom.com/wiki/Fizzle): the informal term for a spell or "
            "ability that does not resolve because all its targets are illegal; CR 608.2b: "
            "'the spell or ability doesn't resolve'", one_way=True),
    Synonym("en", "tutor", "search",
            "MTG Wiki, Tutor (mtg.gamepedia.com/Tutor): a tutor is a spell that searches your "
            "library for another card (CR 701.23 Search)", one_way=True),
    Synonym("en", "bounce", "return to its owner's hand",
            "MTG Wiki, Bounce (mtg.fandom.com/wiki/Bounce): a bounce effect returns a permanent "
            "to its owner's hand", one_way=True),
    Synonym("en", "steal", "gain control",
            "MTG Wiki, Stealing (mtg.gamepedia.com/Stealing): the nickname of the effects that "
            "let a player gain control of an opponent's permanent (CR 110.2b)", one_way=True),
    Synonym("en", "dfc", "double-faced card",
            "MTG Wiki, Double-faced card (mtg.wiki/page/Double-faced_card): 'double-faced cards "
            "(DFCs)' (CR 712)", one_way=True),
    Synonym("en", "mdfc", "modal double-faced card",
            "Hipsters of the Coast, 'The New DFCs on the Block' (hipstersofthecoast.com, "
            "2020-09): Zendikar Rising's modal DFCs, MDFCs (CR 712.1)", one_way=True),
    Synonym("en", "tdfc", "nonmodal double-faced card",
            "Hipsters of the Coast, 'The New DFCs on the Block' (2020-09): the older kind renamed "
            "transforming DFCs, TDFCs; CR 2026-04-17 712.1 'nonmodal double-faced cards "
            "(previously called \"transforming double-faced cards\")'", one_way=True),
    Synonym("en", "sac", "sacrifice",
            "MTG Wiki, Sacrifice (mtg.fandom.com/wiki/Sacrifice): 'often shortened to sac' "
            "(CR 701.21)", one_way=True),
    Synonym("en", "lki", "last known information",
            "Italian Magic Judges, 'Last Known Information (LKI)' (italianmagicjudges.net, "
            "article 2029); the Japanese MTG Wiki's page on it gives the same abbreviation "
            "(CR 113.7a, 608.2h)", one_way=True),
    Synonym("en", "cda", "characteristic-defining ability",
            "The Forge Herald, 'Judge Tips: Characteristic-Defining Abilities' (2016-04): "
            "'Characteristic-Defining abilities (CDA)' (CR 604.3)", one_way=True),
    Synonym("en", "counterspell", "counter target spell",
            "the card Counterspell (Alpha) reads 'Counter target spell.'; Wizards' keyword "
            "glossary for new players explains 'counter a spell' with it (CR 701.6)", one_way=True),
    Synonym("fr", "contresort", "contrecarrer un sort",
            "Wizards, 'Non merci' (magic.wizards.com/fr/news/feature/no-thanks-2016-11-18): "
            "'les contresorts' are the spells that say 'Contrecarrez le sort ciblé'; "
            "Contresort is the French name of Counterspell", one_way=True),
    # French players' words for the rules' terms, as French publications about the game print
    # them: no French text of the corpus holds them, and a French question that said "dégâts"
    # for damage was searched without its subject. Each is searched as the official French
    # term, which the term table then gives in English.
    Synonym("fr", "dégâts", "blessures",
            "Judge Academy, 'MTG: Le combat' (judgeacademy.com/lessons/mtg-le-combat-texte/"
            "?lang=fr): two creatures that fight 's'infligent des dégâts équivalents à leur "
            "force', and the combat steps are '... Déclaration des bloqueurs, Dégâts de combat "
            "et Fin de combat', the rules' 'étape des blessures de combat' (CR 510)",
            one_way=True),
    Synonym("fr", "détaper", "dégager",
            "hitek.fr, 'Magic : au fait, comment on y joue ?' (hitek.fr/actualite/"
            "magic-comment-on-y-joue_8163): 'Phase 1 : je détape ... la fameuse phase pour "
            "désengager vos cartes', the untap step (CR 502, 'étape de dégagement')",
            one_way=True),
    Synonym("fr", "désengager", "dégager",
            "hitek.fr, 'Magic : au fait, comment on y joue ?': the untap step is 'la fameuse "
            "phase pour désengager vos cartes' (CR 502)", one_way=True),
    Synonym("fr", "invoquer", "lancer",
            "Wizards' French 'how to play' (magic.wizards.com/fr/gameplay/how-to-play): 'La "
            "façon la plus courante d'y parvenir est d'invoquer des créatures', 'plus il vous "
            "faudra de temps pour l'invoquer', beside 'la section dédiée au lancement des "
            "sorts de créature' (CR 601, casting spells)", one_way=True),
    Synonym("fr", "coût d'invocation", "coût de mana",
            "Wizards, 'Anatomie d'une carte Magic' (magic.wizards.com/fr/news/feature/"
            "anatomy-magic-card-2006-10-21): 'Dans le coin supérieur droit, on trouve ce qu'on "
            "appelle communément le coût d'invocation', the mana it takes to cast the card "
            "(CR 202.1, mana cost)", one_way=True),
    Synonym("fr", "coût converti de mana", "valeur de mana",
            "the rules' older French wording: the French FAQ of Dragon's Maze (corpus seed "
            "001_f4c4515b1d59e611.txt, line 35) 'Le coût converti de mana du sort est un nombre "
            "égal à la quantité totale de mana de ses deux coûts de mana', renamed mana value "
            "in 2021 as in English ('converted mana cost', above; CR 202.3)", one_way=True),
    Synonym("fr", "basique", "de base",
            "magic.jactari.info, 'Les terrains de Magic : généralités' (magic.jactari.info/"
            "terrains/generalites): 'Un terrain ayant le sur-type Basic est un terrain "
            "basique, tous les autres sont des terrains non basiques'; the French cards print "
            "'terrain de base' and 'type de terrain de base' (CR 205.4c, 305.6)", one_way=True),
    Synonym("fr", "terrain non basique", "terrain non-base",
            "magic.jactari.info, 'Les terrains de Magic : généralités': 'des terrains non "
            "basiques', which the French cards print 'terrains non-base' (Back to Basics, "
            "'Retour aux notions de base'; CR 305.7, nonbasic land)", one_way=True),
    Synonym("fr", "pv", "points de vie",
            "gamalive.com (actus/54163-magic-the-gathering-aux-portes-des-eternites-jeu-de-"
            "cartes-deckbuilder.htm, 2025-08-14), players' talk at the table: '... qui me "
            "coûte -2 PV !', life points (CR 119)",
            one_way=True),
)
