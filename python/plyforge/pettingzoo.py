"""PettingZoo AEC environments for the package's games, every game with action numbers
(needs ``pettingzoo``:
``pip install "plyforge[pettingzoo]"``).

As in PettingZoo's classic board games, each observation is a dict with ``"observation"``
(``State.observation_tensor(agent)``: float32, the game's ``observation_shape()``, from that
agent's point of view) and ``"action_mask"`` (int8, 1 for the legal actions of the agent to
move, all 0 for the others). Actions are the game's action numbers (``Discrete``). Rewards come
at the end: each agent's entry of ``State.returns()`` (win 1, both win 0.5, draw 0, both lose
-0.5, loss -1). Turns need not alternate (Chaos Clock grants extra moves; Chexers has three
players): ``agent_selection`` is always the player to move.

::

    from plyforge.pettingzoo import env
    e = env("chexers")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

``reset(options={"position": NOTATION})`` starts from a position; a game whose rules deal the
start at random (``Game.starts_at_random``, such as Chaos Clock) starts from a seeded random
deal (the seed of ``reset``), the other games from the rules' start.
"""

from typing import Any, Dict, List, Optional

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - depends on what is installed
    raise ImportError(
        "plyforge.pettingzoo needs PettingZoo: pip install pettingzoo (or the package's "
        "'pettingzoo' extra); the rest of plyforge works without it"
    ) from e

import plyforge

__all__ = ["PlyforgeEnv", "env", "raw_env"]


class PlyforgeEnv(AECEnv):  # type: ignore[misc]
    """One game of plyforge as an AEC environment; agents ``player_0``, ``player_1``
    (, ``player_2``) in the game's player order."""

    metadata: Dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "plyforge_v0", "is_parallelizable": False}

    def __init__(self, game: str, render_mode: Optional[str] = None) -> None:
        super().__init__()
        self.game = plyforge.load_game(game)
        self.metadata = dict(self.metadata, name="plyforge_%s_v0" % self.game.name)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be one of %s, not %r" % (self.metadata["render_modes"], render_mode))
        self.render_mode = render_mode
        n = self.game.num_players()
        self.possible_agents: List[str] = ["player_%d" % i for i in range(n)]
        actions = self.game.num_distinct_actions()
        shape = self.game.observation_shape()
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=np.inf, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.state_: plyforge.State = self.game.new_initial_state()
        self._seed: Optional[int] = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _index(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> Dict[str, Any]:
        p = self._index(agent)
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if self.state_.current_player() == p:
            mask[self.state_.legal_actions()] = 1
        return {"observation": self.state_.observation_tensor(p), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is not None:
            self._seed = seed
        position = (options or {}).get("position")
        if position is not None:
            self.state_ = self.game.state(position)
        elif self.game.starts_at_random:
            # The rules start at random: the deal of the seed, and the next deal at each
            # reset without a seed.
            if self._seed is None:
                self._seed = int(np.random.default_rng().integers(0, 1 << 62))
            self.state_ = self.game.random_state(self._seed)
            self._seed += 1
        else:
            self.state_ = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._after_move()

    def _after_move(self) -> None:
        """The player to move is selected; at the end, every agent is terminated with its
        return as reward (the agent that moved last stays selected, to step with None)."""
        s = self.state_
        if s.is_terminal():
            for a, r in zip(self.possible_agents, s.returns()):
                self.rewards[a] = r
                self.terminations[a] = True
                self.infos[a] = {"result": s.result()}
        else:
            self.agent_selection = self.possible_agents[s.current_player()]

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("%s must act: an action number, not None" % agent)
        self._cumulative_rewards[agent] = 0.0
        self.state_.apply_action(int(action))
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        text = self.state_.draw()
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            print(text)
        return None

    def close(self) -> None:
        pass


def raw_env(game: str, render_mode: Optional[str] = None) -> PlyforgeEnv:
    """The environment of `game` (``jumpy3``, ``chexers``, ``throne``, ``chaosclock``)."""
    return PlyforgeEnv(game, render_mode=render_mode)


def env(game: str, render_mode: Optional[str] = None) -> Any:
    """The environment of `game` in PettingZoo's usual wrappers (an illegal action raises,
    acting after the end raises, ``OrderEnforcingWrapper``)."""
    from pettingzoo.utils import wrappers

    e: Any = raw_env(game, render_mode=render_mode)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
