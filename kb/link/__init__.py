"""Relations between records: citations, versions, languages."""
