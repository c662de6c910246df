"""The names of the files in a generation's ``search/`` folder.

The writer makes them and the searcher reads them; the names live here so that a search (a new
process per ``kb search``) does not import the writer.
"""

SEARCH_DIR = "search"
VOCABULARY_FILE = "vocabulary.json"  # kb.index.vocabulary
# Segment id -> [the newest rules version it holds texts of (None: none), whether it holds
# unversioned documents, the oldest version]: which segments a search of one version opens,
# and whether it needs a version filter there.
VIEWS_FILE = "views.json"
