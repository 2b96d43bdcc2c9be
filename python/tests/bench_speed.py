"""Speed of the package from Python against plain-Python implementations of the same rules
(`purepy.py`): random playouts per second and legal-move generations per second, per game.

    python tests/bench_speed.py [SECONDS]      (each figure measured for about SECONDS, default 1)

Playouts: plain Python (a loop over `legal_moves()` / `play()` with `random.choice`) against
the package driven the same way from Python (`legal_actions()` / `apply_action()`), and against
`State.random_playout()` (the whole playout in one call). Legal-move generation: plain
`legal_moves()` against the package's `legal_actions()` (ints) and `legal_moves()` (strings),
on the positions of a few random games, one call per position; and perft from the start
(leaf positions per second: the moves generated and played inside one call, as python-chess
users measure it), plain recursion against `State.perft()`. Rates are per second of CPU
time of this process. Figures are from one run; ratios are what to read.
"""

import random
import sys
import time
from typing import Any, Callable, Dict, List

import plyforge
import purepy

#: Perft depths from each game's start (Chaos Clock: the seed-0 random start).
PERFT_DEPTH = {"jumpy3": 7, "chexers": 4, "throne": 3, "chaosclock": 5}

PLAIN = {"jumpy3": purepy.Jumpy3, "chexers": purepy.Chexers, "throne": purepy.Throne, "chaosclock": purepy.ChaosClock}


def plain_start(name: str, notation: str) -> Any:
    """The plain-Python game at the start position `notation`."""
    if name in ("chexers", "throne"):
        return PLAIN[name]()
    return PLAIN[name](notation)


def native_start(name: str, seed: int) -> plyforge.State:
    game = plyforge.load_game(name)
    return game.random_state(seed) if name == "chaosclock" else game.new_initial_state()


def rate(seconds: float, work: Callable[[int], int]) -> float:
    """Units of work per second of this process's CPU time (the machine may be shared: wall
    time would count the waits): `work(i)` does one batch and returns its units. Every piece
    of work measured here runs on one thread."""
    done, i = 0, 0
    start = time.process_time()
    while True:
        done += work(i)
        i += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done / elapsed


def plain_playout(name: str, seed: int) -> int:
    rng = random.Random(seed)
    g = plain_start(name, str(native_start(name, seed)))
    moves = g.legal_moves()
    while moves:
        g.play(rng.choice(moves))
        moves = g.legal_moves()
    return 1


def native_loop_playout(name: str, seed: int) -> int:
    rng = random.Random(seed)
    s = native_start(name, seed)
    actions = s.legal_actions()
    while actions:
        s.apply_action(rng.choice(actions))
        actions = s.legal_actions()
    return 1


def native_playout(name: str, seed: int) -> int:
    native_start(name, seed).random_playout(seed)
    return 1


def positions(name: str, games: int = 3) -> List[plyforge.State]:
    """The positions of a few random games (at most 200 plies each)."""
    out = []
    for g in range(games):
        s = native_start(name, g)
        rng = random.Random(g)
        while not s.is_terminal() and len(s.history()) < 200:
            out.append(s.clone())
            s.apply_action(rng.choice(s.legal_actions()))
    return out


def plain_positions(name: str, states: List[plyforge.State]) -> List[Any]:
    out = []
    for s in states:
        g = plain_start(name, s.start())
        for m in s.history():
            for pm in g.legal_moves():
                if g.move_text(pm) == m:
                    g.play(pm)
                    break
        assert g.notation() == str(s)
        out.append(g)
    return out


def run(seconds: float = 1.0, games: int = 3, shallower: int = 0) -> List[Dict[str, Any]]:
    """The figures of every game: each rate measured for about `seconds` of CPU time, move
    generation on the positions of `games` random games, perft `shallower` plies less deep
    than `PERFT_DEPTH` (the smoke run's settings make it quick)."""
    rows = []
    for name in plyforge.games():
        states = positions(name, games)
        plains = plain_positions(name, states)
        n = len(states)
        row: Dict[str, Any] = {"game": name}
        row["plain_playouts"] = rate(seconds, lambda i: plain_playout(name, i))
        row["native_loop_playouts"] = rate(seconds, lambda i: native_loop_playout(name, i))
        row["native_playouts"] = rate(seconds, lambda i: native_playout(name, i))
        row["plain_movegen"] = rate(seconds, lambda i: sum(1 for g in plains if g.legal_moves()))
        row["native_actions"] = rate(seconds, lambda i: sum(1 for s in states if s.legal_actions()))
        row["native_moves"] = rate(seconds, lambda i: sum(1 for s in states if s.legal_moves()))
        row["positions"] = n
        depth = PERFT_DEPTH[name] - shallower
        start = native_start(name, 0)
        leaves = start.perft(depth)
        plain = plain_start(name, str(start))
        row["perft_depth"], row["perft_leaves"] = depth, leaves
        row["plain_perft"] = rate(seconds, lambda i: purepy.perft(plain, depth))
        row["native_perft"] = rate(seconds, lambda i: start.perft(depth))
        rows.append(row)
    return rows


def table(rows: List[Dict[str, Any]]) -> str:
    lines = [
        "| game | plain playouts/s | loop over the API /s (ratio) | `random_playout` /s (ratio) | plain move gens/s | `legal_actions` /s (ratio) | `legal_moves` /s (ratio) | perft depth | plain perft leaves/s | `perft` leaves/s (ratio) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        p, m = r["plain_playouts"], r["plain_movegen"]
        lines.append(
            "| %s | %.1f | %.1f (%.1fx) | %.1f (%.1fx) | %.0f | %.0f (%.1fx) | %.0f (%.1fx) | %d | %.0f | %.0f (%.0fx) |"
            % (
                r["game"],
                p,
                r["native_loop_playouts"],
                r["native_loop_playouts"] / p,
                r["native_playouts"],
                r["native_playouts"] / p,
                m,
                r["native_actions"],
                r["native_actions"] / m,
                r["native_moves"],
                r["native_moves"] / m,
                r["perft_depth"],
                r["plain_perft"],
                r["native_perft"],
                r["native_perft"] / r["plain_perft"],
            )
        )
    return "\n".join(lines)


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    print(table(run(secs)))
