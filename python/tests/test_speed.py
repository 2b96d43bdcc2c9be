"""The plain-Python rules of the speed comparison play the same games as the package (so the
comparison is between the same rules), and the benchmark runs as a smoke test."""

import random
from typing import Any

import pytest

import bench_speed
import plyforge
import purepy


@pytest.mark.parametrize("name,games", [("jumpy3", 60), ("chexers", 4), ("throne", 3), ("chaosclock", 60)])
def test_plain_python_rules_agree_with_the_package(name: str, games: int) -> None:
    game = plyforge.load_game(name)
    rng = random.Random(name)
    plies = 0
    for g in range(games):
        native = game.random_state(g) if name == "chaosclock" else game.new_initial_state()
        plain: Any = bench_speed.plain_start(name, str(native))
        while True:
            assert plain.notation() == str(native)
            assert plain.result() == native.result(), native.history()
            moves = plain.legal_moves()
            assert sorted(plain.move_text(m) for m in moves) == sorted(native.legal_moves()), str(native)
            if not moves:
                break
            mv = rng.choice(moves)
            plain.play(mv)
            native.apply_move(plain.move_text(mv))
            plies += 1
    assert plies > 500


@pytest.mark.parametrize("name", plyforge.games())
def test_plain_perft_counts_the_same_leaves(name: str) -> None:
    start = bench_speed.native_start(name, 0)
    depth = bench_speed.PERFT_DEPTH[name] - 1
    plain = bench_speed.plain_start(name, str(start))
    assert purepy.perft(plain, depth) == start.perft(depth)


def test_benchmark_smoke_run() -> None:
    rows = bench_speed.run(seconds=0.02, games=1, shallower=2)
    assert {r["game"] for r in rows} == set(plyforge.games())
    for r in rows:
        for key in ("plain_playouts", "native_loop_playouts", "native_playouts", "plain_movegen", "native_actions", "native_moves", "plain_perft", "native_perft"):
            assert r[key] > 0, (r["game"], key)
    text = bench_speed.table(rows)
    assert "jumpy3" in text and "x" in text
