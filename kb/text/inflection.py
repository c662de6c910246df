"""English verbs whose forms no stemmer joins: ``leaves`` and ``left``, ``deals`` and ``dealt``,
``loses`` and ``lost``. Snowball strips endings, so ``leave``, ``leaves`` and ``leaving`` meet
at ``leav`` but ``left`` stays ``left``; a question about a token that "leaves the battlefield"
then misses 111.8 ("a token that has left the battlefield"). The table below is data: one
verb a line, its base form first, then its past and past participle as the dictionary gives
them (irregular verbs of general English; a form that is also a common word of the rules in
another sense is left out: ``fly``/``flew`` would pull Flying into every "flew", ``lie``/
``lay``, ``do``/``did``/``have``/``be`` are question and stop words).
"""

from __future__ import annotations

IRREGULAR_VERBS = """
arise arose arisen
awake awoke awoken
bear bore borne
become became
begin began begun
bend bent
bind bound
bite bit bitten
bleed bled
break broke broken
breed bred
bring brought
build built
buy bought
catch caught
choose chose chosen
come came
deal dealt
dig dug
draw drew drawn
drive drove driven
eat ate eaten
fall fell fallen
feed fed
feel felt
fight fought
find found
flee fled
forbid forbade forbidden
foresee foresaw foreseen
forget forgot forgotten
freeze froze frozen
get got gotten
give gave given
go went gone
grow grew grown
hide hid hidden
hold held
keep kept
know knew known
lead led
leave left
lend lent
lose lost
make made
mean meant
meet met
overcome overcame
pay paid
redraw redrew redrawn
ride rode ridden
rise rose risen
run ran
say said
see saw seen
seek sought
sell sold
send sent
shake shook shaken
shoot shot
sleep slept
slay slew slain
speak spoke spoken
spend spent
spin spun
stand stood
steal stole stolen
strike struck stricken
swear swore sworn
sweep swept
swing swung
take took taken
teach taught
tear tore torn
tell told
think thought
throw threw thrown
undergo underwent undergone
understand understood
undo undid undone
wake woke woken
wear wore worn
weave wove woven
win won
withdraw withdrew withdrawn
write wrote written
"""


def verbs() -> list[tuple[str, ...]]:
    """The table: each verb's forms, base form first."""
    return [tuple(line.split()) for line in IRREGULAR_VERBS.strip().splitlines()]
