"""The interface: the command line and (later) the Textual dashboard."""
