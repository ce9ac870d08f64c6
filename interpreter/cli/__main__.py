"""`python -m interpreter.cli` runs the `tabletop` command."""

from interpreter.cli.entry import main

main()
