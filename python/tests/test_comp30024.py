"""The in-process COMP30024 Player through a minimal referee loop."""

from typing import Any, Dict, List, cast

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


def test_the_player_thinks_on_the_game_clock_and_never_oversteps_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PLYFORGE_MOVETIME_MS", raising=False)
    # A short clock for the whole game, against two quick opponents.
    me = Player("red", clock=3.0)
    assert me.time is None and me.clock == 3.0
    others = {c: Player(c, spec="greedy") for c in ("green", "blue")}
    sent: List[Dict[str, Any]] = []
    engine = me.engine

    class Spy:
        def search(self, state: plyforge.State, **kw: Any) -> plyforge.SearchResult:
            sent.append(kw)
            return engine.search(state, **kw)

    me.engine = cast(Any, Spy())
    referee = plyforge.load_game("chexers").new_initial_state()
    while not referee.is_terminal():
        colour = ("red", "green", "blue")[referee.current_player()]
        player = me if colour == "red" else others[colour]
        action = player.action()
        referee.apply_move(to_notation(action))
        for p in [me, *others.values()]:
            p.update(colour, action)
    # Every search on the clock left, falling action by action, and the clock not overstepped.
    assert sent and all(set(kw) == {"clock"} for kw in sent)
    clocks = [kw["clock"] for kw in sent]
    assert clocks[0] <= 3.0
    assert clocks == sorted(clocks, reverse=True)
    assert me.remaining() > 0, "used %.3f s of 3 s" % me.used


def test_the_game_clock_through_the_engine() -> None:
    game = plyforge.load_game("chexers")
    engine = plyforge.Engine(game, spec="engine")
    state = game.new_initial_state()
    r = engine.search(state, clock=2.0)
    assert r.move in state.legal_moves()
    with pytest.raises(ValueError, match="not both"):
        engine.search(state, clock=2.0, time=0.1)
    with pytest.raises(ValueError, match="clock"):
        engine.search(state, clock=-1.0)
    with pytest.raises(ValueError, match="clock"):
        Player("red", clock=0)
    # A flat time per action still works, by keyword or environment.
    assert Player("red", time=0.05).time == 0.05
