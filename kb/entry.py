"""The ``kb`` console script and ``python -m kb``: the command line of :mod:`kb.cli`, started
without the cyclic garbage collector.

A command typed by hand imports some 150 modules before it answers. The collector ran again
and again over what they create, objects that live as long as the process (modules, classes,
functions, the index's candidates): 10 to 20 ms of a cold ``kb search`` of a word (about
230) and 50 of a 25-word question (about 600), in paired runs; most of it while ``kb.cli``
and click import, so it is turned off here, before them. A look-up
(:data:`kb.cli.LOOKUPS`) answers once and exits without it; every other command turns it back
on as it is resolved (:meth:`kb.cli.KbGroup.get_command`), so a build or the web server
collects as usual. Importing :mod:`kb.cli` (the tests, a program) changes nothing.
"""

from __future__ import annotations

import gc


def main() -> None:
    gc.disable()
    from kb.cli import main as command_line

    command_line()
