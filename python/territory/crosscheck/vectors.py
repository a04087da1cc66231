"""Test vectors: positions that exercise the rules' edge cases, each with the engine's
legal moves, scores, winner and key, as a versioned JSON-lines file
(docs/crosscheck.md). ``territory vectors GAME`` writes them; the files for the default
invocation ship in the package (``territory/data/vectors/<game>.jsonl``).
"""

from __future__ import annotations

import gzip
import io
import json
import random
import re
import time
from importlib import resources
from typing import IO, Any, Callable, Iterable

from territory import games
from territory._core import __version__
from territory.registry import GAMES, new_game

#: The ``format`` and ``version`` of the first line of a vectors file.
FORMAT = "territory-vectors"
VERSION = 1

#: Random games played per parameter set to find positions for each tag.
GAMES_PER_SET = 12
#: Positions kept per tag and parameter set.
PER_TAG = 2

#: Mirror games played per parameter set, for a game with a ``mirror_game`` hook
#: (``territory.games``; Migong's: docs/crosscheck.md).
MIRROR_GAMES = 2


def hand_worked(game: str) -> list[tuple[str, dict[str, Any], list[str]]]:
    """The move sequences the rule tests work out by hand (tests/test_*_rules.py), each
    for the parameters given (the others at their defaults): the game's ``HAND_WORKED``
    (``territory.games``)."""
    return list(games.hook(game, "HAND_WORKED", []))


def parameter_sets(game: str) -> list[dict[str, Any]]:
    """The parameter sets vectors cover, from the engine's description of the parameters:
    the defaults; the smallest board (every bounded int at its minimum); each parameter's
    corner values (the other value of a bool, every named choice, the two smallest values
    of a bounded int, None where allowed) with the others at their defaults, and with the
    others as on the smallest board; the sets the hand-worked games need."""
    described = dict(GAMES)[game].parameters()  # type: ignore[attr-defined]
    defaults = {p["name"]: p["default"] for p in described}
    smallest = {**defaults, **{p["name"]: p["min"] for p in described if "int" in p["kind"] and "min" in p}}
    candidates = [defaults, smallest]
    for base in (defaults, smallest):
        candidates += [{**base, p["name"]: value} for p in described for value in _corners(p)]
    candidates += [{**defaults, **needs} for _, needs, _ in hand_worked(game)]
    sets: list[dict[str, Any]] = []
    for candidate in candidates:
        try:
            params = dict(new_game(game, **candidate).params)
        except ValueError:
            continue
        if params not in sets:
            sets.append(params)
    return sets


def _corners(param: dict[str, Any]) -> list[Any]:
    kind = param["kind"]
    values: list[Any] = []
    if kind == "bool":
        values += [False, True]
    values += param.get("choices") or []
    if kind == "text":  # the named values the description quotes
        values += re.findall(r"'(\w+)'", param["allowed"])
    if "int" in kind and "min" in param:
        values += [param["min"], param["min"] + 1]
    if "None" in param["allowed"]:
        values.append(None)
    return values


def tags_of(state: Any) -> list[str]:
    """The edge cases a position exercises (docs/crosscheck.md lists them)."""
    history = state.history
    moves = state.legal_moves()
    last = history[-1] if history else None
    tags = []
    if not history:
        tags.append("start")
    passes = [state.is_pass(m) for m in moves]
    last_pass, last_swap = last is not None and state.is_pass(last), last is not None and state.is_swap(last)
    if any(state.is_swap(m) for m in moves):
        tags.append("pie-swap-legal")
    if last_swap:
        tags.append("after-pie-swap")
    if passes == [True]:
        tags.append("pass-forced")
    if last_pass:
        tags.append("after-pass" if not state.is_over else "over-by-two-passes")
    if last is not None and last.startswith("komi "):
        tags.append("komi-chosen")
    if last is not None and last.startswith("side "):
        tags.append("side-chosen")
    if last is not None and "=" in last:
        tags.append("numbered-stone-0" if last.endswith("=0") else "numbered-stone")
    if last is not None and not (last_pass or last_swap):
        tags += _border_tags(state, last)
    tags += games.hook(state.game, "scoring_tags", counted_tags)(state)
    if state.is_over:
        tags.append("over")
        if any(state.is_swap(m) for m in history):
            tags.append("over-after-pie-swap")
        if state.winner is None:
            tags.append("draw")
        elif state.last_mover is not None and state.scores()[0] == state.scores()[1]:
            tags.append("tie-last-mover-loses")
        if state.params.get("komi") is not None and state.winner is not None:
            komi = state.params["komi"]
            raw = [s - (komi if state.color_of(seat) == state.params["komi_to"] else 0)
                   for seat, s in enumerate(state.scores())]
            if raw[0] == raw[1] or (raw[0] < raw[1]) != (state.winner == 0):
                tags.append("komi-decides")
    return tags


def _border_tags(state: Any, move: str) -> list[str]:
    try:
        cells = state.move_cells(move)
    except ValueError:
        return []
    shape, geometry = state.geometry()
    where = {name: (x, y) for name, x, y in geometry}
    occupied = set(where.values())
    steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)) if shape == "hex" else ((1, 0), (0, 1), (-1, 0), (0, -1))
    tags = []
    for cell in cells:
        x, y = where[cell]
        neighbours = sum((x + dx, y + dy) in occupied for dx, dy in steps)
        if neighbours < len(steps):
            tags.append("border-move")
        if neighbours <= len(steps) // 2:
            tags.append("corner-move")
    return sorted(set(tags))


def counted_tags(state: Any) -> list[str]:
    """Tags of a scoring rule that counts each colour's groups by size: a size both
    colours have equally many groups of (which neither holds), above or at the larger
    score (a game's ``scoring_tags`` hook replaces them)."""
    counts: dict[tuple[str, int], int] = {}
    for g in state.groups():
        counts[g.color, g.size] = counts.get((g.color, g.size), 0) + 1
    colors = sorted({c for c, _ in counts})
    tags = []
    if len(colors) == 2:
        sizes = {s for _, s in counts}
        tied = [s for s in sizes if counts.get((colors[0], s)) == counts.get((colors[1], s))]
        if tied:
            tags.append("equal-group-counts")
            if max(tied) > max(state.scores()):
                tags.append("equal-counts-above-score")
    return tags


def vector(state: Any, id: str, tags: list[str]) -> dict[str, Any]:
    """One vector: the moves from the start that reach ``state`` and what the engine says
    there."""
    return {
        "id": id, "tags": tags, "params": state.params, "moves": list(state.history),
        "position": state.position(), "key": f"{state.key():016x}",
        "to_move": state.to_move, "legal_moves": state.legal_moves(), "scores": list(state.scores()),
        "over": state.is_over, "winner": state.winner, "last_mover": state.last_mover,
    }


def make_vectors(
    game: str, sets: list[dict[str, Any]], seed: int = 0, games_per_set: int = GAMES_PER_SET,
    progress: Callable[[int, int, float], None] | None = None,
) -> list[dict[str, Any]]:
    """Vectors for each parameter set: the hand-worked sequences that apply, then
    positions of seeded random games (pie swap taken half the time), at most ``PER_TAG``
    per tag and set. ``progress(games done, games, seconds)`` is told of each game."""
    from territory.crosscheck.driver import random_game

    mirror_game = games.hook(game, "mirror_game")
    vectors: list[dict[str, Any]] = []
    began = time.perf_counter()
    for index, params in enumerate(sets):
        kept: dict[str, int] = {}

        def keep(state: Any, id: str, forced: bool = False) -> None:
            tags = tags_of(state)
            fresh = [t for t in tags if kept.get(t, 0) < PER_TAG]
            if fresh or forced:
                for t in tags:
                    kept[t] = kept.get(t, 0) + 1
                vectors.append(vector(state, f"{game}-{index}-{id}", tags))

        for name, needs, moves in hand_worked(game):
            if params == dict(new_game(game, **needs).params):
                state = new_game(game, **params)
                for move in moves:
                    state.play(move)
                keep(state, name, forced=True)
        rng = random.Random(seed * 1_000_003 + index)
        for number in range(games_per_set + (MIRROR_GAMES if mirror_game is not None else 0)):
            if progress:
                progress(index * games_per_set + min(number, games_per_set), len(sets) * games_per_set,
                         time.perf_counter() - began)
            played = random_game(game, params, rng) if number < games_per_set else mirror_game(params, rng)
            if played is None:
                continue
            moves = played
            state = new_game(game, **params)
            keep(state, f"r{number}-0")
            for step, move in enumerate(moves, start=1):
                state.play(move)
                keep(state, f"r{number}-{step}")
    if progress:
        progress(len(sets) * games_per_set, len(sets) * games_per_set, time.perf_counter() - began)
    return vectors


def header(game: str) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "game": game, "generator": f"territory {__version__}"}


def write(stream: IO[str], game: str, vectors: Iterable[dict[str, Any]]) -> None:
    stream.write(json.dumps(header(game)) + "\n")
    for v in vectors:
        stream.write(json.dumps(v, separators=(",", ":")) + "\n")


def read(stream: IO[str], game: str | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the vectors of a vectors file; ValueError saying what is wrong."""
    lines = [line for line in stream.read().splitlines() if line.strip()]
    if not lines:
        raise ValueError("empty: no header line")
    try:
        head = json.loads(lines[0])
    except ValueError:
        raise ValueError("line 1: not JSON") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ValueError(f"line 1: not a {FORMAT} header")
    if head.get("version") != VERSION:
        raise ValueError(f"line 1: version {head.get('version')!r}, this territory reads version {VERSION}")
    if game is not None and head.get("game") != game:
        raise ValueError(f"vectors of {head.get('game')!r}, not {game!r}")
    vectors = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            entry = json.loads(line)
        except ValueError:
            raise ValueError(f"line {number}: not JSON") from None
        if not isinstance(entry, dict) or not {"id", "params", "moves"} <= set(entry):
            raise ValueError(f"line {number}: a vector needs 'id', 'params' and 'moves'")
        vectors.append(entry)
    return head, vectors


def shipped_path(game: str) -> Any:
    """Where the vectors shipped for ``game`` are (gzip-compressed JSON lines)."""
    return resources.files("territory").joinpath("data", "vectors", f"{game}.jsonl.gz")


def shipped(game: str) -> list[dict[str, Any]]:
    """The vectors shipped for ``game``: those ``territory vectors GAME`` writes."""
    text = gzip.decompress(shipped_path(game).read_bytes()).decode("utf-8")
    return read(io.StringIO(text), game)[1]


def compressed(text: str) -> bytes:
    """``text`` gzip-compressed, the same bytes on every run (no time stamp)."""
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)
