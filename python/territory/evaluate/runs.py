"""Running the games of an analysis: agents, shards and traces (shared by ``evaluate``,
``fair_komi`` and ``openings``).

Random games run in Rust at playout speed and are the very games of ``random_playouts``
with the same seed: game ``i`` of a run draws from a generator seeded from ``(seed, i)``,
so a run can be cut into shards of game indices ``[start, stop)`` anywhere without
changing any result. UCT games run as native matches (``match_games``); other agents'
games are played move by move (``agents.play_agents``). Either way the games are measured
in Rust from their action lists (``trace_actions``). With an executor every kind of run
is split into shards by ``territory.distributed.run_sharded``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from territory import _core, distributed
from territory._seeds import GOLDEN, mix
from territory.agents import RandomAgent, Uct, match_games, parse_agent, play_agents
from territory.puct import Puct

Progress = Callable[[int, int, float], None]

#: Per-game fields of a trace (see rust/territory/src/bulk/metrics.rs).
TRACE_FIELDS = (
    "winner", "moves", "turns", "passes", "swapped", "branching_sum", "branching_sq_sum",
    "branching_max", "decisions", "lead_changes", "lead_sum", "lead_sq_sum", "drama_sum",
    "drama_max", "decisive_at", "final_lead", "scores",
)


#: At most this many games per call: ``evaluate`` keeps every game's trace in memory
#: (about 100 bytes a game), and the other analyses count games per branch.
MAX_GAMES = 10**8


def _parse(agent: Any, what: str = "an analysis", start: Any = None) -> Any:
    """``agents.parse_agent`` taking factories ``f(seed) -> agent`` too (``start``: the
    state the games start from); a ``Puct`` as the analysis ``what`` plays it (with root
    noise: ``Puct.for_analysis``)."""
    agent = parse_agent(agent, factories=True, start=start)
    return agent.for_analysis(what) if type(agent) is Puct else agent


def _agent_for(agent: Any, seed: int) -> Any:
    """The agent to use with ``seed``: a factory makes a new one; a given agent object
    is used as it is (then only its own randomness varies games)."""
    if hasattr(agent, "choose"):
        return agent
    return agent(seed)


def agent_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the agent a factory makes for ``seat`` of game ``index``."""
    return mix(seed, index, seat, start=GOLDEN)


def _agent_name(agent: Any) -> str:
    if type(agent) is RandomAgent:
        return "random"
    if type(agent) is Uct:
        return agent.spec() if (agent.seed, agent.threads) == (0, 1) else repr(agent)
    if type(agent) is Puct and agent.source:
        return f"puct:{agent.source}:{agent.iterations}"
    return str(getattr(agent, "name", type(agent).__name__))


def _is_random(agent: Any) -> bool:
    return type(agent) is RandomAgent


def _concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}


def _run_sharded(
    work: Callable[[int, int], dict[str, np.ndarray]],
    total: int,
    *,
    executor: Any = None,
    progress: Progress | None = None,
    shard: int | None = None,
    first_batch: int = 64,
    max_shard: int = distributed.MAX_SHARD,
    done_before: int = 0,
    grand_total: int | None = None,
) -> dict[str, np.ndarray]:
    """Runs ``work(start, stop)`` over ``[0, total)`` and concatenates the per-game
    arrays in game order. Locally: batches of about 0.2 s from ``first_batch`` games on
    (or of ``shard`` games), Ctrl-C and progress between batches; with an executor:
    ``distributed.run_sharded`` (shards of ``shard`` games, default about 8 per worker
    thread and at most ``max_shard``)."""
    grand_total = total if grand_total is None else grand_total
    report = None
    if progress is not None:
        report = lambda done, _total, seconds: progress(done_before + done, grand_total, seconds)  # noqa: E731
    if executor is not None and total:
        return distributed.run_sharded(executor, work, (), total, combine=_concat, shard_size=shard, progress=report, max_shard=max_shard)
    parts = list(distributed.in_batches(work, total, first=first_batch, fixed=shard, progress=report))
    if not parts:
        parts.append(work(0, 0))
    return _concat(parts)


@dataclass(frozen=True)
class _RandomGames:
    """Picklable work: random games ``[first + start, first + stop)`` from the state
    ``start``: their traces, or with ``outcomes_only`` just their outcomes
    (``run_playouts`` arrays)."""

    start: Any
    seed: int
    first: int
    threads: int | None
    outcomes_only: bool = False

    def __call__(self, start: int, stop: int) -> dict[str, np.ndarray]:
        if self.outcomes_only:
            return _core.run_playouts(self.start, self.seed, self.first + start, stop - start, self.threads)
        return _core.trace_random(self.start, self.seed, self.first + start, stop - start, self.threads)


@dataclass(frozen=True)
class _AgentTraces:
    """Picklable work: traces of agent games ``[first + start, first + stop)`` from the
    state ``start``; game ``i`` gives seat s the agent made with seed ``agent_seed(seed,
    i, s)``."""

    start: Any
    agents: tuple[Any, Any]
    seed: int
    first: int
    threads: int | None

    def actions(self, start: int, stop: int) -> list[list[int]]:
        before = len(self.start.history)
        games = []
        for i in range(self.first + start, self.first + stop):
            agents = [_agent_for(a, agent_seed(self.seed, i, s)) for s, a in enumerate(self.agents)]
            end = play_agents(self.start, agents, i)
            games.append([end.move_to_action(m) for m in end.history[before:]])
        return games

    def __call__(self, start: int, stop: int) -> dict[str, np.ndarray]:
        return trace_games(self.start, self.actions(start, stop), self.threads)


def trace_games(start: Any, games: Iterable[Sequence[int]], threads: int | None = None) -> dict[str, np.ndarray]:
    """Per-game traces (numpy arrays named as in ``TRACE_FIELDS``) of games given as
    action lists, each played from the native state ``start``."""
    arrays = [np.asarray(g, dtype=np.uint32) for g in games]
    offsets = np.zeros(len(arrays) + 1, dtype=np.uint64)
    offsets[1:] = np.cumsum([len(g) for g in arrays])
    flat = np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.uint32)
    return _core.trace_actions(start, flat, offsets, threads)


@dataclass(frozen=True)
class _UctTraces:
    """Picklable work: UCT (or noisy PUCT) self-play games ``[first + start, first + stop)`` as native
    matches (``match_games``, seats not swapped; every move's search seeded from the
    game's own generator, so no two games are the same game), measured in Rust as they
    are played (``trace_match``); with ``outcomes_only`` just the match's playout arrays."""

    start: Any
    agent: Any
    seed: int
    first: int
    threads: int | None
    outcomes_only: bool = False

    def __call__(self, start: int, stop: int) -> dict[str, np.ndarray]:
        state = self.start
        if self.outcomes_only:
            arrays = match_games(state, [self.agent, self.agent], self.seed, self.first + start, self.first + stop,
                                 swap_seats=False, threads=self.threads)
            return {name: arrays[name] for name in ("winner", "length", "passes", "swapped", "scores")}
        spec = self.agent._spec()
        return _core.trace_match(state, (spec, spec), self.seed, self.first + start, stop - start, False, self.threads)


def _traces(
    start: Any,
    agent: Any,
    games: int,
    seed: int,
    *,
    first: int = 0,
    threads: int | None = None,
    executor: Any = None,
    progress: Progress | None = None,
    outcomes_only: bool = False,
    done_before: int = 0,
    grand_total: int | None = None,
) -> dict[str, np.ndarray]:
    """Per-game traces (or, with ``outcomes_only`` and the random agent, the playout
    arrays) of games ``[first, first + games)`` from the native state ``start``."""
    if executor is not None and threads is None:
        threads = 1  # the workers give the parallelism
    kw: dict[str, Any] = dict(executor=executor, progress=progress, done_before=done_before, grand_total=grand_total)
    if _is_random(agent):
        random_games = _RandomGames(start, seed, first, threads, outcomes_only)
        return _run_sharded(random_games, games, **kw)
    if type(agent) is Puct:
        agent.model.check_fits(start)
    if type(agent) in (Uct, Puct):
        uct = _UctTraces(start, agent, seed, first, threads, outcomes_only)
        return _run_sharded(uct, games, first_batch=2, max_shard=64, **kw)
    work = _AgentTraces(start, (agent, agent), seed, first, threads)
    return _run_sharded(work, games, shard=1 if executor is None else None, max_shard=64, **kw)
