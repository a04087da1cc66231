"""The rating list of docs/strength.md: random, UCT at three budgets with the board's tuned
exploration constant, and PUCT for every shipped model trained on the board, on each
game's default board and on every shipped model's board.

    python benches/strength.py --games 40 --seed 0                       # prints the list
    python benches/strength.py --games 40 --write docs/strength.md --plot docs/img/strength.png
    python benches/strength.py --games-only tabik,nume --json a.json     # some games only, kept
    python benches/strength.py --from-json a.json b.json --write docs/strength.md   # runs put together, in board order

Ratings come from a chain of matches: UCT at the smallest budget against random, each
budget against the one below it, each PUCT model (``--puct-simulations`` per move, the
model's own settings) against UCT at the middle budget. Every match is ``--games`` games
in pairs from the same random opening (``--opening-moves`` random moves, seeded by
``(seed, pair)``), each agent in each seat once (``territory.train.match_from_openings``):
the openings are what make a deterministic agent (PUCT without noise) play distinct
games; UCT's searches are seeded per game as well. A match's Elo and 95% interval are
those of its score (Wilson interval); an agent's rating adds the Elo differences along
the chain from UCT at the middle budget (rating 0), and the ends of its interval add
up the ends of the steps' intervals (wider than the 95% interval of independent matches
would be: a conservative interval). Budgets are the same
iterations or simulations per move, not the same time: the figures say how strong each
agent is at its budget.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from typing import Any

import territory
from territory._seeds import mix
from territory.agents import RandomAgent, Uct, best_agent, tuned_uct_c
from territory.model import Model, shipped_models
from territory.puct import Puct
from territory.train import match_from_openings

#: The boards of the list: each game's default board, then the shipped models' boards.
DEFAULT_BOARDS = [("tabik", {}), ("nume", {}), ("migong", {})]
BEGIN, END = "<!-- rating list: benches/strength.py -->", "<!-- end of rating list -->"


def boards() -> list[tuple[str, dict[str, Any]]]:
    seen, out = set(), []
    for game, params in DEFAULT_BOARDS + [(m.meta["game"], m.meta["params"]) for m in map(Model.load, shipped_models())]:
        state = territory.new_game(game, **params)
        key = (game, json.dumps(state.params, sort_keys=True))
        if key not in seen:
            seen.add(key)
            out.append((game, dict(state.params)))
    return out


def models_for(state: Any) -> list[str]:
    """The shipped models trained on exactly ``state``'s board (as ``best`` picks them)."""
    out = []
    for name in shipped_models():
        model = Model.load(name)
        if model.meta.get("game") == state.game and model.meta.get("params") == dict(state.params) and model.fits(state):
            out.append(name)
    return out


def rate_board(game: str, params: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    start = territory.new_game(game, **params)
    c = tuned_uct_c(start)
    budgets = sorted(int(b) for b in args.budgets.split(","))
    ucts = [Uct(iterations=b, c=c) for b in budgets]
    middle = len(ucts) // 2
    # (agent, opponent index or None): the chain of matches.
    entries: list[dict[str, Any]] = [{"agent": "random", "object": RandomAgent()}]
    for k, uct in enumerate(ucts):
        entries.append({"agent": uct.spec(), "object": uct, "opponent": k})  # entry k is the one below
    for name in models_for(start):
        puct = Puct(name, args.puct_simulations)
        entries.append({"agent": puct.spec(), "object": puct, "opponent": 1 + middle})
    began = time.process_time()
    for index, entry in enumerate(entries):
        if "opponent" not in entry:
            continue
        opponent = entries[entry["opponent"]]
        result = match_from_openings(start, [entry["object"], opponent["object"]], args.games,
                                     mix(args.seed, index), args.opening_moves)
        entry.update(versus=opponent["agent"], **result)
        print(f"{game} {start.params}: {entry['agent']} vs {opponent['agent']}: {result['wins']} "
              f"Elo {result['elo']:+.0f}", file=sys.stderr)
    # Ratings: the middle UCT budget is 0; walk the chain out from it, adding up the
    # steps and the ends of their intervals (infinite where a match was won or lost
    # entirely: its Elo is, and so is one end of its interval).
    anchor = 1 + middle
    rating = {anchor: (0.0, 0.0, 0.0)}  # (rating, low, high)
    for index in range(anchor + 1, len(entries)):  # above: the opponent's rating plus the step
        base, entry = rating[entries[index]["opponent"]], entries[index]
        rating[index] = (base[0] + entry["elo"], base[1] + entry["elo_ci95"][0], base[2] + entry["elo_ci95"][1])
    for index in range(anchor, 0, -1):  # below: this one's rating minus its step over the one below
        base, entry = rating[index], entries[index]
        rating[index - 1] = (base[0] - entry["elo"], base[1] - entry["elo_ci95"][1], base[2] - entry["elo_ci95"][0])
    rows = []
    for index, entry in enumerate(entries):
        row = {k: v for k, v in entry.items() if k != "object"}
        row["rating"], low, high = rating[index]
        row["rating_ci95"] = [low, high]
        row["anchor"] = index == anchor
        rows.append(row)
    return {"game": game, "params": dict(start.params), "games": args.games, "uct_c": c, "best": repr(best_agent(start)), "rows": rows,
            "cpu_seconds": round(time.process_time() - began, 1)}


def elo_text(x: float) -> str:
    return "+inf" if x == math.inf else "-inf" if x == -math.inf else "nan" if math.isnan(x) else f"{x:+.0f}"


def board_name(game: str, params: dict[str, Any]) -> str:
    shown = ", ".join(f"{k}={v}" for k, v in params.items())
    return f"{game.capitalize()} ({shown})"


def markdown(lists: list[dict[str, Any]], commands: list[str]) -> str:
    made = " and ".join(f"`{c}`" for c in commands)
    lines = [BEGIN, "", f"Made by {made} ({sum(x['cpu_seconds'] for x in lists):,.0f} CPU seconds in all; "
             "small game counts, wide intervals).", ""]
    for board in lists:
        lines += [f"**{board_name(board['game'], board['params'])}**: {board['games']} games a match, UCT c = "
                  f"{board['uct_c']} (tuned), `best` here: `{board['best']}`", "",
                  "| agent | rating (95%) | played | wins-losses-draws | Elo over it (95%) |",
                  "| --- | --- | --- | --- | --- |"]
        for row in sorted(board["rows"], key=lambda r: -r["rating"] if not math.isnan(r["rating"]) else 0):
            low, high = row["rating_ci95"]
            rating = "0 (the anchor)" if row["anchor"] else f"{elo_text(row['rating'])} ({elo_text(low)} .. {elo_text(high)})"
            if "versus" in row:
                w = row["wins"]
                played = f"`{row['versus']}`"
                record = f"{w[0]}-{w[1]}-{w[2]}"
                elo = f"{elo_text(row['elo'])} ({elo_text(row['elo_ci95'][0])} .. {elo_text(row['elo_ci95'][1])})"
            else:
                played = record = elo = ""
            lines.append(f"| `{row['agent']}` | {rating} | {played} | {record} | {elo} |")
        lines.append("")
    lines.append(END)
    return "\n".join(lines)


def plot(lists: list[dict[str, Any]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(lists), 1, figsize=(8, 1.2 + 0.45 * sum(len(b["rows"]) for b in lists)), squeeze=False)
    for ax, board in zip(axes[:, 0], lists):
        rows = [r for r in board["rows"] if math.isfinite(r["rating"])]
        ys = range(len(rows))
        for y, r in zip(ys, rows):
            low, high = (max(v, r["rating"] - 1000) for v in r["rating_ci95"])
            high = min(high, r["rating"] + 1000)  # an infinite end drawn 1000 Elo out
            ax.errorbar([r["rating"]], [y], xerr=[[r["rating"] - low], [high - r["rating"]]], fmt="o", capsize=3)
        ax.set_yticks(list(ys), [r["agent"].split(":c=")[0] if r["agent"].startswith("puct:") else r["agent"]
                                 for r in rows], fontsize=8)
        ax.axvline(0, color="grey", lw=0.5)
        left_out = [r["agent"] for r in board["rows"] if not math.isfinite(r["rating"])]
        ax.set_title(board_name(board["game"], board["params"])
                     + (f"; not drawn: {', '.join(left_out)} (infinite)" if left_out else ""), fontsize=8)
    axes[-1, 0].set_xlabel("Elo (UCT at the middle budget, tuned c: 0)")
    fig.tight_layout()
    fig.savefig(path, dpi=80)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per match (pairs: both seats)")
    parser.add_argument("--budgets", default="300,1000,3000", help="UCT's three iteration budgets")
    parser.add_argument("--puct-simulations", type=int, default=400)
    parser.add_argument("--opening-moves", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games-only", default=None, help="only these games, separated by commas")
    parser.add_argument("--write", default=None, help="replace the rating list in this markdown file")
    parser.add_argument("--plot", default=None, help="write a plot (needs matplotlib)")
    parser.add_argument("--json", default=None, help="write the results as JSON")
    parser.add_argument("--from-json", nargs="+", default=None, metavar="FILE",
                        help="play nothing: the list from the --json files of earlier runs, in order")
    args = parser.parse_args()
    if args.from_json:
        runs = [json.load(open(path)) for path in args.from_json]
        order = [json.dumps([game, params], sort_keys=True) for game, params in boards()]
        lists = sorted((board for run in runs for board in run["boards"]),  # the order of boards()
                       key=lambda b: order.index(json.dumps([b["game"], b["params"]], sort_keys=True)))
        commands = [run["command"] for run in runs]
    else:
        chosen = boards()
        if args.games_only:
            chosen = [b for b in chosen if b[0] in args.games_only.split(",")]
        lists = [rate_board(game, params, args) for game, params in chosen]
        shown = [f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()
                 if k in ("games", "budgets", "puct_simulations", "opening_moves", "seed", "games_only") and v is not None]
        commands = ["python benches/strength.py " + " ".join(shown)]
    text = markdown(lists, commands)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"command": commands[0], "boards": lists}, f, indent=1)
    if args.write:
        doc = open(args.write).read()
        pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
        if not pattern.search(doc):
            raise SystemExit(f"{args.write} has no rating list to replace ({BEGIN} .. {END})")
        with open(args.write, "w") as f:
            f.write(pattern.sub(lambda _: text, doc))
    if args.plot:
        plot(lists, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
