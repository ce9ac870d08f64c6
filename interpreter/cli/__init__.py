"""The `tabletop` command line: list, validate, schema, play, run, simulate, test."""
