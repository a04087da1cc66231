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

from territory import _core, distributed
from territory._checks import available_memory, check_int, check_memory, check_threads
from territory._seeds import mix
from territory.errors import IllegalMoveError
from territory._results import rate_text, results_repr
from territory.playouts import BYTES_PER_GAME, FIELDS, MAX_THREADS, PlayoutResults, new_game, wilson_interval
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
    "play_match",
    "match_games",
    "match_shard",
    "solve",
]

#: The per-game arrays of a match: those of random playouts, plus the winning agent
#: (0, 1, or -1 for a draw) and whether agent 0 sat in seat 1.
MATCH_FIELDS = FIELDS + ("agent_winner", "seats_swapped")
#: The memory a kept match game takes at the peak (``playouts.BYTES_PER_GAME`` and the
#: two more arrays, twice), and more with its actions (their array object, its offset
#: and at least one action).
BYTES_PER_MATCH_GAME = BYTES_PER_GAME + 4
BYTES_PER_ACTIONS = 128


class SolveLimitError(RuntimeError):
    """``solve`` stopped at a limit before solving the position. ``nodes`` (positions
    searched), ``table_bytes`` (transposition table memory) and ``seconds`` tell how far
    it got."""

    def __init__(self, message: str, nodes: int = 0, table_bytes: int = 0, seconds: float = 0.0) -> None:
        super().__init__(message)
        self.nodes, self.table_bytes, self.seconds = nodes, table_bytes, seconds

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class NodeLimitError(SolveLimitError):
    """``solve`` visited more positions than its ``max_nodes`` allowed."""


class TimeLimitError(SolveLimitError):
    """``solve`` ran longer than its ``time_limit``."""


class StoppedError(RuntimeError):
    """A search (``Uct.analyse``, ``solve``) stopped because its ``stop`` was set."""


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


class AgentError(RuntimeError):
    """An agent of a match failed: it raised, returned a non-string or an illegal move.
    The message names the agent, the game index and the position (its move list)."""


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

    def __repr__(self) -> str:
        return "RandomAgent()"


def _random_choice(state: Any, u: float) -> str:
    moves = state.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    return str(moves[int(u * len(moves))])


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

    def __repr__(self) -> str:
        return f"Uct(iterations={self.iterations}, c={self.c}, seed={self.seed}, threads={self.threads})"


AgentLike = Union[str, RandomAgent, Uct, Any]


def parse_agent(spec: AgentLike, *, factories: bool = False) -> Any:
    """An agent from a spec string: ``"random"``, ``"uct"`` (1000 iterations),
    ``"uct:N"`` (N iterations) or ``"puct:MODEL:N"`` (``territory.Puct`` with a model
    file or shipped model name and N simulations, default 400), case (except the
    model's path) and surrounding spaces ignored; an object with
    ``choose`` is returned as it is. With ``factories=True`` (``evaluate``), a callable
    without ``choose`` (a factory ``f(seed) -> agent``) is returned as it is too."""
    if not isinstance(spec, str):
        if callable(getattr(spec, "choose", None)) or (factories and callable(spec)):
            return spec
        what = "an object with choose(state)" + (", or a factory f(seed) -> agent" if factories else "")
        raise ValueError(f"an agent must be a spec string like 'uct:2000' or 'random', or {what}, got {spec!r}")
    kind, sep, arg = spec.strip().lower().partition(":")
    if kind == "random" and not sep:
        return RandomAgent()
    if kind == "uct":
        if not sep:
            return Uct()
        if arg.isdigit() and int(arg) >= 1:
            return Uct(iterations=int(arg))
        raise ValueError(f"agent {spec!r}: the iterations after 'uct:' must be a positive whole number, like 'uct:2000'")
    if kind == "puct" and sep:
        from territory.puct import parse_puct

        return parse_puct(spec, spec.strip().partition(":")[2])
    raise ValueError(
        f"unknown agent spec {spec!r}: expected 'random', 'uct', 'uct:N' (N iterations) "
        "or 'puct:MODEL[:N]' (a trained model, N simulations)"
    )


def _is_deterministic(agent: Any) -> bool:
    """Whether ``agent`` plays the same move in a position whatever the seed: a
    ``territory.Puct`` without root noise whose leaves are valued by the network
    alone."""
    from territory.puct import Puct

    return (type(agent) is Puct and not agent.noise_fraction and agent.rollout_weight == 0
            and agent.expansion_visits == 1)


def _is_native(agent: Any) -> bool:
    """Whether the engine plays ``agent`` by itself (``RandomAgent``, ``Uct``,
    ``territory.Puct``): it describes itself with ``_spec()``."""
    return callable(getattr(agent, "_spec", None))


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
    pair = [parse_agent(a) for a in agents]
    if not 0 <= first <= stop:
        raise ValueError(f"need 0 <= first <= stop, got {first} and {stop}")
    if all(_is_native(a) for a in pair):
        specs = (pair[0]._spec(), pair[1]._spec())
        return dict(_core.run_match(start, specs, seed, first, stop - first, swap_seats, threads, keep_actions))
    return _python_match(start, pair, seed, first, stop, swap_seats, keep_actions)


def match_shard(
    start: Any, agents: Sequence[Any], seed: int, swap_seats: bool, threads: Optional[int], keep_actions: bool, first: int, stop: int
) -> dict[str, np.ndarray]:
    """``match_games`` with the range last: the unit of work ``play_match`` gives an
    executor (``distributed.run_sharded``). A pure function of its arguments."""
    return match_games(start, agents, seed, first, stop, swap_seats, threads, keep_actions)


def _python_match(start: Any, agents: list[Any], seed: int, first: int, stop: int, swap_seats: bool, keep_actions: bool = False) -> dict[str, np.ndarray]:
    """The games of a match with a Python agent, one at a time in a Python loop."""
    rows = []
    played: list[int] = []
    offsets = [0]
    before = len(start.history)
    for index in range(first, stop):
        seat0 = 1 if swap_seats and index % 2 == 1 else 0
        state = play_agents(start, agents, index, seat0, random.Random(mix(seed, index)))
        moves = state.history[before:]
        length = len(moves)
        passes = sum(state.is_pass(m) for m in moves)
        swapped = any(state.is_swap(m) for m in moves)
        winner = -1 if state.winner is None else state.winner
        agent_winner = -1 if winner == -1 else int(winner != seat0)
        rows.append((winner, length, passes, swapped, state.scores(), agent_winner, seat0 == 1))
        if keep_actions:
            played.extend(state.move_to_action(m) for m in moves)
            offsets.append(len(played))
    columns = list(zip(*rows)) if rows else [()] * 7
    extra: dict[str, np.ndarray] = {}
    if keep_actions:
        extra = {"actions": np.array(played, dtype=np.uint32), "offsets": np.array(offsets, dtype=np.uint64)}
    return {
        **extra,
        "winner": np.array(columns[0], dtype=np.int8),
        "length": np.array(columns[1], dtype=np.uint32),
        "passes": np.array(columns[2], dtype=np.uint32),
        "swapped": np.array(columns[3], dtype=bool),
        "scores": np.array(columns[4], dtype=np.float64).reshape(len(rows), 2),
        "agent_winner": np.array(columns[5], dtype=np.int8),
        "seats_swapped": np.array(columns[6], dtype=bool),
    }


def play_agents(start: Any, agents: Sequence[Any], index: int, seat0: int = 0, rng: Optional[random.Random] = None) -> Any:
    """The Python layer's one play-game loop (for agents that are Python objects; native
    pairs play in the engine, ``arena::play_game``): from a copy of ``start`` to the end,
    agent 0 playing seat ``seat0`` and agent 1 the other; returns the finished state.
    With ``rng`` (a match's game generator) ``RandomAgent`` and ``Uct`` draw their moves
    and search seeds from it, as in a match; without, every agent's ``choose`` is asked.
    A failing agent raises ``AgentError`` naming it, the game ``index`` and the
    position."""
    state = start.copy()
    while not state.is_over:
        k = 0 if state.to_move == seat0 else 1
        _agent_move(agents[k], k, state, rng, index)
    return state


def _agent_move(agent: Any, k: int, state: Any, rng: Optional[random.Random], index: int) -> str:
    """Asks agent ``k`` for its move in ``state`` and plays it; any failure is an
    AgentError naming the agent, the game and the position."""

    def where() -> str:
        moves = " ".join(state.history) or "(none)"
        return f"in game {index} after the moves: {moves}"

    if rng is not None and type(agent) is RandomAgent:
        move = _random_choice(state, rng.random())
    elif rng is not None and type(agent) is Uct:
        move = agent.analyse(state, seed=mix(agent.seed, rng.getrandbits(64))).best
    else:
        try:
            move = agent.choose(state.copy())
        except Exception as error:
            raise AgentError(f"agent {k} ({agent!r}) raised {type(error).__name__}: {error} {where()}") from error
        if not isinstance(move, str):
            raise AgentError(f"agent {k} ({agent!r}) returned {move!r}, not a move string, {where()}")
    try:
        state.play(move)
    except IllegalMoveError as error:
        raise AgentError(f"agent {k} ({agent!r}) chose the illegal move {move!r} {where()}: {error}") from error
    return move


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
    pair = [parse_agent(a) for a in agents]
    distinct = 2 if swap_seats else 1
    if games > distinct and all(_is_deterministic(a) for a in pair):
        raise ValueError(
            f"both agents are deterministic (Puct without noise), so the {games} games would be copies of "
            f"{distinct}: give a Puct noise_fraction > 0 (territory.Puct(..., noise_fraction=0.25)), or play "
            "from random openings (territory.train.match_from_openings)"
        )
    start = start_state(game, params)
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
            executor, match_shard, (start, pair, seed, swap_seats, 1 if threads is None else threads, keep),
            games, each=take, shard_size=shard_size, progress=progress,
            max_shard=distributed.MAX_SHARD if native_random else 64,
        )
    else:
        for part in distributed.in_batches(
            lambda first, stop: match_games(start, pair, seed, first, stop, swap_seats, threads, keep),
            games, first=2, largest=1 << 16, slow=0.5, progress=progress,
        ):
            take(part)
    if keep_games:
        merged = concat_match_parts(kept or [match_games(start, pair, seed, 0, 0, swap_seats, 1, keep)])
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
