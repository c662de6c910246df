"""One module per source format. Each exposes ``FORMAT``, ``sniff(text) -> bool`` and
``parse(text, file) -> ParseResult``: pure functions of decoded text, no file or store access.
"""
