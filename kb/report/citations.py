"""Category 3, citations: references to rules that moved, vanished or never existed.

A document is read against the English CR version it was written for: a CR version against
itself, any other document against the version nearest its date (:meth:`ReportData.
anchor_version`).

- A citation whose rule is not in that version is an error; a range whose last rule is not
  there runs past the rules it means (warning, naming the last rule it can reach).
- In documents that are not themselves the rules (FAQs, keyword pages, rulings: not
  :data:`~kb.report.data.RULES_FORMATS`), a citation whose rule has another number today, or no
  counterpart today (removed, or rewritten beyond recognition), is a warning giving today's
  number; so is a rule such a document quotes ("702.100. Fusion"). A quoted rule's subrules
  follow their heading through the versions ("702.27b" of an Echo heading is an Echo subrule in
  whichever version has it), and a subrule that moved with its heading is told with it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from kb.model import Citation, Record, Rule
from kb.report.data import RULES_FORMATS, ReportData
from kb.report.finding import ERROR, WARNING, Finding, RecordRef, rule_lookup
from kb.rulenum import RuleNumber, sort_key

CATEGORY = "citations"


def check(data: ReportData) -> Iterator[Finding]:
    if not data.versions:  # nothing to check against (the report notes it)
        return
    for source, record in data.all_records():
        follow = source.format not in RULES_FORMATS
        for citation in getattr(record, "citations", ()):
            yield from _citation(data, record, citation, follow)
    for source in data.sources.values():
        if source.format not in RULES_FORMATS:
            yield from _quoted(data, [r for r in data.records.get(source.id, [])
                                      if isinstance(r, Rule)])


# -- citations ---------------------------------------------------------------------------------


def _citation(data: ReportData, record: Record, citation: Citation,
              follow: bool) -> Iterator[Finding]:
    version = data.anchor_version(record)
    if version is None or RuleNumber.try_parse(citation.first) is None:
        return
    numbers = data.cr_rules[version]
    ref = (data.ref(record),)
    language = getattr(record, "language", None)
    if citation.first not in numbers:
        elsewhere = sorted(v for v in data.versions if citation.first in data.cr_rules[v])
        hint = f"; it exists in the rules of {', '.join(elsewhere)}" if elsewhere else ""
        yield Finding(CATEGORY, "unresolved", ERROR,
                      f"“{citation.written}” cites {citation.first}, which is no rule of the "
                      f"rules of {version}{hint}", ref, language=language,
                      fix="correct the rule number",
                      lookup=rule_lookup(citation.first, version))
        return
    if citation.last != citation.first and citation.last not in numbers:
        reached = _last_in_range(numbers, citation.first, citation.last)
        yield Finding(CATEGORY, "range-past-end", WARNING,
                      f"“{citation.written}” runs past its last rule: the rules of {version} "
                      f"stop at {reached}", ref, language=language,
                      fix=f"end the range at {reached}",
                      lookup=rule_lookup(citation.first, version))
    if follow:
        yield from _moved(data, citation.first, version, f"“{citation.written}”", ref,
                          language)


def _last_in_range(numbers: dict[str, Rule], first: str, last: str) -> str:
    low, high = RuleNumber.parse(first), RuleNumber.parse(last)
    inside = [n for n in numbers
              if (p := RuleNumber.try_parse(n)) is not None and low <= p <= high]
    return max(inside, key=sort_key) if inside else first


def _moved(data: ReportData, number: str, version: str, what: str,
           records: tuple[RecordRef, ...], language: str | None) -> Iterator[Finding]:
    """A warning when rule ``number`` of ``version`` has another number today, or none."""
    today = data.today(version, number)
    title = data.cr_rules[version][number].title
    named = f"{number} {title}" if title else number
    if today is None:
        last_version, _ = data.follow(version, number)
        gone_in = data.next_version_after(last_version)
        yield Finding(CATEGORY, "removed", WARNING,
                      f"{what} means {named} of the rules of {version}, which has no "
                      f"counterpart in the rules of {gone_in} (removed or rewritten)", records,
                      language=language, fix="cite the rule that replaced it, or drop the text",
                      lookup=rule_lookup(number, version))
    elif today != number:
        yield Finding(CATEGORY, "renumbered", WARNING,
                      f"{what} means {named} of the rules of {version}, which is {today} "
                      f"today ({data.latest})", records, language=language,
                      fix=f"cite {today}", lookup=rule_lookup(today))


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
    anchor = _root_anchor(data, root, members)
    every = tuple(data.ref(r) for r in members)
    language = members[0].language
    if anchor is None:
        yield Finding(CATEGORY, "unresolved", ERROR,
                      f"the document quotes rule {root}, which matches no rule of any version "
                      "held", every, language=language, fix="correct the rule number")
        return
    lineage = data.lineage(*anchor)
    root_today = data.today(*anchor)
    moved_with_root: list[str] = []
    for number in sorted({r.number for r in members}, key=sort_key):
        these = tuple(data.ref(r) for r in members if r.number == number)
        found = _anchor_member(data, lineage, number[len(root):], members)
        if found is None:
            yield Finding(CATEGORY, "unresolved", ERROR,
                          f"quoted rule {number} is no rule of any version of {anchor[1]}",
                          these, language=language, fix="correct the rule number")
            continue
        today = data.today(*found)
        with_root = root_today is not None and today == root_today + number[len(root):]
        if today is None or (today != number and not with_root):
            yield from _moved(data, found[1], found[0], f"quoted rule {number}", these, language)
        elif today != number and number != root:
            moved_with_root.append(f"{number}→{today}")
    if root_today is not None and root_today != root:
        title = data.cr_rules[anchor[0]][anchor[1]].title
        named = f"{root} {title}" if title else root
        with_subrules = f" (with {', '.join(moved_with_root)})" if moved_with_root else ""
        yield Finding(CATEGORY, "renumbered", WARNING,
                      f"quoted rule {named} (rules of {anchor[0]}: {anchor[1]}) is {root_today} "
                      f"today ({data.latest}){with_subrules}", every, language=language,
                      fix=f"quote {root_today}, today's text", lookup=rule_lookup(root_today))


def _root_anchor(data: ReportData, root: str, members: list[Rule]) -> tuple[str, str] | None:
    """(version, number) of the English rule the quoted root is a text of."""
    for rule in members:
        if rule.number != root:
            continue
        for link in data.links_from(rule.id, "counterpart"):
            version, _, number = link.to_id.removeprefix("cr:en:").partition(":")
            if number in data.cr_rules.get(version, {}):
                return version, number
    return None


def _anchor_member(data: ReportData, lineage: dict[str, str], suffix: str,
                   members: list[Rule]) -> tuple[str, str] | None:
    """(version, number) of a quoted subrule: its heading's number in the version nearest the
    document's date that has the subrule."""
    for version in data.nearest_versions(members[0]):
        if version in lineage and lineage[version] + suffix in data.cr_rules[version]:
            return version, lineage[version] + suffix
    return None
