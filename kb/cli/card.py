"""``kb card``: one card in both languages with its rulings side by side."""

from __future__ import annotations

import click

from kb.cli._command import KbArgument, KbCommand
from kb.cli._output import echo_paged, emit_json, json_option, open_kb
from kb.i18n import _


@click.command("card", cls=KbCommand)
@click.argument("name", cls=KbArgument)
@json_option
@click.pass_context
def command(ctx: click.Context, name: str, as_json: bool) -> None:
    """Show card NAME (English or French, accents optional) in both languages, with its
    rulings side by side and the rules they cite."""
    with open_kb(ctx) as kb:
        view = kb.card(name)
    if as_json:
        emit_json(view)
        return
    lines = [view.name]
    for t in view.texts:
        dated = f", {t.date}" if t.date else ""
        lines += ["", f"[{t.language}] {t.name}  ({t.source['file']}:{t.source['line']}{dated})"]
        for face in t.faces:
            line = " ".join(filter(None, [face.get("mana_cost"), face.get("type_line")]))
            if len(t.faces) > 1 or face.get("name") != t.name:
                lines.append(f"  {face.get('name')}")
            if line:
                lines.append(f"  {line}")
            if face.get("text"):
                lines.append("  " + face["text"].replace("\n", "\n  "))
        if t.card_text:
            lines.append(f"  {t.card_text}")
    if view.rulings:
        lines += ["", _("Rulings:")]
    for pair in view.rulings:
        for side in (pair.en, pair.fr):
            if side is None:
                continue
            lines.append(f"  [{side.language}, {side.date or '-'}] {side.text}")
            if side is pair.en and len(pair.sources) > 1:  # one ruling, several publications
                lines.append("    published: " + "; ".join(
                    f"{s.date or '-'} {s.source['file']}:{s.source['line']}"
                    for s in pair.sources))
        lines.append("")
    if view.rules:
        lines.append(_("Rules cited: {numbers}").format(numbers=", ".join(view.rules)))
    echo_paged(lines)
