"""A strength harness for COMP30024 (2019) Chexers agents: one candidate Player package
against every pair of opponent packages, each game played by a referee with the course
referee's command line (the course's own, v1.1, with ``--referee``), seats rotated, seeded
varied openings, several games at once.

    python3 referee_match.py arena_player flying_solo max standins.brs_player \\
        --referee /path/to/agents --games 60 --clock 60 --concurrency 2 --record games.txt

The first package is the candidate, the others its opponents (at least two); every pair of
opponents plays ``--games`` games against the candidate (three packages: one pair). Each
package is an importable module with a ``Player`` class (``module:Class`` for another
class), found on the Python path: this folder, the ``--referee`` folder (the course's agents
sit beside its referee) and each ``--path`` folder.

Each game is a process of its own: ``python3 -m referee RED GREEN BLUE -t T -v 1 -l LOG``
run from a fresh folder, with the course referee when ``--referee DIR`` names the folder that
holds its package ``referee``, else with ``sim_referee.py`` (the same command line and output
on this folder's rules). The referee sees one seat module per colour (``referee_seat``)
that wraps the package's ``Player``: it plays the seat's opening actions, and counts the
package's wall time and CPU time. The referee decides the end as in the course: 4 exits win,
the 4th occurrence of a position draws, the 768th turn draws, and an illegal action, an
exception or a player over its CPU time ``-t`` ends the game without a winner (a *forfeit*,
counted apart: the candidate's own faults are losses, its opponents' forfeits are left out
of its win rate). A seat whose wall time passes ``-t`` is reported as *over the clock*
(the referee counts CPU time, which does not include an engine running in another process).

Seats and openings: the games of a pair go in cycles of six, the three packages in every
order over red, green and blue; every game of cycle ``c`` starts with the same
``--opening`` plies chosen at random among the legal actions (seeded by ``--seed`` and
``c`` only: the same for every pair and every candidate run with that seed), so that 3 plies
are each seat's first action and 6 its first two. Deterministic agents then still give
independent games.

``arena_player`` (our Player) is configured through its environment, which every game
inherits: ``--moves-time-ms MS`` sets ``ARENA_MOVETIME_MS`` (a flat time per action),
``--clock S`` sets ``ARENA_CLOCK_S`` (it thinks on a game clock of S seconds, whatever the referee's
``-t``, 60 s by default, allows the others). ``ARENA_ENGINE`` and the like pass through.
The candidate is over the clock when its wall time passes ``--clock`` (if given) or ``-t``.

Output: a line per game as it ends (pair, seats, result, turns, exits, each seat's seconds),
a table per pair, a ``SUMMARY`` line, and a ``PLAYER`` line per package. ``--record FILE``
appends each game (a ``#`` header, then its actions in the engine's notation).

Standard library only.
"""

import argparse
import concurrent.futures
import importlib.machinery
import itertools
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from arena_player import to_notation  # noqa: E402
from standins.chexers_state import COLOURS, Game  # noqa: E402

ORDERS = list(itertools.permutations(range(3)))  # seat (red, green, blue) -> package index
FAULTS = ("timeout", "illegal", "error")

# The games' processes still running, so that a stopped run leaves none behind.
_RUNNING = set()
_RUNNING_LOCK = threading.Lock()
_STOPPING = threading.Event()


def stop_games():
    """Stops every game still running (each game's process group: referee and engines)."""
    _STOPPING.set()
    with _RUNNING_LOCK:
        for proc in list(_RUNNING):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Chexers games of a candidate COMP30024 Player against every pair of opponents, "
        "played by the course referee (or sim_referee.py), seats rotated, openings varied."
    )
    ap.add_argument(
        "packages",
        nargs="+",
        help="the candidate, then at least two opponents: importable modules with a Player class",
    )
    ap.add_argument("--games", type=int, default=6, help="games per pair of opponents (default 6)")
    ap.add_argument(
        "--games-for",
        action="append",
        default=[],
        metavar="AGENT=N[,AGENT=N...]",
        help="N games for each pair with AGENT, instead of --games (a pair with two such agents: the larger N; repeatable)",
    )
    ap.add_argument(
        "--pairs",
        default="all",
        metavar="all|A+B,C+D...",
        help="the pairs of opponents: all of them (default) or those listed",
    )
    ap.add_argument(
        "--pairs-must-include",
        metavar="A,B...",
        help="only the pairs with one of these agents (plus the --sample of the others)",
    )
    ap.add_argument(
        "--sample",
        type=int,
        metavar="N",
        help="N of the other pairs (those without a --pairs-must-include agent; all pairs without it), drawn by --sample-seed",
    )
    ap.add_argument("--sample-seed", type=int, metavar="S", help="seed of --sample (default: --seed)")
    ap.add_argument("--plan", action="store_true", help="print the run's pairs and games and stop, playing nothing")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random openings (default 1)")
    ap.add_argument(
        "--opening",
        type=int,
        default=3,
        help="random plies at the start of each cycle of six games: 3 = each seat's first action (default)",
    )
    group = ap.add_mutually_exclusive_group()
    group.add_argument(
        "--moves-time-ms", type=int, help="arena_player: a flat time per action (ARENA_MOVETIME_MS)"
    )
    group.add_argument("--clock", type=float, help="arena_player: the game clock in seconds (ARENA_CLOCK_S)")
    ap.add_argument(
        "-t", "--time", type=float, help="the referee's CPU time per player and game (default 60, the course's)"
    )
    ap.add_argument(
        "--referee", help="folder holding the course referee's package `referee` (default: sim_referee.py)"
    )
    ap.add_argument(
        "--path", action="append", default=[], help="a folder to put on the Python path (repeatable)"
    )
    ap.add_argument("--concurrency", type=int, default=1, help="games played at once (default 1)")
    ap.add_argument(
        "--skip", type=int, default=0, help="leave out each pair's first SKIP games (to resume a run)"
    )
    ap.add_argument("--shard", default="0/1", help="K/N: play only the games g with g %% N == K")
    ap.add_argument("--record", help="append each game's actions (engine notation) to this file")
    ap.add_argument("--quiet", action="store_true", help="no line per game")
    args = ap.parse_args(argv)
    if len(args.packages) < 3:
        ap.error("name a candidate and at least two opponents")
    if len(set(args.packages)) != len(args.packages):
        ap.error("name each package once")
    if args.games < 1:
        ap.error("--games must be at least 1")
    if args.skip < 0:
        ap.error("--skip must be 0 or more")
    if args.opening < 0:
        ap.error("--opening must be 0 or more")
    if args.concurrency < 1:
        ap.error("--concurrency must be at least 1")
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
        args.time = 60.0
    if not args.time > 0:
        ap.error("-t must be above 0")
    if args.referee is not None:
        args.referee = os.path.abspath(args.referee)
        if not os.path.isfile(os.path.join(args.referee, "referee", "__main__.py")):
            ap.error("--referee %s: no referee/__main__.py there" % args.referee)
    for p in args.path:
        if not os.path.isdir(p):
            ap.error("--path %s: not a folder" % p)
    args.path = [os.path.abspath(p) for p in args.path]
    args.games_for = parse_games_for(ap, args.games_for, args.packages[1:])
    args.pairs = select_pairs(ap, args)
    if args.sample_seed is None:
        args.sample_seed = args.seed
    folders = child_path(args) + sys.path
    for name in args.packages:
        if not package_found(name, folders):
            ap.error("unknown agent %s: no module %s on the Python path (this folder, --referee, --path, PYTHONPATH)" % (name, top_module(name)))
    return args


def parse_games_for(ap, items, opponents):
    """``--games-for`` as {agent: games}."""
    out = {}
    for item in ",".join(items).split(","):
        if not item:
            continue
        name, sep, n = item.rpartition("=")
        try:
            n = int(n)
        except ValueError:
            sep = ""
        if not sep or not name:
            ap.error("--games-for %r: expected AGENT=N" % item)
        if name not in opponents:
            ap.error("--games-for %s: unknown agent, not among the opponents (%s)" % (name, " ".join(opponents)))
        if n < 1:
            ap.error("--games-for %s: at least 1 game" % item)
        out[name] = n
    return out


def agent_list(ap, option, text, opponents):
    names = [n for n in text.split(",") if n]
    for n in names:
        if n not in opponents:
            ap.error("%s %s: unknown agent, not among the opponents (%s)" % (option, n, " ".join(opponents)))
    return names


def select_pairs(ap, args):
    """The pairs of opponents the run plays, in the order of the opponents given: those of
    ``--pairs`` (every pair, or a list), then, with ``--pairs-must-include`` or
    ``--sample``, only those with a must-include agent and a seeded sample of the others."""
    opponents = args.packages[1:]
    every = list(itertools.combinations(opponents, 2))
    if args.pairs == "all":
        pool = every
    else:
        wanted = set()
        for item in args.pairs.split(","):
            pair = tuple(item.split("+"))
            if len(pair) != 2 or pair[0] == pair[1]:
                ap.error("--pairs %r: expected all or A+B,C+D... (two different agents a pair)" % args.pairs)
            agent_list(ap, "--pairs", ",".join(pair), opponents)
            wanted.add(frozenset(pair))
        pool = [p for p in every if frozenset(p) in wanted]
    if args.pairs_must_include is None and args.sample is None:
        return pool
    must = set(agent_list(ap, "--pairs-must-include", args.pairs_must_include or "", opponents))
    chosen = [p for p in pool if must & set(p)]
    rest = [p for p in pool if not must & set(p)]
    if args.sample is not None:
        if not 0 <= args.sample <= len(rest):
            ap.error("--sample %d: between 0 and %d (the other pairs)" % (args.sample, len(rest)))
        seed = args.seed if args.sample_seed is None else args.sample_seed
        chosen += random.Random(seed).sample(rest, args.sample)
    if not chosen:
        ap.error("no pair of opponents selected")
    return [p for p in pool if p in chosen]


def pair_games(args, pair):
    """The games a pair plays: --games, or the largest --games-for of its agents."""
    counts = [args.games_for[n] for n in pair if n in args.games_for]
    return max(counts) if counts else args.games


def top_module(spec):
    return spec.partition(":")[0].strip("/").replace("/", ".").split(".")[0]


def package_found(spec, folders):
    """Whether the top module of a package spec (``module``, ``pkg.module``, ``module:Class``)
    is on the Python path `folders` (found, not imported)."""
    name = top_module(spec)
    return bool(name) and importlib.machinery.PathFinder.find_spec(name, folders) is not None


def opening(seed, plies):
    """The random opening plies of one cycle, as (colour, action): actions that do not end
    the game, each chosen at random among the legal ones."""
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


def cycle_seed(seed, cycle):
    return seed * 1000003 + cycle


def child_path(args):
    """The Python path of a game's process (the seat modules' folder aside)."""
    path = ([args.referee] if args.referee else []) + args.path + [HERE]
    return path + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]


def child_env(args):
    """The environment of a game's process: ours, with the Python path and our Player's
    time settings."""
    env = dict(os.environ)
    if args.moves_time_ms is not None:
        env["ARENA_MOVETIME_MS"] = str(args.moves_time_ms)
        env.pop("ARENA_CLOCK_S", None)
    elif args.clock is not None:
        env.pop("ARENA_MOVETIME_MS", None)
        env["ARENA_CLOCK_S"] = repr(args.clock)
    env["PYTHONPATH"] = os.pathsep.join(child_path(args))
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # nothing written into the agents' folders
    return env


_LOG = re.compile(r"^\[(red|green|blue)\s*\] - (MOVE|JUMP|EXIT|PASS)(?: from (.*?))?(?: to (.*?))?\.$")
_HEX = re.compile(r"^\((-?\d+), (-?\d+)\)$")


def parse_log(path):
    """The actions of a referee log, as (colour, action) in the referee's tuples."""
    out = []
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return out
    for line in lines:
        m = _LOG.match(line)
        if not m:
            continue
        colour, kind, a, b = m.groups()

        def hex_(text):
            h = _HEX.match(text or "")
            if not h:
                raise ValueError("referee log: cannot read %r" % line)
            return (int(h.group(1)), int(h.group(2)))

        if kind == "PASS":
            out.append((colour, ("PASS", None)))
        elif kind == "EXIT":
            out.append((colour, ("EXIT", hex_(a))))
        else:
            out.append((colour, (kind, (hex_(a), hex_(b)))))
    return out


def parse_result(stdout):
    """The referee's verdict from its output: ("win", colour), ("draw", "repetition" |
    "turns"), ("fault", colour, "illegal" | "timeout", detail), or None."""
    lines = [l[1:].strip() for l in stdout.splitlines() if l.startswith("*")]
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        m = re.match(r"^winner: (Red|Green|Blue)$", line)
        if m:
            return ("win", m.group(1).lower())
        if line.startswith("draw detected:"):
            return ("draw", "repetition" if "occurred 4 times" in line else "turns")
        if line.startswith("error: invalid action!") or line.startswith("error: resource limit exceeded!"):
            detail = " ".join(lines[i + 1 : i + 2])
            m = re.match(r"^(red|green|blue) player", detail)
            kind = "illegal" if "invalid action" in line else "timeout"
            return ("fault", m.group(1) if m else None, kind, detail[:160])
    return None


def play_game(args, env, seat_names, opening_actions, keep_logs=None):
    """One game in its own folder and process; `seat_names` are the packages in seat order
    (red, green, blue). Returns a dict: result, turns, exits, the seats' figures (wall, cpu,
    longest action, error) and the actions."""
    folder = tempfile.mkdtemp(prefix="referee_match-")
    try:
        for colour, name in zip(COLOURS, seat_names):
            mine = [a for c, a in opening_actions if c == colour]
            with open(os.path.join(folder, "seat_%s.py" % colour), "w") as f:
                f.write(
                    "import referee_seat\nPlayer = referee_seat.wrap(%r, %r, %r, %r)\n"
                    % (name, colour, mine, os.path.join(folder, "seat-%s.json" % colour))
                )
        log = os.path.join(folder, "game.log")
        if args.referee:
            cmd = [sys.executable, "-m", "referee"]
        else:
            cmd = [sys.executable, os.path.join(HERE, "sim_referee.py")]
        cmd += ["seat_red", "seat_green", "seat_blue", "-t", repr(args.time), "-v", "1", "-l", log]
        limit = 6 * args.time + 300  # a hung game is stopped (three players' clocks, loaded)
        with open(os.path.join(folder, "stdout"), "w+") as out, open(os.path.join(folder, "stderr"), "w+") as err:
            env = dict(env, PYTHONPATH=folder + os.pathsep + env["PYTHONPATH"])  # the seat modules
            with _RUNNING_LOCK:
                if _STOPPING.is_set():
                    return None
                proc = subprocess.Popen(cmd, cwd=folder, env=env, stdout=out, stderr=err, start_new_session=True)
                _RUNNING.add(proc)
            try:
                proc.wait(timeout=limit)
                hung = False
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                hung = True
            finally:
                with _RUNNING_LOCK:
                    _RUNNING.discard(proc)
            if _STOPPING.is_set():
                return None
            out.seek(0)
            stdout = out.read()
            err.seek(0)
            stderr = err.read()
        seats = {}
        for colour in COLOURS:
            try:
                with open(os.path.join(folder, "seat-%s.json" % colour)) as f:
                    seats[colour] = json.load(f)
            except (OSError, ValueError):
                seats[colour] = {"wall": 0.0, "cpu": 0.0, "longest_action": 0.0, "error": None}
        actions = parse_log(log)
        result = parse_result(stdout)
        if result is None:
            faulty = [c for c in COLOURS if seats[c].get("error")]
            if faulty:
                result = ("fault", faulty[0], "error", seats[faulty[0]]["error"][:160])
            elif hung:
                result = ("fault", None, "error", "the game did not end in %.0f s" % limit)
            else:
                tail = " | ".join((stderr.strip().splitlines() or ["no output"])[-2:])
                result = ("fault", None, "error", "the referee ended without a result (exit %s): %s" % (proc.returncode, tail[:200]))
        if keep_logs is not None:
            keep_logs.update(stdout=stdout, stderr=stderr)
        exits = {c: sum(1 for m, a in actions if m == c and a[0] == "EXIT") for c in COLOURS}
        return {"result": result, "turns": len(actions), "exits": exits, "seats": seats, "actions": actions}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Table:
    """The candidate's figures against one pair of opponents (or all of them)."""

    def __init__(self, names):
        self.names = names  # candidate, opponent, opponent...
        self.games = self.W = self.D = self.L = 0
        self.rep = self.turn_draws = self.rep_ahead = 0
        self.own = dict.fromkeys(FAULTS, 0)
        self.theirs = dict.fromkeys(FAULTS, 0)
        self.unattributed = 0
        self.over = dict.fromkeys(names, 0)
        self.think = {n: [] for n in names}
        self.wins = dict.fromkeys(names, 0)

    def add(self, seat_names, out):
        cand = self.names[0]
        result = out["result"]
        self.games += 1
        me = COLOURS[seat_names.index(cand)]
        for c, n in zip(COLOURS, seat_names):
            self.think[n].append(out["seats"][c].get("wall", 0.0))
            if out["seats"][c].get("wall", 0.0) > out["budget"][n == cand]:
                self.over[n] += 1
        if result[0] == "win":
            winner = seat_names[COLOURS.index(result[1])]
            self.wins[winner] += 1
            if winner == cand:
                self.W += 1
            else:
                self.L += 1
        elif result[0] == "draw":
            self.D += 1
            if result[1] == "repetition":
                self.rep += 1
                ex = out["exits"]
                if all(ex[me] > ex[c] for c in COLOURS if c != me):
                    self.rep_ahead += 1
            else:
                self.turn_draws += 1
        elif result[1] == me:
            self.L += 1
            self.own[result[2]] += 1
        elif result[1] is None:
            self.unattributed += 1
        else:
            self.theirs[result[2]] += 1

    def played_out(self):
        """Games not ended by an opponent's forfeit (nor by a fault of nobody known)."""
        return self.games - sum(self.theirs.values()) - self.unattributed

    def rate(self):
        return 100.0 * self.W / max(1, self.played_out())

    def seconds(self, name):
        t = self.think[name]
        return (sum(t) / len(t), max(t)) if t else (0.0, 0.0)


def games_text(args):
    """The games a pair, as the header line says it: "12 games a pair (flying_solo 30)"."""
    extra = ", ".join("%s %d" % kv for kv in args.games_for.items())
    return "%d games a pair%s" % (args.games, " (%s)" % extra if extra else "")


def ranges_text(numbers):
    """1 2 3 5 7 8 -> "1-3 5 7-8"."""
    out = []
    for n in numbers:
        if out and out[-1][1] == n - 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return " ".join(str(a) if a == b else "%d-%d" % (a, b) for a, b in out) or "none"


def faults_text(d):
    return "%d (timeout %d, illegal %d, error %d)" % (sum(d.values()), d["timeout"], d["illegal"], d["error"])


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    names = list(args.packages)
    cand, opponents = names[0], names[1:]
    pairs = args.pairs
    env = child_env(args)
    mode = (
        "%d ms per action" % args.moves_time_ms
        if args.moves_time_ms is not None
        else "%g s clock" % args.clock
        if args.clock is not None
        else "arena_player's default clock"
    )
    print(
        "referee_match | candidate %s | opponents %s | %s | -t %g | referee %s | opening %d plies | seed %d | "
        "%d pair(s), %s | concurrency %d | shard %d/%d | load %.2f"
        % (
            cand,
            " ".join(opponents),
            mode,
            args.time,
            args.referee or "sim_referee.py",
            args.opening,
            args.seed,
            len(pairs),
            games_text(args),
            args.concurrency,
            args.shard[0],
            args.shard[1],
            os.getloadavg()[0],
        )
    )
    sys.stdout.flush()
    jobs = []
    for g in range(max(pair_games(args, pair) for pair in pairs)):
        if g < args.skip or g % args.shard[1] != args.shard[0]:
            continue
        for p, pair in enumerate(pairs):
            if g < pair_games(args, pair):
                seat_names = [([cand] + list(pair))[i] for i in ORDERS[g % 6]]
                jobs.append((g, p, seat_names, opening(cycle_seed(args.seed, g // 6), args.opening)))
    if args.plan:
        for p, pair in enumerate(pairs):
            mine = [g for g, q, _, _ in jobs if q == p]
            print("PLAN pair %d %s + %s | games %d | this shard %d: %s" % (p + 1, pair[0], pair[1], pair_games(args, pair), len(mine), ranges_text(g + 1 for g in mine)))
        print("PLAN games %d, this shard %d" % (sum(pair_games(args, pair) for pair in pairs), len(jobs)))
        return 0
    tables = [Table([cand] + list(pair)) for pair in pairs]
    everything = Table(names)
    tally = {n: dict(W=0, D=0, L=0, timeout=0, illegal=0, error=0, other=0, think=0.0, games=0) for n in names}
    loads = []
    lock = threading.Lock()
    started = time.perf_counter()

    def report(job, out):
        g, p, seat_names, _ = job
        out["budget"] = (args.time, min(args.time, args.clock or args.time))  # others, candidate
        result = out["result"]
        tables[p].add(seat_names, out)
        everything.add(seat_names, out)
        loads.append(os.getloadavg()[0])
        for c, n in zip(COLOURS, seat_names):
            t = tally[n]
            t["games"] += 1
            t["think"] += out["seats"][c].get("wall", 0.0)
            if result[0] == "win":
                t["W" if result[1] == c else "L"] += 1
            elif result[0] == "draw":
                t["D"] += 1
            elif result[1] == c:
                t["L"] += 1
                t[result[2]] += 1
            else:
                t["other"] += 1
        if result[0] == "win":
            text = "winner %s (%s)" % (result[1], seat_names[COLOURS.index(result[1])])
        elif result[0] == "draw":
            text = "draw %s" % result[1]
        else:
            who = "(%s)" % seat_names[COLOURS.index(result[1])] if result[1] else "(nobody known)"
            text = "%s %s %s: %s" % (result[2], result[1], who, result[3])
        seats_text = " ".join("%s=%s" % (c[0], n) for c, n in zip(COLOURS, seat_names))
        exits = ",".join(str(out["exits"][c]) for c in COLOURS)
        if args.record:
            with open(args.record, "a") as f:
                f.write(
                    "# game %d | pair %s + %s | %s | seed %d opening %d | exits %s | %d turns | result: %s\n"
                    % (g + 1, pairs[p][0], pairs[p][1], seats_text, args.seed, args.opening, exits, out["turns"], text)
                )
                for _, a in out["actions"]:
                    f.write(to_notation(a) + "\n")
        if not args.quiet:
            print(
                "game %3d  pair %d  %s  %-44s %4d turns  exits %s  think %s"
                % (
                    g + 1,
                    p + 1,
                    seats_text,
                    text,
                    out["turns"],
                    exits,
                    " ".join("%s %.2f s" % (c[0], out["seats"][c].get("wall", 0.0)) for c in COLOURS),
                )
            )
            sys.stdout.flush()

    def interrupted(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    stopped = False
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency)
    try:
        futures = {pool.submit(play_game, args, env, job[2], job[3]): job for job in jobs}
        for fut in concurrent.futures.as_completed(futures):
            job = futures[fut]
            try:
                out = fut.result()
            except Exception as e:  # the harness's own trouble: reported, not hidden
                out = {
                    "result": ("fault", None, "error", "harness: %r" % (e,)),
                    "turns": 0,
                    "exits": dict.fromkeys(COLOURS, 0),
                    "seats": {c: {"wall": 0.0} for c in COLOURS},
                    "actions": [],
                }
            if out is not None:
                with lock:
                    report(job, out)
    except KeyboardInterrupt:
        stopped = True
        stop_games()
        print("STOPPED: the games still running were stopped; the figures below are those of the games that ended")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)

    print("PAIRS: %s against each pair (win rate = wins / games played out, without the opponents' forfeits)" % cand)
    for pair, t in zip(pairs, tables):
        print_table_row("%s + %s" % pair, t)
    print(
        "SUMMARY games %d | draws by repetition %d, by turns %d | %.0f s | %s W %d D %d L %d of %d played out: "
        "%.1f%%, worst pair %.1f%% | opponents' forfeits %s | own faults %s | over the clock %d | "
        "repetition draws while ahead in exits %d | concurrency %d, load %.2f-%.2f"
        % (
            everything.games,
            everything.rep,
            everything.turn_draws,
            time.perf_counter() - started,
            cand,
            everything.W,
            everything.D,
            everything.L,
            everything.played_out(),
            everything.rate(),
            min([t.rate() for t in tables if t.games] or [0.0]),
            faults_text(everything.theirs),
            faults_text(everything.own),
            everything.over[cand],
            everything.rep_ahead,
            args.concurrency,
            min(loads or [0.0]),
            max(loads or [0.0]),
        )
    )
    for n in names:
        t = tally[n]
        print(
            "PLAYER %s W %d D %d L %d (timeout %d illegal %d error %d) ended-by-another %d | win rate %.1f%% | "
            "think %.2f s per game (at most %.2f) | over the clock %d"
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
                everything.seconds(n)[1],
                everything.over[n],
            )
        )
    return 130 if stopped else 0


def print_table_row(label, t):
    cand, a, b = t.names
    print(
        "PAIR %s | games %d | %s W %d D %d L %d | played out %d | win rate %.1f%% | draws by repetition %d "
        "(while ahead %d), by turns %d | opponents' forfeits %s | own faults %s | wins %s %d, %s %d | "
        "think s/game %s %.1f (max %.1f), %s %.1f, %s %.1f | over the clock %d"
        % (
            label,
            t.games,
            cand,
            t.W,
            t.D,
            t.L,
            t.played_out(),
            t.rate(),
            t.rep,
            t.rep_ahead,
            t.turn_draws,
            faults_text(t.theirs),
            faults_text(t.own),
            a,
            t.wins[a],
            b,
            t.wins[b],
            cand,
            t.seconds(cand)[0],
            t.seconds(cand)[1],
            a,
            t.seconds(a)[0],
            b,
            t.seconds(b)[0],
            t.over[cand],
        )
    )


if __name__ == "__main__":
    sys.exit(main())
