"""Live collection: a collection kept current (the session, the watcher and its observers)."""
