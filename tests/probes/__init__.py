"""Reliability probes: hostile and broken inputs for the `tabletop` command.

`catalogue.py` lists the probes (what to write, what to run, what counts as correct);
`run.py` runs them in subprocesses and reports per category. See
`python -m tests.probes.run --help`.
"""
