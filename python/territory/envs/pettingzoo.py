"""A PettingZoo AEC environment for the territory games (imports PettingZoo and
Gymnasium; install them with ``pip install "territory-games[rl]"``).

Agents "player_0" and "player_1" are seats 0 and 1. Each observation is a dict with
``"observation"`` (the float32 planes of docs/observations.md, from that agent's point
of view) and ``"action_mask"`` (int8, the legal actions of the agent to move, all zeros
for the other agent). Actions are the game's integer actions (docs/conventions.md): an
int or a numpy integer; a float, a bool or anything else raises ``InvalidMoveError``
(``int()`` would silently turn 1.7 or True into action 1).
Rewards are +1/-1 at the end (0/0 for a Nume draw), 0 before.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from territory.registry import new_game
from territory.errors import InvalidMoveError

AGENTS = ["player_0", "player_1"]


class TerritoryAEC(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment over one game state."""

    metadata = {"render_modes": ["ansi"], "name": "territory_v0", "is_parallelizable": False}

    def __init__(self, game: Any, render_mode: Optional[str] = None, **params: Any) -> None:
        super().__init__()
        start: Any
        if isinstance(game, str):
            start = new_game(game, **params)
        else:
            if params:
                raise ValueError("give game parameters only with a game name, not with a state")
            start = game.copy()
        if start.is_over:
            raise ValueError("the start state is over: reset() would leave an agent to act with no legal action")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self._start = start
        self.game = start.copy()
        self.metadata = dict(self.metadata, name=f"territory_{start.game}_v0")
        self.possible_agents = list(AGENTS)
        n = start.num_actions
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 2.0, start.observation_shape, np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self.observation_spaces = {a: observation_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENTS.index(agent)
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if self.game.to_move == seat:
            mask[self.game.legal_mask()] = 1
        return {"observation": self.game.observation(seat), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self.game = self._start.copy()
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.game.to_move if self.game.to_move is not None else 0]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise InvalidMoveError(f"an action must be an int, got {action!r}")
        self.game.apply_action(int(action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in AGENTS}
        if self.game.is_over:
            returns = self.game.returns()
            for seat, a in enumerate(AGENTS):
                self.rewards[a] = float(returns[seat])
                self.terminations[a] = True
        else:
            self.agent_selection = AGENTS[self.game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        return str(self.game)

    def close(self) -> None:
        pass
