"""Random games through the API agree with `arena apply` from the same start: the final
position and the result (the history rules included)."""

import random
from typing import Callable, List

import pytest

import plyforge

STARTS = {
    "jumpy3": ["start", "B..w.W.b......b. w"],
    "chexers": ["start"],
    "throne": ["start"],
    "chaosclock": ["random:3", "random:11", "start"],
}


@pytest.mark.parametrize("name", plyforge.games())
def test_random_games_agree_with_arena_apply(name: str, arena: Callable[..., List[str]]) -> None:
    game = plyforge.load_game(name)
    rng = random.Random(name)
    ended = 0
    for start in STARTS[name]:
        for _ in range(3):
            s = game.state(start)
            # Whole games, but cut off at random: a move limit must not be the only end.
            limit = rng.choice([10, 60, 1000])
            while not s.is_terminal() and len(s.history()) < limit:
                if rng.random() < 0.5:
                    s.apply_move(rng.choice(s.legal_moves()))
                else:
                    s.apply_action(rng.choice(s.legal_actions()))
            lines = arena("apply", name, start, *s.history())
            assert lines[0] == str(s)
            if s.is_terminal():
                ended += 1
                assert lines[1] == "result: " + str(s.result())
            else:
                assert len(lines) == 1 or not lines[1].startswith("result:")
    assert ended > 0


def test_repetition_draws_as_arena_does(arena: Callable[..., List[str]]) -> None:
    # Two kings sending each other back: the third occurrence of a position draws Jumpy3.
    # About one random game in 250 ends so; the seeded playouts find some.
    game = plyforge.load_game("jumpy3")
    repeated = 0
    for seed in range(3000):
        s = game.new_initial_state()
        s.random_playout(seed)
        if s.result() == "draw repetition":
            repeated += 1
            assert arena("apply", "jumpy3", "start", *s.history())[1] == "result: draw repetition"
            # One move less is not over yet.
            assert len(arena("apply", "jumpy3", "start", *s.history()[:-1])) == 1
            if repeated == 2:
                break
    assert repeated == 2
