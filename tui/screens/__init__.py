"""Screens pushed over the apps: detail, help, export."""
