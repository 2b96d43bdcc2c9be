"""A COMP30024 (2019) Chexers agent that plays with the `arena` engine.

The course referee imports this package and uses its ``Player`` class:

    player = Player("red")          # or "green", "blue"
    action = player.action()        # ("MOVE", ((q1, r1), (q2, r2))), ("JUMP", ...),
                                    # ("EXIT", (q, r)) or ("PASS", None)
    player.update("red", action)    # called for every player's action, its own included

Each ``action()`` sends the game so far to ``arena engine chexers`` (a UCI-shaped text
protocol on the engine's stdin/stdout) and returns the engine's ``bestmove``.

Configuration, by environment variable:

* ``ARENA``: path of the ``arena`` binary. Otherwise ``arena`` on ``PATH``, otherwise
  ``target/release/arena`` in the repository that holds this package.
* ``ARENA_CLOCK_S``: the game clock in seconds (default 60): the referee's time budget per
  player and game (its ``-t``, 60 s in the course's tests). The Player counts the wall-clock
  time of its own calls (``__init__``, ``action``, ``update``) against it and sends the rest
  as ``go time MS``; the engine plans this action's share by the game's clock policy (the
  actions left estimated, a reserve kept) and its time manager never oversteps it.
* ``ARENA_MOVETIME_MS``: a flat thinking time per action in milliseconds instead of the
  clock.
* ``ARENA_NODES``: a node budget per action instead of any time (``go nodes N``): games
  that do not depend on the machine's load, for comparing engines on a busy machine (the
  clock is then not watched).
* ``ARENA_THREADS``: engine threads (default 1).
* ``ARENA_ENGINE``: an engine specification passed as ``--engine`` (see ``arena match --help``).
* ``ARENA_DEBUG``: if set, the engine's stderr is shown and the protocol is echoed to stderr.

Standard library only.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

__all__ = ["Player", "find_arena", "to_notation", "from_notation", "EngineError"]

_COLOURS = ("red", "green", "blue")


class EngineError(RuntimeError):
    """The engine could not be started, died, or answered with an error."""


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


class _Engine:
    """One ``arena engine chexers`` process and its line protocol."""

    def __init__(self, path, threads, spec, debug):
        cmd = [path, "engine", "chexers", "--threads", str(threads)]
        if spec:
            cmd += ["--engine", spec]
        self.debug = debug
        # The engine's stderr goes to a file (a pipe nobody reads could fill and stall it),
        # so that an engine that stops can be reported with its reason.
        self.errors = None if debug else tempfile.TemporaryFile(mode="w+")
        try:
            self.proc = subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=None if debug else self.errors,
                universal_newlines=True,
                bufsize=1,
            )
        except OSError as e:
            if self.errors is not None:
                self.errors.close()
            raise EngineError(
                "cannot start %r (%s); set ARENA to the arena binary or build it with "
                "`cargo build --release -p plyforge-arena`" % (path, e)
            )
        try:
            self.send("uci")
            self.wait_for("uciok")
            self.send("isready")
            self.wait_for("readyok")
        except BaseException:
            self.close()  # no process, pipe or file left behind by a refused start
            raise

    def send(self, line):
        if self.debug:
            print(">> " + line, file=sys.stderr)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise self.stopped("the engine is not running (%s)" % e)

    def read(self):
        line = self.proc.stdout.readline()
        if line == "":
            raise self.stopped("the engine closed its output")
        line = line.rstrip("\r\n")
        if self.debug:
            print("<< " + line, file=sys.stderr)
        return line

    def stopped(self, what):
        """The error for an engine that stopped answering: `what`, its exit code (waited
        for briefly) and its last lines on stderr."""
        try:
            code = self.proc.wait(timeout=2)
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

    def wait_for(self, word):
        """Reads lines until one starts with ``word``; returns it. An error report raises."""
        while True:
            line = self.read()
            if line.startswith("info string error"):
                raise EngineError(line[len("info string "):])
            if line == word or line.startswith(word + " "):
                return line

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except Exception:
                self.proc.kill()
                self.proc.wait()
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
        movetime = os.environ.get("ARENA_MOVETIME_MS")
        #: Flat thinking time per action in milliseconds, or None for the game clock.
        self.movetime_ms = int(movetime) if movetime else None
        nodes = os.environ.get("ARENA_NODES")
        #: A node budget per action (instead of any time), or None.
        self.nodes = int(nodes) if nodes else None
        if self.nodes is not None and self.nodes < 1:
            raise ValueError("ARENA_NODES must be at least 1, not %r" % nodes)
        #: The game clock in seconds, and the seconds used of it by this player's calls.
        self.clock = float(os.environ.get("ARENA_CLOCK_S", "60"))
        if not self.clock > 0:
            raise ValueError("ARENA_CLOCK_S must be above 0, not %r" % self.clock)
        self.used = 0.0
        #: The last ``go`` command sent to the engine.
        self.last_go = None
        self.engine = _Engine(
            find_arena(),
            int(os.environ.get("ARENA_THREADS", "1")),
            os.environ.get("ARENA_ENGINE"),
            bool(os.environ.get("ARENA_DEBUG")),
        )
        self.engine.send("newgame")
        self.used += time.perf_counter() - started

    def remaining(self):
        """Seconds left on this player's game clock."""
        return self.clock - self.used

    def action(self):
        """This player's next action, as the referee expects it."""
        started = time.perf_counter()
        try:
            engine = self.engine
            command = "position startpos"
            if self.moves:
                command += " moves " + " ".join(self.moves)
            engine.send(command)
            engine.send("isready")
            engine.wait_for("readyok")  # surfaces an `info string error` about the position
            if self.nodes is not None:
                go = "go nodes %d" % self.nodes
            elif self.movetime_ms is not None:
                go = "go movetime %d" % self.movetime_ms
            else:
                left = self.remaining() - (time.perf_counter() - started)
                go = "go time %d" % max(1, int(left * 1000))
            self.last_go = go
            engine.send(go)
            line = engine.wait_for("bestmove")
            best = line[len("bestmove"):].strip()
            if best == "none" or not best:
                raise EngineError("the engine sees no move (is the game over?)")
            return from_notation(best)
        finally:
            self.used += time.perf_counter() - started

    def update(self, colour, action):
        """Records an action of any player (this one included)."""
        started = time.perf_counter()
        self.moves.append(to_notation(action))
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
