"""`python -m interpreter.cli` runs the `tabletop` command."""

from interpreter.cli.app import main

main()
