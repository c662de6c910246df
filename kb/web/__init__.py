"""``kb serve``: the knowledge base as a local, read-only web site and JSON API.

:mod:`kb.web.app` assembles the Starlette application; :mod:`kb.web.readers` keeps one reader
of the current index generation per worker thread and follows ``kb build``'s swaps;
:mod:`kb.web.data` gathers what a page needs from the domain modules; :mod:`kb.web.pages`
and :mod:`kb.web.jsonapi` answer HTML and JSON; :mod:`kb.web.render` escapes corpus text.
"""
