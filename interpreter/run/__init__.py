"""The runtime library that a compiled game and its generated code call: plain-data
state, tables, the machine that advances a state, budgets, randomness and views."""
