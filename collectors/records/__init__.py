"""Records once they exist: their model and key, the sorted JSONL file, and the headless tools
over any producer's records (loading, the filter language, the column store and its writers)."""
