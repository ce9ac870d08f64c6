"""Connect Four in plain Python, in the style of OpenSpiel's Python games
(``open_spiel/python/games/tic_tac_toe.py``): a state with ``current_player``,
``legal_actions``, ``apply_action``, ``is_terminal`` and ``returns``. No OpenSpiel import,
so the benchmark has a Python yardstick for Connect Four with or without OpenSpiel.

Actions are columns 0-6; player 0 moves first. A disc falls to the lowest empty cell of
its column; four in a row in any direction wins; a full grid is a draw. Like OpenSpiel's
C++ ``connect_four``, the game is over as soon as a line of four exists.
"""

from __future__ import annotations

ROWS = 6
COLS = 7
EMPTY = -1
TERMINAL = -4  # OpenSpiel's pyspiel.PlayerId.TERMINAL
LINES = ((0, 1), (1, 0), (1, 1), (1, -1))
"""The four directions a line can run in (row change, column change); each line is
counted both ways from the new disc."""


class ConnectFourState:
    """A Connect Four position; the board is a flat list, row 0 at the bottom."""

    def __init__(self) -> None:
        self.board = [EMPTY] * (ROWS * COLS)
        self.heights = [0] * COLS
        self._cur_player = 0
        self._winner = EMPTY
        self._is_terminal = False
        self._moves = 0

    # OpenSpiel API ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self._is_terminal else self._cur_player

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self._is_terminal:
            return []
        heights = self.heights
        return [c for c in range(COLS) if heights[c] < ROWS]

    def apply_action(self, action: int) -> None:
        row = self.heights[action]
        if self._is_terminal or row >= ROWS:
            raise ValueError(f"illegal action {action}")
        player = self._cur_player
        self.board[row * COLS + action] = player
        self.heights[action] = row + 1
        self._moves += 1
        if self._line_through(row, action, player):
            self._winner = player
            self._is_terminal = True
        elif self._moves == ROWS * COLS:
            self._is_terminal = True
        self._cur_player = 1 - player

    def is_terminal(self) -> bool:
        return self._is_terminal

    def returns(self) -> list[float]:
        if self._winner == 0:
            return [1.0, -1.0]
        if self._winner == 1:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def __str__(self) -> str:
        marks = {EMPTY: ".", 0: "x", 1: "o"}
        return "\n".join("".join(marks[self.board[r * COLS + c]] for c in range(COLS))
                         for r in reversed(range(ROWS)))

    # the rules ---------------------------------------------------------------------------
    def _line_through(self, row: int, col: int, player: int) -> bool:
        board = self.board
        for dr, dc in LINES:
            count = 1
            r, c = row + dr, col + dc
            while 0 <= r < ROWS and 0 <= c < COLS and board[r * COLS + c] == player:
                count += 1
                r += dr
                c += dc
            r, c = row - dr, col - dc
            while 0 <= r < ROWS and 0 <= c < COLS and board[r * COLS + c] == player:
                count += 1
                r -= dr
                c -= dc
            if count >= 4:
                return True
        return False


class ConnectFourGame:
    """The game object: ``new_initial_state()``, as OpenSpiel's games have."""

    def new_initial_state(self) -> ConnectFourState:
        return ConnectFourState()

    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        return COLS


def openspiel_python_game() -> object | None:
    """The same rules hosted as an OpenSpiel Python game (a ``pyspiel.Game`` whose states
    subclass ``pyspiel.State`` and implement ``_legal_actions``/``_apply_action``, as
    ``python_tic_tac_toe`` does), or None without OpenSpiel. Its playouts pay what
    OpenSpiel's machinery for Python games costs (action checks, history) on top of the
    rules; the rules themselves are ConnectFourState's, not numpy like python_tic_tac_toe."""
    try:
        import pyspiel
    except ImportError:
        return None
    game_type = pyspiel.GameType(
        short_name="python_connect_four_bench",
        long_name="Python Connect Four (Tabletop benchmarks)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={})
    game_info = pyspiel.GameInfo(num_distinct_actions=COLS, max_chance_outcomes=0,
                                 num_players=2, min_utility=-1.0, max_utility=1.0,
                                 utility_sum=0.0, max_game_length=ROWS * COLS)
    rules = ConnectFourState

    class OpenSpielConnectFourState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: object) -> None:
            super().__init__(game)
            rules.__init__(self)  # type: ignore[arg-type]

        def current_player(self) -> int:
            return pyspiel.PlayerId.TERMINAL if self._is_terminal else self._cur_player

        def _legal_actions(self, player: int) -> list[int]:
            return rules.legal_actions(self)  # type: ignore[arg-type]

        def _apply_action(self, action: int) -> None:
            rules.apply_action(self, action)  # type: ignore[arg-type]

        def _action_to_string(self, player: int, action: int) -> str:
            return f"{'xo'[player]}{action}"

        _line_through = rules._line_through
        is_terminal = rules.is_terminal
        returns = rules.returns
        __str__ = rules.__str__

    class OpenSpielConnectFourGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: dict | None = None) -> None:
            super().__init__(game_type, game_info, params or {})

        def new_initial_state(self) -> OpenSpielConnectFourState:
            return OpenSpielConnectFourState(self)

    return OpenSpielConnectFourGame()
