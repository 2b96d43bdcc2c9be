"""The in-process COMP30024 Player through a minimal referee loop."""

import os
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional, Tuple, cast

import pytest

import plyforge
from plyforge.comp30024 import (
    DEFAULT_TT_MIB,
    Player,
    clock_reserve,
    fallback_move,
    from_notation,
    limit_malloc_arenas,
    to_notation,
)


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


# The guards: whatever the engine does, an action the referee accepts, at once.

COLOURS = ("red", "green", "blue")


def _midgame(player: Player, plies: int = 6) -> None:
    """Plays `plies` greedy actions into `player`'s tracked state (every colour's turn)."""
    greedy = plyforge.Engine(player.game, spec="greedy")
    for _ in range(plies):
        colour = COLOURS[player.state.current_player()]
        move = greedy.search(player.state).move
        assert move is not None
        player.update(colour, from_notation(move))


class Raising:
    """An engine whose every search raises."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.calls = 0

    def search(self, state: plyforge.State, **kw: Any) -> plyforge.SearchResult:
        self.calls += 1
        raise self.error


def test_a_search_that_raises_gives_way_to_a_legal_action() -> None:
    errors: List[Exception] = [
        RuntimeError("the search thread panicked"),
        ValueError("bad"),
        MemoryError(),
        ZeroDivisionError(),
    ]
    for error in errors:
        p = Player("red", time=0.05)
        _midgame(p, 3)
        p.engine = cast(Any, Raising(error))
        legal = p.state.legal_moves()
        assert len(legal) > 1
        a = p.action()
        assert to_notation(a) in legal
        assert cast(Raising, p.engine).calls == 1
        assert [i["kind"] for i in p.incidents] == ["error"]
        assert type(error).__name__ in p.incidents[0]["detail"]
    # Even with the fallback engine raising too: the Python fallback's choice.
    p = Player("green", time=0.05)
    _midgame(p, 1)
    p.engine = cast(Any, Raising(RuntimeError("main")))
    p.quick = cast(Any, Raising(RuntimeError("quick")))
    legal = p.state.legal_moves()
    a = p.action()
    assert to_notation(a) == fallback_move(legal, "green")
    assert [i["kind"] for i in p.incidents] == ["error", "error"]


def test_a_whole_game_with_a_broken_engine_plays_only_legal_actions() -> None:
    players = {c: Player(c, time=0.02) for c in COLOURS}
    for p in players.values():
        p.engine = cast(Any, Raising(RuntimeError("broken")))
    referee = plyforge.load_game("chexers").new_initial_state()
    while not referee.is_terminal():
        colour = COLOURS[referee.current_player()]
        action = players[colour].action()
        assert to_notation(action) in referee.legal_moves()
        referee.apply_move(to_notation(action))
        for p in players.values():
            p.update(colour, action)
    assert all(p.incidents for p in players.values())


class Answering:
    """An engine that answers a fixed move."""

    def __init__(self, move: Optional[str]) -> None:
        self.move = move

    def search(self, state: plyforge.State, **kw: Any) -> Any:
        return type("Result", (), {"move": self.move})()


def test_an_illegal_or_missing_answer_gives_way_to_a_legal_action() -> None:
    p = Player("blue", time=0.05)
    _midgame(p, 2)
    legal = p.state.legal_moves()
    # Red's move, a move off the board, a pass while moves exist, nonsense, no move.
    for answer in ["MOVE -3 3 -2 2", "MOVE 3 0 4 0", "PASS", "EXIT 9 9", "hello", "", None]:
        assert answer not in legal
        p.incidents.clear()
        p.engine = cast(Any, Answering(answer))
        a = p.action()
        assert to_notation(a) in legal, answer
        assert [i["kind"] for i in p.incidents] == ["none" if answer is None else "illegal"]
    # A legal answer is played as it is.
    p.incidents.clear()
    p.engine = cast(Any, Answering(legal[-1]))
    assert to_notation(p.action()) == legal[-1]
    assert p.incidents == []


def test_the_python_fallback_prefers_exits_then_progress() -> None:
    assert fallback_move(["MOVE -3 0 -2 0", "EXIT 3 -1", "JUMP 1 0 3 -2"], "red") == "EXIT 3 -1"
    # Red goes up q; green up r; blue down q + r.
    assert fallback_move(["MOVE 0 0 -1 0", "MOVE 0 0 1 0", "MOVE 0 0 1 -1"], "red") == "MOVE 0 0 1 0"
    assert fallback_move(["MOVE 0 0 1 -1", "MOVE 0 0 0 1"], "green") == "MOVE 0 0 0 1"
    assert fallback_move(["MOVE 0 0 1 0", "JUMP 0 0 -2 0"], "blue") == "JUMP 0 0 -2 0"
    assert fallback_move(["PASS"], "blue") == "PASS"


class Recording:
    """The real engine, its searches' keywords recorded."""

    def __init__(self, engine: plyforge.Engine) -> None:
        self.engine = engine
        self.sent: List[Dict[str, Any]] = []

    def search(self, state: plyforge.State, **kw: Any) -> plyforge.SearchResult:
        self.sent.append(kw)
        return self.engine.search(state, **kw)


def test_an_exhausted_clock_answers_at_once_without_searching(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PLYFORGE_MOVETIME_MS", raising=False)
    for used in [60.0, 75.0, 60.0 - clock_reserve(60.0)]:  # at, over, and only the reserve left
        p = Player("red", clock=60.0)
        spy = Recording(p.engine)
        p.engine = cast(Any, spy)
        p.used = used
        started = time.perf_counter()
        a = p.action()
        assert time.perf_counter() - started < 0.25
        assert to_notation(a) in p.state.legal_moves()
        assert spy.sent == [], "no search with no time left"
        assert [i["kind"] for i in p.incidents] == ["clock"]
    # A flat time per action and a spec's own time are cut to the clock left, less the reserve.
    settings: List[Dict[str, Any]] = [
        {"time": 5.0},
        {"spec": "paranoid,time=5s,tt=1"},
        {"spec": "paranoid,depth=30,tt=1"},
    ]
    for kw in settings:
        p = Player("red", clock=10.0, **kw)
        spy = Recording(p.engine)
        p.engine = cast(Any, spy)
        p.used = 10.0 - p.reserve - 0.2
        a = p.action()
        assert to_notation(a) in p.state.legal_moves()
        (sent,) = spy.sent
        given = float(sent.get("time", sent.get("clock", 0.0)))
        assert 0 < given <= 0.2, (kw, sent)
        assert p.remaining() > 0, kw
        if "depth" in str(kw):
            assert sent["depth"] == 30 and "clock" in sent
    # Two threads: the engine's CPU time runs twice as fast as the clock it is given.
    p = Player("red", clock=10.0, threads=2, tt_mib=1)
    spy = Recording(p.engine)
    p.engine = cast(Any, spy)
    p.used = 4.0
    p.action()
    assert p.threads == 2 and 0 < spy.sent[0]["clock"] <= (6.0 - p.reserve) / 2


def test_a_single_legal_action_is_played_without_a_search() -> None:
    p = Player("red", time=0.05)
    p.engine = cast(Any, Raising(RuntimeError("not to be called")))
    # Red's last piece in its corner, boxed in by green's: one jump out.
    p.state = p.game.state("..../...../....../......b/g....b/gg..b/rggb r 0,0,0 0")
    (only,) = p.state.legal_moves()
    assert to_notation(p.action()) == only
    assert cast(Raising, p.engine).calls == 0 and p.incidents == []


def test_the_table_size_is_capped_and_passed_to_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PLYFORGE_TT_MIB", raising=False)
    monkeypatch.delenv("PLYFORGE_ENGINE", raising=False)
    p = Player("red")
    assert p.tt_mib == DEFAULT_TT_MIB == 16
    assert p.engine.spec == "engine,tt=16"
    assert Player("red", tt_mib=4).engine.spec == "engine,tt=4"
    monkeypatch.setenv("PLYFORGE_TT_MIB", "8")
    assert Player("red").engine.spec == "engine,tt=8"
    # A spec's own size wins.
    assert Player("red", spec="paranoid,depth=2,tt=2").engine.spec == "paranoid,depth=2,tt=2"
    with pytest.raises(ValueError, match="tt_mib"):
        Player("red", tt_mib=-1)


#: A game of three Players in a fresh interpreter, as the referee runs them: VmPeak (MiB)
#: above what it was after the imports (the referee's baseline), printed at the end.
VM_GAME = """
import sys
import plyforge
from plyforge.comp30024 import Player, to_notation

def vm_peak():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmPeak:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmPeak")

base = vm_peak()
colours = ("red", "green", "blue")
players = {c: Player(c, time=0.01, **eval(sys.argv[1])) for c in colours}
referee = plyforge.load_game("chexers").new_initial_state()
for _ in range(30):
    colour = colours[referee.current_player()]
    action = players[colour].action()
    referee.apply_move(to_notation(action))
    for p in players.values():
        p.update(colour, action)
print(vm_peak() - base, all(p.arenas_capped for p in players.values()))
"""


def _vm_growth(settings: str) -> Tuple[float, bool]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLYFORGE_")}
    out = subprocess.run(
        [sys.executable, "-c", VM_GAME, settings],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    growth, capped = out.stdout.split()
    return float(growth), capped == "True"


def test_the_process_stays_small() -> None:
    """What the referee measures: VmPeak of its process, over 30 actions of three Players."""
    assert limit_malloc_arenas(1), "Linux with glibc: the arenas can be capped"
    # The defaults: three 16 MiB tables (and a second one for a player whose engine took the
    # second opinion of max^n on a repetition), the searches' threads allocating from the
    # main arena: about 52 MiB, 68 with a second table.
    growth, capped = _vm_growth("{}")
    assert capped and 3 * DEFAULT_TT_MIB <= growth < 2 * 3 * DEFAULT_TT_MIB + 8, growth
    # The old settings: the game's 32 MiB tables, and the first search thread's own malloc
    # arena (64 MiB kept, 128 MiB reserved for a moment).
    growth, capped = _vm_growth("{'tt_mib': 32, 'malloc_arenas': 0}")
    assert not capped and growth > 3 * 32 + 64, growth
