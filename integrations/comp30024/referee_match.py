"""Games of Chexers between three COMP30024 (2019) Player packages, the way the course
referee plays them, with seats rotated and openings varied: the strength figures of issue 20.

    python3 referee_match.py arena_player standins.brs_player standins.maxn_player \\
        --games 60 --seed 1 --moves-time-ms 100

Each package's ``Player`` class is used as the referee uses it: ``Player(colour)``,
``action()`` on its turn, ``update(colour, action)`` for every action (its own included).
Every action is checked against the rules (``standins.chexers_state``); an illegal action,
an exception, or a player's ``action()`` calls taking more than ``-t`` seconds of wall time
in one game ends the game as a loss for that player (reported; the other two are counted
as "ended by another"). Otherwise the game ends as the referee ends it: 4 exits win, the
4th occurrence of a position (board + whose turn) draws, the 768th turn draws.

Seats: the games go in cycles of six, the packages in every order over red, green and blue;
every game of a cycle starts after the same ``--opening`` random plies (seeded), played by
the runner and sent to the players with ``update``, so that deterministic players still give
independent samples.

``arena_player`` (our Player) is configured through its environment: ``--moves-time-ms MS``
sets ``ARENA_MOVETIME_MS`` (a flat time per action), ``--clock S`` sets ``ARENA_CLOCK_S``
(it thinks on the game clock of S seconds); the referee's budget ``-t`` defaults to the
clock, else 60 s.

Standard library only.
"""

import argparse
import importlib
import itertools
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from arena_player import to_notation  # noqa: E402
from standins.chexers_state import COLOURS, Game  # noqa: E402


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Chexers games between three COMP30024 Player packages, seats rotated."
    )
    ap.add_argument("packages", nargs=3, help="three importable packages with a Player class")
    ap.add_argument("--games", type=int, default=6, help="games to play (default 6)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random openings (default 1)")
    ap.add_argument(
        "--opening", type=int, default=3, help="random plies before each cycle of six games (default 3)"
    )
    group = ap.add_mutually_exclusive_group()
    group.add_argument(
        "--moves-time-ms", type=int, help="arena_player: a flat time per action (ARENA_MOVETIME_MS)"
    )
    group.add_argument("--clock", type=float, help="arena_player: the game clock in seconds (ARENA_CLOCK_S)")
    ap.add_argument(
        "-t", "--time", type=float, help="each player's budget of action() wall time per game (default: --clock, else 60)"
    )
    ap.add_argument(
        "--skip", type=int, default=0, help="leave out the first SKIP games (to resume a run that was stopped)"
    )
    ap.add_argument("--shard", default="0/1", help="K/N: play only the games g with g %% N == K")
    ap.add_argument("--record", help="append each game's actions (engine notation) to this file")
    ap.add_argument("--quiet", action="store_true", help="only the summary")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    if args.skip < 0:
        ap.error("--skip must be 0 or more")
    if args.opening < 0:
        ap.error("--opening must be 0 or more")
    if args.moves_time_ms is not None and args.moves_time_ms < 1:
        ap.error("--moves-time-ms must be at least 1")
    if args.clock is not None and not args.clock > 0:
        ap.error("--clock must be above 0")
    try:
        k, n = (int(x) for x in args.shard.split("/"))
    except ValueError:
        ap.error("--shard %r: expected K/N" % args.shard)
    if not (n >= 1 and 0 <= k < n):
        ap.error("--shard %r: expected K/N with 0 <= K < N" % args.shard)
    args.shard = (k, n)
    if args.time is None:
        args.time = args.clock if args.clock is not None else 60.0
    if not args.time > 0:
        ap.error("-t must be above 0")
    return args


def configure_arena_player(args):
    if args.moves_time_ms is not None:
        os.environ["ARENA_MOVETIME_MS"] = str(args.moves_time_ms)
        os.environ.pop("ARENA_CLOCK_S", None)
    elif args.clock is not None:
        os.environ.pop("ARENA_MOVETIME_MS", None)
        os.environ["ARENA_CLOCK_S"] = repr(args.clock)


def load(name):
    module = importlib.import_module(name)
    player = getattr(module, "Player", None)
    if player is None:
        raise SystemExit("referee_match: package %s has no Player class" % name)
    return player


def opening(seed, plies):
    """The random opening plies of one cycle: actions that do not end the game."""
    rng = random.Random(seed)
    game = Game()
    actions = []
    for _ in range(plies):
        choices = []
        for a in game.actions():
            trial = Game(game.board, game.to_move, game.exits, game.turns)
            trial.history = game.history.copy()
            if trial.play(game.to_move, a) is None:
                choices.append(a)
        if not choices:
            break
        a = rng.choice(choices)
        actions.append((game.to_move, a))
        game.play(game.to_move, a)
    return actions


def close(player):
    closer = getattr(player, "close", None)
    if closer is not None:
        try:
            closer()
        except Exception:
            pass


def play_game(classes, names, opening_actions, budget):
    """One game; `classes` and `names` in seat order (red, green, blue). Returns a dict:
    result ("win", colour) / ("draw", kind) / ("fault", colour, kind, detail), turns, and
    each seat's seconds of action() time."""
    used = {c: 0.0 for c in COLOURS}
    players = {}
    game = Game()
    log = []  # every action played, in order
    try:
        for c, cls in zip(COLOURS, classes):
            t0 = time.perf_counter()
            try:
                players[c] = cls(c)
            except Exception as e:
                return {"result": ("fault", c, "error", "Player(%r): %r" % (c, e)), "turns": 0, "used": used, "log": log}
            used[c] += time.perf_counter() - t0
        for colour, a in opening_actions:
            game.play(colour, a)
            log.append(a)
            for c in COLOURS:
                players[c].update(colour, a)
        while game.result is None:
            colour = game.to_move
            t0 = time.perf_counter()
            try:
                a = players[colour].action()
            except Exception as e:
                used[colour] += time.perf_counter() - t0
                return {"result": ("fault", colour, "error", repr(e)), "turns": game.turns, "used": used, "log": log}
            used[colour] += time.perf_counter() - t0
            if used[colour] > budget:
                return {
                    "result": ("fault", colour, "timeout", "%.2f s of %.2f s" % (used[colour], budget)),
                    "turns": game.turns,
                    "used": used,
                    "log": log,
                }
            try:
                game.play(colour, a)
                log.append(a)
            except ValueError as e:
                return {"result": ("fault", colour, "illegal", "turn %d: %s" % (game.turns, e)), "turns": game.turns, "used": used, "log": log}
            for c in COLOURS:
                try:
                    players[c].update(colour, a)
                except Exception as e:
                    return {"result": ("fault", c, "error", "update: %r" % (e,)), "turns": game.turns, "used": used, "log": log}
        return {"result": game.result, "turns": game.turns, "used": used, "log": log}
    finally:
        for p in players.values():
            close(p)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    configure_arena_player(args)
    names = list(args.packages)
    if len(set(names)) != 3:
        raise SystemExit("referee_match: name three different packages")
    classes = {n: load(n) for n in names}
    orders = list(itertools.permutations(range(3)))  # seat order -> package index
    tally = {
        n: dict(W=0, D=0, L=0, timeout=0, illegal=0, error=0, other=0, think=0.0, games=0)
        for n in names
    }
    repetitions = turn_draws = 0
    mode = (
        "%d ms per action" % args.moves_time_ms
        if args.moves_time_ms is not None
        else "%.0f s clock" % args.clock
        if args.clock is not None
        else "arena_player's default"
    )
    print(
        "referee_match | %s | %s | budget %.0f s | opening %d plies | seed %d | shard %d/%d"
        % (" + ".join(names), mode, args.time, args.opening, args.seed, args.shard[0], args.shard[1])
    )
    sys.stdout.flush()
    started = time.perf_counter()
    played = 0
    for g in range(args.games):
        if g < args.skip or g % args.shard[1] != args.shard[0]:
            continue
        cycle = g // len(orders)
        order = orders[g % len(orders)]
        seat_names = [names[i] for i in order]
        seat_classes = [classes[n] for n in seat_names]
        opening_actions = opening(args.seed * 1000003 + cycle, args.opening)
        out = play_game(seat_classes, seat_names, opening_actions, args.time)
        played += 1
        result = out["result"]
        for c, n in zip(COLOURS, seat_names):
            t = tally[n]
            t["games"] += 1
            t["think"] += out["used"][c]
            if result[0] == "win":
                t["W" if result[1] == c else "L"] += 1
            elif result[0] == "draw":
                t["D"] += 1
            elif result[1] == c:
                t["L"] += 1
                t[result[2]] += 1
            else:
                t["other"] += 1
        if result[0] == "draw":
            if result[1] == "repetition":
                repetitions += 1
            else:
                turn_draws += 1
        if result[0] == "win":
            text = "winner %s (%s)" % (result[1], seat_names[COLOURS.index(result[1])])
        elif result[0] == "draw":
            text = "draw %s" % result[1]
        else:
            text = "%s %s (%s): %s" % (result[2], result[1], seat_names[COLOURS.index(result[1])], result[3])
        if args.record:
            with open(args.record, "a") as f:
                f.write("# game %d | %s | result: %s\n" % (g + 1, " ".join("%s=%s" % (c[0], n) for c, n in zip(COLOURS, seat_names)), text))
                for a in out["log"]:
                    f.write(to_notation(a) + "\n")
        if not args.quiet:
            print(
                "game %3d  %s  %-40s %4d turns  think %s"
                % (
                    g + 1,
                    " ".join("%s=%s" % (c[0], n) for c, n in zip(COLOURS, seat_names)),
                    text,
                    out["turns"],
                    " ".join("%s %.2f s" % (c[0], out["used"][c]) for c in COLOURS),
                )
            )
            sys.stdout.flush()
    print(
        "SUMMARY games %d | draws by repetition %d, by turns %d | %.0f s"
        % (played, repetitions, turn_draws, time.perf_counter() - started)
    )
    for n in names:
        t = tally[n]
        print(
            "PLAYER %s W %d D %d L %d (timeout %d illegal %d error %d) ended-by-another %d | win rate %.1f%% | think %.2f s per game"
            % (
                n,
                t["W"],
                t["D"],
                t["L"],
                t["timeout"],
                t["illegal"],
                t["error"],
                t["other"],
                100.0 * t["W"] / max(1, t["games"]),
                t["think"] / max(1, t["games"]),
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
