"""Comparing another implementation with the engine, step by step, and shrinking a
disagreement to the shortest move sequence that still shows one (docs/crosscheck.md)."""

from __future__ import annotations

import itertools
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from territory.crosscheck.protocol import PROTOCOL_VERSION, Engine, Refused
from territory.errors import IllegalMoveError
from territory.registry import new_game

#: The most replays one shrinking may run.
SHRINK_REPLAYS = 2000


@dataclass
class Disagreement:
    """The first step at which the two implementations differ: after ``moves`` (from
    the start of a game with ``params``), ``what`` differs: ours and theirs."""

    game: str
    params: dict[str, Any]
    moves: list[str]
    what: str
    ours: Any
    theirs: Any

    def describe(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        sequence = "; ".join(self.moves) if self.moves else "(none: the start position)"
        return "\n".join([
            f"{self.game} ({params}) after {len(self.moves)} moves: {sequence}",
            f"  {self.what} differ",
            f"    territory: {_shown(self.ours)}",
            f"    engine:    {_shown(self.theirs)}",
        ])

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "params": self.params, "moves": self.moves, "what": self.what,
                "territory": self.ours, "engine": self.theirs}


def _shown(value: Any) -> str:
    if isinstance(value, dict) and ("missing" in value or "extra" in value):
        parts = []
        for key in ("missing", "extra"):
            moves = value.get(key) or []
            if moves:
                more = f" and {len(moves) - 10} more" if len(moves) > 10 else ""
                parts.append(f"{key} {', '.join(moves[:10])}{more}")
        return "; ".join(parts)
    if isinstance(value, list) and len(value) > 10:
        return f"{', '.join(map(str, value[:10]))}, ... ({len(value)} moves)"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value) if value else "(none)"
    return repr(value)


@dataclass
class Report:
    """What a cross-check run did and found."""

    game: str
    vectors: int = 0
    games: int = 0
    steps: int = 0
    requests: int = 0
    seconds: float = 0.0
    disagreement: Disagreement | None = None
    found_after: int | None = None  # moves of the sequence where it was first seen
    replays: int = 0  # replays spent shrinking
    where: str = ""  # "vector ID" or "random game I"
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "vectors": self.vectors, "random_games": self.games, "steps": self.steps,
            "requests": self.requests, "seconds": self.seconds, "agree": self.disagreement is None,
            "found_in": self.where or None, "found_after_moves": self.found_after,
            "shrink_replays": self.replays,
            "disagreement": None if self.disagreement is None else self.disagreement.to_json(),
        }


class Checker:
    """Replays move sequences on the engine and on territory, comparing every step."""

    def __init__(self, engine: Engine, game: str) -> None:
        self.engine, self.game = engine, game
        self.steps = self.requests = 0
        self.context = ""
        #: Positions (parameters, moves) already compared, skipped by ``replay(...,
        #: once=True)``: the vectors of one random game share their first moves.
        self.compared: set[tuple[str, tuple[str, ...]]] = set()

    def _ask(self, request: dict[str, Any], step: str) -> dict[str, Any]:
        self.requests += 1
        return self.engine.ask(request, f"{self.context}, {step}" if self.context else step)

    def _compare(self, state: Any, moves: list[str], params: dict[str, Any]) -> Disagreement | None:
        self.steps += 1
        where = f"after {len(moves)} moves"

        def differ(what: str, ours: Any, theirs: Any) -> Disagreement:
            return Disagreement(self.game, params, list(moves), what, ours, theirs)

        try:
            theirs_moves = self._ask({"cmd": "legal_moves"}, f"legal_moves {where}")["moves"]
        except Refused as error:
            return differ("legal moves", state.legal_moves(), f"refused: {error}")
        ours_moves = state.legal_moves()
        if sorted(theirs_moves) != sorted(ours_moves):
            missing = sorted(set(ours_moves) - set(theirs_moves))
            extra = sorted(set(theirs_moves) - set(ours_moves))
            if not missing and not extra:
                extra = sorted({m for m in theirs_moves if theirs_moves.count(m) > 1})  # listed twice
            return differ("legal moves", sorted(ours_moves), {"missing": missing, "extra": extra})
        try:
            theirs_scores = self._ask({"cmd": "scores"}, f"scores {where}")["scores"]
        except Refused as error:
            return differ("scores", list(state.scores()), f"refused: {error}")
        if [float(s) for s in theirs_scores] != [float(s) for s in state.scores()]:
            return differ("scores", list(state.scores()), theirs_scores)
        try:
            reply = self._ask({"cmd": "winner"}, f"winner {where}")
        except Refused as error:
            return differ("results (over, winner)", {"over": state.is_over, "winner": state.winner}, f"refused: {error}")
        ours = {"over": state.is_over, "winner": state.winner}
        theirs = {"over": reply["over"], "winner": reply["winner"]}
        if ours != theirs:
            return differ("results (over, winner)", ours, theirs)
        return None

    def replay(self, params: dict[str, Any], moves: Iterable[str], once: bool = False) -> Disagreement | None:
        """Plays ``moves`` (legal for territory) on both sides from a new game, comparing
        after every move (with ``once``, not where an earlier replay compared); the first
        disagreement, with the moves up to it, or None. Returns territory's final state
        as ``self.state``."""
        state = self.state = new_game(self.game, **params)
        try:
            self._ask({"cmd": "new", "game": self.game, "params": params, "protocol": PROTOCOL_VERSION}, "new")
        except Refused as error:
            return Disagreement(self.game, params, [], "new game", "accepted", f"refused: {error}")
        played: list[str] = []
        params_key = json.dumps(params, sort_keys=True)

        def compare() -> Disagreement | None:
            if once:
                seen = (params_key, tuple(played))
                if seen in self.compared:
                    return None
                self.compared.add(seen)
            return self._compare(state, played, params)

        found = compare()
        for move in moves:
            if found:
                return found
            state.play(move)
            played.append(move)
            try:
                self._ask({"cmd": "play", "move": move}, f"play {move} (move {len(played)})")
            except Refused as error:
                return Disagreement(self.game, params, played, "play", "legal", f"refused: {error}")
            found = compare()
        return found


def legal_sequence(game: str, params: dict[str, Any], moves: list[str]) -> bool:
    """Whether ``moves`` can be played in turn from the start, in territory."""
    state = new_game(game, **params)
    try:
        for move in moves:
            state.play(move)
    except IllegalMoveError:
        return False
    return True


def deletions(length: int, sizes: Iterable[int]) -> Iterable[tuple[int, int]]:
    """The runs ``(start, stop)`` of each size in ``sizes`` to try deleting from a
    sequence of ``length`` moves, leftmost first. None ends the sequence: what is left
    would be a prefix of it, and every prefix of a first disagreement agrees."""
    for size in sizes:
        for start in range(length - size):
            yield start, start + size


def shrink(checker: Checker, found: Disagreement, budget: int = SHRINK_REPLAYS) -> tuple[Disagreement, int]:
    """The shortest disagreement found by deleting moves from ``found``'s sequence while
    it stays legal and still disagrees: first halves, quarters, ... down to single
    moves (quick on a long sequence); then runs of every size and every pair of moves,
    again after each success, until none of them disagrees (in Nume deleting one move,
    or any odd number, swaps the colour of every later stone: only even deletions keep
    them). The result is then minimal for these deletions, unless the ``budget`` of
    replays ran out. Returns it and the replays spent."""
    best, replays = found, 0
    agreed: set[tuple[str, ...]] = set()  # the later sweeps meet the earlier ones' candidates again

    def disagrees(candidate: list[str]) -> bool:
        nonlocal best, replays
        if replays >= budget or tuple(candidate) in agreed or not legal_sequence(best.game, best.params, candidate):
            return False
        replays += 1
        again = checker.replay(best.params, candidate)
        if again is None:
            agreed.add(tuple(candidate))
            return False
        best = again  # a prefix of the candidate: shorter than before
        return True

    def halvings(length: int) -> list[int]:
        sizes = [length // 2 or 1]
        while sizes[-1] > 1:
            sizes.append(sizes[-1] // 2)
        return sizes

    def sweep(sizes: Callable[[int], Iterable[int]], pairs: bool) -> None:
        """Deletions from ``best`` until none disagrees, from the first again on the
        shorter sequence after each success."""
        while replays < budget:
            moves = best.moves
            candidates: Iterable[list[str]] = (
                moves[:start] + moves[stop:] for start, stop in deletions(len(moves), sizes(len(moves)))
            )
            if pairs:
                candidates = itertools.chain(candidates, (
                    moves[:i] + moves[i + 1:j] + moves[j + 1:]
                    for i in range(len(moves)) for j in range(i + 2, len(moves))
                ))
            if not any(disagrees(candidate) for candidate in candidates):
                return

    sweep(halvings, pairs=False)
    sweep(lambda length: range(length - 1, 0, -1), pairs=True)
    return best, replays


def random_game(game: str, params: dict[str, Any], rng: random.Random, swap_rate: float = 0.5) -> list[str]:
    """A random game's moves (territory's legal moves, uniform, except that the pie
    ``swap`` is taken with probability ``swap_rate`` whenever legal)."""
    state = new_game(game, **params)
    while not state.is_over:
        moves = state.legal_moves()
        swap = next((m for m in moves if state.is_swap(m)), None)
        if swap is not None and rng.random() < swap_rate:
            move = swap
        else:
            move = moves[rng.randrange(len(moves))]
        state.play(move)
    return list(state.history)


class StaleVectorError(ValueError):
    """A vector whose recorded answers are not this engine's (made by another version?)."""


#: The recorded answers of a vector and how to read each from a state.
RECORDED: dict[str, Callable[[Any], Any]] = {
    "position": lambda s: s.position(),
    "key": lambda s: f"{s.key():016x}",
    "legal_moves": lambda s: s.legal_moves(),
    "scores": lambda s: list(s.scores()),
    "over": lambda s: s.is_over,
    "winner": lambda s: s.winner,
    "to_move": lambda s: s.to_move,
    "last_mover": lambda s: s.last_mover,
}


def check_vector(state: Any, vector: dict[str, Any]) -> None:
    """Raises StaleVectorError if territory's ``state`` at the end of ``vector``'s moves
    does not give the answers the vector records."""
    for key, read in RECORDED.items():
        if key in vector and read(state) != vector[key]:
            raise StaleVectorError(
                f"vector {vector['id']}: this territory gives {key} {_shown(read(state))[:80]}, "
                f"the file records {_shown(vector[key])[:80]} (vectors of another version? "
                f"make new ones with territory vectors)"
            )


def run(
    engine: Engine,
    game: str,
    vectors: list[dict[str, Any]],
    param_sets: list[dict[str, Any]],
    games: int,
    seed: int = 0,
    progress: Callable[[int, int, float], None] | None = None,
    shrink_budget: int = SHRINK_REPLAYS,
) -> Report:
    """Replays ``vectors``, then ``games`` random games (game i on ``param_sets[i %
    len]``); stops at the first disagreement and shrinks it."""
    began = time.perf_counter()
    report = Report(game)
    checker = Checker(engine, game)
    rng = random.Random(seed)
    total = len(vectors) + games
    # Shortest first: the first disagreement found is then on the shortest vector.
    vectors = sorted(vectors, key=lambda v: len(v["moves"]))
    jobs: list[tuple[str, dict[str, Any], list[str]]] = [
        (f"vector {v['id']}", v["params"], v["moves"]) for v in vectors
    ]
    for done in range(total):
        if done < len(jobs):
            where, params, moves = jobs[done]
        else:
            index = done - len(jobs)
            params = param_sets[index % len(param_sets)]
            where, moves = f"random game {index}", random_game(game, params, rng)
        checker.context = where
        found = checker.replay(params, moves, once=True)
        if done < len(vectors):
            report.vectors += 1
            if found is None:
                check_vector(checker.state, vectors[done])
        else:
            report.games += 1
        if progress:
            progress(done + 1, total, time.perf_counter() - began)
        if found is not None:
            report.where, report.found_after = where, len(found.moves)
            checker.context = f"shrinking the disagreement of {where}"
            report.disagreement, report.replays = shrink(checker, found, shrink_budget)
            break
    report.steps, report.requests = checker.steps, checker.requests
    report.seconds = time.perf_counter() - began
    return report
