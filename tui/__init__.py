"""The interface: the command line (cli, commands/) and the two Textual apps, the dashboard (app) and browse."""
