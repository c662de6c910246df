"""Whether a word is a word of English or French, from the dictionaries a spell checker uses.

Search corrects a word that no text of the index holds, but a word missing from the rules is
not a typo: "comment", "explique", "attendre" (French), "board", "stuff", "lottery",
"greaves" (English) are real words, and "correcting" them into "command", "exotique",
"atende", "boar", "staff", "latter", "greater" made the question worse. A word is taken for a
typo only when neither language's dictionary knows it: Debian's hunspell dictionaries
(packages hunspell-en-us and hunspell-fr, read through pyenchant, the maintained binding of
the Enchant library, asked for its hunspell provider). Without them (another platform, a
machine without the packages) search falls back to the index's own words, and says so once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from kb.i18n import _

# kb's languages and the hunspell dictionary of each.
DICTIONARIES = {"en": "en_US", "fr": "fr_FR"}
PROVIDER = "hunspell"
INSTALL = "apt-get install libenchant-2-2 hunspell-en-us hunspell-fr"


@dataclass
class Dictionaries:
    """The dictionaries found (opened on first use, English first: a French one is read
    only for a word English does not know) and why any is missing."""

    open: Callable[[str], Any] | None
    checkers: dict[str, Any] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    _noted: bool = False

    def knows(self, word: str) -> bool:
        """Whether some dictionary holds the word as typed, or lower-cased."""
        for tag in DICTIONARIES.values():
            checker = self._checker(tag)
            if checker is not None and any(checker.check(w) for w in {word, word.lower()}):
                return True
        return False

    def note(self) -> str | None:
        """Why correction runs on the index's words alone, the first time it is asked
        (None after, or when every dictionary is there): said once per process."""
        for tag in DICTIONARIES.values():
            self._checker(tag)
        if not self.missing or self._noted:
            return None
        self._noted = True
        return _("no hunspell dictionary for {tags}: typos are corrected against the index's "
                 "words only ({install})").format(tags=", ".join(self.missing),
                                                   install=INSTALL)

    def _checker(self, tag: str) -> Any:
        if tag not in self.checkers and tag not in self.missing:
            checker = self.open(tag) if self.open is not None else None
            if checker is None:
                self.missing.append(tag)
            else:
                self.checkers[tag] = checker
        return self.checkers.get(tag)


@cache
def dictionaries() -> Dictionaries:
    """The process's dictionaries (Enchant loads each file once)."""
    try:
        import enchant  # pyenchant: needs the Enchant C library (libenchant-2-2)
    except (ImportError, OSError):
        return Dictionaries(None)
    broker = enchant.Broker()

    def open_dictionary(tag: str) -> Any:
        broker.set_ordering(tag, PROVIDER)
        try:
            checker = broker.request_dict(tag)
        except enchant.errors.Error:
            return None
        # Another provider (aspell) answers when hunspell has no such dictionary: not ours.
        return checker if checker.provider.name == PROVIDER else None

    return Dictionaries(open_dictionary)
