"""The public facade: what the CLI, the web and scripts call, one function per command
(build, search, history, diff, report, check, terms, fetch), and the JSON shapes the command
line and the web API share.

Every function here returns plain data (dataclasses, dicts); presentation is the CLI's job.
Domain errors are :class:`KbError` subclasses, which the CLI turns into a message and exit 1.
Reading records is :mod:`kb.reader`'s, and the views of a rule or a card :mod:`kb.views`'s (both
re-exported here, the views on first use: a search shows none); this module sits on top of the
read path and nothing below it imports it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.errors import KbError, NoIndexError, NoSuchRuleError
from kb.paths import default_index_root, user_corpus_dir, user_model_dir
from kb.reader import LANGUAGES, KnowledgeBase, export_row, language_set, version_ranges
from kb.text.normal import fold

if TYPE_CHECKING:
    from kb.build import BuildReport, Progress
    from kb.check import CheckReport
    from kb.check.user import UserReport
    from kb.fetch import Fetched
    from kb.fetch_model import FetchedModel
    from kb.history import HistoryEntry, VersionChanges
    from kb.model import TermPair
    from kb.report.run import Report
    from kb.search import SearchResult
    from kb.views import CardView, CitedRule, CitingRecord, LinkedText, RuleView

_VIEWS = ("CardView", "CitedRule", "CitingRecord", "LinkedText", "RuleView")

__all__ = [
    "LANGUAGES", "CardView", "CitedRule", "CitingRecord", "KbError", "KnowledgeBase",
    "LinkedText", "NoIndexError", "NoSuchRuleError", "RuleView", "build_index", "check",
    "check_scenarios", "default_index_root", "diff", "export_row", "fetch", "history",
    "language_set", "report", "search", "terms", "version_ranges",
]


def __getattr__(name: str) -> Any:
    """The views of :mod:`kb.views`, imported when first asked for (``api.RuleView``)."""
    if name in _VIEWS:
        from kb import views

        return getattr(views, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_index(
    index_root: Path, corpus_dirs: list[Path], *, embedded: bool = True,
    progress: Progress | None = None, only: bool = False, replace: bool = True,
    follow_links: bool = False, model: Path | None = None, no_model: bool = False,
) -> BuildReport:
    """Build from the folders the current index was built from (at first: the embedded corpus
    and the user's corpus folder, where ``kb fetch`` stores the official files) plus
    ``corpus_dirs``; exactly ``corpus_dirs`` with ``only``. A folder named twice is read once.
    Without ``replace`` a build that would drop a rules version or a source is refused. Links
    out of a corpus folder are followed only with ``follow_links``. ``model`` is a sentence
    model's folder for semantic ranking (:mod:`kb.index.semantic`); without it, the model the
    current index was built with, if any, unless ``no_model``."""
    from kb.build import build, plan_folders, remembered_model  # the parsers load only here

    folders = plan_folders(index_root, corpus_dirs, only=only, embedded=embedded)
    if model is None and not no_model:
        model = remembered_model(index_root)
    return build(index_root, folders, progress, replace=replace, follow_links=follow_links,
                 model=model)


# -- everything the command line does, for scripts (each opens the index and closes it) ------


def search(query: str, *, index: Path | None = None, lang: str | None = None,
           kind: str | None = None, limit: int = 10, version: str | None = None,
           translate: bool = True) -> SearchResult:
    """``kb search``: the best groups of hits for ``query`` (the query language of
    :mod:`kb.query`), with the corrections and translations used."""
    from kb.search import Searcher

    with Searcher(index or default_index_root()) as searcher:
        return searcher.search(query, lang=lang, kind=kind, limit=limit, version=version,
                               translate=translate)


def history(number: str, *, index: Path | None = None, version: str | None = None,
            lang: str = "all") -> list[HistoryEntry]:
    """``kb history``: the rule and its subrules through every version held."""
    from kb.history import rule_history

    with KnowledgeBase(index) as kb:
        return rule_history(kb, number, version, lang)


def diff(old: str, new: str = "latest", *, index: Path | None = None,
         section: str | None = None) -> VersionChanges:
    """``kb diff``: the rules added, removed, renumbered and changed between the versions in
    force on two dates."""
    from kb.history import version_changes

    with KnowledgeBase(index) as kb:
        return version_changes(kb, old, new, section)


def report(*, index: Path | None = None, categories: list[str] | None = None,
           languages: list[str] | None = None) -> Report:
    """``kb report``: the findings of every category (or of ``categories``)."""
    with KnowledgeBase(index) as kb:
        return consistency_report(kb, categories, languages)


def check(*, index: Path | None = None, scenarios: list[Path] | None = None) -> CheckReport:
    """``kb check``: every worked example of the index replayed on the rules engine."""
    from kb.check import run_check

    with KnowledgeBase(index) as kb:
        return run_check(kb.store, scenarios or ())


def check_scenarios(paths: list[Path], *, index: Path | None = None) -> UserReport:
    """``kb check --scenario``: play a user's scenario files and report each one; their
    ``verifies`` are looked up in the index if one is built (none is needed)."""
    from kb.check.user import check_scenarios as play_files
    try:
        kb = KnowledgeBase(index)
    except NoIndexError:
        return play_files(paths)
    with kb:
        return play_files(paths, kb.store)


def terms(word: str, *, index: Path | None = None, prefix: bool = False) -> list[TermPair]:
    """``kb terms``: the French and English forms of ``word``, with their evidence."""
    with KnowledgeBase(index) as kb:
        return kb.store.terms(fold(word), prefix=prefix)


def fetch(*, dest: Path | None = None, url: str | None = None, timeout: float | None = None,
          build: bool = True, index: Path | None = None) -> Fetched:
    """``kb fetch``: download the current official rules into ``dest`` (the user's corpus
    folder) when newer than the installed ones, then rebuild the index unless ``build`` is
    False."""
    from kb.corpus import embedded_corpus
    from kb.fetch import DEFAULT_TIMEOUT, RULES_PAGE
    from kb.fetch import fetch as download

    folder = dest or user_corpus_dir()
    got = download(folder, url or RULES_PAGE, timeout=timeout or DEFAULT_TIMEOUT,
                   installed=[embedded_corpus()])
    if build and got.installed is None:
        build_index(index or default_index_root(), [folder])
    return got


def fetch_model(*, dest: Path | None = None, url: str | None = None,
                timeout: float | None = None, build: bool = True,
                index: Path | None = None) -> FetchedModel:
    """``kb fetch --model``: download the sentence model for semantic ranking into ``dest``
    (the user's model folder), then rebuild the index with it unless ``build`` is False."""
    from kb.fetch_model import MODEL_TIMEOUT, MODEL_URL
    from kb.fetch_model import fetch_model as download
    from kb.index.semantic import runtime

    if build:
        runtime()  # the build needs it: said before 90 MB are downloaded
    folder = dest or user_model_dir()
    got = download(folder, url or MODEL_URL, timeout=timeout or MODEL_TIMEOUT)
    if build:
        build_index(index or default_index_root(), [], model=folder)
    return got


# -- JSON shapes shared by the command line and the web API ---------------------------------
# ``kb search --json`` and ``GET /api/search`` print the same thing: the shape is built here,
# once, and both call it. (Types are named as strings: kb.search and kb.history import this
# module.)


def search_json(result: Any) -> dict[str, Any]:
    """A :class:`kb.search.SearchResult` as ``kb search --json`` prints it: the query, the
    rules version, the query's language (and ``missing_language``, that language when no
    answer has a text in it), the words corrected and dropped, the translations used,
    whether a sentence model's nearness ranked too (``semantic``; ``gloss``: the English
    words a French query was given to it as), the upper-case operators of prose read as
    words (``operators_as_words``), and the hits, one per
    answer (at most ``limit``), best first, each with its answer's other texts under
    ``texts``."""
    return {
        "query": result.query, "version": result.version, "language": result.language,
        "missing_language": result.missing_language,
        "corrected": result.corrected, "dropped": result.dropped, "absent": result.absent,
        "ignored": result.ignored, "grammar": result.grammar, "unquoted": result.unquoted,
        "operators_as_words": result.operators_as_words,
        "notes": result.notes, "semantic": result.semantic, "gloss": result.gloss,
        "unknown_cards": [{"name": name, "suggestions": near}
                          for name, near in result.unknown_cards.items()],
        "translations": [{"word": t.word, "terms": list(t.terms), "from": list(t.kinds)}
                         for t in result.translations],
        "hits": [{**_hit_json(h), "texts": [_hit_json(t) for t in h.texts]}
                 for h in result.hits],
    }


def _hit_json(h: Any) -> dict[str, Any]:
    return {"kind": h.kind, "id": h.id, "number": h.number, "language": h.language,
            "version": h.version, "score": h.score, "snippet": h.snippet, "title": h.title,
            "group": h.group, "source": h.source}


def diff_json(c: Any) -> dict[str, Any]:
    """A :class:`kb.history.VersionChanges` as ``kb diff --json`` prints it: ``added``,
    ``removed`` and ``changed`` are lists of numbers (``changed`` by the new number,
    ``typography_only`` those of them whose words are the same), ``renumbered`` a list of
    {"from", "to"}; ``changes`` has the texts and diffs."""
    return {
        "old": c.old, "new": c.new, "section": c.section, "same_version": c.old == c.new,
        "added": [r.number for r in c.added],
        "removed": [r.number for r in c.removed],
        "renumbered": [{"from": x.old_number, "to": x.new_number, "how": x.how,
                        "confidence": x.confidence} for x in c.renumbered],
        "changed": [x.new_number for x in c.changed],
        "typography_only": [x.new_number for x in c.changed if x.typography_only],
        "unchanged": c.unchanged,
        "changes": [{"from": x.old_number, "to": x.new_number, "old_text": x.old_text,
                     "new_text": x.new_text, "diff": x.diff} for x in c.changes],
    }


def check_json(report: Any) -> dict[str, Any]:
    """A :class:`kb.check.CheckReport` as ``kb check --json`` prints it."""
    return {
        "summary": report.summary(),
        "shares": report.shares(),
        "cr": report.cr_coverage(),
        "by_source": report.by_source(),
        "scenarios": report.scenarios,
        "examples": [r.as_dict() for r in report.results],
        "not_in_index": [{"id": i, "scenario": w} for i, w in report.not_in_index],
    }


def consistency_report(kb: KnowledgeBase, categories: list[str] | None = None,
                       languages: list[str] | None = None,
                       check_results: list[Any] | None = None) -> Any:
    """``kb report``'s findings (a :class:`kb.report.run.Report`). The examples category
    needs ``kb check``'s results: given (a server keeps them), else played here."""
    from kb.report.data import ReportData
    from kb.report.run import run

    data = ReportData.from_store(kb.store)
    if check_results is None and (categories is None or "examples" in categories):
        from kb.check import check_examples  # the engine loads only when examples count

        check_results = check_examples(kb.store)
    return run(data, categories, languages, check_results=check_results)
