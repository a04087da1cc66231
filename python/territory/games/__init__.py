"""What the Python side knows of each game beyond the engine's answers: how it looks and
how its moves are clicked, and its hand-worked test vectors.

Each game may have a module of its own here, ``territory.games.<name>`` (``<name>`` a key
of ``territory.GAMES``), found by that name; shared modules ask ``hook(game, name)`` and
never name a game. A game without a module, or a module without a hook, gets the shared
default. The hooks (all optional):

``diagram(board, position) -> str``
    the text diagram of ``str(state)`` from ``geometry.board_of(state)`` and
    ``state.board()`` (default: the position text);
``draw(drawing, state, board, marked, last)``
    the SVG picture's board, pieces and last-move marks (``territory.svg``; default:
    cells with stones, as ``svg.draw_stones``);
``ON_POINTS``
    True when stones of a square board stand on the intersections of a Go-like grid;
``shapes() -> [(polygon, colour)]``
    parts of the board that are not cells (drawn in heat maps too);
``click_paths(move, cells) -> [cells, ...]``
    the click sequences on the web board that select ``move`` (default: its cells in the
    engine's order);
``choice(state, move, clicks, entry)``
    fills the web page's entry (``label``, ``detail``, ``svg``) for one of several moves
    that the same clicks select;
``deciding_groups(state) -> [Group, ...]``
    at the end of a game, the groups the result turned on, ringed on the web board
    (default: the groups of the size the winner holds, its score, when that is not 0);
``WEB_GROUP_FIELDS``
    the names of the game's own fields of a group (``Group.extras``) the web page is
    sent with each group (default: none);
``HAND_WORKED``
    the move sequences of the rule tests, as crosscheck vectors:
    ``[(name, params, moves), ...]``;
``mirror_game(params, rng) -> moves | None``
    a game of special shape added to the random games of the vectors;
``scoring_tags(state) -> [tag, ...]``
    the crosscheck vector's tags of the scoring rule at ``state`` (default: those of a
    game whose colours' groups are counted by size, ``crosscheck.vectors.counted_tags``).
``board_key(params) -> key`` and ``TUNED_UCT_C``
    a game of several boards: the board its parameters make, as a key (an int or a
    string; default None, the one board), and UCT's exploration constant measured per
    board, ``{key: c}`` (``territory.agents.tuned_uct_c``; a board not in it plays the
    default board's, a game without it 1.4);
``komi_params(params, komi) -> params`` and ``KOMI_PARAMETERS``
    a game with a komi: its parameters with the signed komi ``komi`` (positive: added to
    the first colour's score, negative: to the second's; a ValueError for parameters
    that allow no fixed komi), and the parameters that sets (``territory.evaluate``'s
    ``fair_komi`` sweeps the first game that has them; default: no komi);
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from types import ModuleType
from typing import Any, Optional

from territory.registry import GAMES


#: The hooks a game's module may define (the module's docstring says what each is).
HOOKS = ("diagram", "draw", "ON_POINTS", "shapes", "click_paths", "choice", "deciding_groups", "WEB_GROUP_FIELDS",
         "HAND_WORKED", "mirror_game", "scoring_tags", "komi_params", "KOMI_PARAMETERS", "board_key", "TUNED_UCT_C")


@lru_cache(maxsize=None)
def module(game: str) -> Optional[ModuleType]:
    """The game's own module, None if it has none (or ``game`` is not a game)."""
    if game not in GAMES:
        return None
    try:
        return importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{game}":
            raise
        return None


def hook(game: str, name: str, default: Any = None) -> Any:
    """The game's hook ``name`` (one of ``HOOKS``), or ``default``."""
    if name not in HOOKS:
        raise ValueError(f"{name!r} is not a hook of territory.games: one of {', '.join(HOOKS)}")
    return getattr(module(game), name, default)
