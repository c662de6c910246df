"""Category 3, citations: references to rules that moved, vanished or never existed.

The report decides nothing: it reads how the build's link stage read each document
(:mod:`kb.link.anchors`). A CR version is read against itself; any other document against the
rules of its date, held or not (``cites-then`` and ``counterpart`` links, through kb's table of
every published version), and followed to today (``current`` links).

- A citation that no version near its document's date holds is an error; a range whose last
  rule is not in the version it is read against runs past the rules it means (warning, naming
  the last rule it can reach, when that version is held).
- In documents that are not themselves the rules (FAQs, keyword pages, rulings: not
  :data:`~kb.report.data.RULES_FORMATS`), a citation whose rule has another number today, or no
  counterpart today (removed, or rewritten beyond recognition), is a warning giving today's
  number; so is a rule such a document quotes ("702.100. Fusion"). A quoted rule's subrules
  go with their heading, and a subrule that moved with its heading is told with it.
- A quoted or translated rule that nothing pairs with an English rule (``unpaired``: its
  number and title fit no version of its date) is a warning saying what it is and what today's
  rule of its number is: it is not shown as that rule's text.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from kb.i18n import _
from kb.model import Citation, Record, Rule
from kb.report.data import CR_FORMAT, RULES_FORMATS, ReportData, split_cr_id
from kb.report.finding import ERROR, WARNING, Finding, RecordRef, rule_lookup
from kb.rulenum import RuleNumber, sort_key

CATEGORY = "citations"


def check(data: ReportData) -> Iterator[Finding]:
    if not data.versions:  # nothing to check against (the report notes it)
        return
    for source, record in data.all_records():
        follow = source.format not in RULES_FORMATS
        for citation in getattr(record, "citations", ()):
            if source.format == CR_FORMAT and source.version:
                yield from _in_version(data, record, citation, source.version, False)
            else:
                yield from _citation(data, record, citation, follow)
    for source in data.sources.values():
        if source.format not in RULES_FORMATS:
            yield from _quoted(data, [r for r in data.records.get(source.id, [])
                                      if isinstance(r, Rule)])


# -- citations ---------------------------------------------------------------------------------


def _citation(data: ReportData, record: Record, citation: Citation,
              follow: bool) -> Iterator[Finding]:
    """A citation of another document, as the build read it (``cites-then``)."""
    if RuleNumber.try_parse(citation.first) is None:
        return
    then = next((split_cr_id(k.to_id) for k in data.links_from(record.id, "cites-then")
                 if k.to_id.rsplit(":", 1)[-1] == citation.first), None)
    if then is None:
        written = data.record_date(record)
        elsewhere = sorted(v for v in data.versions if citation.first in data.cr_rules[v])
        message = (_("“{written}” cites {number}, which is no rule of the rules near {date}")
                   if written else
                   _("“{written}” cites {number}, which is no rule of the rules"))
        yield Finding(CATEGORY, "unresolved", ERROR,
                      message.format(written=citation.written, number=citation.first,
                                     date=written) + _elsewhere(elsewhere),
                      (data.ref(record),), language=getattr(record, "language", None),
                      fix=_("correct the rule number"), lookup=rule_lookup(citation.first))
        return
    yield from _in_version(data, record, citation, then[0], follow)


def _in_version(data: ReportData, record: Record, citation: Citation, version: str,
                follow: bool) -> Iterator[Finding]:
    """A citation read in ``version``: unresolved or past its end when that version is held
    and lacks the rules; followed to today when ``follow``."""
    if RuleNumber.try_parse(citation.first) is None:
        return
    numbers = data.cr_rules.get(version)
    ref = (data.ref(record),)
    language = getattr(record, "language", None)
    if numbers is not None and citation.first not in numbers:
        elsewhere = sorted(v for v in data.versions if citation.first in data.cr_rules[v])
        yield Finding(CATEGORY, "unresolved", ERROR,
                      _("“{written}” cites {number}, which is no rule of the rules of "
                        "{version}").format(written=citation.written, number=citation.first,
                                            version=version) + _elsewhere(elsewhere),
                      ref, language=language, fix=_("correct the rule number"),
                      lookup=rule_lookup(citation.first, version))
        return
    if numbers is not None and citation.last != citation.first and citation.last not in numbers:
        reached = _last_in_range(numbers, citation.first, citation.last)
        yield Finding(CATEGORY, "range-past-end", WARNING,
                      _("“{written}” runs past its last rule: the rules of {version} stop at "
                        "{reached}").format(written=citation.written, version=version,
                                            reached=reached), ref, language=language,
                      fix=_("end the range at {reached}").format(reached=reached),
                      lookup=rule_lookup(citation.first, version))
    if follow:
        yield from _moved(data, citation.first, version, data.today_of(version,
                                                                       citation.first),
                          f"“{citation.written}”", ref, language)


def _elsewhere(versions: list[str]) -> str:
    """"; it exists in the rules of ...", or nothing."""
    if not versions:
        return ""
    return _("; it exists in the rules of {versions}").format(versions=", ".join(versions))


def _last_in_range(numbers: dict[str, Rule], first: str, last: str) -> str:
    low, high = RuleNumber.parse(first), RuleNumber.parse(last)
    inside = [n for n in numbers
              if (p := RuleNumber.try_parse(n)) is not None and low <= p <= high]
    return max(inside, key=sort_key) if inside else first


def _moved(data: ReportData, number: str, version: str, today: str | None, what: str,
           records: tuple[RecordRef, ...], language: str | None) -> Iterator[Finding]:
    """A warning when rule ``number`` of ``version`` has another number today, or none."""
    named = data.named(version, number, today)
    if today is None:
        yield Finding(CATEGORY, "removed", WARNING,
                      _("{what} means {named} of the rules of {version}, which has no "
                        "counterpart in the rules of {latest} (removed or rewritten)").format(
                          what=what, named=named, version=version, latest=data.latest),
                      records, language=language,
                      fix=_("cite the rule that replaced it, or drop the text"),
                      lookup=rule_lookup(number, version) if version in data.versions else None)
    elif today != number:
        yield Finding(CATEGORY, "renumbered", WARNING,
                      _("{what} means {named} of the rules of {version}, which is {today} "
                        "today ({latest})").format(what=what, named=named, version=version,
                                                   today=today, latest=data.latest),
                      records, language=language,
                      fix=_("cite {number}").format(number=today), lookup=rule_lookup(today))


# -- rules quoted by a document ------------------------------------------------------------------


def _quoted(data: ReportData, rules: list[Rule]) -> Iterator[Finding]:
    """Findings for the rules one document quotes, grouped under their topmost quoted rule."""
    groups: dict[str, list[Rule]] = defaultdict(list)
    numbers = {r.number for r in rules}
    for rule in rules:
        groups[_root(rule.number, numbers)].append(rule)
    for root, members in groups.items():
        yield from _quoted_group(data, root, members)


def _root(number: str, numbers: set[str]) -> str:
    parsed = RuleNumber.try_parse(number)
    root = number
    for ancestor in parsed.ancestors() if parsed else []:
        if str(ancestor) in numbers:
            root = str(ancestor)
    return root


def _quoted_group(data: ReportData, root: str, members: list[Rule]) -> Iterator[Finding]:
    every = tuple(data.ref(r) for r in members)
    language = members[0].language
    head = next((r for r in members if r.number == root), members[0])
    unpaired = data.links_from(head.id, "unpaired")
    if unpaired:
        yield Finding(CATEGORY, "unpaired", WARNING, unpaired[0].evidence, every,
                      language=language, fix=_("check the number and the title of the text"),
                      lookup=rule_lookup(root))
        return
    anchor = data.read_as(head.id)
    if anchor is None:
        return
    root_today = data.current_of(head.id)
    moved_with_root: list[str] = []
    for number in sorted({r.number for r in members}, key=sort_key):
        member = next(r for r in members if r.number == number)
        these = tuple(data.ref(r) for r in members if r.number == number)
        found = data.read_as(member.id)
        if found is None:
            yield Finding(CATEGORY, "unresolved", ERROR,
                          _("quoted rule {number} is no rule of the rules of {version} under "
                            "{under}").format(number=number, version=anchor[0],
                                              under=anchor[1]),
                          these, language=language, fix=_("correct the rule number"))
            continue
        today = data.current_of(member.id)
        with_root = root_today is not None and today == root_today + number[len(root):]
        if today is None or (today != number and not with_root):
            yield from _moved(data, found[1], found[0], today,
                              _("quoted rule {number}").format(number=number), these, language)
        elif today != number and number != root:
            moved_with_root.append(f"{number}→{today}")
    if root_today is not None and root_today != root:
        title = data.title_of(*anchor) or data.title_of(data.latest or "", root_today)
        named = f"{root} {title}" if title else root
        now = data.title_of(data.latest or "", root)
        message = _("quoted rule {named} (rules of {version}: {under}) is {today} today "
                    "({latest})").format(named=named, version=anchor[0], under=anchor[1],
                                         today=root_today, latest=data.latest)
        if moved_with_root:
            message += " " + _("(with {numbers})").format(numbers=", ".join(moved_with_root))
        if now:
            message += _("; today's {number} is {title}").format(number=root, title=now)
        yield Finding(CATEGORY, "renumbered", WARNING, message, every, language=language,
                      fix=_("quote {number}, today's text").format(number=root_today),
                      lookup=rule_lookup(root_today))
