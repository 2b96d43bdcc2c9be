"""Every vector of the shared test data (copied into tests/data) through the Python API:
legal moves, the result of each move, solver codes."""

from conftest import load

import plyforge

CC_RESULT = {"O": "winner odd", "E": "winner even", "BW": "both win", "BL": "both lose"}


def test_jumpy3_moves() -> None:
    game = plyforge.load_game("jumpy3")
    vectors = load("jumpy3-moves.jsonl")
    assert len(vectors) == 500
    checked = 0
    for v in vectors:
        s = game.state(v["pos"])
        assert sorted(s.legal_moves()) == sorted(v["moves"]), v["pos"]
        for mv, want in v["moves"].items():
            t = s.clone()
            t.apply_move(mv)
            if want.startswith("WIN:"):
                assert t.is_terminal() and t.result() == "winner " + want[4:], (v["pos"], mv)
                assert t.current_player() == -1
            else:
                assert str(t) == want and t.result() is None, (v["pos"], mv)
            checked += 1
    assert checked > 1500


def test_chexers_referee_games() -> None:
    game = plyforge.load_game("chexers")
    games = load("chexers-referee-games.jsonl")
    assert len(games) == 20
    plies = 0
    for g in games:
        s = game.state(g["plies"][0]["pos"])
        for ply, mv in zip(g["plies"], g["moves"]):
            assert str(s) == ply["pos"]
            assert sorted(s.legal_moves()) == sorted(ply["legal"]), ply["pos"]
            # The same move by its action number.
            a = s.move_to_action(mv)
            assert a in s.legal_actions() and s.legal_actions_mask()[a]
            s.apply_action(a)
            assert str(s) == ply["next"]
            plies += 1
        assert s.result() == g["result"].replace(":", "")
        assert s.is_terminal()
    assert plies > 1000


def test_throne_moves_and_games() -> None:
    game = plyforge.load_game("throne")
    vectors = load("throne-moves.jsonl")
    assert len(vectors) == 200
    for v in vectors:
        s = game.state(v["pos"])
        assert sorted(s.legal_moves()) == sorted(v["moves"]), v["pos"]
        for mv, want in v["moves"].items():
            t = s.clone()
            t.apply_move(mv)
            if want.startswith("RESULT:"):
                result, pos = want[7:].split("|")
                assert str(t) == pos and t.result() == result, (v["pos"], mv)
            else:
                assert str(t) == want and t.result() is None, (v["pos"], mv)
    start = game.new_initial_state()
    for g in load("throne-games.jsonl"):
        s = start.clone()
        s.apply_moves(g["moves"])
        assert str(s) == g["final"]
        assert s.result() == g["result"]


def test_chaosclock_moves_results_and_solver() -> None:
    game = plyforge.load_game("chaosclock")
    vectors = load("chaosclock-small.jsonl")
    assert len(vectors) == 100
    for v in vectors:
        s = game.state(v["pos"])
        assert sorted(s.legal_moves()) == sorted(list(v["moves"]) + ["pass"]), v["pos"]
        for mv, want in v["moves"].items():
            t = s.clone()
            t.apply_move(mv)
            if want.startswith("RESULT:"):
                assert t.result() == CC_RESULT[want[7:]], (v["pos"], mv)
            else:
                assert str(t) == want and t.result() is None, (v["pos"], mv)
        sol = plyforge.solve(s)
        assert sol.code == v["code"] and sol.value == str(v["code"]), v["pos"]
        assert sorted(sol.best) == sorted(v["best"]), v["pos"]
