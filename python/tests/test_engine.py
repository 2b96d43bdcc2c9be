"""The engine from Python: it finds wins, reports iterations, releases the GIL, stops on
Ctrl-C and on stop(), and refuses what it cannot do with a ValueError."""

import os
import pathlib
import signal
import threading
from typing import List

import pytest
from conftest import load

import plyforge


def won_jumpy3_positions() -> List[str]:
    """Positions of the vectors where the side to move has a move that wins at once."""
    return [v["pos"] for v in load("jumpy3-moves.jsonl") if any(r.startswith("WIN:") for r in v["moves"].values())]


def test_engine_finds_jumpy3_wins_from_the_vectors() -> None:
    game = plyforge.load_game("jumpy3")
    eng = plyforge.Engine(game, threads=2, tt_mib=16, spec="engine")
    positions = won_jumpy3_positions()
    assert len(positions) > 10
    for pos in positions[:25]:
        s = game.state(pos)
        r = eng.search(s, depth=6)
        assert r.move is not None
        t = s.clone()
        t.apply_move(r.move)
        # The engine plays a winning move; the solver agrees it wins at once.
        assert t.is_terminal() and t.returns()[s.current_player()] == 1.0, (pos, r)
        assert r.mate == 1 and r.pv[0] == r.move


def test_jumpy3_solver_with_a_table_file(tmp_path: pathlib.Path) -> None:
    game = plyforge.load_game("jumpy3")
    table = tmp_path / "jumpy3.table"
    # The first call builds the table and writes it; the next ones read it.
    sol = plyforge.solve(game.new_initial_state(), table=table)
    assert table.exists()
    assert sol.value == "win 25" and sol.distance == 25 and sol.best == ["1"]
    assert len(sol.line) == 25 and sol.code is None
    positions = won_jumpy3_positions()[:10]
    for pos in positions:
        s = game.state(pos)
        sol = plyforge.solve(s, table=str(table))
        assert sol.value == "win 1", pos
        for mv in sol.best:
            t = s.clone()
            t.apply_move(mv)
            assert t.returns()[s.current_player()] == 1.0


def test_on_iteration_is_called_for_each_depth() -> None:
    game = plyforge.load_game("throne")
    eng = plyforge.Engine(game, spec="engine", tt_mib=8)
    seen: List[plyforge.SearchResult] = []
    r = eng.search(game.new_initial_state(), depth=4, on_iteration=seen.append)
    assert [i.depth for i in seen] == [1, 2, 3, 4]
    assert r.depth == 4 and r.move in game.new_initial_state().legal_moves()
    assert r.nodes >= seen[-1].nodes > 0 and len(r.scores) == 2


def test_a_callback_error_stops_the_search_and_is_raised() -> None:
    game = plyforge.load_game("chexers")
    eng = plyforge.Engine(game, spec="paranoid", tt_mib=8)

    def fail(r: plyforge.SearchResult) -> None:
        raise RuntimeError("from the callback at depth %d" % r.depth)

    with pytest.raises(RuntimeError, match="from the callback at depth 1"):
        eng.search(game.new_initial_state(), depth=30, on_iteration=fail)
    # The engine is usable afterwards.
    assert eng.search(game.new_initial_state(), depth=2).depth == 2


def test_the_search_releases_the_gil() -> None:
    game = plyforge.load_game("chexers")
    eng = plyforge.Engine(game, spec="paranoid", tt_mib=8)
    count = 0
    done = threading.Event()

    def spin() -> None:
        nonlocal count
        while not done.is_set():
            count += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        before = count
        eng.search(game.new_initial_state(), time=0.5)
        during = count - before
    finally:
        done.set()
        t.join()
    # With the GIL held by the search, the spinning thread could not have run at all.
    assert during > 1000


def test_ctrl_c_stops_a_search() -> None:
    game = plyforge.load_game("throne")
    eng = plyforge.Engine(game, spec="engine", tt_mib=8)
    # Python's own Ctrl-C handler, even where the test runner was started with SIGINT ignored.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            eng.search(game.new_initial_state(), time=60.0)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    # Stopped, not broken: the next search runs normally.
    assert eng.search(game.new_initial_state(), depth=2).depth == 2


def test_stop_from_another_thread() -> None:
    game = plyforge.load_game("throne")
    eng = plyforge.Engine(game, spec="engine", tt_mib=8)
    timer = threading.Timer(0.3, eng.stop)
    timer.start()
    r = eng.search(game.new_initial_state(), time=60.0)
    timer.join()
    assert r.move in game.new_initial_state().legal_moves()


def test_specs_and_players() -> None:
    game = plyforge.load_game("chexers")
    s = game.new_initial_state()
    for spec in ("brs,depth=2", "maxn,depth=2", "greedy", "random,seed=3"):
        r = plyforge.Engine(game, spec=spec).search(s)
        assert r.move in s.legal_moves(), spec
    # The spec's own tt wins over tt_mib; tt_mib is added otherwise.
    assert plyforge.Engine(game, tt_mib=4, spec="paranoid,tt=2").spec == "paranoid,tt=2"
    assert plyforge.Engine(game, tt_mib=4, spec="paranoid").spec == "paranoid,tt=4"


def test_engine_errors() -> None:
    jumpy3 = plyforge.load_game("jumpy3")
    with pytest.raises(ValueError, match="unknown engine kind"):
        plyforge.Engine(jumpy3, spec="deep-blue")
    with pytest.raises(ValueError, match="eval=nope"):
        plyforge.Engine(jumpy3, spec="engine,eval=nope")
    with pytest.raises(ValueError):
        plyforge.Engine(jumpy3, threads=0)
    eng = plyforge.Engine(jumpy3, spec="engine")
    with pytest.raises(ValueError, match="not Chexers"):
        eng.search(plyforge.load_game("chexers").new_initial_state(), depth=1)
    over = jumpy3.state("B..............W w")
    over.apply_move("16")
    with pytest.raises(ValueError, match="already over"):
        eng.search(over, depth=3)
    with pytest.raises(ValueError, match="time"):
        eng.search(jumpy3.new_initial_state(), time=-1.0)
    with pytest.raises(ValueError, match="no exact solver"):
        plyforge.solve(plyforge.load_game("chexers").new_initial_state())
