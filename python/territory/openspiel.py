"""The territory games as OpenSpiel games (docs/openspiel.md).

``import territory.openspiel`` registers every game of the registry (``territory.GAMES``)
with OpenSpiel as ``territory_<name>``, taking the game's parameters::

    import pyspiel  # type: ignore[import-not-found, unused-ignore]
    import territory.openspiel
    game = pyspiel.load_game("territory_tabik(size=6)")
    state = game.new_initial_state()

The states wrap a native state: legal actions, ``apply_action``, ``returns``, the
observation tensor, action strings (the canonical move strings) and ``str(state)`` all
come from the engine. Serialisation goes through the native position string
(docs/positions.md) and OpenSpiel's action history.

OpenSpiel parameters are ints, floats, strings or bools, never None: a parameter whose
default is None takes the value ``0`` for None (Nume's ``square=0`` is the hex board;
``komi=0`` is no komi, a komi being k + 0.5). Needs the ``openspiel`` extra
(``pip install territory-games[openspiel]``, which installs ``open_spiel``).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

try:
    import pyspiel  # type: ignore[import-not-found, unused-ignore]
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "territory.openspiel needs OpenSpiel: pip install 'territory-games[openspiel]' (or pip install open_spiel)"
    ) from error

from territory.registry import GAMES

#: The OpenSpiel name of each registered game: ``{"tabik": "territory_tabik", ...}``.
SHORT_NAMES: dict[str, str] = {game: f"territory_{game}" for game in GAMES}

#: The OpenSpiel value standing for a parameter's None.
NONE_VALUE = 0


def _cls(game: str) -> Any:
    """The native class of a game (typed loosely: the registry's classes are ``type``)."""
    return GAMES[game]


def _spec_default(param: dict[str, Any]) -> Any:
    """A parameter's default as an OpenSpiel parameter value (None becomes 0, of the kind
    the parameter takes otherwise)."""
    default = param["default"]
    if default is not None:
        return default
    return 0.0 if param["kind"].startswith("half point") else NONE_VALUE


def native_params(game: str, spiel_params: dict[str, Any]) -> dict[str, Any]:
    """The native constructor keywords for OpenSpiel parameter values (0 -> None where
    the parameter takes None)."""
    accepts_none = {p["name"] for p in _cls(game).parameters() if p["default"] is None or "None" in p["allowed"]}
    params = {}
    for name, value in spiel_params.items():
        if name in accepts_none and value == NONE_VALUE and not isinstance(value, bool):
            value = None
        params[name] = value
    return params


def game_type(game: str) -> Any:
    cls = _cls(game)
    return pyspiel.GameType(
        short_name=SHORT_NAMES[game],
        long_name=f"territory {game.capitalize()}",
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
        provides_observation_tensor=True,
        parameter_specification={p["name"]: _spec_default(p) for p in cls.parameters()},
    )


class _Native:
    """The native state inside an OpenSpiel state's ``__dict__``: OpenSpiel deep-copies
    it to clone a state (a native copy) and pickles it to serialise one (the parameters
    and the position string; the history is OpenSpiel's own)."""

    __slots__ = ("state",)

    def __init__(self, state: Any) -> None:
        self.state = state

    def __deepcopy__(self, _memo: Any) -> _Native:
        return _Native(self.state.copy())

    def __reduce__(self) -> tuple[Callable[..., _Native], tuple[str, dict[str, Any], str]]:
        return (_from_position, (self.state.game, self.state.params, self.state.position()))


def _from_position(game: str, params: dict[str, Any], position: str) -> _Native:
    return _Native(_cls(game).from_position(position, **params))


class TerritoryGame(pyspiel.Game):
    """One territory game with its parameters, as an OpenSpiel game."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spiel_params = {**self._type.parameter_specification, **(params or {})}
        self.native_params = native_params(self.game_name, spiel_params)
        start = _cls(self.game_name)(**self.native_params)  # ValueError for a bad value
        self._start = start
        info = pyspiel.GameInfo(
            num_distinct_actions=start.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=start.max_game_length,
        )
        super().__init__(self._type, info, params or {})

    def new_initial_state(self) -> TerritoryState:
        return TerritoryState(self, self._start.copy())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer | HistoryObserver:
        if params:
            raise ValueError(f"territory observers take no parameters, got {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return HistoryObserver()
        return Observer(self._start.observation_shape)

    def __reduce__(self) -> tuple[type[TerritoryGame], tuple[dict[str, Any]]]:
        return (type(self), (self.get_parameters(),))


class TerritoryState(pyspiel.State):
    """An OpenSpiel state over a native state (``native``)."""

    def __init__(self, game: TerritoryGame, native: Any) -> None:
        super().__init__(game)
        self._native = _Native(native)

    @property
    def native(self) -> Any:
        """The native territory state (do not change it behind OpenSpiel's back)."""
        return self._native.state

    def current_player(self) -> int:
        seat = self._native.state.to_move
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return self._native.state.legal_actions()  # type: ignore[no-any-return]

    def _apply_action(self, action: int) -> None:
        self._native.state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._native.state.action_to_move(action)  # type: ignore[no-any-return]

    def is_terminal(self) -> bool:
        return self._native.state.is_over  # type: ignore[no-any-return]

    def returns(self) -> list[float]:
        return list(self._native.state.returns())

    def __str__(self) -> str:
        return self._native.state.position()  # type: ignore[no-any-return]


class Observer:
    """OpenSpiel's observer for these games: the native ``observation(seat)`` planes,
    flattened; ``dict["observation"]`` is the same memory in the native shape."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: TerritoryState, player: int) -> None:
        self.dict["observation"][...] = state.native.observation(player)

    def string_from(self, state: TerritoryState, player: int) -> str:
        return state.native.position()  # type: ignore[no-any-return]


class HistoryObserver:
    """The information state (perfect recall): the actions played, as OpenSpiel's own
    perfect-information games give it (``state.history_str()``); no tensor."""

    tensor = np.zeros(0, np.float32)
    dict: dict[str, np.ndarray] = {}

    def set_from(self, state: TerritoryState, player: int) -> None:
        raise ValueError("territory games provide no information-state tensor: use observation_tensor")

    def string_from(self, state: TerritoryState, player: int) -> str:
        return state.history_str()  # type: ignore[no-any-return]


def _game_class(game: str) -> type[TerritoryGame]:
    return type(
        f"Territory{game.capitalize()}Game", (TerritoryGame,),
        {"game_name": game, "_type": game_type(game), "__doc__": f"{game.capitalize()} as an OpenSpiel game."},
    )


#: The OpenSpiel game class of each game, by name.
GAME_CLASSES: dict[str, type[TerritoryGame]] = {game: _game_class(game) for game in GAMES}
# Module attributes too (territory.openspiel.TerritoryTabikGame, ...), where pickle finds a class.
globals().update({cls.__name__: cls for cls in GAME_CLASSES.values()})


def _register() -> None:
    """Registers each game with OpenSpiel (once: importing again changes nothing)."""
    registered = set(pyspiel.registered_names())
    for game, cls in GAME_CLASSES.items():
        if SHORT_NAMES[game] not in registered:
            pyspiel.register_game(cls._type, cls)  # type: ignore[attr-defined]


_register()
