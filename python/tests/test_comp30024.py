"""The in-process COMP30024 Player through a minimal referee loop."""

import pytest

import plyforge
from plyforge.comp30024 import Player, from_notation, to_notation


def test_notation_round_trip() -> None:
    for text, action in [
        ("MOVE -3 1 -2 0", ("MOVE", ((-3, 1), (-2, 0)))),
        ("JUMP 0 -3 -2 -1", ("JUMP", ((0, -3), (-2, -1)))),
        ("EXIT 3 0", ("EXIT", (3, 0))),
        ("PASS", ("PASS", None)),
    ]:
        assert from_notation(text) == action
        assert to_notation(action) == text
    with pytest.raises(ValueError):
        from_notation("EXIT 3")
    with pytest.raises(ValueError):
        to_notation(("JUMP", (1, 2)))


def test_three_players_play_legal_actions_to_the_end() -> None:
    players = {c: Player(c, spec="paranoid,depth=2,tt=4") for c in ("red", "green", "blue")}
    referee = plyforge.load_game("chexers").new_initial_state()
    turns = 0
    while not referee.is_terminal() and turns < 900:
        colour = ("red", "green", "blue")[referee.current_player()]
        action = players[colour].action()
        assert to_notation(action) in referee.legal_moves()
        referee.apply_move(to_notation(action))
        for p in players.values():
            p.update(colour, action)
        turns += 1
    assert referee.is_terminal(), "a game of depth-2 engines ends"
    for p in players.values():
        assert str(p.state) == str(referee)
        with pytest.raises(ValueError, match="already over"):
            p.action()


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="colour"):
        Player("purple")
    p = Player("red", time=0.05)
    with pytest.raises(ValueError, match="turn"):
        p.update("green", ("PASS", None))
    with pytest.raises(ValueError):
        p.update("red", ("MOVE", ((-3, 0), (3, 0))))
    a = p.action()
    assert to_notation(a) in p.state.legal_moves()
