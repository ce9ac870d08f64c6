"""Every ruleset in other frameworks' terms, with no code for any one game.

- `interpreter.adapters.openspiel`: a ruleset as a `pyspiel` game, registered as
  `tabletop_<name>` with its options and `players` as parameters (the bundled games
  when it is imported), its draws explicit chance nodes
  (`pip install 'tabletop[openspiel]'`).
- `interpreter.adapters.pettingzoo`: a ruleset as a PettingZoo AEC environment with
  action masks, wrapped as PettingZoo's board games (`env`) or bare (`raw_env`), and a
  ruleset with simultaneous decisions as a parallel environment (`parallel_env`)
  (`pip install 'tabletop[pettingzoo]'`).
- `interpreter.adapters.encoding`: what both share, and the contract they keep: fixed
  action ids derived from the ruleset's notation templates (the same notation has the
  same id in every position and process), fixed-size tensors built from a seat's view
  alone, and returns from the game's result. It needs neither framework.

Only the two framework modules import their framework (and numpy); importing one
without its extra installed raises an ImportError that names the extra. The guides in
`guides/openspiel.md` and `guides/pettingzoo.md` show both at work.
"""
