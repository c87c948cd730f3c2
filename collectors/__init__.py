"""Headless collection engine: build trees to schema-1.0 JSON Lines records.

Nothing in this package imports Textual; the command line and the dashboard in
`tui/` sit on top of it.
"""
