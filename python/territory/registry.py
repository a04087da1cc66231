"""The games, from the engine's own list (``territory._core.GAMES``), and one way to
build any of them by name: ``new_game(name, **params)``.

A new game needs no line here: the engine's registry (``rust/territory/src/games/registry.rs``)
lists it, and the native module exports every game it lists.
"""

from __future__ import annotations

from typing import Any, Mapping

from territory import _core
from territory.errors import excerpt
from territory.types import GameState

#: Every native game class by name, in name order: ``{"migong": Migong, ...}``.
GAMES: dict[str, type] = dict(_core.GAMES)


def is_native(state: Any) -> bool:
    """Whether ``state`` is a state of one of the native classes."""
    return type(state) in GAMES.values()


def game_names(games: Mapping[str, type] = GAMES) -> str:
    """The games' names for messages: "'migong', 'nume' or 'tabik'"."""
    names = [repr(name) for name in games]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def new_game(game: str, /, **params: Any) -> GameState:
    """A new native state of ``game`` (a key of ``territory.GAMES``) built with ``params``
    (the class's constructor keywords; missing ones take their defaults).

    Raises ValueError naming the problem (an unknown game, or a bad value: the engine's
    own message), and TypeError for an unknown parameter, as the class itself and
    Python do for an unexpected keyword."""
    return build(GAMES, game, params)


def build(games: Mapping[str, type], game: str, params: Mapping[str, Any]) -> GameState:
    """``new_game`` over a given registry (the native classes or the reference's)."""
    cls = games.get(game) if isinstance(game, str) else None
    if cls is None:
        raise ValueError(f"game must be one of {', '.join(games)}, got {game!r}")
    allowed = cls.default_params()  # type: ignore[attr-defined]
    for key in params:
        if key not in allowed:
            raise TypeError(f"unknown {game} parameter {excerpt(key)}; {game} takes the parameters {', '.join(allowed)}")
    state: GameState = cls(**params)
    return state
