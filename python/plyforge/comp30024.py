"""The COMP30024 (University of Melbourne, 2019) course referee's ``Player`` for Chexers,
playing in-process with the plyforge engine (no subprocess, no ``arena`` binary)::

    from plyforge.comp30024 import Player
    p = Player("red")            # "red", "green" or "blue"
    a = p.action()               # ("MOVE", ((q1, r1), (q2, r2))), ("JUMP", ...),
                                 # ("EXIT", (q, r)) or ("PASS", None)
    p.update("green", action)    # called for every player's action, its own included

To hand it to the referee, put a package beside the referee whose ``__init__.py`` says
``from plyforge.comp30024 import Player``.

Time: by default the Player thinks on the referee's game clock, the time budget per player
and game (the referee's ``-t``, 60 s in the course's tests): ``clock`` / ``PLYFORGE_CLOCK_S``
(seconds, default 60). It counts the time of its own calls (``__init__``, ``action``,
``update``), each as the larger of the wall-clock time and the process's CPU time (the referee
counts CPU time), and gives the engine the rest, divided by its threads (whose CPU time runs
that much faster than the wall clock): the engine's time manager takes
this action's share by the game's clock policy (the actions left estimated, a reserve kept)
and never oversteps it. ``time`` / ``PLYFORGE_MOVETIME_MS`` instead thinks a flat time per
action (seconds / milliseconds). Other settings, as keyword arguments or environment
variables: ``spec`` / ``PLYFORGE_ENGINE`` (an engine specification, as ``arena match`` takes
them; default the game's recommended engine), ``threads`` / ``PLYFORGE_THREADS`` (default 1).
"""

import os
import time as _time
from typing import Optional, Tuple, Union

import plyforge

__all__ = ["Player", "to_notation", "from_notation"]

COLOURS = ("red", "green", "blue")

Hex = Tuple[int, int]
#: An action as the referee writes it.
Action = Tuple[str, Union[None, Hex, Tuple[Hex, Hex]]]


def to_notation(action: Action) -> str:
    """``("MOVE", ((-3, 1), (-2, 0)))`` -> ``"MOVE -3 1 -2 0"`` (the package's notation)."""
    kind, args = action
    if kind == "PASS" and args is None:
        return "PASS"
    if kind == "EXIT" and args is not None and len(args) == 2 and isinstance(args[0], int):
        return "EXIT %d %d" % (args[0], args[1])
    if kind in ("MOVE", "JUMP") and args is not None and len(args) == 2 and isinstance(args[0], tuple):
        (q1, r1), (q2, r2) = args
        return "%s %d %d %d %d" % (kind, q1, r1, q2, r2)
    raise ValueError("not a Chexers action: %r" % (action,))


def from_notation(text: str) -> Action:
    """``"EXIT 3 0"`` -> ``("EXIT", (3, 0))``."""
    kind, *rest = text.split()
    n = [int(x) for x in rest]
    if kind == "PASS" and not n:
        return ("PASS", None)
    if kind == "EXIT" and len(n) == 2:
        return ("EXIT", (n[0], n[1]))
    if kind in ("MOVE", "JUMP") and len(n) == 4:
        return (kind, ((n[0], n[1]), (n[2], n[3])))
    raise ValueError("not a Chexers action: %r" % text)


class Player:
    """A Chexers player for the COMP30024 referee, thinking in-process."""

    def __init__(
        self,
        colour: str,
        *,
        time: Optional[float] = None,
        spec: Optional[str] = None,
        threads: Optional[int] = None,
        clock: Optional[float] = None,
    ) -> None:
        started = self._start()
        if colour not in COLOURS:
            raise ValueError("colour must be one of %s, not %r" % (", ".join(COLOURS), colour))
        self.colour = colour
        self.game = plyforge.load_game("chexers")
        self.state = self.game.new_initial_state()
        if time is None and os.environ.get("PLYFORGE_MOVETIME_MS"):
            time = int(os.environ["PLYFORGE_MOVETIME_MS"]) / 1000.0
        #: Thinking time per action (seconds), or None to think on the game clock.
        self.time = time
        if clock is None:
            clock = float(os.environ.get("PLYFORGE_CLOCK_S", "60"))
        if not clock > 0:
            raise ValueError("clock must be a number of seconds above 0, not %r" % (clock,))
        #: The game clock (seconds) this player thinks on, when ``time`` is None.
        self.clock = clock
        #: Seconds this player has used of its clock (its own calls, as the referee counts).
        self.used = 0.0
        spec = spec or os.environ.get("PLYFORGE_ENGINE") or "engine"
        self.threads = threads or int(os.environ.get("PLYFORGE_THREADS", "1"))
        self.engine = plyforge.Engine(self.game, threads=self.threads, spec=spec)
        # A spec with its own limit (depth=, time=, nodes=) keeps it.
        keys = {part.split("=")[0].strip() for part in spec.split(",")[1:]}
        self.own_limit = bool(keys & {"depth", "d", "time", "t", "movetime", "nodes", "n"})
        self._stop(started)

    @staticmethod
    def _start() -> Tuple[float, float]:
        return (_time.perf_counter(), _time.process_time())

    def _stop(self, started: Tuple[float, float]) -> None:
        wall = _time.perf_counter() - started[0]
        cpu = _time.process_time() - started[1]
        self.used += max(wall, cpu)

    def remaining(self) -> float:
        """Seconds left on this player's game clock (may be below 0 only if a call outside
        the engine's control overstepped it)."""
        return self.clock - self.used

    def action(self) -> Action:
        """This player's next action, as the referee expects it."""
        started = self._start()
        try:
            if self.state.is_terminal():
                raise ValueError("the game is already over (%s)" % self.state.result())
            if self.own_limit:
                r = self.engine.search(self.state)
            elif self.time is not None:
                r = self.engine.search(self.state, time=self.time)
            else:
                # What is left, less the time of this call so far; the CPU time of several
                # threads runs that much faster than the wall clock.
                now = self._start()
                spent = max(now[0] - started[0], now[1] - started[1])
                left = (self.remaining() - spent) / self.threads
                r = self.engine.search(self.state, clock=max(left, 0.001))
            assert r.move is not None, "a game that is not over has a move"
            return from_notation(r.move)
        finally:
            self._stop(started)

    def update(self, colour: str, action: Action) -> None:
        """Records an action of any player (this one included); an illegal one raises
        ``ValueError`` naming the reason."""
        started = self._start()
        try:
            if colour not in COLOURS:
                raise ValueError("colour must be one of %s, not %r" % (", ".join(COLOURS), colour))
            mover = self.state.current_player()
            if mover >= 0 and COLOURS[mover] != colour:
                raise ValueError("it is %s's turn, not %s's" % (COLOURS[mover], colour))
            self.state.apply_move(to_notation(action))
        finally:
            self._stop(started)
