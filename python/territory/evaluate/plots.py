"""Figures for ``territory.evaluate``'s results, drawn with matplotlib (the optional
``plot`` extra), which is imported only here, only when a figure is asked for.

The board heat map draws each cell as a polygon at the coordinates the SVG renderer
(``territory.svg``) uses, so it has the game's own board shape and orientation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from territory import games, geometry, svg
from territory.registry import GAMES, new_game

INSTALL_HINT = 'plotting needs matplotlib: pip install "territory-games[plot]" (or pip install matplotlib)'


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ImportError(INSTALL_HINT) from error
    return plt


def _save(fig: Any, path: Any) -> None:
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"plot path must end in .png or .svg, got {str(path)!r}")
    fig.savefig(path, format=suffix[1:], dpi=120, bbox_inches="tight")


def _check_path(path: Any) -> None:
    if Path(path).suffix.lower() not in (".png", ".svg"):
        raise ValueError(f"plot path must end in .png or .svg, got {str(path)!r}")


def plot_evaluation(result: Any, path: Any) -> None:
    _check_path(path)
    plt = _pyplot()
    t = result.traces
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    moves = t["moves"]
    low, high = int(moves.min()), int(moves.max())
    if high - low < 10:  # a few lengths (Nume: always the number of cells): room around them
        low, high = low - 5, high + 5
    bins = np.arange(low, high + 2) - 0.5 if high - low < 120 else 60
    axes[0].hist(moves, bins=bins, color="#4a7ab5")
    axes[0].set_xlabel("actions per game (DurationMoves)")
    axes[0].set_ylabel("games")
    axes[0].set_title("game length")
    difference = t["scores"][:, 0] - t["scores"][:, 1]
    wins = t["winner"]
    span = np.linspace(difference.min(), difference.max() + 1e-9, 41)
    axes[1].hist([difference[wins == 0], difference[wins == 1], difference[wins < 0]], bins=span, stacked=True,
                 color=["#2b6cb0", "#dd6b20", "#999999"], label=["seat 0 wins", "seat 1 wins", "draws"])
    axes[1].set_xlabel("final score of seat 0 minus seat 1" + (" (the lower score wins)" if _lower_score_wins(result.game) else ""))
    axes[1].set_title("final score difference")
    axes[1].legend(fontsize=8)
    names = ["AdvantageP1", "Balance", "Completion", "DecisionMoves", "LeadChange", "DecisivenessMoves"]
    metrics = [result.metrics[n] for n in names]
    est = np.array([m.estimate for m in metrics])
    lows = np.array([m.interval[0] for m in metrics])
    highs = np.array([m.interval[1] for m in metrics])
    y = np.arange(len(names))[::-1]
    axes[2].errorbar(est, y, xerr=[np.maximum(est - lows, 0), np.maximum(highs - est, 0)], fmt="o", color="#2d3748", capsize=3)
    axes[2].set_yticks(y, names)
    axes[2].set_xlim(0, 1)
    axes[2].axvline(0.5, color="#cccccc", lw=0.8, zorder=0)
    axes[2].set_title("rates with 95% intervals")
    params = ", ".join(f"{k}={v}" for k, v in result.params.items())
    fig.suptitle(f"{result.game} ({params}): {result.games:,} games, agent {result.agent}")
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def plot_komi(result: Any, path: Any) -> None:
    _check_path(path)
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, fit in enumerate(result.fits):
        color = colors[i % len(colors)]
        c = fit.curve
        komi = np.array(c["komi"])
        rate = np.array(c["win_rate"])
        ax.errorbar(komi, rate, yerr=[np.maximum(rate - np.array(c["ci_low"]), 0), np.maximum(np.array(c["ci_high"]) - rate, 0)], fmt="o", ms=3,
                    color=color, capsize=2, alpha=0.8)
        grid = np.linspace(komi.min(), komi.max(), 300)
        fitted, lo, hi = fit.fitted(grid)
        ax.plot(grid, fitted, color=color, label=f"{fit.agent}: fair komi {fit.estimate:.2f} [{fit.interval[0]:.2f}, {fit.interval[1]:.2f}]")
        ax.fill_between(grid, lo, hi, color=color, alpha=0.2, lw=0)
        if np.isfinite(fit.estimate):
            ax.axvspan(fit.interval[0], fit.interval[1], color=color, alpha=0.12, lw=0)
            ax.axvline(fit.estimate, color=color, ls="--", lw=1)
    ax.axhline(0.5, color="#888888", lw=0.8)
    ax.set_xlabel("komi (added to Black's score; negative: to White's)")
    ax.set_ylabel("Black's win rate")
    params = ", ".join(f"{k}={v}" for k, v in result.params.items())
    ax.set_title(f"{result.game.capitalize()} ({params}): {result.games:,} games per komi, logistic fit with 95% band")
    ax.legend(fontsize=8)
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)


def cell_polygons(game: str, params: dict[str, Any]) -> dict[str, list[tuple[float, float]]]:
    """Each cell's outline in the SVG renderer's coordinates (y down)."""
    board = geometry.board_of(new_game(game, **params))
    if board.kind == "square":
        k = max(cell.x for cell in board.cells) + 1
        half = svg._SQ / 2
        out = {}
        for cell in board.cells:
            x, y = svg._square_center(cell, k)
            out[cell.name] = [(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)]
        return out
    return {cell.name: svg._hexagon(*svg._hex_center(cell.x, cell.y)) for cell in board.cells}


def _heat_map(ax: Any, plt: Any, game: str, params: dict[str, Any], rates: dict[str, float], title: str) -> Any:
    from matplotlib.collections import PolyCollection

    polygons = cell_polygons(game, params)
    names = list(polygons)
    values = np.array([rates.get(n, np.nan) for n in names])
    cmap = plt.get_cmap("RdBu_r").with_extremes(bad="#f4ecdc")
    collection = PolyCollection([polygons[n] for n in names], array=np.ma.masked_invalid(values), cmap=cmap,
                                edgecolors="#6e5a44", linewidths=0.6)
    collection.set_clim(0.0, 1.0)
    ax.add_collection(collection)
    for shape, color in games.hook(game, "shapes", list)():  # e.g. Migong's central border, as the SVG board draws it
        from matplotlib.patches import Polygon

        ax.add_patch(Polygon(shape, color=color))
    points = np.array([p for poly in polygons.values() for p in poly])
    ax.set_xlim(points[:, 0].min() - 5, points[:, 0].max() + 5)
    ax.set_ylim(points[:, 1].max() + 5, points[:, 1].min() - 5)  # SVG's y points down
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title, fontsize=10)
    return collection


def _lower_score_wins(game: str) -> bool:
    """The engine's win rule of a game."""
    cls: Any = GAMES[game]
    return bool(cls.lower_score_wins)


def plot_openings(result: Any, path: Any) -> None:
    _check_path(path)
    plt = _pyplot()
    panels = [("play_on", "seat 1 plays on")] + ([("swap", "seat 1 swaps (pie)")] if result.swap is not None else [])
    fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 6.2), squeeze=False)
    collection = None
    for ax, (which, label) in zip(axes[0], panels):
        collection = _heat_map(ax, plt, result.game, result.params, result.by_cell(which), label)
    fig.colorbar(collection, ax=list(axes[0]), shrink=0.8, label="seat 0's win rate after a first move on the cell")
    params = ", ".join(f"{k}={v}" for k, v in result.params.items())
    fig.suptitle(f"{result.game} ({params}) openings: {len(result.moves)} first moves, {result.games_per_opening:,} games each, agent {result.agent}")
    _save(fig, path)
    plt.close(fig)
