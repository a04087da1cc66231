"""The ``territory train`` command, registered by ``territory.cli`` with ``register(commands)``:
self-play training of a model for ``territory.Puct`` (docs/learning.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from territory import distributed
from territory.cli import common as cli
from territory.cli.common import UsageError, add_command, integer


def positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a number > 0, got {text}")
    return value


def fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 1, got {text}")
    return value


def register(commands: Any) -> None:
    """Adds ``train`` to ``commands`` (argparse subparsers)."""
    parser = add_command(
        commands, "train", "train a policy and value network by self-play (for the puct agent)",
        "Trains a small network by self-play with PUCT search (AlphaZero-style) and writes\n"
        "checkpoints (OUT/checkpoint-NNNN.npz, OUT/last.npz) and a log (OUT/log.jsonl, one\n"
        "JSON object per round and per checkpoint evaluation: losses, Elo against the\n"
        "previous checkpoint and against UCT given the same time per move). Ctrl-C stops\n"
        "and keeps the last checkpoint. The same seed gives the same weights, also with\n"
        "--scheduler (the self-play games then run in shards on Dask, --threads threads\n"
        "each). --solve-nodes N takes the value targets of each game's last positions from\n"
        "the exact solver. Needs the train extra (JAX): pip install \"territory-games[train]\".",
        "  territory train tabik --size 6 --minutes 60 --out runs/tabik-6\n"
        "  territory train nume --n 3 --minutes 60 --out runs/nume-3\n"
        "  territory train tabik --size 5 --solve-nodes 20000 --scheduler local:2 --out runs/tabik-5\n"
        "  territory match tabik --size 6 --agents puct:runs/tabik-6/last.npz:200 uct:2000\n",
        run_train,
    )
    parser.add_argument("game", choices=cli.GAME_CHOICES, help="the game")
    parser.add_argument("--out", required=True, metavar="DIR", help="directory of the checkpoints and the log")
    parser.add_argument("--minutes", type=positive, default=60.0, help="stop after this many minutes of CPU time, every thread counted (default 60)")
    parser.add_argument("--rounds", type=integer(1), default=None, help="stop after this many rounds (default: no limit)")
    parser.add_argument("--games", type=integer(1, 4096), default=64, help="self-play games per round, played together (default 64)")
    parser.add_argument("--iterations", type=integer(2, 100_000), default=100, help="PUCT simulations per self-play move (default 100)")
    parser.add_argument("--rollout-weight", type=fraction, default=0.0, help="weight of a random playout's result in a leaf's value, 0 to 1 (default 0)")
    parser.add_argument("--batch", type=integer(1, 65536), default=256, help="positions per gradient step (default 256)")
    parser.add_argument("--replay", type=positive, default=4.0, help="gradient steps per round: new positions * REPLAY / BATCH (default 4)")
    parser.add_argument("--lr", type=positive, default=2e-3, help="Adam's learning rate (default 0.002)")
    parser.add_argument("--init", metavar="MODEL", default=None, help="start from this model's weights (a .npz file or a shipped model's name) instead of random ones; it must be for this game and board and built as the run asks (--hidden, --filters, --blocks, --features, heads)")
    parser.add_argument("--hidden", type=integer(4, 4096), default=128, help="units per hidden layer (default 128)")
    parser.add_argument("--filters", type=integer(0, 1024), default=0, help="a convolutional trunk in front of the hidden layers: a 3x3 convolution of the observation planes to FILTERS channels, then --blocks residual blocks (default 0: none, the hidden layers read the planes)")
    parser.add_argument("--blocks", type=integer(0, 64), default=0, help="residual blocks of two 3x3 convolutions in the trunk (default 0; needs --filters)")
    parser.add_argument("--expansion-visits", type=integer(1, 1_000_000), default=1, help="a leaf is evaluated by the network on its N-th visit, valued by a random playout before (default 1: at once)")
    parser.add_argument("--augment", action="store_true", help="turn each minibatch by one of the board's symmetries, drawn at random (Tabik)")
    parser.add_argument("--features", action="store_true", help="the network also reads the game's features (state.features(): what scoring makes of the groups)")
    parser.add_argument("--search-value-weight", type=fraction, default=0.0, help="weight of the search's value in the value target, the rest the game's result, 0 to 1 (default 0)")
    parser.add_argument("--solve-nodes", type=integer(0), default=0, metavar="N", help="solve each self-play game's positions exactly from the end backwards, each within N solver positions, until one is not solved; a solved position's value target is its exact value (default 0: none). Costs the solves plus up to N solver positions a game for the one given up on (figures in docs/learning.md)")
    parser.add_argument("--margin-weight", type=fraction, default=0.5, help="weight of the score-margin head's loss, 0 to 1 (default 0.5; 0: no margin head)")
    parser.add_argument("--ownership-weight", type=fraction, default=1.0, help="weight of the ownership head's loss, 0 to 1 (default 1; 0: no ownership head)")
    parser.add_argument("--sample-moves", type=integer(0), default=6, help="moves drawn by visit count at the start of each game (default 6)")
    parser.add_argument("--buffer", type=integer(1), default=30_000, help="positions kept for training (default 30000)")
    parser.add_argument("--checkpoint-every", type=integer(1), default=5, help="rounds between checkpoints (default 5)")
    parser.add_argument("--eval-games", type=integer(0), default=40, help="games per evaluation match (default 40; 0: none)")
    parser.add_argument("--eval-iterations", type=integer(1), default=100, help="PUCT simulations per move in evaluations (default 100)")
    parser.add_argument("--uct-iterations", type=integer(1), default=None, help="UCT iterations in evaluations (default: timed to equal PUCT's time per move)")
    cli.add_game_options(parser)
    cli.add_run_options(parser, progress=False)
    distributed.add_scheduler_option(parser)


def run_train(args: argparse.Namespace) -> int:
    from territory.train import TrainConfig, train

    if args.blocks and not args.filters:
        raise UsageError(f"--blocks {args.blocks} needs --filters: the blocks are the trunk's")

    config = TrainConfig(
        game=args.game, params=cli.game_params(args, args.game), out=args.out, seed=args.seed,
        minutes=args.minutes, rounds=args.rounds, games=args.games, iterations=args.iterations, hidden=args.hidden,
        init=args.init,
        filters=args.filters, blocks=args.blocks,
        sample_moves=args.sample_moves, buffer=args.buffer, checkpoint_every=args.checkpoint_every,
        eval_games=args.eval_games, eval_iterations=args.eval_iterations, uct_iterations=args.uct_iterations,
        rollout_weight=args.rollout_weight, features=args.features, search_value_weight=args.search_value_weight,
        expansion_visits=args.expansion_visits, augment=args.augment, margin_weight=args.margin_weight,
        ownership_weight=args.ownership_weight, solve_nodes=args.solve_nodes,
        batch=args.batch, replay=args.replay, lr=args.lr, threads=args.threads,
    )

    def show(record: dict[str, Any]) -> None:
        print(json.dumps(record), file=sys.stderr if record["event"] == "start" else sys.stdout, flush=True)

    try:
        scale_out = distributed.executor_for(args.scheduler)
    except (ImportError, ValueError) as error:
        raise UsageError(str(error)) from None
    with scale_out as executor:
        last = train(config, progress=show, executor=executor)
    print(f"last checkpoint: {last}")
    return 0
