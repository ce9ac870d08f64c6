"""OpenSpiel's `resample_from_infostate`: a position drawn from what one seat knows.

OpenSpiel's information-set MCTS (`open_spiel.python.algorithms.ismcts.ISMCTSBot`) asks
a state for a position its player cannot tell from it, searches that position as if it
were the true one, and checks that the player's information-state string is the same.
The position is drawn as the engine's own `ismcts` player draws the positions it
searches (`interpreter.agents.information.draw_position`, one implementation):

- everything the seat's view shows is kept; every piece, value and secret choice it
  may not see is drawn anew, with a seed read from OpenSpiel's `probability_sampler`
  (two samplers giving different numbers give different draws); its later random draws
  are chance nodes, as every draw of the game is;
- its log is the log as the seat may read it, so the seat's view (and information
  state) is the true one's, and no other seat's view of it tells what the seat may
  not know (the true hidden facts never reach the resampled state);
- a guess the rules cannot go on from at once is drawn again (`draw_position`).

A guess can still be one the rules cannot go on from some decisions later: the view
does not say everything the log let a player remember (which of the cards a player
played face down it still holds, say). The engine's `ismcts` drops such a playout;
OpenSpiel's search cannot drop a simulation, so a guessed position (a resampled state
and every state reached from it) whose rules fail ends there, with no winner (every
return 0), its reason saying why. The true game never does: a rules error in a state
that was not guessed is raised as always.

A resampled state's history is empty: it starts at the drawn position, as
`state_from_engine` states do (the draws that would lead there are not known).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from interpreter.agents.information import draw_position
from interpreter.errors import RuleError

if TYPE_CHECKING:
    from interpreter.play.game import Game
    from interpreter.run.state import State

SEED_DRAWS = 2
"""Numbers read from the probability sampler for one seed (53 bits each)."""


def seed_from(probability_sampler: Callable[[], float]) -> int:
    """A 64-bit seed from OpenSpiel's sampler (a callable giving numbers in [0, 1))."""
    seed = 0
    for _ in range(SEED_DRAWS):
        seed = (seed << 53) ^ int(float(probability_sampler()) * (1 << 53))
    return seed & ((1 << 64) - 1)


def resampled_position(game: Game, state: State, seat: int,
                       probability_sampler: Callable[[], float]) -> State:
    """A position `seat` cannot tell from `state`, drawn with a seed from the sampler."""
    return draw_position(game, state, seat, seed_from(probability_sampler))


def end_if_impossible(apply: Callable[[], None], engine: Any) -> None:
    """Carry out an action of a guessed position (`apply`): if the rules cannot go on
    (the guess was impossible), the game of `engine` (the OpenSpiel state's engine
    holder) ends there with no winner (see the module's docstring)."""
    try:
        apply()
    except RuleError as exc:
        reason = str(exc).splitlines()[0]
    else:
        game, state = engine.compiled.game, engine.state
        if state is None or all(game.raw_options(state, s) for s in game.deciding_seats(state)):
            return
        reason = "a seat has no option at its decision"
    state = engine.to_change()
    state.over = True
    state.winners = []
    state.reason = f"a guessed position the rules could not go on from ({reason})"
