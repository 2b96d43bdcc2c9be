"""A COMP30024 (2019) Chexers agent that plays with the `arena` engine.

The course referee imports this package and uses its ``Player`` class:

    player = Player("red")          # or "green", "blue"
    action = player.action()        # ("MOVE", ((q1, r1), (q2, r2))), ("JUMP", ...),
                                    # ("EXIT", (q, r)) or ("PASS", None)
    player.update("red", action)    # called for every player's action, its own included

Each ``action()`` sends the game so far to ``arena engine chexers`` (a UCI-shaped text
protocol on the engine's stdin/stdout) and returns the engine's ``bestmove``.

Never the Player's fault: the referee ends a game early for an invalid action, a player over
its time (the CPU time of the referee's own process) or over the space limit (the referee
process's virtual memory), and an exception or a hang ends it too. The Player keeps the
board as the referee does (``Board``, the rules of ``referee/game.py``) and:

* returns only an action the referee accepts in its state: an engine answer that is not
  among them is replaced by one chosen in Python (``fallback_action``);
* waits for the engine with hard deadlines (reads and writes through ``select``, no
  blocking call without a time limit): an engine past its time (on the clock: half of the
  time it was given, where its own time manager stops before) is sent ``stop``, one that
  does not answer that either is killed; a dead, stalled or refusing engine gives way to the
  Python action for that turn and is started again for the next (at most ``_MAX_STARTS``
  starts a game); a single legal action is played without asking the engine;
* keeps a margin on the game clock: it counts the wall time of its own calls (which the
  referee's CPU clock undercounts: the engine thinks in another process) and gives the
  engine the clock left less the margin (``clock_margin``), so that a late engine is
  stopped, or killed and replaced, before the clock runs out;
* starts no thread (a thread in the referee's process would add its stack and a malloc
  arena, over 100 MB, to the virtual memory the referee's ``-s`` limit measures); the
  engine's table lives in the engine's process, which the referee does not measure;
* raises nothing in ``action`` and ``update``; its constructor raises only for a
  configuration that cannot play at all (no ``arena`` binary, an engine that exits at once
  on a bad ``ARENA_ENGINE``), before the game's first action.

What happened is kept in ``Player.incidents`` (and written to stderr): ``stall`` (no answer
even after ``stop``: killed), ``late`` (answered only after ``stop``: its move played),
``died``, ``refused`` (the engine refused the position), ``none`` (``bestmove none``),
``illegal`` (an answer the referee would refuse), ``no-engine`` (none could be started),
``clock`` (no time left to ask); all but ``late`` mean a Python action was played.

Configuration, by environment variable:

* ``ARENA``: path of the ``arena`` binary. Otherwise ``arena`` on ``PATH``, otherwise
  ``target/release/arena`` in the repository that holds this package.
* ``ARENA_CLOCK_S``: the game clock in seconds (default 60): the referee's time budget per
  player and game (its ``-t``, 60 s in the course's tests). The Player counts the wall-clock
  time of its own calls (``__init__``, ``action``, ``update``) against it and sends the rest,
  less a margin, as ``go time MS``; the engine plans this action's share by the game's clock
  policy (the actions left estimated, a reserve kept) and its time manager never oversteps it.
* ``ARENA_MOVETIME_MS``: a flat thinking time per action in milliseconds instead of the
  clock.
* ``ARENA_NODES``: a node budget per action instead of any time (``go nodes N``): games
  that do not depend on the machine's load, for comparing engines on a busy machine (the
  clock is then not watched).
* ``ARENA_STALL_S``: with ``ARENA_NODES``, the seconds after which an engine that has not
  answered is stopped (default 30); then one more second before it is killed.
* ``ARENA_THREADS``: engine threads (default 1).
* ``ARENA_ENGINE``: an engine specification passed as ``--engine`` (see ``arena match --help``).
* ``ARENA_DEBUG``: if set, the engine's stderr is shown and the protocol is echoed to stderr.

Standard library only.
"""

import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

__all__ = [
    "Player",
    "Board",
    "fallback_action",
    "clock_margin",
    "find_arena",
    "to_notation",
    "from_notation",
    "EngineError",
    "EngineTimeout",
]

_COLOURS = ("red", "green", "blue")

#: Engine processes a Player starts in a game at most (the first and its restarts).
_MAX_STARTS = 4
#: Seconds an engine has to answer ``uci`` and ``isready`` when it starts (less if the clock
#: is short).
_START_S = 10.0


class EngineError(RuntimeError):
    """The engine could not be started, died, or answered with an error."""


class EngineTimeout(EngineError):
    """The engine did not answer (or read) before the deadline."""


def find_arena():
    """Path of the ``arena`` binary: $ARENA, else ``arena`` on PATH, else the repository's
    ``target/release/arena``."""
    env = os.environ.get("ARENA")
    if env:
        return env
    on_path = shutil.which("arena")
    if on_path:
        return on_path
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    return os.path.join(repo, "target", "release", "arena")


def to_notation(action):
    """The referee's action tuple as the engine's text: ``("MOVE", ((-3, 1), (-2, 0)))`` ->
    ``"MOVE -3 1 -2 0"``."""
    kind, args = action
    if kind == "PASS":
        return "PASS"
    if kind == "EXIT":
        q, r = args
        return "EXIT %d %d" % (q, r)
    if kind in ("MOVE", "JUMP"):
        (q1, r1), (q2, r2) = args
        return "%s %d %d %d %d" % (kind, q1, r1, q2, r2)
    raise ValueError("unknown action %r" % (action,))


def from_notation(text):
    """The engine's text as the referee's action tuple: ``"EXIT 3 0"`` -> ``("EXIT", (3, 0))``."""
    words = text.split()
    if not words:
        raise ValueError("empty action")
    kind, nums = words[0], [int(w) for w in words[1:]]
    if kind == "PASS" and not nums:
        return ("PASS", None)
    if kind == "EXIT" and len(nums) == 2:
        return ("EXIT", (nums[0], nums[1]))
    if kind in ("MOVE", "JUMP") and len(nums) == 4:
        return (kind, ((nums[0], nums[1]), (nums[2], nums[3])))
    raise ValueError("not an action: %r" % text)


# The referee's rules (referee/game.py of the course referee v1.1).
_HEXES = tuple(sorted((q, r) for q in range(-3, 4) for r in range(-3, 4) if -3 <= -q - r <= 3))
_HEX_SET = frozenset(_HEXES)
_STEPS = ((-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1))
_START = {
    "red": ((-3, 3), (-3, 2), (-3, 1), (-3, 0)),
    "green": ((0, -3), (1, -3), (2, -3), (3, -3)),
    "blue": ((3, 0), (2, 1), (1, 2), (0, 3)),
}
_FINISH = {
    "red": frozenset([(3, -3), (3, -2), (3, -1), (3, 0)]),
    "green": frozenset([(-3, 3), (-2, 3), (-1, 3), (0, 3)]),
    "blue": frozenset([(-3, 0), (-2, -1), (-1, -2), (0, -3)]),
}


def _hex(qr):
    q, r = qr
    return (int(q), int(r))


class Board:
    """The board as the referee keeps it: the actions it accepts from a colour
    (``available``, its ``_available_actions``) and what they do (``apply``). Whose turn,
    repetitions and the turn limit are the referee's business: it asks for an action only
    while the game goes on."""

    def __init__(self):
        self.cells = dict.fromkeys(_HEXES)  # hex -> colour, None when empty
        for colour, hexes in _START.items():
            for qr in hexes:
                self.cells[qr] = colour
        self.exits = dict.fromkeys(_COLOURS, 0)

    def available(self, colour):
        """The actions the referee accepts from `colour` now (its order of pieces aside):
        per piece an EXIT from a finishing hex, per direction a MOVE to an empty neighbour
        or else a JUMP to the empty hex beyond; PASS only when there is nothing else."""
        out = []
        cells = self.cells
        for qr in _HEXES:
            if cells[qr] != colour:
                continue
            if qr in _FINISH[colour]:
                out.append(("EXIT", qr))
            q, r = qr
            for dq, dr in _STEPS:
                for i, kind in ((1, "MOVE"), (2, "JUMP")):
                    to = (q + dq * i, r + dr * i)
                    if to in _HEX_SET and cells[to] is None:
                        out.append((kind, (qr, to)))
                        break
        return out or [("PASS", None)]

    def apply(self, colour, action):
        """Plays `action` of `colour` (one the referee accepted)."""
        kind, args = action
        if kind in ("MOVE", "JUMP"):
            a, b = _hex(args[0]), _hex(args[1])
            self.cells[a] = None
            self.cells[b] = colour
            if kind == "JUMP":  # the piece jumped over becomes the mover's
                self.cells[((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)] = colour
        elif kind == "EXIT":
            self.cells[_hex(args)] = None
            self.exits[colour] += 1
        elif kind != "PASS":
            raise ValueError("unknown action %r" % (action,))

    def copy(self):
        other = Board.__new__(Board)
        other.cells = dict(self.cells)
        other.exits = dict(self.exits)
        return other


def _steps_to_exit(colour, qr):
    q, r = qr
    if colour == "red":
        return 3 - q
    if colour == "green":
        return 3 - r
    return 3 + q + r


def _greedy_score(board, colour):
    """How good `board` is for `colour`, greedily: exits, then enough pieces to win, then
    the steps of the nearest of them to their exits, then pieces against the others'."""
    mine = [qr for qr, c in board.cells.items() if c == colour]
    others = sum(1 for c in board.cells.values() if c is not None and c != colour)
    need = max(0, 4 - board.exits[colour])
    steps = sorted(_steps_to_exit(colour, qr) + 1 for qr in mine)[:need]
    return 1000 * board.exits[colour] + 200 * len(steps) - sum(steps) + 20 * len(mine) - 20 * others


def fallback_action(board, colour, legal=None):
    """An action the referee accepts, chosen in Python in well under a millisecond when the
    engine cannot answer: the best by a one-ply greedy score (an exit first, conversions,
    progress to the exits), the first of the best in the board's order."""
    legal = legal if legal is not None else board.available(colour)
    best, best_score = legal[0], None
    for action in legal:
        after = board.copy()
        after.apply(colour, action)
        score = _greedy_score(after, colour)
        if best_score is None or score > best_score:
            best, best_score = action, score
    return best


def clock_margin(clock):
    """Seconds of a `clock`-second game clock that the engine is never given: 3% of it, at
    least 0.25 s and at most 2 s. Stopping or killing a late engine and choosing in Python
    come out of it."""
    return min(2.0, max(0.25, 0.03 * clock))


class _Engine:
    """One ``arena engine chexers`` process and its line protocol, every read and write with
    a deadline (``time.perf_counter()`` seconds)."""

    def __init__(self, path, threads, spec, debug, deadline):
        cmd = [path, "engine", "chexers", "--threads", str(threads)]
        if spec:
            cmd += ["--engine", spec]
        self.debug = debug
        self.pending = b""
        # The engine's stderr goes to a file (a pipe nobody reads could fill and stall it),
        # so that an engine that stops can be reported with its reason.
        self.errors = None if debug else tempfile.TemporaryFile(mode="w+")
        try:
            self.proc = subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=None if debug else self.errors,
                bufsize=0,
            )
        except OSError as e:
            if self.errors is not None:
                self.errors.close()
            raise EngineError(
                "cannot start %r (%s); set ARENA to the arena binary or build it with "
                "`cargo build --release -p plyforge-arena`" % (path, e)
            )
        self.stdin = self.proc.stdin.fileno()
        self.stdout = self.proc.stdout.fileno()
        os.set_blocking(self.stdin, False)
        try:
            self.send("uci", deadline)
            self.wait_for("uciok", deadline)
            self.send("isready", deadline)
            self.wait_for("readyok", deadline)
        except BaseException:
            self.kill()  # no process, pipe or file left behind by a refused start
            raise

    def send(self, line, deadline):
        if self.debug:
            print(">> " + line, file=sys.stderr)
        data = (line + "\n").encode()
        while data:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise EngineTimeout("the engine did not read %r in time" % line)
            select.select([], [self.stdin], [], left)
            try:
                data = data[os.write(self.stdin, data):]
            except BlockingIOError:
                continue
            except OSError as e:
                raise self.stopped("the engine is not running (%s)" % e)

    def read(self, deadline):
        """The next line, or EngineTimeout when none comes before `deadline`."""
        while b"\n" not in self.pending:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise EngineTimeout("no answer in time")
            ready, _, _ = select.select([self.stdout], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self.stdout, 65536)
            except OSError as e:
                raise self.stopped("cannot read the engine (%s)" % e)
            if not chunk:
                raise self.stopped("the engine closed its output")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        line = line.decode("utf-8", "replace").rstrip("\r")
        if self.debug:
            print("<< " + line, file=sys.stderr)
        return line

    def wait_for(self, word, deadline, errors=None):
        """Reads lines until one is ``word`` or starts with ``word + " "``; returns it. An
        ``info string error`` on the way raises, or with a list `errors` is appended to it
        (a late ``stop``'s complaint that no search runs is ignored)."""
        while True:
            line = self.read(deadline)
            if line.startswith("info string error"):
                if line.startswith("info string error: stop:"):
                    continue
                if errors is None:
                    raise EngineError(line[len("info string "):] + self.reason())
                errors.append(line[len("info string "):])
                continue
            if line == word or line.startswith(word + " "):
                return line

    def alive(self):
        return self.proc.poll() is None

    def stopped(self, what):
        """The error for an engine that stopped answering: `what`, its exit code (waited
        for briefly) and its last lines on stderr."""
        try:
            code = self.proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            code = None
        return EngineError("%s (exit code %s)%s" % (what, code, self.reason()))

    def reason(self):
        """The engine's last lines on stderr, as ``": ..."`` (empty when there are none)."""
        if self.errors is None:
            return ""
        try:
            self.errors.seek(0)
            lines = [l.strip() for l in self.errors.read().splitlines() if l.strip()]
        except (OSError, ValueError):
            return ""
        return (": " + " | ".join(lines[-3:])) if lines else ""

    def kill(self):
        """Ends the process at once and lets go of its pipes and files."""
        try:
            self.proc.kill()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            pass
        self._release()

    def close(self):
        """Asks the engine to quit (killing it if it does not), then lets go of it."""
        if self.proc.poll() is None:
            try:
                self.send("quit", time.perf_counter() + 1.0)
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except Exception:
                self.proc.kill()
                try:
                    self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
        self._release()

    def _release(self):
        for pipe in (self.proc.stdin, self.proc.stdout, self.errors):
            try:
                if pipe is not None:
                    pipe.close()
            except Exception:
                pass


class Player:
    """A Chexers player for the COMP30024 referee, backed by the ``arena`` engine."""

    def __init__(self, colour):
        started = time.perf_counter()
        if colour not in _COLOURS:
            raise ValueError("colour must be one of %s, not %r" % (", ".join(_COLOURS), colour))
        self.colour = colour
        self.moves = []  # every action so far, in the engine's notation
        #: The board as the referee keeps it.
        self.board = Board()
        #: What went wrong with the engine, as dicts (turn, kind, detail); see the module.
        self.incidents = []
        movetime = os.environ.get("ARENA_MOVETIME_MS")
        #: Flat thinking time per action in milliseconds, or None for the game clock.
        self.movetime_ms = int(movetime) if movetime else None
        nodes = os.environ.get("ARENA_NODES")
        #: A node budget per action (instead of any time), or None.
        self.nodes = int(nodes) if nodes else None
        if self.nodes is not None and self.nodes < 1:
            raise ValueError("ARENA_NODES must be at least 1, not %r" % nodes)
        self.stall_s = float(os.environ.get("ARENA_STALL_S", "30"))
        #: The game clock in seconds, and the seconds used of it by this player's calls.
        self.clock = float(os.environ.get("ARENA_CLOCK_S", "60"))
        if not self.clock > 0:
            raise ValueError("ARENA_CLOCK_S must be above 0, not %r" % self.clock)
        self.used = 0.0
        #: The last ``go`` command sent to the engine (None when the last action did not ask).
        self.last_go = None
        self.engine_args = (
            find_arena(),
            int(os.environ.get("ARENA_THREADS", "1")),
            os.environ.get("ARENA_ENGINE"),
            bool(os.environ.get("ARENA_DEBUG")),
        )
        self.starts = 0
        self.engine = None
        try:
            self.engine = self._start(started + min(_START_S, max(0.5, self.clock / 4)))
        except EngineTimeout as e:
            # A start too slow for the deadline (a loaded machine): play on, try again at the
            # first action.
            self._incident("no-engine", str(e))
        # Any other failure of the first start is a configuration that cannot play at all
        # (no binary, a refused --engine): raised now, before the game's first action.
        self.used += time.perf_counter() - started

    def remaining(self):
        """Seconds left on this player's game clock."""
        return self.clock - self.used

    def action(self):
        """This player's next action, as the referee expects it: always one the referee
        accepts, in time."""
        started = time.perf_counter()
        try:
            legal = self.board.available(self.colour)
            self.last_go = None
            if len(legal) == 1:
                return legal[0]
            try:
                answer = self._ask(started)
            except Exception as e:  # not expected: the guards catch the engine's failures
                self._incident("error", "%s: %s" % (type(e).__name__, e))
                self._drop_engine()
                answer = None
            if answer is not None:
                try:
                    action = from_notation(answer)
                except ValueError:
                    action = None
                if action in legal:
                    return action
                self._incident("illegal", "the engine answered %r, which the referee would refuse" % answer)
            return fallback_action(self.board, self.colour, legal)
        finally:
            self.used += time.perf_counter() - started

    def update(self, colour, action):
        """Records an action of any player (this one included)."""
        started = time.perf_counter()
        try:
            self.moves.append(to_notation(action))
            self.board.apply(colour, action)
        except Exception as e:  # the referee passes only actions it accepted
            self._incident("error", "update(%r, %r): %s" % (colour, action, e))
        finally:
            self.used += time.perf_counter() - started

    def close(self):
        """Stops the engine process (also done at garbage collection)."""
        engine = getattr(self, "engine", None)
        if engine is not None:
            engine.close()
            self.engine = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    # The guards.

    def _incident(self, kind, detail):
        self.incidents.append({"turn": len(getattr(self, "moves", ())), "kind": kind, "detail": detail[:300]})
        try:
            sys.stderr.write("arena_player %s: %s: %s\n" % (getattr(self, "colour", "?"), kind, detail[:300]))
            sys.stderr.flush()
        except Exception:
            pass

    def _start(self, deadline):
        """A new engine, ready for the game (``newgame`` sent)."""
        self.starts += 1
        engine = _Engine(*self.engine_args, deadline=deadline)
        try:
            engine.send("newgame", deadline)
        except BaseException:
            engine.kill()
            raise
        return engine

    def _drop_engine(self):
        if self.engine is not None:
            self.engine.kill()
            self.engine = None

    def _deadlines(self, started):
        """The action's deadlines (perf_counter seconds): (end of the engine's time, stop it,
        kill it), or None when the clock has no time left to ask."""
        now = time.perf_counter()
        if self.nodes is not None:
            stop = now + self.stall_s
            return stop, stop, stop + 1.0
        if self.movetime_ms is not None:
            end = now + self.movetime_ms / 1000.0
            stop = end + max(1.0, self.movetime_ms / 2000.0)
            return end, stop, stop + 1.0
        # The engine is given `budget`; its time manager's hard limit is under half of what
        # it is given (chexers::clock_limits plans at most (r - 0.3 s) m / (m + 8) of a
        # clock r for the m actions it expects, and the hard limit is at most half of that
        # for m >= 2, all of it for m = 1), so an engine not done by half the budget is
        # stopped: late or stalled. A third of the margin is left after the kill.
        left = self.remaining() - (now - started)
        budget = max(left - clock_margin(self.clock), left / 4)
        if budget < 0.001:
            return None
        spare = (left - budget) / 3
        stop = now + budget / 2 + spare
        return now + budget, stop, stop + spare

    def _ask(self, started):
        """The engine's answer (its text) for the current position, or None (an incident
        written down) when it cannot give one in time."""
        deadlines = self._deadlines(started)
        if deadlines is None:
            self._incident("clock", "no time left on the game clock (%.3f s used of %g s)" % (self.used, self.clock))
            return None
        end, stop, kill = deadlines
        if self.engine is not None and not self.engine.alive():
            self._incident("died", "the engine is not running (exit code %s)%s" % (self.engine.proc.poll(), self.engine.reason()))
            self._drop_engine()
        if self.engine is None:
            if self.starts >= _MAX_STARTS:
                self._incident("no-engine", "%d engine starts used" % self.starts)
                return None
            try:
                self.engine = self._start(min(stop, time.perf_counter() + _START_S))
            except EngineError as e:
                self._incident("no-engine", str(e))
                return None
        engine = self.engine
        try:
            command = "position startpos"
            if self.moves:
                command += " moves " + " ".join(self.moves)
            # The position's exchange may take from the engine's time, not from the margin.
            engine.send(command, stop)
            engine.send("isready", stop)
            refused = []
            engine.wait_for("readyok", stop, refused)
            if refused:
                self._incident("refused", "; ".join(refused))
                return None
            if self.nodes is not None:
                go = "go nodes %d" % self.nodes
            elif self.movetime_ms is not None:
                go = "go movetime %d" % self.movetime_ms
            else:
                go = "go time %d" % max(1, int((end - time.perf_counter()) * 1000))
            self.last_go = go
            engine.send(go, stop)
            said = []
            try:
                line = engine.wait_for("bestmove", stop, said)
            except EngineTimeout:
                engine.send("stop", kill)
                line = engine.wait_for("bestmove", kill, said)
                self._incident("late", "no answer to %r in %.2f s: stopped" % (go, stop - started))
            best = line[len("bestmove"):].strip()
            if best == "none" or not best:
                self._incident("none", "the engine sees no move%s" % (": " + "; ".join(said) if said else ""))
                return None
            return best
        except EngineTimeout as e:
            self._incident("stall", "%s after %.2f s: the engine was killed" % (e, time.perf_counter() - started))
            self._drop_engine()
            return None
        except EngineError as e:
            self._incident("died", str(e))
            self._drop_engine()
            return None
