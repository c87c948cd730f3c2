"""Widgets shared by the dashboard and browse."""
