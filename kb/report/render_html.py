"""The report as one self-contained HTML page: a summary table, the coverage figures, filters by
category, and the findings grouped by category.

- No external assets and no script: the category filters are radio buttons and CSS. A
  Content-Security-Policy forbids scripts and every fetch, so even text that escaped escaping
  could not run or call out.
- Every piece of corpus text (messages quote it) goes through :func:`html.escape`, attributes
  included.
- Each finding has its own anchor (``#f-12``) and shows the ``kb`` command that looks up what
  it is about (``kb rule 702.102``): the page is a static file, so it cannot query the index
  itself. Rule numbers are links: to the page's own list of the rules mentioned (``#rule-702.19b``,
  each with its findings and its ``kb rule`` command), or, when a server renders the page, to
  ``rule_href(number)`` (the rule's page of ``kb serve``).
- It reads on a phone (a viewport, long file names and ids wrap) and says which quotes are
  French (``lang="fr"``), for screen readers and hyphenation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

from kb import i18n
from kb.i18n import _
from kb.labels import label
from kb.report.finding import CATEGORIES, SEVERITIES, Finding
from kb.report.render_text import coverage_line
from kb.report.run import Report
from kb.rulenum import sort_key

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; script-src 'none'"
# A rule number as messages write it (702.19b, 707.10); bare "702" is too often a count.
_RULE = re.compile(r"\b([1-9]\d{2}\.\d{1,3}[a-z]?)\b")
_STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em;
       color: #222; background: #fff; overflow-wrap: anywhere; }
code, td { overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.filters label { margin-right: 1em; cursor: pointer; }
.filters input { margin-right: .3em; }
article { border-left: 4px solid #999; margin: .8em 0; padding: .3em .8em; background: #fafafa; }
article.sev-error { border-color: #c0392b; }
article.sev-warning { border-color: #d68910; }
article.sev-info { border-color: #2e86c1; }
.sev { font-weight: bold; text-transform: uppercase; font-size: .8em; margin-right: .5em; }
.check { color: #555; margin-right: .5em; }
ul.records { margin: .3em 0; padding-left: 1.2em; font-size: .9em; color: #444; }
code { background: #eee; padding: 0 .3em; }
q.excerpt { display: block; color: #666; font-style: italic; }
article p { margin: .2em 0; }
"""


def render(report: Report, rule_href: Callable[[str], str] | None = None) -> str:
    """The page; ``rule_href`` makes a rule number's link (else an anchor in the page)."""
    links = _RuleLinks(rule_href)
    summary = report.summary()
    total = {s: sum(c[s] for c in summary.values()) for s in SEVERITIES}
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{i18n.current()}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        "<title>" + escape(_("kb consistency report")) + "</title>",
        f"<style>{_STYLE}{_filter_css(report)}</style></head><body>",
        "<h1>" + escape(_("kb consistency report")) + "</h1>",
        '<p id="totals">' + escape(_("{errors} errors, {warnings} warnings, {infos} notes for "
                                     "information.").format(errors=total["error"],
                                                            warnings=total["warning"],
                                                            infos=total["info"])) + "</p>",
        _summary_table(report),
        _coverage(report),
        *(f'<p class="note">{escape(n)}</p>' for n in report.notes),
        _filters(report),
        "<main>",
    ]
    number = 0
    for category in report.categories:
        found = [f for f in report.findings if f.category == category]
        parts.append(f'<section class="cat cat-{category}" id="cat-{category}">'
                     f"<h2>{_heading(category)} ({len(found)})</h2>")
        for finding in found:
            number += 1
            parts.append(_finding(finding, number, links))
        parts.append("</section>")
    parts.append(links.index())
    parts.append("</main></body></html>")
    return "\n".join(parts) + "\n"


def _summary_table(report: Report) -> str:
    rows = ['<table id="summary"><tr><th>' + escape(_("category")) + "</th>"
            + "".join(f"<th>{escape(label(s))}</th>" for s in SEVERITIES) + "</tr>"]
    for category, counts in report.summary().items():
        cells = "".join(f"<td>{counts[s]}</td>" for s in SEVERITIES)
        rows.append(f'<tr><td><a href="#cat-{category}">{_heading(category)}</a>'
                    f"</td>{cells}</tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _coverage(report: Report) -> str:
    if not report.coverage:
        return ""
    items = "".join(
        f"<li>{escape(coverage_line(c))}</li>"
        for c in report.coverage)
    heading = escape(_("French coverage of the English rules"))
    return f'<h2>{heading}</h2><ul id="coverage">{items}</ul>'


def _filters(report: Report) -> str:
    """Radio buttons; the CSS of :func:`_filter_css` shows only the chosen category."""
    buttons = ['<input type="radio" name="cat" id="show-all" checked>'
               '<label for="show-all">' + escape(_("all")) + "</label>"]
    buttons += [f'<input type="radio" name="cat" id="show-{c}">'
                f'<label for="show-{c}">{_heading(c)}</label>'
                for c in report.categories]
    return '<nav class="filters">' + escape(_("Show:")) + " " + "".join(buttons) + "</nav>"


def _filter_css(report: Report) -> str:
    return "".join(f"body:has(#show-{c}:checked) .cat:not(.cat-{c}) {{ display: none; }}\n"
                   for c in report.categories)


class _RuleLinks:
    """Links rule numbers, and remembers which findings mention which rule for the page's
    list of rules."""

    def __init__(self, href: Callable[[str], str] | None) -> None:
        self.href = href
        self.mentions: dict[str, list[int]] = {}

    def link(self, number: str, finding: int) -> str:
        found = self.mentions.setdefault(number, [])
        if finding not in found:
            found.append(finding)
        target = self.href(number) if self.href else f"#rule-{number}"
        return f'<a class="rule" href="{escape(target)}">{escape(number)}</a>'

    def text(self, text: str, finding: int) -> str:
        """Escape ``text`` and link the rule numbers in it."""
        pieces = _RULE.split(text)
        return "".join(self.link(p, finding) if i % 2 else escape(p)
                       for i, p in enumerate(pieces))

    def index(self) -> str:
        if self.href or not self.mentions:
            return ""
        items = "".join(
            f'<li id="rule-{escape(n)}"><code>kb rule {escape(n)}</code>' + escape(_(": "))
            + ", ".join(f'<a href="#f-{f}">' + escape(_("finding {number}").format(number=f))
                        + "</a>" for f in found) + "</li>"
            for n, found in sorted(self.mentions.items(), key=lambda item: sort_key(item[0])))
        heading = escape(_("Rules mentioned"))
        return f'<section id="rules"><h2>{heading}</h2><ul>{items}</ul></section>'


def _finding(finding: Finding, number: int, links: _RuleLinks) -> str:
    records = "".join(
        f"<li>{escape(r.where)} "
        + (f"{links.link(r.number, number)} " if r.number and _RULE.fullmatch(r.number) else "")
        + f"<code>{escape(r.id)}</code>"
        + f'<q class="excerpt"{_lang(r.language)}>{escape(r.excerpt)}</q></li>'
        for r in finding.records)
    if finding.more:
        records += "<li>" + escape(_("… and {count} more").format(count=finding.more)) + "</li>"
    lines = [
        f'<article class="finding sev-{finding.severity}" id="f-{number}">',
        f'<span class="sev">{escape(label(finding.severity))}</span>'
        f'<span class="check">{escape(finding.check)}</span>'
        f'<span class="message">{links.text(finding.message, number)}</span>',
        f'<ul class="records">{records}</ul>' if records else "",
    ]
    if finding.fix:
        lines.append('<p class="fix">' + escape(_("Fix:"))
                     + f" {links.text(finding.fix, number)}</p>")
    if finding.lookup:
        lines.append('<p class="lookup">' + escape(_("Look up:")) + " "
                     f'<code>{escape(finding.lookup)}</code></p>')
    lines.append("</article>")
    return "\n".join(line for line in lines if line)


def _heading(category: str) -> str:
    """A category's heading, in the interface language, escaped."""
    return escape(_(CATEGORIES[category]))


def _lang(language: str | None) -> str:
    """The quote's language when it is not the page's (the interface language)."""
    return f' lang="{escape(language)}"' if language and language != i18n.current() else ""
