"""Collection: one build tree to project results (discovery, mapping, configuration, the runs, the engine)."""
