"""``python -m kb``: the same as the ``kb`` command."""

from kb.entry import main

main()
