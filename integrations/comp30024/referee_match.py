"""A strength harness for COMP30024 (2019) Chexers agents: one candidate Player package
against pairs of opponent packages (every pair of a pool of agents, or a chosen part of them),
each game played by a referee with the course referee's command line (the course's own,
v1.1, with ``--referee``), seats rotated, seeded varied openings, several games at once, a
long run split into shards and merged.

    python3 referee_match.py arena_player flying_solo max standins.brs_player \\
        --referee /path/to/agents --games 60 --clock 60 --concurrency 2 --record games.txt

    # the pool: every pair with flying_solo or max, 3 of the others drawn by seed 5; 30
    # games a pair with flying_solo, 12 for the rest; shard 0 of 4, resumable
    python3 referee_match.py arena_player flying_solo max latest_tile H1 SquareBox \\
        AlphaChexersButBetter --referee /path/to/agents --pairs-must-include flying_solo,max \\
        --sample 3 --sample-seed 5 --games 12 --games-for flying_solo=30 --clock 60 \\
        --shard 0/4 --results shard0.jsonl --resume
    python3 referee_match.py --merge shard*.jsonl     # one report of all the shards

The first package is the candidate, the others its opponents (at least two). Each package is
an importable module with a ``Player`` class (``module:Class`` for another class), found on
the Python path: this folder, the ``--referee`` folder (the course's agents sit beside its
referee), each ``--path`` folder and ``PYTHONPATH``; a package found nowhere is refused
before any game.

Pairs: every pair of the opponents (``--pairs all``, the default; three packages: one pair)
or those listed (``--pairs A+B,C+D``); with ``--pairs-must-include A,B`` only the pairs with
A or B, and with ``--sample N`` besides N of the other pairs, drawn at random by
``--sample-seed`` (default ``--seed``; ``--sample`` alone: N of all the pairs). A pair plays
``--games`` games, or, with ``--games-for AGENT=N``, N games if it includes AGENT (the larger
N if both its agents have one). ``--plan`` prints the pairs and their games and plays nothing.

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
independent games, and a game (pair, index) is the same game whichever process plays it.

Runs, shards and merges: the settings that decide the games (the candidate, the pairs and
their games, seed, openings, clocks, referee, our Player's ``ARENA_*`` environment) hash to a
*run id*. ``--results FILE`` writes a header line (the run id and those settings) and then a
JSON line per game as it ends: its pair and index, cycle and cycle seed, seats, the
candidate's result (``win``, ``loss`` — its own fault included —, ``repetition``, ``turns``
or ``forfeit`` of an opponent or of nobody known) with the winner or the fault (whose, what
kind), turns, each seat's exits and pieces on the board at the end, times, and the actions.
``--shard K/N`` plays shard K of N: whole cycles of a pair, dealt to the shards so their games
balance; the N shards together play every game once. ``--resume`` continues a stopped run
from its file (a torn last line is cut off) and plays only the games it lacks; a file of
another run or shard is refused. ``--merge FILE...`` prints the one report of several
shards' files (missing games counted), refusing files of different runs and a game found
twice. Runs whose settings differ in their plan only (the pairs and their games) play the
same game for the same pair and index, so they merge too: a run extended by a later one
(``--games 30 --skip 6`` after ``--games 6``, or more pairs) gives one report, its plan
every pair of either with the larger number of games.

``arena_player`` (our Player) is configured through its environment, which every game
inherits: ``--moves-time-ms MS`` sets ``ARENA_MOVETIME_MS`` (a flat time per action),
``--clock S`` sets ``ARENA_CLOCK_S`` (it thinks on a game clock of S seconds, whatever the referee's
``-t``, 60 s by default, allows the others). ``ARENA_ENGINE`` and the like pass through.
The candidate is over the clock when its wall time passes ``--clock`` (if given) or ``-t``.

Output: a line per game as it ends (pair, seats, result, turns, exits, pieces, each seat's
seconds), then the report (built from the games' records, so a merge prints the same): a
``NONWIN`` line per game the candidate did not win (how it ended, each seat's exits and
pieces, whether the candidate led in exits), a ``PAIR`` line per pair and an ``AGENT`` line
per opponent over the pairs it is in (W / D / L, repetition and turn-limit draws, win rate
over the games played out, forfeits apart, the non-wins' standing, thinking time), the
``SUMMARY`` line (games, win rate and worst pair, repetition draws as a share of the games,
missing games) and a ``PLAYER`` line per package; ``--markdown`` adds the tables in Markdown.
``--record FILE`` appends each game (a ``#`` header, then its actions in the engine's
notation). Bad input exits with status 2 and says why.

Standard library only.
"""

import argparse
import concurrent.futures
import hashlib
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
from standins.chexers_state import COLOURS, START, Game, apply_action  # noqa: E402

ORDERS = list(itertools.permutations(range(3)))  # seat (red, green, blue) -> package index
# The kinds of early ending: over the referee's time, an invalid action, an exception (or a
# hang, or a referee that ended without a verdict), over the referee's shared space limit.
FAULTS = ("timeout", "illegal", "error", "space")

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
        "played by the course referee (or sim_referee.py), seats rotated, openings varied.",
        epilog="The other mode: referee_match.py --merge FILE... [--markdown] prints the one report of the "
        "--results files of a run's shards.",
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
        "-s",
        "--space",
        type=float,
        help="the referee's space limit in MB per player (its -s: the virtual memory of its process, three "
        "players' worth shared; default: none, as the referee's own default)",
    )
    ap.add_argument(
        "--referee", help="folder holding the course referee's package `referee` (default: sim_referee.py)"
    )
    ap.add_argument(
        "--path", action="append", default=[], help="a folder to put on the Python path (repeatable)"
    )
    ap.add_argument("--concurrency", type=int, default=1, help="games played at once (default 1)")
    ap.add_argument(
        "--skip", type=int, default=0, help="leave out each pair's first SKIP games"
    )
    ap.add_argument(
        "--shard",
        default="0/1",
        help="K/N: play only shard K of N (whole cycles of six games of a pair, dealt out in turn); "
        "--merge the shards' --results files",
    )
    ap.add_argument(
        "--results", metavar="FILE", help="write each game to FILE as a JSON line (a run header first), for --merge and --resume"
    )
    ap.add_argument(
        "--resume", action="store_true", help="continue the --results FILE of a stopped run: play only its missing games"
    )
    ap.add_argument("--record", help="append each game's actions (engine notation) to this file")
    ap.add_argument("--quiet", action="store_true", help="no line per game")
    ap.add_argument("--markdown", action="store_true", help="the tables as Markdown too, after the report")
    args = ap.parse_args(argv)
    if len(args.packages) < 3:
        ap.error("name a candidate and at least two opponents")
    if len(set(args.packages)) != len(args.packages):
        ap.error("name each package once")
    if args.games < 1:
        ap.error("--games must be at least 1")
    if args.skip < 0:
        ap.error("--skip must be 0 or more")
    if args.resume and not args.results:
        ap.error("--resume needs --results FILE")
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
    if args.space is not None and not args.space > 0:
        ap.error("-s must be above 0")
    if args.referee is not None:
        args.referee = os.path.abspath(args.referee)
        if not os.path.isfile(os.path.join(args.referee, "referee", "__main__.py")):
            ap.error("--referee %s: no referee/__main__.py there" % args.referee)
    for p in args.path:
        if not os.path.isdir(p):
            ap.error("--path %s: not a folder" % p)
    args.path = [os.path.abspath(p) for p in args.path]
    args.games_for = parse_games_for(ap, args.games_for, args.packages[1:])
    if args.sample_seed is None:
        args.sample_seed = args.seed
    args.pairs = select_pairs(ap, args)
    folders = child_path(args) + sys.path
    for name in args.packages:
        if not package_found(name, folders):
            ap.error(
                "unknown agent %s: no module %s on the Python path (this folder, --referee, --path, PYTHONPATH)"
                % (name, top_module(name))
            )
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
        chosen += random.Random(args.sample_seed).sample(rest, args.sample)
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
# An agent may give its hexes as floats (beta_come's (2.0, -2.0)): the referee takes them,
# as Python's 2.0 == 2, so whole floats are read as the hex they name.
_HEX = re.compile(r"^\((-?\d+)(?:\.0*)?, (-?\d+)(?:\.0*)?\)$")


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


_CALL = re.compile(r"^(asking|updating|initialising) (red|green|blue) player\b")
_PHASES = {"asking": "action", "updating": "update", "initialising": "init"}


def call_in_progress(stdout):
    """The player call that was running when the referee stopped, from its commentary at
    ``-v 1`` (course referee v1.1, ``referee/player.py``): (colour, phase) — phase
    ``"action"``, ``"update"`` or ``"init"`` — when the last call announced (``asking red
    player for next action...``, ``updating red player with ...``, ``initialising red
    player as a ...``) was not followed by its ``time:`` line, which the referee prints
    after every call that returns within its limits; else (None, None)."""
    running = (None, None)
    for line in stdout.splitlines():
        if not line.startswith("*"):
            continue
        text = line[1:].strip()
        m = _CALL.match(text)
        if m:
            running = (m.group(2), _PHASES[m.group(1)])
        elif text.startswith("time:"):
            running = (None, None)
    return running


def parse_result(stdout):
    """The referee's verdict from its output: ("win", colour), ("draw", "repetition" |
    "turns"), ("fault", colour, "illegal" | "timeout" | "space", detail), or None.

    The course referee (v1.1) names the player of an invalid action (``error: invalid
    action!`` then ``red player's action, ..., is not well-formed or not available. ...``)
    and of a time-out (``error: resource limit exceeded!`` then ``red player exceeded
    available time``); its space limit is shared (``players exceeded shared space limit``,
    the virtual memory of its own process), so that ending goes to the player whose call
    was running (``call_in_progress``): the call after which the referee found the peak
    over the limit."""
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
            colour = m.group(1) if m else None
            if "invalid action" in line:
                kind = "illegal"
            elif "space limit" in detail:
                kind = "space"
                colour, phase = call_in_progress(stdout)
                if colour:
                    detail += " (in %s player's %s)" % (colour, phase)
            else:
                kind = "timeout"
            return ("fault", colour, kind, detail[:160])
    return None


def play_game(args, env, seat_names, opening_actions):
    """One game in its own folder and process; `seat_names` are the packages in seat order
    (red, green, blue). Returns a dict: the referee's result, turns, exits and pieces on the
    board at the end, the seats' figures (wall, cpu, longest action, error) and the actions;
    None if the run is stopping."""
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
        if args.space is not None:
            cmd += ["-s", repr(args.space)]
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
        call = call_in_progress(stdout)
        if result is None:
            # No verdict: an exception (the seat's wrapper wrote down which player raised,
            # and in which call), a hang or a referee that died: the call that was running.
            faulty = [c for c in COLOURS if seats[c].get("error")]
            running = " (in %s player's %s)" % call if call[0] else ""
            if faulty:
                c = call[0] if call[0] in faulty else faulty[0]
                result = ("fault", c, "error", seats[c]["error"][:160])
            elif hung:
                result = ("fault", call[0], "error", "the game did not end in %.0f s%s" % (limit, running))
            else:
                tail = " | ".join((stderr.strip().splitlines() or ["no output"])[-2:])
                result = (
                    "fault",
                    call[0],
                    "error",
                    "the referee ended without a result (exit %s)%s: %s" % (proc.returncode, running, tail[:200]),
                )
        exits, pieces = standing(actions)
        return {
            "result": result,
            "call": call,
            "turns": len(actions),
            "exits": exits,
            "pieces": pieces,
            "seats": seats,
            "actions": actions,
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# The settings a game depends on, besides the options: our Player's environment.
PLAYER_ENV = ("ARENA_ENGINE", "ARENA_NODES", "ARENA_THREADS", "ARENA_MOVETIME_MS", "ARENA_CLOCK_S")


def run_settings(args, env):
    """What decides the run's games (and nothing else: not the shard, the concurrency, the
    files): the candidate, the pairs and their games, the openings, the clocks, the space
    limit, the referee, our Player's environment. Its hash is the run id."""
    settings = {
        "candidate": args.packages[0],
        "plan": [[a, b, pair_games(args, (a, b))] for a, b in args.pairs],
        "seed": args.seed,
        "opening": args.opening,
        "time": args.time,
        "clock": args.clock,
        "moves_time_ms": args.moves_time_ms,
        "referee": "course" if args.referee else "sim",
        "env": {k: env[k] for k in PLAYER_ENV if k in env},
    }
    if args.space is not None:  # (absent otherwise: the run ids of runs without -s stay)
        settings["space"] = args.space
    return settings


def run_id(settings):
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:12]


def settings_diff(a, b):
    """How two runs' settings differ, in words."""
    out = []
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            out.append("%s %s against %s" % (key, json.dumps(a.get(key)), json.dumps(b.get(key))))
    return "; ".join(out) or "nothing"


def shard_games(plan, shard):
    """The games of shard (K, N) of a run whose plan is [[a, b, games], ...], as (pair index,
    game index) in the order they are played (game, then pair). The units are whole cycles of
    six games of a pair (the last one may be shorter), taken cycle by cycle and pair by pair,
    each dealt to the shard with the fewest games so far, among those the one with the fewest
    of its pair's, then the next in turn. A game is the same game in whichever shard plays
    it: its seats and opening depend on its pair, its index and the seed only."""
    k, n = shard
    load = [0] * n
    held = [[0] * len(plan) for _ in range(n)]
    mine = []
    units = sorted((g // 6, p) for p, x in enumerate(plan) for g in range(0, x[2], 6))
    for i, (c, p) in enumerate(units):
        games = [(p, g) for g in range(6 * c, min(6 * c + 6, plan[p][2]))]
        to = min(range(n), key=lambda j: (load[j], held[j][p], (j - i) % n))
        load[to] += len(games)
        held[to][p] += 1
        if to == k:
            mine += games
    return sorted(mine, key=lambda pg: (pg[1], pg[0]))


def standing(actions):
    """The exits and the pieces on the board of each colour after `actions` ((colour,
    action) from the start); the pieces are None where the actions do not replay."""
    exits = {c: sum(1 for m, a in actions if m == c and a[0] == "EXIT") for c in COLOURS}
    board, ex = dict(START), dict.fromkeys(COLOURS, 0)
    try:
        for colour, a in actions:
            board, ex = apply_action(board, ex, colour, a)
    except (KeyError, TypeError, ValueError):
        return exits, dict.fromkeys(COLOURS)
    return exits, {c: sum(1 for v in board.values() if v == c) for c in COLOURS}


def game_record(rid, settings, p, g, seat_names, out, elapsed):
    """One game as the results file keeps it (a JSON object): everything the report needs.
    ``result`` is the candidate's: "win", "loss" (an opponent won, or the candidate's own
    fault), "repetition", "turns" (the two draws) or "forfeit" (an opponent's fault, or
    nobody's known: counted apart); ``winner`` the winning colour, ``forfeit`` the fault
    (colour, package, kind, detail)."""
    cand = settings["candidate"]
    me = COLOURS[seat_names.index(cand)]
    verdict = out["result"]
    winner = forfeit = None
    if verdict[0] == "win":
        winner = verdict[1]
        result = "win" if winner == me else "loss"
    elif verdict[0] == "draw":
        result = verdict[1]
    else:
        _, colour, kind, detail = verdict
        package = seat_names[COLOURS.index(colour)] if colour else None
        forfeit = {"colour": colour, "package": package, "kind": kind, "detail": detail}
        result = "loss" if colour == me else "forfeit"
    ended_by = None
    if forfeit is not None:
        # The player that ended the game early, and in which of its calls: an invalid action
        # is always its action's; otherwise the call the referee's commentary shows running.
        call = out.get("call") or (None, None)
        phase = "action" if forfeit["kind"] == "illegal" else call[1] if call[0] == forfeit["colour"] else None
        ended_by = dict(forfeit, phase=phase, candidate=forfeit["package"] == cand if forfeit["colour"] else None)
    t, clock = settings["time"], settings["clock"]
    budget = {c: min(t, clock or t) if n == cand else t for c, n in zip(COLOURS, seat_names)}
    seats = out["seats"]
    figure = lambda key: {c: round(seats[c].get(key, 0.0), 4) for c in COLOURS}  # noqa: E731
    return {
        "kind": "game",
        "run": rid,
        "pair_index": p,
        "pair": list(settings["plan"][p][:2]),
        "game": g,
        "cycle": g // 6,
        "cycle_seed": cycle_seed(settings["seed"], g // 6),
        "seats": list(seat_names),
        "candidate": me,
        "result": result,
        "winner": winner,
        "forfeit": forfeit,
        "ended_by": ended_by,
        "incidents": {c: seats[c]["incidents"] for c in COLOURS if isinstance(seats[c].get("incidents"), list)},
        "turns": out["turns"],
        "exits": out["exits"],
        "pieces": out["pieces"],
        "wall": figure("wall"),
        "cpu": figure("cpu"),
        "longest_action": figure("longest_action"),
        "over": [c for c in COLOURS if seats[c].get("wall", 0.0) > budget[c]],
        "elapsed": round(elapsed, 3),
        "load": os.getloadavg()[0],
        "ended": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "actions": [to_notation(a) for _, a in out["actions"]],
    }


def fail(message):
    """Bad input: a message and exit status 2, as argparse does."""
    sys.stderr.write("referee_match.py: error: %s\n" % message)
    sys.exit(2)


def read_results(path):
    """A results file: (header, game records, offset of a torn last line or None). A last
    line without its newline is torn (the run was killed while writing it); any other line
    that is not a record of the header's run is refused."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        fail("%s: %s" % (path, e.strerror))
    lines = data.split(b"\n")
    torn = len(data) - len(lines[-1]) if lines[-1] else None
    parsed = []
    for i, line in enumerate(lines[:-1]):
        try:
            parsed.append(json.loads(line.decode()))
        except ValueError:
            fail("%s, line %d: not a JSON line of referee_match.py" % (path, i + 1))
    if not parsed:
        return None, [], torn
    header, games = parsed[0], parsed[1:]
    if header.get("kind") != "run" or "settings" not in header:
        fail("%s: not a results file of referee_match.py (its first line is not a run header)" % path)
    seen = set()
    for i, r in enumerate(games):
        if r.get("kind") != "game" or r.get("run") != header["run"]:
            fail("%s, line %d: not a game of run %s" % (path, i + 2, header["run"]))
        key = (r["pair_index"], r["game"])
        if key in seen:
            fail("%s: game %d of pair %d is there twice" % (path, r["game"] + 1, r["pair_index"] + 1))
        seen.add(key)
    return header, games, torn


class Results:
    """The results file of a run (``--results``): a header line (the run id, its settings,
    the shard), then a JSON line per game, appended and flushed as each game ends."""

    def __init__(self, path, header, resume):
        self.path = path
        self.games = []
        if os.path.exists(path) and os.path.getsize(path) > 0:
            if not resume:
                fail("--results %s exists: --resume continues it, or name another file" % path)
            old, games, torn = read_results(path)
            if old is not None:
                if old["run"] != header["run"]:
                    fail(
                        "--results %s is of run %s, not of this run %s (settings: %s)"
                        % (path, old["run"], header["run"], settings_diff(old["settings"], header["settings"]))
                    )
                if old["shard"] != header["shard"]:
                    fail("--results %s is shard %d/%d, not %d/%d" % ((path,) + tuple(old["shard"]) + tuple(header["shard"])))
            if torn is not None:
                with open(path, "r+b") as f:
                    f.truncate(torn)
            self.games = games
        self.file = open(path, "a")
        if os.path.getsize(path) == 0:
            self.write(header)

    def write(self, obj):
        self.file.write(json.dumps(obj, sort_keys=True) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self):
        self.file.close()


class Table:
    """The candidate's figures in some of its games: against a pair, an opponent (over the
    pairs it is in) or all of them."""

    def __init__(self, cand, shown):
        self.cand = cand
        self.shown = list(shown)  # the opponents whose wins and thinking time are shown
        self.games = self.W = self.D = self.L = 0
        self.rep = self.turn_draws = self.rep_ahead = 0
        self.own = dict.fromkeys(FAULTS, 0)
        self.theirs = dict.fromkeys(FAULTS, 0)
        self.theirs_by = {}
        self.unattributed = 0
        self.standing = dict.fromkeys(("led", "level", "behind"), 0)  # the non-wins played out
        self.over = {}
        self.think = {}
        self.wins = {}

    def add(self, r):
        self.games += 1
        for c, n in zip(COLOURS, r["seats"]):
            self.think.setdefault(n, []).append(r["wall"][c])
            self.over[n] = self.over.get(n, 0) + (c in r["over"])
        result = r["result"]
        if r["winner"]:
            winner = r["seats"][COLOURS.index(r["winner"])]
            self.wins[winner] = self.wins.get(winner, 0) + 1
        if result == "win":
            self.W += 1
        elif result == "loss":
            self.L += 1
            if r["forfeit"]:
                self.own[r["forfeit"]["kind"]] += 1
        elif result in ("repetition", "turns"):
            self.D += 1
            if result == "turns":
                self.turn_draws += 1
            else:
                self.rep += 1
                self.rep_ahead += lead(r) == "led"
        elif r["forfeit"]["colour"] is None:
            self.unattributed += 1
        else:
            self.theirs[r["forfeit"]["kind"]] += 1
            who = r["forfeit"]["package"]
            self.theirs_by[who] = self.theirs_by.get(who, 0) + 1
        if result in ("loss", "repetition", "turns"):
            self.standing[lead(r)] += 1

    def played_out(self):
        """Games not ended by an opponent's forfeit (nor by a fault of nobody known)."""
        return self.games - sum(self.theirs.values()) - self.unattributed

    def rate(self):
        return 100.0 * self.W / max(1, self.played_out())

    def seconds(self, name):
        t = self.think.get(name, [])
        return (sum(t) / len(t), max(t)) if t else (0.0, 0.0)

    def line(self, label):
        cand = self.cand
        return (
            "%s | games %d | %s W %d D %d L %d | played out %d | win rate %.1f%% | draws by repetition %d "
            "(while ahead %d), by turns %d | opponents' forfeits %s | own faults %s | wins %s | "
            "non-wins led in exits %d, level %d, behind %d | think s/game %s %.1f (max %.1f), %s | over the clock %d"
            % (
                label,
                self.games,
                cand,
                self.W,
                self.D,
                self.L,
                self.played_out(),
                self.rate(),
                self.rep,
                self.rep_ahead,
                self.turn_draws,
                faults_text(self.theirs, self.theirs_by),
                faults_text(self.own),
                ", ".join("%s %d" % (n, self.wins.get(n, 0)) for n in self.shown),
                self.standing["led"],
                self.standing["level"],
                self.standing["behind"],
                cand,
                self.seconds(cand)[0],
                self.seconds(cand)[1],
                ", ".join("%s %.1f" % (n, self.seconds(n)[0]) for n in self.shown),
                self.over.get(cand, 0),
            )
        )


def lead(r):
    """Where the candidate stood in exits at the end of game `r`: "led", "level" (with the
    best of the others) or "behind"."""
    mine = r["exits"][r["candidate"]]
    best = max(r["exits"][c] for c in COLOURS if c != r["candidate"])
    return "led" if mine > best else "level" if mine == best else "behind"


def result_text(r):
    """The referee's verdict of game `r`, as the game lines say it."""
    if r["winner"]:
        return "winner %s (%s)" % (r["winner"], r["seats"][COLOURS.index(r["winner"])])
    if r["result"] in ("repetition", "turns"):
        return "draw %s" % r["result"]
    f = r["forfeit"]
    who = "(%s)" % f["package"] if f["colour"] else "(nobody known)"
    return "%s %s %s: %s" % (f["kind"], f["colour"], who, f["detail"])


def game_line(r):
    return "game %3d  pair %d  %s  %-44s %4d turns  exits %s  pieces %s  think %s" % (
        r["game"] + 1,
        r["pair_index"] + 1,
        seats_text(r),
        result_text(r),
        r["turns"],
        ",".join(str(r["exits"][c]) for c in COLOURS),
        ",".join("?" if r["pieces"][c] is None else str(r["pieces"][c]) for c in COLOURS),
        " ".join("%s %.2f s" % (c[0], r["wall"][c]) for c in COLOURS),
    )


def seats_text(r):
    return " ".join("%s=%s" % (c[0], n) for c, n in zip(COLOURS, r["seats"]))


def record_game(path, settings, r):
    """Appends game `r` to the ``--record`` file: a ``#`` header, then its actions."""
    with open(path, "a") as f:
        f.write(
            "# game %d | pair %s + %s | %s | seed %d opening %d | exits %s | %d turns | result: %s\n"
            % (
                r["game"] + 1,
                r["pair"][0],
                r["pair"][1],
                seats_text(r),
                settings["seed"],
                settings["opening"],
                ",".join(str(r["exits"][c]) for c in COLOURS),
                r["turns"],
                result_text(r),
            )
        )
        for a in r["actions"]:
            f.write(a + "\n")


def games_text(args):
    """The games a pair, as the header line says it: "12 games a pair (flying_solo 30)"."""
    extra = ", ".join("%s %d" % kv for kv in args.games_for.items())
    return "%s a pair%s" % (plural(args.games, "game"), " (%s)" % extra if extra else "")


def ranges_text(numbers):
    """1 2 3 5 7 8 -> "1-3 5 7-8"."""
    out = []
    for n in numbers:
        if out and out[-1][1] == n - 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return " ".join(str(a) if a == b else "%d-%d" % (a, b) for a, b in out) or "none"


def faults_text(d, by=None):
    by = ", ".join("%s %d" % kv for kv in sorted((by or {}).items()))
    return "%d (timeout %d, illegal %d, error %d%s%s)" % (
        sum(d.values()),
        d["timeout"],
        d["illegal"],
        d["error"],
        ", space %d" % d["space"] if d.get("space") else "",
        "; by " + by if by else "",
    )


def report(settings, records, planned, tail, markdown=False):
    """Prints the report of `records` (games of the run with these settings): the standing at
    each game the candidate did not win, a table per pair and per opponent (over the pairs it
    is in; those without games left out), the SUMMARY (with `tail`: how the games were played), a PLAYER line per package
    and, with `markdown`, the tables as Markdown."""
    cand = settings["candidate"]
    pairs = [tuple(x[:2]) for x in settings["plan"]]
    agents = list(dict.fromkeys(n for pair in pairs for n in pair))
    tables = [Table(cand, pair) for pair in pairs]
    by_agent = {n: Table(cand, [n]) for n in agents}
    everything = Table(cand, [])
    records = sorted(records, key=lambda r: (r["pair_index"], r["game"]))
    print("NON-WINS: the games %s did not win, with each seat's exits and pieces on the board at the end" % cand)
    for r in records:
        tables[r["pair_index"]].add(r)
        for n in r["pair"]:
            by_agent[n].add(r)
        everything.add(r)
        if r["result"] != "win":
            print(nonwin_line(r))
    print("PAIRS: %s against each pair (win rate = wins / games played out, without the opponents' forfeits)" % cand)
    for pair, t in zip(pairs, tables):
        if t.games:
            print(t.line("PAIR %s + %s" % pair))
    print("AGENTS: %s against each opponent, over the pairs it is in" % cand)
    for n in agents:
        if by_agent[n].games:
            print(by_agent[n].line("AGENT %s | pairs %d" % (n, sum(n in pair for pair in pairs))))
    loads = [r["load"] for r in records] or [0.0]
    print(
        "SUMMARY games %d | draws by repetition %d (%.1f%% of games), by turns %d | %s W %d D %d L %d of %d played "
        "out: %.1f%%, worst pair %.1f%% | opponents' forfeits %s | own faults %s | over the clock %d | "
        "repetition draws while ahead in exits %d | non-wins led in exits %d, level %d, behind %d | "
        "missing %d of %d planned | load %.2f-%.2f, %s"
        % (
            everything.games,
            everything.rep,
            100.0 * everything.rep / max(1, everything.games),
            everything.turn_draws,
            cand,
            everything.W,
            everything.D,
            everything.L,
            everything.played_out(),
            everything.rate(),
            min([t.rate() for t in tables if t.games] or [0.0]),
            faults_text(everything.theirs),
            faults_text(everything.own),
            everything.over.get(cand, 0),
            everything.rep_ahead,
            everything.standing["led"],
            everything.standing["level"],
            everything.standing["behind"],
            planned - len(records),
            planned,
            min(loads),
            max(loads),
            tail,
        )
    )
    for n in [cand] + agents:
        mine = [r for r in records if n in r["seats"]]
        if mine:
            print(player_line(n, mine, everything))
    print(endings_line(cand, agents, records))
    if markdown:
        print()
        print(
            "| %s against | games | W | repetition draws | turn-limit draws | L | win rate | opponents' forfeits "
            "| non-wins led in exits |" % cand
        )
        print("|---|---|---|---|---|---|---|---|---|")
        rows = [("%s + %s" % pair, t) for pair, t in zip(pairs, tables)]
        rows += [("%s (%s)" % (n, plural(sum(n in pair for pair in pairs), "pair")), by_agent[n]) for n in agents]
        for label, t in rows + [("**all**", everything)]:
            if t.games:
                print(
                    "| %s | %d | %d | %d | %d | %d | %.1f%% | %d | %d |"
                    % (label, t.games, t.W, t.rep, t.turn_draws, t.L, t.rate(), t.games - t.played_out(), t.standing["led"])
                )


def endings_line(cand, agents, records):
    """The ``ENDINGS`` line: every game ended early (an invalid action, a time-out, the
    space limit, an exception or a hang), counted under the package that caused it, by
    kind and colour, those of nobody known apart; then what the candidate's own guards
    met (the ``incidents`` its Player keeps, as ``arena_player`` does), if it keeps any."""
    by = {n: {} for n in [cand] + agents}
    nobody = 0
    for r in records:
        f = r["forfeit"]
        if f is None:
            continue
        if not f["colour"]:
            nobody += 1
            continue
        kinds = by.setdefault(f["package"], {})
        colours = kinds.setdefault(f["kind"], {})
        colours[f["colour"]] = colours.get(f["colour"], 0) + 1

    def text(name):
        kinds = by[name]
        if not kinds:
            return "%s 0" % name
        parts = []
        for kind in FAULTS:
            if kind in kinds:
                c = kinds[kind]
                parts.append("%s %d: %s" % (kind, sum(c.values()), ", ".join("%s %d" % (x, c[x]) for x in COLOURS if x in c)))
        return "%s %d (%s)" % (name, sum(sum(c.values()) for c in kinds.values()), "; ".join(parts))

    guards = [r for r in records if r.get("incidents") and r["candidate"] in r["incidents"]]
    if guards:
        counts = {}
        for r in guards:
            for i in r["incidents"][r["candidate"]]:
                counts[i["kind"]] = counts.get(i["kind"], 0) + 1
        hit = sum(1 for r in guards if r["incidents"][r["candidate"]])
        guard_text = "%s's engine incidents %d in %d of %d games%s" % (
            cand,
            sum(counts.values()),
            hit,
            len(guards),
            " (%s)" % ", ".join("%s %d" % kv for kv in sorted(counts.items())) if counts else "",
        )
    else:
        guard_text = "%s's engine incidents not reported" % cand
    return "ENDINGS early, by the player that caused them: %s | nobody known %d | %s" % (
        " | ".join(text(n) for n in by),
        nobody,
        guard_text,
    )


def plural(n, word):
    return "%s %s%s" % ("?" if n is None else n, word, "" if n == 1 else "s")


def nonwin_line(r):
    """A game the candidate did not win: how it ended and each seat's standing."""
    f, cand = r["forfeit"], r["seats"][COLOURS.index(r["candidate"])]
    if r["result"] == "loss" and r["winner"]:
        how = "loss: %s (%s) won" % (r["winner"], r["seats"][COLOURS.index(r["winner"])])
    elif r["result"] == "loss":
        how = "loss: own fault, %s: %s" % (f["kind"], f["detail"])
    elif r["result"] == "repetition":
        how = "repetition draw"
    elif r["result"] == "turns":
        how = "turn-limit draw"
    elif f["colour"]:
        how = "forfeit of %s (%s), %s: %s" % (f["colour"], f["package"], f["kind"], f["detail"])
    else:
        how = "forfeit of nobody known, %s: %s" % (f["kind"], f["detail"])
    return "NONWIN pair %d %s + %s | game %d | %s | %d turns | %s | %s %s in exits" % (
        r["pair_index"] + 1,
        r["pair"][0],
        r["pair"][1],
        r["game"] + 1,
        how,
        r["turns"],
        ", ".join(
            "%s %s %s %s" % (c, n, plural(r["exits"][c], "exit"), plural(r["pieces"][c], "piece"))
            for c, n in zip(COLOURS, r["seats"])
        ),
        cand,
        lead(r),
    )


def player_line(name, records, everything):
    """A package's own figures over its games, whoever the candidate."""
    t = dict(W=0, D=0, L=0, timeout=0, illegal=0, error=0, space=0, other=0, think=0.0)
    for r in records:
        c = COLOURS[r["seats"].index(name)]
        t["think"] += r["wall"][c]
        if r["winner"]:
            t["W" if r["winner"] == c else "L"] += 1
        elif r["result"] in ("repetition", "turns"):
            t["D"] += 1
        elif r["forfeit"]["colour"] == c:
            t["L"] += 1
            t[r["forfeit"]["kind"]] += 1
        else:
            t["other"] += 1
    return (
        "PLAYER %s W %d D %d L %d (timeout %d illegal %d error %d%s) ended-by-another %d | win rate %.1f%% | "
        "think %.2f s per game (at most %.2f) | over the clock %d"
        % (
            name,
            t["W"],
            t["D"],
            t["L"],
            t["timeout"],
            t["illegal"],
            t["error"],
            " space %d" % t["space"] if t["space"] else "",
            t["other"],
            100.0 * t["W"] / max(1, len(records)),
            t["think"] / max(1, len(records)),
            everything.seconds(name)[1],
            everything.over.get(name, 0),
        )
    )


def mode_text(settings):
    """Our Player's time, as the header line says it."""
    if settings["moves_time_ms"] is not None:
        return "%d ms per action" % settings["moves_time_ms"]
    if settings["clock"] is not None:
        return "%g s clock" % settings["clock"]
    return "arena_player's default clock"


def merge(argv):
    """``--merge FILE...``: the report of the games in the results files of one run's shards
    (or of one run stopped and resumed elsewhere, or of runs that differ in their plan only),
    as one run would print it."""
    ap = argparse.ArgumentParser(
        prog="referee_match.py",
        description="The tables and summary of the --results files of one run's shards, merged.",
    )
    ap.add_argument("--merge", nargs="+", required=True, metavar="FILE", help="the --results files of the shards")
    ap.add_argument("--markdown", action="store_true", help="the tables as Markdown too, after the report")
    args = ap.parse_args(argv)
    header, first, found, shards, runs = None, None, {}, set(), []
    plan = {}  # (a, b) -> games planned, in the order the pairs first appear
    unplanned = lambda s: {k: v for k, v in s.items() if k != "plan"}  # noqa: E731
    for path in args.merge:
        h, games, torn = read_results(path)
        if h is None:
            fail("%s: no run header: not a results file of referee_match.py (or empty)" % path)
        if torn is not None:
            sys.stderr.write(
                "referee_match.py: %s: its last line is incomplete (a run still going, or killed): left out\n" % path
            )
        if header is None:
            header, first = h, path
        elif unplanned(h["settings"]) != unplanned(header["settings"]):
            fail(
                "%s is of run %s and %s of run %s: not one run (settings: %s)"
                % (first, header["run"], path, h["run"], settings_diff(unplanned(header["settings"]), unplanned(h["settings"])))
            )
        if h["run"] not in runs:
            runs.append(h["run"])
        for a, b, n in h["settings"]["plan"]:
            plan[(a, b)] = max(plan.get((a, b), 0), n)
        for r in games:
            pair = tuple(r["pair"])
            key = (pair, r["game"])
            if key in found:
                fail("game %d of %s + %s is in both %s and %s" % ((r["game"] + 1,) + pair + (found[key][0], path)))
            found[key] = (path, r)
        shards.add("%d/%d" % tuple(h["shard"]))
    settings = dict(header["settings"], plan=[[a, b, n] for (a, b), n in plan.items()])
    index = {pair: i for i, pair in enumerate(plan)}
    records = [dict(r, pair_index=index[pair]) for (pair, _), (_, r) in found.items()]
    planned = sum(x[2] for x in settings["plan"])
    print(
        "referee_match merge | run %s | candidate %s | %s | -t %g | referee %s | opening %d plies | seed %d | %d pair(s) | "
        "files %d (shards %s) | games %d of %d planned"
        % (
            "+".join(runs),
            settings["candidate"],
            mode_text(settings),
            settings["time"],
            settings["referee"],
            settings["opening"],
            settings["seed"],
            len(settings["plan"]),
            len(args.merge),
            " ".join(sorted(shards)),
            len(records),
            planned,
        )
    )
    report(settings, records, planned, "merged %d files" % len(args.merge), args.markdown)
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--merge" in argv:
        return merge(argv)
    args = parse_args(argv)
    names = list(args.packages)
    cand, opponents = names[0], names[1:]
    pairs = args.pairs
    env = child_env(args)
    settings = run_settings(args, env)
    rid = run_id(settings)
    games = shard_games(settings["plan"], args.shard)
    records = []
    results = None
    if args.results and not args.plan:
        header = {
            "kind": "run",
            "run": rid,
            "settings": settings,
            "shard": list(args.shard),
            "planned": len(games),
            "started": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "host": os.uname()[1],
            "referee_path": args.referee,
            "arena": os.environ.get("ARENA"),
        }
        results = Results(args.results, header, args.resume)
        records = list(results.games)
        stray = [r for r in records if (r["pair_index"], r["game"]) not in set(games)]
        if stray:
            fail(
                "--results %s holds game %d of pair %d, which is not of this shard"
                % (args.results, stray[0]["game"] + 1, stray[0]["pair_index"] + 1)
            )
    print(
        "referee_match | run %s | candidate %s | opponents %s | %s | -t %g | referee %s | opening %d plies | seed %d | "
        "%d pair(s), %s | concurrency %d | shard %d/%d | load %.2f"
        % (
            rid,
            cand,
            " ".join(opponents),
            mode_text(settings),
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
    if records:
        print("RESUMED %d games from %s" % (len(records), args.results))
    sys.stdout.flush()
    if args.plan:
        for p, pair in enumerate(pairs):
            mine = [g for q, g in games if q == p]
            print(
                "PLAN pair %d %s + %s | games %d | this shard %d: %s"
                % (p + 1, pair[0], pair[1], pair_games(args, pair), len(mine), ranges_text(sorted(g + 1 for g in mine)))
            )
        print("PLAN games %d, this shard %d" % (sum(x[2] for x in settings["plan"]), len(games)))
        return 0
    done = {(r["pair_index"], r["game"]) for r in records}
    jobs = []
    for p, g in games:
        if g >= args.skip and (p, g) not in done:
            seat_names = [([cand] + list(pairs[p]))[i] for i in ORDERS[g % 6]]
            jobs.append((g, p, seat_names, opening(cycle_seed(args.seed, g // 6), args.opening)))
    lock = threading.Lock()
    started = time.perf_counter()

    def finished(job, out, elapsed):
        g, p, seat_names, _ = job
        r = game_record(rid, settings, p, g, seat_names, out, elapsed)
        records.append(r)
        if results:
            results.write(r)
        if args.record:
            record_game(args.record, settings, r)
        if not args.quiet:
            print(game_line(r))
            sys.stdout.flush()

    def interrupted(signum, frame):
        raise KeyboardInterrupt

    def timed_game(job):
        start = time.perf_counter()
        return play_game(args, env, job[2], job[3]), time.perf_counter() - start

    signal.signal(signal.SIGTERM, interrupted)
    stopped = False
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency)
    try:
        futures = {pool.submit(timed_game, job): job for job in jobs}
        for fut in concurrent.futures.as_completed(futures):
            job = futures[fut]
            try:
                out, elapsed = fut.result()
            except Exception as e:  # the harness's own trouble: reported, not hidden
                out, elapsed = {
                    "result": ("fault", None, "error", "harness: %r" % (e,)),
                    "turns": 0,
                    "exits": dict.fromkeys(COLOURS, 0),
                    "pieces": dict.fromkeys(COLOURS),
                    "seats": {c: {"wall": 0.0} for c in COLOURS},
                    "actions": [],
                }, 0.0
            if out is not None:
                with lock:
                    finished(job, out, elapsed)
    except KeyboardInterrupt:
        stopped = True
        stop_games()
        print("STOPPED: the games still running were stopped; the figures below are those of the games that ended")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        if results:
            results.close()

    report(
        settings,
        records,
        len(games),
        "%.0f s, concurrency %d" % (time.perf_counter() - started, args.concurrency),
        args.markdown,
    )
    return 130 if stopped else 0


if __name__ == "__main__":
    sys.exit(main())
