"""Records once they exist: their model and key, the sorted JSONL file and its lock, validation
against the shipped schema, and the headless tools over any producer's records (reading,
following, the filter language, the column store and its writers)."""
