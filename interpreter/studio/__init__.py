"""Tabletop Studio: a designer's workbench in the browser (`tabletop studio`): edit a
ruleset and its tests, see the table, play, test, balance and read the rulebook."""
