"""An example engine for `territory crosscheck` (docs/crosscheck.md): it answers the
protocol with the pure-Python reference, territory.reference. Adapt the four lines
marked ADAPT to drive your own implementation instead.

    territory crosscheck tabik --engine "python -m territory.crosscheck.adapter"
"""

import json
import sys

from territory.reference import GAMES  # ADAPT: your games, by name


def answer(request, state):
    """The reply to one request, and the state after it."""
    cmd = request["cmd"]
    if cmd == "new":
        return {"ok": True}, GAMES[request["game"]](**request["params"])  # ADAPT
    if cmd == "legal_moves":
        return {"moves": state.legal_moves()}, state  # ADAPT
    if cmd == "play":
        state.play(request["move"])  # ADAPT
        return {"ok": True}, state
    if cmd == "scores":
        return {"scores": list(state.scores())}, state
    if cmd == "winner":
        return {"over": state.is_over, "winner": state.winner}, state
    return {"error": f"unknown command {cmd!r}"}, state


def main():
    state = None
    for line in sys.stdin:
        request = json.loads(line)
        if request["cmd"] == "end":
            break
        try:
            reply, state = answer(request, state)
        except Exception as error:  # refused: tell the driver why, carry on
            reply = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
