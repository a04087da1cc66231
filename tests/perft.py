"""Perft data files (``tests/data/<game>.perft``): reading, writing and counting.

A file is a list of blocks separated by blank lines; ``#`` starts a comment line::

    id tabik-4-mid
    params size=4 pie=true
    moves b2-b3; swap; a1-b1
    perft 1 38
    perft 2 1376

``params`` are ``key=value`` pairs, each value a JSON scalar (``8``, ``true``, ``null``,
``0.5``, ``"alternate"``), given to the game's constructor; ``moves`` is the recorded
move sequence from the start, separated by ``;`` (possibly empty); ``perft d n`` says
that ``n`` move sequences of length ``d`` start in that position (leaves of the game tree
``d`` actions deep, counting the pie swap and passes like any action). The engine checks
the same files in ``rust/territory/tests/perft.rs``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import territory

DATA = Path(__file__).parent / "data"
GAMES = tuple(territory.GAMES)


@dataclass
class Entry:
    game: str
    id: str
    params: dict[str, Any]
    moves: list[str]
    counts: dict[int, int] = field(default_factory=dict)

    def format(self) -> str:
        params = " ".join(f"{k}={json.dumps(v)}" for k, v in self.params.items())
        lines = [f"id {self.id}", f"params {params}", f"moves {'; '.join(self.moves)}".rstrip()]
        lines += [f"perft {d} {n}" for d, n in sorted(self.counts.items())]
        return "\n".join(lines) + "\n"


def path(game: str) -> Path:
    return DATA / f"{game}.perft"


def read(game: str) -> list[Entry]:
    entries: list[Entry] = []
    entry: Entry | None = None
    for line in path(game).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            entry = Entry(game, value, {}, [])
            entries.append(entry)
        elif entry is None:
            raise ValueError(f"{path(game)}: {line!r} before the first id")
        elif key == "params":
            pairs = (pair.partition("=") for pair in value.split())
            entry.params = {k: json.loads(v) for k, _, v in pairs}
        elif key == "moves":
            entry.moves = [m.strip() for m in value.split(";") if m.strip()]
        elif key == "perft":
            depth, count = value.split()
            entry.counts[int(depth)] = int(count)
        else:
            raise ValueError(f"{path(game)}: unknown line {line!r}")
    return entries


def write(game: str, entries: list[Entry], header: str) -> None:
    text = "".join(f"# {line}\n".replace("# \n", "#\n") for line in header.splitlines())
    path(game).write_text(text + "\n" + "\n".join(e.format() for e in entries))


def perft(state, depth: int) -> int:
    """Leaves of the game tree ``depth`` actions deep from ``state`` (left unchanged)."""
    actions = state.legal_actions()
    if depth <= 1:
        return len(actions) if depth == 1 else 1
    total = 0
    for action in actions:
        state.apply_action(action)
        total += perft(state, depth - 1)
        state.undo()
    return total


def position(cls, entry: Entry):
    state = cls(**entry.params)
    for move in entry.moves:
        state.play(move)
    return state
