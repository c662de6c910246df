"""English contractions typed without their apostrophe ("cant", "doesnt", "dont"), as players
type them on a phone: read as the contraction, they are English function words; read as typed
they are words no English text holds, and search took them for typos of other languages'
words ("cant" -> Portuguese "canto") or for French ("dont"). A word of this table is read as
its contraction unless the question is French (where "dont" is a French word).
"""

from __future__ import annotations

# The apostrophe-less spelling -> the contraction. Only spellings that are not themselves a
# common English word ("its", "well", "were", "hell", "shell", "wed" are left out).
CONTRACTIONS = {
    "cant": "can't", "dont": "don't", "doesnt": "doesn't", "didnt": "didn't",
    "isnt": "isn't", "arent": "aren't", "wasnt": "wasn't", "werent": "weren't",
    "hasnt": "hasn't", "havent": "haven't", "hadnt": "hadn't", "wont": "won't",
    "wouldnt": "wouldn't", "shouldnt": "shouldn't", "couldnt": "couldn't",
    "mustnt": "mustn't", "neednt": "needn't", "youre": "you're", "theyre": "they're",
    "thats": "that's", "whats": "what's", "theres": "there's", "ive": "I've", "im": "I'm",
    "youve": "you've", "theyve": "they've", "itll": "it'll", "youll": "you'll",
}


def restored(word: str) -> str | None:
    """The contraction a word is typed for, keeping an initial capital; None if none."""
    contraction = CONTRACTIONS.get(word.lower())
    if contraction is None:
        return None
    return contraction[:1].upper() + contraction[1:] if word[:1].isupper() else contraction
