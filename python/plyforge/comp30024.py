"""The COMP30024 (University of Melbourne, 2019) course referee's ``Player`` for Chexers,
playing in-process with the plyforge engine (no subprocess, no ``arena`` binary)::

    from plyforge.comp30024 import Player
    p = Player("red")            # "red", "green" or "blue"
    a = p.action()               # ("MOVE", ((q1, r1), (q2, r2))), ("JUMP", ...),
                                 # ("EXIT", (q, r)) or ("PASS", None)
    p.update("green", action)    # called for every player's action, its own included

To hand it to the referee, put a package beside the referee whose ``__init__.py`` says
``from plyforge.comp30024 import Player``.

Never the Player's fault. The referee imports the Player into its own process and ends a
game, blamed on the player, for an invalid action, an exception from ``action()`` or
``update()``, a player over its time (the CPU time of the referee's process during its
calls: ``-t``, 60 s in the course's tests) or over the space limit (the process's
``VmPeak`` less what it was after the imports, against three times ``-s``, 100 MB a player by
default, shared by the three players). So the Player:

* returns only actions legal in the state it tracks (every player's action, from
  ``update``): a search that raises (any ``Exception``), answers no move or a move that is
  not legal gives way to a fallback action: the plyforge ``greedy`` engine's (one ply,
  well under a millisecond), or if that fails too the best legal move by a greedy rule in
  Python (``fallback_move``: an exit, else the most progress towards the exits). A single
  legal action is played without a search. ``action()`` raises only when the game it
  tracks is already over (the referee asks no more then);
* keeps the engine's memory small: its transposition table is ``tt_mib`` /
  ``PLYFORGE_TT_MIB`` MiB (default ``DEFAULT_TT_MIB`` = 16; the game's own
  recommendation is 32; a spec's own ``tt=`` wins), and the default engine's second opinion
  (max^n, on a move that repeats a position) makes a second table of that size once, so at
  most twice that. Each search runs in a thread of the extension, and glibc gives a new thread a
  malloc arena of its own: 64 MiB of address space, reserved as 128 MiB for a moment, which
  ``VmPeak`` counts. The Player therefore caps glibc's arenas (``mallopt(M_ARENA_MAX)``,
  ``malloc_arenas`` / ``PLYFORGE_MALLOC_ARENAS``, default 1: every thread allocates from the
  main arena; 0 leaves the allocator alone; a no-op off glibc). Measured as the referee
  measures it (``VmPeak`` of ``/proc/self/status`` above its value after the imports; MiB):
  one Player and two greedy ones, a whole game, 162 before (the 32 MiB table and the
  search thread's arena) and 19.5 now (on a 6 s and on a 60 s clock); three Players in one
  process, 226 before (227 with two second tables, about 260 with all three) and 51.5 now
  (99.7 with all three second tables, in a game of the course referee, ``-t 10 -s 100``),
  against the 300 that three times ``-s 100`` allows;
* thinks on the referee's game clock: ``clock`` / ``PLYFORGE_CLOCK_S`` (seconds, default
  60). It counts the time of its own calls (``__init__``, ``action``, ``update``), each as the
  larger of the wall-clock time and the process's CPU time (the referee counts CPU time), and
  gives the engine what is left less a reserve (``clock_reserve``: 2% of the clock, between
  0.05 s and 1 s), divided by its threads (whose CPU time runs that much faster than the wall
  clock): the engine's time manager takes this action's share by the game's clock policy
  (the actions left estimated, a reserve of its own kept) and never oversteps it. A flat
  ``time`` / ``PLYFORGE_MOVETIME_MS`` (seconds / milliseconds per action) and a spec's own
  limits (``depth=``, ``nodes=``, ``time=``) are kept but never given more than that either.
  With less than ``MIN_SEARCH_S`` left the Player does not search: it answers at once with
  the fallback action.

What went wrong is kept in ``Player.incidents`` (dicts of ``turn``, ``kind``, ``detail``) and
written to stderr: ``error`` (the search raised), ``illegal`` (it answered a move not legal
here), ``none`` (it answered no move), ``clock`` (no time left to search); each time the
fallback action was played.

Other settings, as keyword arguments or environment variables: ``spec`` /
``PLYFORGE_ENGINE`` (an engine specification, as ``arena match`` takes them; default the
game's recommended engine), ``threads`` / ``PLYFORGE_THREADS`` (default 1; a spec's own
``threads=`` wins).
"""

import ctypes
import os
import sys
import time as _time
from typing import Any, Dict, List, Optional, Tuple, Union

import plyforge

__all__ = [
    "Player",
    "to_notation",
    "from_notation",
    "fallback_move",
    "clock_reserve",
    "limit_malloc_arenas",
    "DEFAULT_TT_MIB",
    "MIN_SEARCH_S",
]

COLOURS = ("red", "green", "blue")

#: The transposition table (MiB) of the Player's engine unless ``tt_mib`` /
#: ``PLYFORGE_TT_MIB`` or the spec's ``tt=`` says otherwise.
DEFAULT_TT_MIB = 16

#: Below this many seconds for the engine (the clock left less the reserve, per thread) the
#: Player does not search: it plays the fallback action.
MIN_SEARCH_S = 0.01

#: glibc's ``mallopt`` parameter for the largest number of malloc arenas.
_M_ARENA_MAX = -8

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


def _steps_to_exit(colour: str, q: int, r: int) -> int:
    """Steps from hex (q, r) to `colour`'s exit hexes, not counting the exit itself."""
    if colour == "red":
        return 3 - q
    if colour == "green":
        return 3 - r
    return 3 + q + r


def fallback_move(legal: List[str], colour: str) -> str:
    """The move of `legal` (in notation, a state's ``legal_moves()``, not empty) to play
    without a search, in Python: an exit first, else the most progress towards `colour`'s
    exits (a jump before a move of the same progress), the first of the best in `legal`'s
    order."""
    best, best_score = legal[0], None
    for move in legal:
        try:
            kind, *rest = move.split()
            n = [int(x) for x in rest]
            if kind == "EXIT":
                score = 100
            elif kind in ("MOVE", "JUMP") and len(n) == 4:
                start, end = _steps_to_exit(colour, n[0], n[1]), _steps_to_exit(colour, n[2], n[3])
                score = 10 * (start - end) + (1 if kind == "JUMP" else 0)
            else:
                score = -100
        except ValueError:
            continue
        if best_score is None or score > best_score:
            best, best_score = move, score
    return best


def clock_reserve(clock: float) -> float:
    """Seconds of a `clock`-second game clock that the engine is never given: 2% of it, at
    least 0.05 s and at most 1 s (the engine's clock policy keeps a reserve of its own on top).
    The Player's own work around the search and the fallback come out of it."""
    return min(1.0, max(0.05, 0.02 * clock))


def limit_malloc_arenas(arenas: int) -> bool:
    """Caps glibc's malloc arenas at `arenas` (``mallopt(M_ARENA_MAX, arenas)``) for the whole
    process, so that the engine's search thread allocates from an existing arena instead of
    reserving a new one (64 MiB of address space, 128 MiB for a moment). True when it was
    set; False elsewhere than on Linux with glibc, or when ``mallopt`` refused it."""
    if arenas < 1 or not sys.platform.startswith("linux"):
        return False
    try:
        if not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"):
            return False
        return bool(ctypes.CDLL(None).mallopt(_M_ARENA_MAX, int(arenas)))
    except (OSError, AttributeError, TypeError, ValueError):
        return False


def _seconds(text: str) -> Optional[float]:
    """A duration as engine specs write it (``250ms``, ``2s``, ``1.5``, ``1m``, ``1min``) in
    seconds, or None when it is not one."""
    t = text.strip()
    scale = 1.0
    for suffix, s in (("ms", 0.001), ("min", 60.0), ("s", 1.0), ("m", 60.0)):
        if t.endswith(suffix):
            t, scale = t[: -len(suffix)], s
            break
    try:
        value = float(t) * scale
    except ValueError:
        return None
    return value if value > 0 else None


def _spec_limits(spec: str) -> Tuple[Dict[str, Any], Optional[int]]:
    """A spec's own search limits, as ``Engine.search`` keywords (``depth``, ``nodes``,
    ``time``), and its ``threads=`` (None when it sets none)."""
    limits: Dict[str, Any] = {}
    threads = None
    for part in spec.split(",")[1:]:
        key, _, value = part.partition("=")
        key, value = key.strip(), value.strip()
        try:
            if key in ("depth", "d"):
                limits["depth"] = int(value)
            elif key in ("nodes", "n", "iterations", "iters"):
                limits["nodes"] = int(value)
            elif key in ("time", "t", "movetime"):
                seconds = _seconds(value)
                if seconds is not None:
                    limits["time"] = seconds
            elif key == "threads":
                threads = int(value)
        except ValueError:
            pass  # the engine accepted the spec; a value read otherwise is left to it
    return limits, threads


def _setting(value: Optional[str], name: str) -> int:
    try:
        return int(value or "")
    except ValueError:
        raise ValueError("%s must be a whole number, not %r" % (name, value))


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
        tt_mib: Optional[int] = None,
        malloc_arenas: Optional[int] = None,
    ) -> None:
        started = self._start()
        if colour not in COLOURS:
            raise ValueError("colour must be one of %s, not %r" % (", ".join(COLOURS), colour))
        self.colour = colour
        #: What went wrong, as dicts (turn, kind, detail); see the module.
        self.incidents: List[Dict[str, Any]] = []
        self.game = plyforge.load_game("chexers")
        self.state = self.game.new_initial_state()
        if time is None and os.environ.get("PLYFORGE_MOVETIME_MS"):
            time = int(os.environ["PLYFORGE_MOVETIME_MS"]) / 1000.0
        if time is not None and not time > 0:
            raise ValueError("time must be a number of seconds above 0, not %r" % (time,))
        #: Thinking time per action (seconds), or None to think on the game clock.
        self.time = time
        if clock is None:
            clock = float(os.environ.get("PLYFORGE_CLOCK_S", "60"))
        if not clock > 0:
            raise ValueError("clock must be a number of seconds above 0, not %r" % (clock,))
        #: The game clock (seconds) this player thinks on.
        self.clock = clock
        #: Seconds of the clock never given to the engine (``clock_reserve``).
        self.reserve = clock_reserve(clock)
        #: Seconds this player has used of its clock (its own calls, as the referee counts).
        self.used = 0.0
        if tt_mib is None:
            tt_mib = _setting(
                os.environ.get("PLYFORGE_TT_MIB") or str(DEFAULT_TT_MIB), "PLYFORGE_TT_MIB"
            )
        if tt_mib < 0:
            raise ValueError("tt_mib must be 0 (no table) or more, not %r" % (tt_mib,))
        #: The engine's table size (MiB) unless the spec sets its own ``tt=``.
        self.tt_mib = tt_mib
        if malloc_arenas is None:
            malloc_arenas = _setting(
                os.environ.get("PLYFORGE_MALLOC_ARENAS") or "1", "PLYFORGE_MALLOC_ARENAS"
            )
        #: Whether glibc's malloc arenas were capped (see ``limit_malloc_arenas``).
        self.arenas_capped = limit_malloc_arenas(malloc_arenas) if malloc_arenas > 0 else False
        spec = spec or os.environ.get("PLYFORGE_ENGINE") or "engine"
        threads = threads or _setting(os.environ.get("PLYFORGE_THREADS") or "1", "PLYFORGE_THREADS")
        limits, spec_threads = _spec_limits(spec)
        self.engine = plyforge.Engine(self.game, threads=threads, tt_mib=tt_mib, spec=spec)
        #: The engine's threads (the spec's own ``threads=`` if it sets it).
        self.threads = max(1, spec_threads or threads)
        #: The spec's own limits (depth=, time=, nodes=), kept under the clock; empty when
        #: the Player chooses the time.
        self.own_limits = limits
        # The fallback's one-ply engine (no table); without it the fallback is Python's.
        self.quick: Optional[plyforge.Engine]
        try:
            self.quick = plyforge.Engine(self.game, spec="greedy")
        except Exception:
            self.quick = None
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
        """This player's next action, as the referee expects it: one legal in the tracked
        state, whatever the engine does. Raises ``ValueError`` only when that game is over."""
        started = self._start()
        try:
            if self.state.is_terminal():
                raise ValueError("the game is already over (%s)" % self.state.result())
            return self._choose(started)
        finally:
            self._stop(started)

    def update(self, colour: str, action: Action) -> None:
        """Records an action of any player (this one included); an illegal one raises
        ``ValueError`` naming the reason (the referee passes only actions it accepted)."""
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

    # The guards.

    def _incident(self, kind: str, detail: str) -> None:
        try:
            turn = len(self.state.history())
        except Exception:
            turn = -1
        self.incidents.append({"turn": turn, "kind": kind, "detail": detail[:300]})
        try:
            sys.stderr.write("plyforge.comp30024 %s: %s: %s\n" % (self.colour, kind, detail[:300]))
            sys.stderr.flush()
        except Exception:
            pass

    def _choose(self, started: Tuple[float, float]) -> Action:
        """The action for the tracked state (not over): the engine's if it answers a legal
        move in time, else the fallback's."""
        try:
            legal = self.state.legal_moves()
        except Exception as e:  # not expected of a state that is not over
            self._incident("error", "no legal moves: %s: %s" % (type(e).__name__, e))
            return ("PASS", None)
        if not legal:
            self._incident("error", "no legal moves in a game that is not over")
            return ("PASS", None)
        if len(legal) == 1:
            return self._accept(legal[0], legal) or ("PASS", None)
        try:
            move = self._search(started)
        except Exception as e:
            self._incident("error", "the search raised %s: %s" % (type(e).__name__, e))
            move = None
        if move is not None:
            action = self._accept(move, legal)
            if action is not None:
                return action
            self._incident("illegal", "the engine answered %r, not a legal move here" % (move,))
        return self._fallback(legal)

    @staticmethod
    def _accept(move: Any, legal: List[str]) -> Optional[Action]:
        """`move` as the referee's action if it is one of `legal` (notation), else None."""
        if not isinstance(move, str) or move not in legal:
            return None
        try:
            action = from_notation(move)
            return action if to_notation(action) == move else None
        except (ValueError, TypeError):
            return None

    def _budget(self, started: Tuple[float, float]) -> float:
        """Seconds the engine may think now: the clock left, less this call so far and the
        reserve, per thread."""
        now = self._start()
        spent = max(now[0] - started[0], now[1] - started[1])
        return (self.remaining() - spent - self.reserve) / self.threads

    def _search(self, started: Tuple[float, float]) -> Optional[str]:
        """The engine's move (notation) within the clock, or None (an incident written
        down) when there is no time to search or it answers none."""
        budget = self._budget(started)
        if budget < MIN_SEARCH_S:
            self._incident(
                "clock",
                "%.3f s left of the %g s clock (%.3f s kept in reserve): no search"
                % (self.remaining(), self.clock, self.reserve),
            )
            return None
        kw: Dict[str, Any]
        if self.own_limits:
            kw = dict(self.own_limits)
            if "time" in kw:
                kw["time"] = min(kw["time"], budget)
            else:
                kw["clock"] = budget
        elif self.time is not None:
            kw = {"time": min(self.time, budget)}
        else:
            # The engine's time manager takes this action's share of it.
            kw = {"clock": budget}
        r = self.engine.search(self.state, **kw)
        if r.move is None:
            self._incident("none", "the engine answered no move")
        return r.move

    def _fallback(self, legal: List[str]) -> Action:
        """An action legal in the tracked state, at once: the greedy engine's, else
        ``fallback_move``'s."""
        if self.quick is not None:
            try:
                action = self._accept(self.quick.search(self.state).move, legal)
                if action is not None:
                    return action
            except Exception as e:
                self._incident("error", "the fallback engine raised %s: %s" % (type(e).__name__, e))
        action = self._accept(fallback_move(legal, self.colour), legal)
        return action if action is not None else ("PASS", None)
