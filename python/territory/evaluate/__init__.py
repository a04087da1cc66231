"""Evaluating a design: Ludii's metrics, fair komi and the pie rule (docs/metrics.md), one
module per analysis (``metrics``, ``komi``, ``first_moves``; ``runs`` plays and traces the
games, ``stats`` holds the intervals).

* ``evaluate(game, agent="random", games=1000, seed=0, ...)``: self-play games measured
  with Ludii's metrics (``AdvantageP1``, ``Balance``, ``DurationMoves``, ``Drama``, ...),
  each with a 95% interval.
* ``fair_komi(agent="random", games=2000, ...)``: Black's win rate in Nume over a sweep of
  komi values, a logistic fit, and the komi at which Black wins half the games.
* ``openings(game, agent="random", games_per_opening=200, ...)``: seat 0's win rate after
  each first move, when seat 1 plays on and when it takes the pie.

Random games run in Rust at playout speed and are the very games of ``random_playouts``
with the same seed: game ``i`` of a run draws from a generator seeded from ``(seed, i)``,
so a run can be cut into shards of game indices ``[start, stop)`` anywhere (``executor=``
runs the shards on any ``concurrent.futures.Executor``) without changing any result.
UCT games (``"uct:N"`` or a ``territory.Uct``) run as native matches
(``territory.agents.match_games``, the unit of work of ``play_match``, which records each
game's actions); other agents' games are played move by move through
``agent.choose(state)``. Either way the games are measured in Rust from their action
lists (``trace_actions``). With an executor every kind of run is split into shards by
``territory.distributed.run_sharded`` (progress, Ctrl-C, ``ShardError`` as everywhere).
"""

from __future__ import annotations

from territory.evaluate.first_moves import DEFAULT_OPENING_SAMPLE, MAX_DEFAULT_OPENINGS, Openings, default_opening_moves, openings
from territory.evaluate.komi import DEFAULT_KOMI, FairKomi, KomiFit, fair_komi, fit_logistic
from territory.evaluate.metrics import Evaluation, compute_metrics, compute_skill_trace, evaluate, skill_trace_value
from territory.evaluate.runs import MAX_GAMES, TRACE_FIELDS, agent_seed, trace_games
from territory.evaluate.stats import Z95, Metric

__all__ = [
    "evaluate", "fair_komi", "openings",
    "Evaluation", "FairKomi", "KomiFit", "Openings", "Metric",
    "compute_metrics", "compute_skill_trace", "skill_trace_value", "fit_logistic", "default_opening_moves", "trace_games",
    "agent_seed", "DEFAULT_KOMI", "DEFAULT_OPENING_SAMPLE", "MAX_DEFAULT_OPENINGS", "MAX_GAMES", "TRACE_FIELDS", "Z95",
]
