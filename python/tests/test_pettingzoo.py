"""The PettingZoo AEC environments: PettingZoo's own API test, and whole games."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import plyforge
from plyforge.pettingzoo import env, raw_env


@pytest.mark.parametrize("name", plyforge.games())
def test_pettingzoo_api_test(name: str) -> None:
    api_test(env(name), num_cycles=200)


@pytest.mark.parametrize("name", plyforge.games())
def test_random_games_end_with_the_returns(name: str) -> None:
    e = raw_env(name)
    e.reset(seed=3)
    game = plyforge.load_game(name)
    players = game.num_players()
    rng = np.random.default_rng(3)
    totals = {a: 0.0 for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter(max_iter=5000):
        obs, reward, termination, truncation, info = e.last()
        totals[agent] += reward
        assert obs["observation"].shape == game.observation_shape()
        if termination or truncation:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() > 0
        assert agent == "player_%d" % e.state_.current_player()
        e.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert e.state_.is_terminal() and not e.agents
    assert [totals[a] for a in e.possible_agents] == e.state_.returns()
    assert len(totals) == players and steps == len(e.state_.history())


def test_reset_from_a_position_and_seeded_deals() -> None:
    e = raw_env("jumpy3", render_mode="ansi")
    e.reset(options={"position": "B..............W w"})
    assert e.agent_selection == "player_0"
    e.step(15)  # square 16: White's king leaves the board and White wins
    assert e.terminations["player_0"] and e.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert "White" in str(e.render())
    c = raw_env("chaosclock")
    c.reset(seed=9)
    first = str(c.state_)
    c.reset(seed=9)
    assert str(c.state_) == first == str(plyforge.load_game("chaosclock").random_state(9))
    c.reset()
    assert str(c.state_) == str(plyforge.load_game("chaosclock").random_state(10))
    with pytest.raises(ValueError):
        raw_env("jumpy3").reset(options={"position": "nonsense"})
    with pytest.raises(ValueError, match="unknown game"):
        raw_env("go")
