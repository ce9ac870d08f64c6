"""Assembling a Game from a loaded ruleset: names, expressions and every primitive's
program put together (compile_game), checked, and the words for its parts."""
