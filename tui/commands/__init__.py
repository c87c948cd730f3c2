"""The command line's commands: one module each (`add_parser`, `run`), their shared flags in `common`."""
