"""Screens pushed over the apps: detail, help, export, compare and what it opens (diff, Pareto, ...)."""
