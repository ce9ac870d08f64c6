"""The balance report (`tabletop analyze`): many games of a ruleset's variants, seat
counts and agent matchups, summarised with confidence intervals and significance tests.

plan (what to play) → collect (play and total) → runner (spread over processes) →
summary (the JSON report and its comparisons) → charts and report (the HTML page).
"""
