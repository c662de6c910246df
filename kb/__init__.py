"""kb: the bilingual Magic: The Gathering rules knowledge base."""
