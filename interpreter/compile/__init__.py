"""Compiling: resolve names, compile expressions, and build the program a Game runs."""
