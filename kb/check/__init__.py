"""``kb check``: replay the worked examples of the corpus on the rules engine.

A scenario (TOML, see ``docs/scenarios.md``) names the examples it verifies, quoting each
one's claim, sets up a game state, takes actions and states the facts the claim asserts. The
engine (:mod:`kb.engine`) plays it under today's rules; every worked example of the index then
gets one status:

- ``verified``: every fact holds under today's rules;
- ``contradicted``: a fact differs (the claim and the computed value are both shown);
- ``era-dependent``: the facts hold only under the rules of the example's time (the scenario's
  ``era``), and the rule that changed is named;
- ``not checkable``: the scenario says why (pure timing, randomness, a definition);
- ``not modelled``: no scenario names it yet.

Which records are worked examples (:func:`select_examples`): every ``example`` record (the
parsers' "Example:", "Exemple :"); every ruling or note whose text gives an example ("for
example", "par exemple", "for instance", "e.g."); every note with claims (the keyword page's
commentary); every ruling the source files under a rules mechanic (the rulings list); and
every record a scenario names, a scenario being the judgement that its text states a concrete
outcome.

The package: :mod:`~kb.check.schema` (the format's vocabulary), :mod:`~kb.check.scenarios`
(loading), :mod:`~kb.check.runner` and :mod:`~kb.check.facts` (playing one scenario),
:mod:`~kb.check.examples` (selecting the worked examples), :mod:`~kb.check.statuses` (the
status of every example).
"""

from kb.check.examples import Example, select_examples
from kb.check.runner import Outcome, play
from kb.check.scenarios import Claim, Fact, Library, Scenario, load, scenario_files
from kb.check.schema import STATUSES
from kb.check.statuses import CheckReport, ExampleResult, check_examples, run_check

__all__ = ["STATUSES", "CheckReport", "Claim", "Example", "ExampleResult", "Fact", "Library",
           "Outcome", "Scenario", "check_examples", "load", "play", "run_check",
           "scenario_files", "select_examples"]
