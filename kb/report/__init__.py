"""The consistency report: where the rules literature disagrees with itself.

One module per category of check, each a pure function of a :class:`~kb.report.data.ReportData`
yielding :class:`~kb.report.finding.Finding` records:

1. :mod:`~kb.report.coverage`: what of the English has French text, and the reverse;
2. :mod:`~kb.report.agreement`: each French text against its English original;
3. :mod:`~kb.report.citations`: citations of rules that moved, vanished or never existed;
4. :mod:`~kb.report.terminology`: wording replaced by newer official wording;
5. :mod:`~kb.report.examples`: worked examples ``kb check`` does not confirm;
6. :mod:`~kb.report.ingest`: what the build could not read cleanly.

:func:`~kb.report.run.run` gathers them into a :class:`~kb.report.run.Report`, which
:mod:`~kb.report.render_text`, :mod:`~kb.report.render_json` and :mod:`~kb.report.render_html`
show.
"""
