"""Text handling shared by the parsers: decoding and normalization."""
