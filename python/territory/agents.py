"""Agents, matches between them, and the exact solver (docs/search.md).

- ``RandomAgent()`` plays uniformly random legal moves; ``Uct(iterations, c, seed,
  threads)`` is Monte Carlo tree search in Rust. Both have ``choose(state) -> str``;
  ``Uct`` also has ``analyse(state)``. Any object with ``choose(state) -> str`` can play
  a match too (its games then run in a Python loop).
- ``play_match(game, agents, games, seed)`` plays many games between two agents and
  summarises them (win rates with 95% Wilson intervals, Elo difference).
- ``solve(state)`` gives the exact value of a small position and its best moves.

Reproducibility: game ``i`` of a match seeded with ``s`` draws everything (random moves,
the seeds of the UCT searches) from ``(s, i)`` alone, so results do not depend on the
number of threads, and ``match_games(..., first, stop)`` plays any contiguous range of
game indices on its own: ranges played anywhere (threads, processes, a cluster through
``executor=``) and concatenated equal the whole match.
"""

from __future__ import annotations

import math
import os
import random
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from territory import _core, distributed, games, matches, registry
from territory._checks import available_memory, check_int, check_memory, check_threads
from territory._seeds import mix
from territory.errors import (  # noqa: F401 (their old home: ``territory.agents.X`` keeps working)
    AgentError, IllegalMoveError, NodeLimitError, SolveLimitError, StoppedError, TimeLimitError, excerpt,
)
from territory._results import rate_text, results_repr
from territory.matches import MATCH_FIELDS, play_agents  # noqa: F401 (play_agents: its old home)
from territory.matches import native as _is_native
from territory.matches import random_choice as _random_choice
from territory.playouts import BYTES_PER_GAME, MAX_THREADS, PlayoutResults, new_game, wilson_interval
from territory.registry import GAMES, game_names, is_native

#: The most iterations a UCT search may be given (the engine's bound).
MAX_UCT_ITERATIONS: int = _core.MAX_UCT_ITERATIONS

__all__ = [
    "AgentError",
    "SolveLimitError",
    "NodeLimitError",
    "TimeLimitError",
    "StoppedError",
    "Stop",
    "RandomAgent",
    "Uct",
    "Analysis",
    "Solution",
    "MatchResults",
    "parse_agent",
    "best_agent",
    "tuned_uct_c",
    "play_match",
    "match_games",
    "match_shard",
    "solve",
]

#: The memory a kept match game takes at the peak (``playouts.BYTES_PER_GAME`` and the
#: two more arrays, twice), and more with its actions (their array object, its offset
#: and at least one action).
BYTES_PER_MATCH_GAME = BYTES_PER_GAME + 4
BYTES_PER_ACTIONS = 128


#: A flag to stop searches from another thread: ``stop = Stop()``, pass ``stop=stop`` to
#: ``Uct.analyse`` or ``solve``, and ``stop.set()`` makes them raise ``StoppedError``
#: within milliseconds (docs/interrupts.md).
Stop = _core.Stop


#: A search's ``progress`` callback: ``progress(simulations done, best move so far or
#: None, the root's value for the player to move)``, called about every 0.1 s.
SearchProgress = Callable[[int, Optional[str], float], object]


def _check_stop(stop: Any, name: str = "stop") -> Optional[_core.Stop]:
    if stop is not None and not isinstance(stop, Stop):
        raise ValueError(f"{name} must be a territory.Stop or None, got {type(stop).__name__}")
    return stop


def _check_progress(progress: Any) -> Optional[SearchProgress]:
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be a function or None, got {type(progress).__name__}")
    return progress


@dataclass(frozen=True)
class Analysis:
    """A search's statistics at the root: per legal move (legal-move order) its visits
    and mean result in [-1, 1] for the player to move; ``value`` is the mean result of
    all iterations for that player."""

    moves: list[str]
    visits: list[int]
    values: list[float]
    value: float

    @property
    def best(self) -> str:
        """The most visited move (ties: the higher value, then the first listed)."""
        order = range(len(self.moves))
        return self.moves[max(order, key=lambda i: (self.visits[i], self.values[i], -i))]


class RandomAgent:
    """Uniformly random legal moves. ``seed`` drives ``choose`` when called directly;
    in ``play_match`` each game's moves come from the match seed instead."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = check_int("seed", seed, 0, 2**64 - 1)
        self._rng = random.Random(self.seed)

    def choose(self, state: Any) -> str:
        return _random_choice(state, self._rng.random())

    def _spec(self) -> tuple[Any, ...]:
        return ("random",)

    def _match_move(self, state: Any, rng: random.Random) -> str:
        """Its move in a match's game played in Python (``matches``): drawn from the
        game's generator."""
        return _random_choice(state, rng.random())

    def spec(self) -> str:
        """The agent spec string, ``"random"``."""
        return "random"

    def __repr__(self) -> str:
        return "RandomAgent()"


class Uct:
    """Monte Carlo tree search (UCT with random playouts) in Rust, GIL released.

    ``iterations`` playouts in all (at most ``MAX_UCT_ITERATIONS``, 10,000,000: the tree
    grows by up to about a hundred bytes per iteration), exploration constant ``c``
    (results count +1 win, 0 draw, -1 loss), root parallelism over ``threads`` trees.
    The same state, seed and threads always give the same analysis and choice. Ctrl-C
    stops a search within a fraction of a second (KeyboardInterrupt).
    """

    def __init__(self, iterations: int = 1000, c: float = 1.4, seed: int = 0, threads: int = 1) -> None:
        self.iterations = check_int("iterations", iterations, 1, MAX_UCT_ITERATIONS)
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not (math.isfinite(c) and c >= 0):
            raise ValueError(f"c must be a finite number >= 0, got {c!r}")
        self.c = float(c)
        self.seed = check_int("seed", seed, 0, 2**64 - 1)
        self.threads = check_int("threads", threads, 1, MAX_THREADS)

    def analyse(self, state: Any, seed: Optional[int] = None, *, stop: Optional[Stop] = None,
                finish: Optional[Stop] = None, progress: Optional[SearchProgress] = None) -> Analysis:
        """Searches ``state`` (not changed) and returns the root statistics. Setting
        ``stop`` (a ``territory.Stop``) from another thread ends the search with
        ``StoppedError``; setting ``finish`` (another one) ends it at once with the
        statistics it has (after at least 64 iterations per thread: "move now").
        ``progress(iterations, best, value)`` is called on this thread about every 0.1 s
        while a search of 1,000 iterations or more runs: the iterations done, the most
        visited move so far (of the first thread's tree) and the root's value for the
        player to move; its exception stops the search and is raised."""
        seed = self.seed if seed is None else check_int("seed", seed, 0, 2**64 - 1)
        moves, visits, values, value = _core.uct_analyse(state, self.iterations, self.c, seed, self.threads,
                                                         _check_stop(stop), _check_stop(finish, "finish"),
                                                         _check_progress(progress))
        return Analysis(moves, visits, values, value)

    def choose(self, state: Any, *, stop: Optional[Stop] = None, finish: Optional[Stop] = None,
               progress: Optional[SearchProgress] = None) -> str:
        """The most visited move of ``analyse(state, ...)``."""
        return self.analyse(state, stop=stop, finish=finish, progress=progress).best

    def _spec(self) -> tuple[Any, ...]:
        return ("uct", self.iterations, self.c, self.seed, self.threads)

    def _match_move(self, state: Any, rng: random.Random) -> str:
        """Its move in a match's game played in Python (``matches``): searched with a
        seed drawn from the game's generator."""
        return self.analyse(state, seed=mix(self.seed, rng.getrandbits(64))).best

    def spec(self) -> str:
        """The agent spec string of this search (``parse_agent(uct.spec())`` searches the
        same way; the seed and threads are not part of a spec)."""
        return f"uct:{self.iterations}" + ("" if self.c == 1.4 else f":c={self.c!r}")

    def __repr__(self) -> str:
        return f"Uct(iterations={self.iterations}, c={self.c}, seed={self.seed}, threads={self.threads})"


AgentLike = Union[str, RandomAgent, Uct, Any]

#: A board of a game, as its module's ``board_key`` hook names it (None: the one board).
BoardKey = Union[int, str, None]

def board_key(state: Any) -> tuple[str, BoardKey]:
    """``state``'s game and board, the key of ``tuned_uct_c``: the game module's
    ``board_key`` hook of its parameters (``territory.games``; Tabik's ``size``, Nume's
    ``n`` or ``"square N"``), None for a game of one board."""
    return state.game, games.hook(state.game, "board_key", _one_board)(state.params)


def _one_board(params: dict[str, Any]) -> BoardKey:
    return None


def tuned_uct_c(state: Any) -> float:
    """UCT's tuned exploration constant for ``state``'s game and board: the game module's
    ``TUNED_UCT_C`` (found by the sweep in docs/strength.md, ``python benches/learning.py
    sweep``); a board not swept takes its game's default board's, a game without the
    table 1.4."""
    game, key = board_key(state)
    table = games.hook(game, "TUNED_UCT_C", {})
    if key in table:
        return float(table[key])
    default = board_key(registry.new_game(game))[1]
    return float(table.get(default, 1.4))



#: The budget of ``best`` when a shipped model plays (PUCT simulations) and when UCT does
#: (iterations): the defaults of ``puct:MODEL`` and ``uct``.
BEST_SIMULATIONS, BEST_ITERATIONS = 400, 1000

SPEC_GRAMMAR = (
    "'random', 'uct[:N][:c=C]' (N iterations, default 1000; C a number >= 0 or 'tuned'), "
    "'puct:MODEL[:N][:c=C,rollout=R,expand=K,noise=F,temp=T]' (a trained model, N simulations, default 400) "
    "or 'best[:N]' (the strongest agent for the board)"
)


def spec_options(spec: str, text: str, allowed: dict[str, Callable[[str], Any]]) -> dict[str, Any]:
    """The ``key=value,key=value`` options of an agent spec (``text``), each read by its
    converter in ``allowed`` (which raises ValueError on a bad value); a clear
    ValueError naming ``spec`` for an unknown, repeated or malformed option."""
    options: dict[str, Any] = {}
    names = ", ".join(allowed)
    for item in text.split(","):
        key, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not key or not value:
            raise ValueError(f"agent {excerpt(spec)}: options are key=value separated by commas (keys: {names}), got {excerpt(item.strip())}")
        if key not in allowed:
            raise ValueError(f"agent {excerpt(spec)}: unknown option {excerpt(key)}; the options are {names}")
        if key in options:
            raise ValueError(f"agent {excerpt(spec)}: option {excerpt(key)} given twice")
        try:
            options[key] = allowed[key](value)
        except ValueError as error:
            raise ValueError(f"agent {excerpt(spec)}: {key}={value if len(value) <= 40 else excerpt(value)}: {error}") from None
    return options


def spec_number(value: str, low: float = -math.inf, high: float = math.inf) -> float:
    """A number of an agent spec's option, from ``low`` to ``high``."""
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"not a number: {excerpt(value)}") from None
    if not (math.isfinite(number) and low <= number <= high):
        bounds = f">= {low:g}" if high == math.inf else f"from {low:g} to {high:g}"
        raise ValueError(f"must be a number {bounds}, got {excerpt(value)}")
    return number


def spec_count(value: str, low: int = 1, high: int = MAX_UCT_ITERATIONS) -> int:
    """A whole number of an agent spec's option, from ``low`` to ``high``."""
    if not (value.isdigit() and len(value) <= 18 and low <= int(value) <= high):
        raise ValueError(f"must be a whole number from {low:,} to {high:,}, got {excerpt(value)}")
    return int(value)


def _uct_c(value: str) -> Any:
    return "tuned" if value == "tuned" else spec_number(value, 0.0)


def _need_start(spec: str, start: Any, what: str) -> Any:
    if start is None:
        raise ValueError(f"agent {excerpt(spec)}: {what} depends on the game and board, which are not known here "
                         "(give parse_agent a start state, start=...)")
    return start


def _parse_uct(spec: str, arg: str, start: Any) -> Uct:
    """``Uct`` from the part after ``uct:``: ``N``, ``N:OPTIONS`` or ``OPTIONS``
    (``c=C``, C a number >= 0 or ``tuned``)."""
    parts = arg.split(":")
    count = parts.pop(0) if "=" not in parts[0] else ""
    if len(parts) > 1 or (not count and not parts and "=" not in arg):
        raise ValueError(f"agent {excerpt(spec)}: expected 'uct', 'uct:N', 'uct:N:c=C' or 'uct:c=C' (N iterations)")
    options = spec_options(spec, parts[0], {"c": _uct_c}) if parts else {}
    if count and not (count.isdigit() and len(count) <= 18 and 1 <= int(count) <= MAX_UCT_ITERATIONS):
        raise ValueError(f"agent {excerpt(spec)}: the iterations after 'uct:' must be a whole number from 1 to "
                         f"{MAX_UCT_ITERATIONS}, like 'uct:2000', got {excerpt(count)}")
    c = options.get("c", 1.4)
    if c == "tuned":
        c = tuned_uct_c(_need_start(spec, start, "c=tuned"))
    return Uct(iterations=int(count) if count else 1000, c=c)


def best_agent(start: Any, budget: Optional[int] = None) -> Any:
    """The strongest agent for ``start``'s game and board: a shipped model trained on
    this board (its game and parameters all equal), as ``Puct`` with ``budget``
    simulations (default ``BEST_SIMULATIONS``), else ``Uct`` with the tuned ``c``
    (``tuned_uct_c``) and ``budget`` iterations (default ``BEST_ITERATIONS``). A model
    whose meta says ``"best": false`` is left out: it ships for its analysis (margin,
    ownership) but was measured weaker than that UCT (docs/strength.md)."""
    from territory.model import Model, shipped_models

    for name in shipped_models():
        model = Model.load(name)
        if (model.meta.get("best", True) and model.meta.get("game") == start.game
                and model.meta.get("params") == dict(start.params) and model.fits(start)):
            from territory.puct import Puct

            return Puct(name, BEST_SIMULATIONS if budget is None else budget)
    return Uct(iterations=BEST_ITERATIONS if budget is None else budget, c=tuned_uct_c(start))


def parse_agent(spec: AgentLike, *, factories: bool = False, start: Any = None) -> Any:
    """An agent from a spec string (docs/search.md, "Agent specs"): ``"random"``,
    ``"uct[:N][:c=C]"`` (N iterations, default 1000; ``c=tuned``: ``tuned_uct_c``),
    ``"puct:MODEL[:N][:c=C,rollout=R,expand=K,noise=F,temp=T]"`` (``territory.Puct`` with a
    model file or shipped model name and N simulations, default 400) or
    ``"best[:N]"`` (``best_agent``), case (except the model's path) and surrounding
    spaces ignored; an object with ``choose`` is returned as it is. ``c=tuned`` and
    ``best`` need the game: ``start`` (a state of it). With ``factories=True``
    (``evaluate``), a callable without ``choose`` (a factory ``f(seed) -> agent``) is
    returned as it is too."""
    if not isinstance(spec, str):
        if callable(getattr(spec, "choose", None)) or (factories and callable(spec)):
            return spec
        what = "an object with choose(state)" + (", or a factory f(seed) -> agent" if factories else "")
        raise ValueError(f"an agent must be a spec string like 'uct:2000' or 'random', or {what}, got {excerpt(spec)}")
    kind, sep, arg = spec.strip().lower().partition(":")
    try:
        if kind == "random" and not sep:
            return RandomAgent()
        if kind == "uct":
            return _parse_uct(spec, arg, start) if sep else Uct()
        if kind == "best":
            if sep and not (arg.isdigit() and len(arg) <= 18 and 1 <= int(arg) <= MAX_UCT_ITERATIONS):
                raise ValueError(f"agent {excerpt(spec)}: the budget after 'best:' must be a whole number from 1 to "
                                 f"{MAX_UCT_ITERATIONS}, got {excerpt(arg)}")
            return best_agent(_need_start(spec, start, "'best'"), int(arg) if sep else None)
        if kind == "puct" and sep:
            from territory.puct import parse_puct

            return parse_puct(spec, spec.strip().partition(":")[2])
    except ValueError as error:
        message = str(error)
        if not message.startswith("agent "):
            message = f"agent {excerpt(spec)}: {message}"
        raise ValueError(message) from None
    raise ValueError(f"unknown agent spec {excerpt(spec)}: expected {SPEC_GRAMMAR}")


def _is_deterministic(agent: Any) -> bool:
    """Whether ``agent`` plays the same move in a position whatever the seed: a
    ``territory.Puct`` without root noise whose leaves are valued by the network
    alone."""
    from territory.puct import Puct

    return (type(agent) is Puct and not agent.noise_fraction and agent.rollout_weight == 0
            and agent.expansion_visits == 1)


@dataclass
class MatchResults(PlayoutResults):
    """The outcome of a match: the arrays of ``PlayoutResults`` by seat (``winner`` is a
    seat) plus ``agent_winner`` (int8: agent 0, 1, or -1 for a draw) and
    ``seats_swapped`` (bool: agent 0 sat in seat 1); ``agent_wins`` is (wins of agent
    0, wins of agent 1, draws). ``summary()`` adds each agent's win rate with a 95%
    Wilson interval and the Elo difference of agent 0 over agent 1 with its interval."""

    agents: tuple[str, str] = ("", "")
    agent_winner: Optional[np.ndarray] = None
    seats_swapped: Optional[np.ndarray] = None
    agent_wins: tuple[int, int, int] = (0, 0, 0)
    #: Each game's action numbers (a uint32 array per game, in game-index order, from
    #: the start state on), or None with ``keep_actions=False``.
    actions: Optional[list[np.ndarray]] = None

    def __repr__(self) -> str:
        s = self.summary()
        rates = "; ".join(
            f"agent {k} {self.agents[k]} wins {rate_text(s[f'agent{k}_win_rate'], s[f'agent{k}_win_rate_ci95'])}"
            for k in range(2)
        )
        return results_repr(self, f"{rates}; {self.agent_wins[2]:,} draws")

    def summary(self) -> dict[str, Any]:
        out = super().summary()
        w0, w1, draws = self.agent_wins
        n = w0 + w1 + draws
        out["agents"] = list(self.agents)
        out["agent_wins"] = [w0, w1, draws]
        for k, wins in ((0, w0), (1, w1)):
            score = wins + 0.5 * draws
            out[f"agent{k}_win_rate"] = score / n if n else math.nan
            out[f"agent{k}_win_rate_ci95"] = wilson_interval(score, n)
        rate, (low, high) = out["agent0_win_rate"], out["agent0_win_rate_ci95"]
        out["elo_difference"] = _elo(rate)
        out["elo_ci95"] = (_elo(low), _elo(high))
        return out


def _elo(p: float) -> float:
    """The Elo difference whose expected score is ``p`` (infinite at 0 and 1)."""
    if math.isnan(p):
        return math.nan
    if p <= 1e-12:
        return -math.inf
    if p >= 1 - 1e-12:
        return math.inf
    return 400 * math.log10(p / (1 - p))


def start_state(game: Any, params: dict[str, Any]) -> Any:
    """A copy of the state to play from: a new game of a name (a key of
    ``territory.GAMES``) with ``params``, or a copy of a native state (its position, as
    played or set up by ``from_position``). Refused: parameters with a state, a finished
    state, anything else."""
    if isinstance(game, str):
        return new_game(game, **params)
    if is_native(game):
        if params:
            raise ValueError("game parameters are only taken with a game name, not with a state")
        if game.is_over:
            raise ValueError("the start state's game is over")
        return game.copy()
    raise ValueError(f"game must be {game_names()} or a native state, got {game!r}")


def match_games(
    game: Any,
    agents: Sequence[AgentLike],
    seed: int,
    first: int,
    stop: int,
    swap_seats: bool = True,
    threads: Optional[int] = None,
    keep_actions: bool = False,
    **params: Any,
) -> dict[str, np.ndarray]:
    """Plays games ``first .. stop`` of the match ``play_match(game, agents, ...,
    seed=seed, swap_seats=swap_seats, **params)`` and returns their per-game arrays
    (``MATCH_FIELDS``). The arrays of consecutive ranges, concatenated, equal those of
    the whole match: this is the unit of work to shard a match over processes or
    machines. With ``keep_actions`` also ``actions`` (uint32, the games' action numbers
    one game after the other, from the start state on) and ``offsets`` (uint64, one more
    than the games: game ``first + i`` is ``actions[offsets[i]:offsets[i + 1]]``)."""
    start = start_state(game, params)
    pair = [parse_agent(a, start=start) for a in agents]
    if not 0 <= first <= stop:
        raise ValueError(f"need 0 <= first <= stop, got {first} and {stop}")
    return matches.match_shard(start, pair, seed, swap_seats, threads, keep_actions, first, stop)


def match_shard(
    start: Any, agents: Sequence[Any], seed: int, swap_seats: bool, threads: Optional[int], keep_actions: bool, first: int, stop: int
) -> dict[str, np.ndarray]:
    """``match_games`` with the range last. ``play_match`` itself gives an executor
    ``matches.match_shard``, for parsed agents, which calls nothing above it."""
    return match_games(start, agents, seed, first, stop, swap_seats, threads, keep_actions)


def play_match(
    game: Any,
    agents: Sequence[AgentLike],
    games: int,
    seed: int = 0,
    threads: Optional[int] = None,
    swap_seats: bool = True,
    executor: Optional[Executor] = None,
    *,
    progress: Optional[Callable[[int, int, float], None]] = None,
    keep_actions: bool = True,
    keep_games: bool = True,
    shard_size: Optional[int] = None,
    **params: Any,
) -> MatchResults:
    """Plays ``games`` games of ``game`` (a name with its ``params``, or a native state
    to start from) between two agents: spec strings (``"random"``, ``"uct:2000"``),
    ``RandomAgent``/``Uct`` objects (the games then run in Rust, in parallel on
    ``threads`` threads, None: every core, GIL released) or any objects with
    ``choose(state) -> str`` (then in a Python loop, and ``threads`` is not used). With
    ``swap_seats`` agent 0 sits in seat 0 in even-numbered games and in seat 1 in odd
    ones. ``result.actions`` holds each game's action numbers (``keep_actions=False``:
    None, to save memory on long runs). ``keep_games=False`` keeps only the counts
    behind ``summary()`` and ``agent_wins`` (the per-game arrays and actions are None),
    so memory stays flat however many games are played; with ``keep_games`` a match
    whose results would not fit in the memory available is refused (ValueError).

    The same seed gives the same results for any ``threads`` and any ``executor``.
    ``executor`` (any ``concurrent.futures.Executor``) runs shards of ``shard_size``
    games (``match_shard``) through ``distributed.run_sharded``, on ``threads`` threads
    each (None: 1); a failed shard raises ``distributed.ShardError``.
    ``progress(done, total, seconds)`` is called between batches (as shards finish);
    Ctrl-C stops a match within a fraction of a second with KeyboardInterrupt
    (cancelling the shards not yet finished).
    """
    games = check_int("games", games, 0, 2**62)
    seed = check_int("seed", seed, 0, 2**64 - 1)
    threads = check_threads(threads)
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be callable (done, total, seconds), got {type(progress).__name__}")
    if len(agents) != 2:
        raise ValueError(f"agents must be two agents, got {len(agents)}")
    start = start_state(game, params)
    pair = [parse_agent(a, start=start) for a in agents]
    distinct = 2 if swap_seats else 1
    if games > distinct and all(_is_deterministic(a) for a in pair):
        raise ValueError(
            f"both agents are deterministic (Puct without noise), so the {games} games would be copies of "
            f"{distinct}: give a Puct noise_fraction > 0 (territory.Puct(..., noise_fraction=0.25)), or play "
            "from random openings (territory.train.match_from_openings)"
        )
    for agent in pair:
        if getattr(agent, "model", None) is not None and _is_native(agent):
            agent.model.check_fits(start)
    result = MatchResults(start.game, dict(start.params), seed, games, agents=(repr(pair[0]), repr(pair[1])))
    began = time.perf_counter()
    keep_games = bool(keep_games)
    keep = bool(keep_actions) and keep_games
    if keep_games:
        check_memory(f"keeping the results of {games:,} games", games * (BYTES_PER_MATCH_GAME + keep * BYTES_PER_ACTIONS),
                     "pass keep_games=False to keep only the counts behind summary() (flat memory)")
    kept: list[dict[str, np.ndarray]] = []
    wins = np.zeros(3, dtype=np.int64)

    def take(part: dict[str, np.ndarray]) -> None:
        result._tally.add(part)
        wins[:] += np.bincount(part["agent_winner"].astype(np.int64) % 3, minlength=3)
        if keep_games:
            kept.append(part)

    if executor is not None and games:
        native_random = all(type(a) is RandomAgent for a in pair)
        distributed.run_sharded(
            executor, matches.match_shard, (start, pair, seed, swap_seats, 1 if threads is None else threads, keep),
            games, each=take, shard_size=shard_size, progress=progress,
            max_shard=distributed.MAX_SHARD if native_random else 64,
        )
    else:
        for part in distributed.in_batches(
            lambda first, stop: matches.match_shard(start, pair, seed, swap_seats, threads, keep, first, stop),
            games, first=2, largest=1 << 16, slow=0.5, progress=progress,
        ):
            take(part)
    if keep_games:
        merged = concat_match_parts(kept or [matches.match_shard(start, pair, seed, swap_seats, 1, keep, 0, 0)])
        for name in MATCH_FIELDS:
            setattr(result, name, merged[name])
        if keep:
            offsets = merged["offsets"].astype(np.int64)
            result.actions = [merged["actions"][a:b] for a, b in zip(offsets[:-1], offsets[1:])]
    result.agent_wins = (int(wins[0]), int(wins[1]), int(wins[2]))
    result.seconds = time.perf_counter() - began
    return result


def concat_match_parts(parts: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The arrays of consecutive ranges of a match (``match_games``), in index order, as
    one range's: arrays concatenated, ``offsets`` (when kept) shifted to the merged
    ``actions``."""
    merged = {name: np.concatenate([p[name] for p in parts]) for name in MATCH_FIELDS}
    if parts and "offsets" in parts[0]:
        shifted, base = [np.zeros(1, dtype=np.uint64)], 0
        for p in parts:
            shifted.append(p["offsets"][1:] + np.uint64(base))
            base += len(p["actions"])
        merged["actions"] = np.concatenate([p["actions"] for p in parts])
        merged["offsets"] = np.concatenate(shifted)
    return merged


@dataclass(frozen=True)
class Solution:
    """The exact value of a position: ``value`` +1 (win), 0 (draw), -1 (loss) for the
    player to move with perfect play by both; ``best_moves`` every move achieving it;
    ``move_values`` each legal move with its value (for the player to move); ``nodes``
    the positions searched; ``table_bytes`` the transposition table's memory at its
    largest."""

    value: int
    best_moves: list[str]
    move_values: dict[str, int] = field(default_factory=dict)
    nodes: int = 0
    table_bytes: int = 0


#: The smallest table budget ``solve`` accepts (bytes).
MIN_SOLVE_MEMORY = 2**20

#: The deepest ``order_depth`` of ``solve``.
MAX_ORDER_DEPTH = 10_000


def default_solve_memory() -> int:
    """Half of the memory available now (``MemAvailable`` on Linux; 1 GiB where it cannot
    be read): the default table budget of ``solve``."""
    available = available_memory()
    return 2**30 if available is None else max(MIN_SOLVE_MEMORY, available // 2)


def machine_memory() -> int:
    """The machine's physical memory in bytes (2**62 where it cannot be read): the
    largest table budget ``solve`` accepts."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 2**62


def _ordering_network(order: Any, state: Any) -> Any:
    """The engine's network of ``solve``'s ``order``, checked against ``state``."""
    from territory.model import Model

    model = getattr(order, "model", order)
    if not isinstance(model, Model):
        if not isinstance(model, (str, os.PathLike)):
            raise ValueError(f"order must be a Model, a Puct, a shipped model's name or a file, got {type(order).__name__}")
        model = Model.load(model)
    model.check_fits(state)
    return model.network()


def solve(state: Any, max_nodes: Optional[int] = None, *, memory: Optional[int] = None,
          time_limit: Optional[float] = None, progress: Optional[Callable[[int, int, float], Any]] = None,
          stop: Optional[Stop] = None, order: Any = None, order_depth: int = 6) -> Solution:
    """Solves ``state`` exactly by negamax with alpha-beta and a transposition table keyed
    up to the board's symmetries (docs/search.md), on a worker thread with the GIL
    released. Feasible on small boards only (docs/solved.md).

    ``memory`` bounds the table in bytes (default: half of the available memory,
    ``default_solve_memory()``; at most the machine's memory); a search that outgrows it goes on, replacing the
    entries worth least (it only repeats work). ``time_limit`` (seconds) and
    ``max_nodes`` (positions) stop it with ``TimeLimitError`` / ``NodeLimitError``
    (both ``SolveLimitError``, carrying ``nodes``, ``table_bytes`` and ``seconds``).
    Ctrl-C stops it within a fraction of a second with ``KeyboardInterrupt``, and setting
    ``stop`` (a ``territory.Stop``) from another thread with ``StoppedError``.
    ``progress(nodes, table_bytes, seconds)`` is called about once a second while it
    runs. Raises ``ValueError`` if the game is over.

    ``order`` (a trained model for this game: a ``Model``, a ``Puct``, a shipped
    model's name or a file) orders the moves of every position less than
    ``order_depth`` moves deep by the network's policy, most promising first: the same
    value and best moves, usually from fewer positions (docs/solved.md)."""
    if max_nodes is not None:
        max_nodes = check_int("max_nodes", max_nodes, 1, 2**63)
    if memory is not None:
        check_int("memory", memory, MIN_SOLVE_MEMORY, 2**62)
        if memory > machine_memory():
            raise ValueError(f"memory {memory:,} bytes is more than this machine has ({machine_memory():,} bytes)")
    else:
        memory = default_solve_memory()
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0 < time_limit < 1e12:
            raise ValueError(f"time_limit must be a number of seconds > 0, or None for no limit, got {time_limit!r}")
        time_limit = float(time_limit)
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be callable, got {type(progress).__name__}")
    _check_stop(stop)
    if not is_native(state):
        names = ", ".join(f"territory.{cls.__name__}" for cls in GAMES.values())
        raise ValueError(f"solve needs a native game state ({names}), got {type(state).__name__}")
    order_depth = check_int("order_depth", order_depth, 0, MAX_ORDER_DEPTH)
    network = None if order is None else _ordering_network(order, state)
    value, best, move_values, nodes, table_bytes = _core.solve(state, max_nodes, memory, time_limit, progress, stop,
                                                               network, order_depth)
    return Solution(value, best, dict(move_values), nodes, table_bytes)
