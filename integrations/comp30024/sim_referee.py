"""A referee for Chexers with the command line, the output and the log of the COMP30024
(2019) course referee (v1.1), written on this folder's own rules (``standins.chexers_state``):
``referee_match.py`` uses it where the course referee is not at hand (``--referee`` not
given), and its tests use it.

    python3 sim_referee.py RED GREEN BLUE [-t SECONDS] [-s MB] [-v LEVEL] [-l LOGFILE]

Each of RED, GREEN and BLUE is an importable module holding a ``Player`` class (or
``module:Class``). As the course referee does, it constructs the three players, asks the
player to move for ``action()`` and tells all three with ``update(colour, action)``; it
counts each player's CPU time (``time.process_time``) in those calls against ``-t``
(0: no limit), and after each call the virtual memory of its own process (``VmPeak`` of
/proc/self/status) over its level after the imports against three times ``-s`` (shared by
the players; 0: no limit); it ends the game at once when a player oversteps a limit or plays
an action that is not available. It prints, on lines starting with ``*``:

* at ``-v 1`` and up, the course referee's commentary of each call: ``initialising red
  player as a ...``, ``asking red player for next action...``, ``red player returned
  action: ...``, ``updating red player with green's action ...``, and after each call that
  returns ``time: ...`` and ``space: ...`` (a call that oversteps a limit has none);
* ``winner: Red`` (``Green``, ``Blue``), or ``draw detected: game state occurred 4 times.``
  or ``draw detected: maximum number of turns reached.``;
* ``error: invalid action!`` then ``COLOUR player's action, ACTION, is not well-formed or not
  available. ...``;
* ``error: resource limit exceeded!`` then ``COLOUR player exceeded available time`` or
  ``players exceeded shared space limit``.

An exception raised by a player is not caught (a traceback, exit status 1), as in the
course referee. The log (``-l``) has one line per action: ``[red  ] - MOVE from (-3, 1) to
(-2, 0).``, ``[blue ] - EXIT from (-3, 0).``, ``[green] - PASS.``, then ``[over ] - RESULT``.

Standard library only.
"""

import argparse
import importlib
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from standins.chexers_state import COLOURS, Game, why_illegal  # noqa: E402


class IllegalAction(Exception):
    pass


class OutOfTime(Exception):
    pass


def load(spec):
    module, _, cls = spec.partition(":")
    module = module.strip("/").replace("/", ".")
    if module.endswith(".py"):
        module = module[:-3]
    return getattr(importlib.import_module(module), cls or "Player")


def vm_mb(key):
    """The process's ``VmSize`` or ``VmPeak`` in MB, as the course referee reads it."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


class Seat:
    """One player, its CPU clock and the shared space measure, as the course referee's
    wrapper keeps them."""

    def __init__(self, colour, cls, limit, space, say):
        self.colour, self.cls, self.limit, self.space, self.say = colour, cls, limit, space, say
        self.used = 0.0
        self.base = None  # the process's VmSize after the imports

    def call(self, method, *args):
        start = time.process_time()
        out = method(*args)
        elapsed = time.process_time() - start
        self.used += elapsed
        if self.limit and self.used > self.limit:
            raise OutOfTime("%s player exceeded available time" % self.colour)
        current, peak = vm_mb("VmSize") - self.base, vm_mb("VmPeak") - self.base
        if self.space and peak > 3 * self.space:
            raise OutOfTime("players exceeded shared space limit")
        self.say("  time:  +%6.3fs  (just elapsed)  %7.3fs  (game total)" % (elapsed, self.used))
        self.say("  space: %7.3fMB (current usage) %7.3fMB (max usage) (shared)" % (current, peak))
        return out

    def init(self):
        self.say("initialising %s player as a %r" % (self.colour, self.cls.__name__))
        self.player = self.call(self.cls, self.colour)


def log_line(colour, action):
    kind, arg = action
    if kind in ("MOVE", "JUMP"):
        return "[%-5s] - %s from %s to %s." % (colour, kind, arg[0], arg[1])
    if kind == "EXIT":
        return "[%-5s] - EXIT from %s." % (colour, arg)
    return "[%-5s] - PASS." % colour


def main(argv=None):
    ap = argparse.ArgumentParser(prog="sim_referee", description=__doc__.split("\n\n")[0])
    ap.add_argument("red")
    ap.add_argument("green")
    ap.add_argument("blue")
    ap.add_argument("-t", "--time", type=float, default=0.0, help="CPU seconds per player (0: none)")
    ap.add_argument("-s", "--space", type=float, default=0.0, help="MB per player, shared (0: none)")
    ap.add_argument("-v", "--verbosity", type=int, default=1, help="0: the result only; 1 and up: each action too")
    ap.add_argument("-l", "--logfile", help="write each action to this file")
    args = ap.parse_args(argv)
    log = open(args.logfile, "w") if args.logfile else None

    def say(text):
        print("* " + text, flush=True)

    def comment(text):
        if args.verbosity >= 1:
            say(text)

    def write(line):
        if log is not None:
            log.write(line + "\n")
            log.flush()

    seats = [Seat(c, load(spec), args.time, args.space, comment) for c, spec in zip(COLOURS, (args.red, args.green, args.blue))]
    base = vm_mb("VmSize")  # after the imports, as the course referee measures
    for seat in seats:
        seat.base = base
    game = Game()
    try:
        for seat in seats:
            seat.init()
        while game.result is None:
            seat = seats[COLOURS.index(game.to_move)]
            comment("asking %s player for next action..." % seat.colour)
            action = seat.call(seat.player.action)
            comment("  %s player returned action: %r" % (seat.colour, action))
            if why_illegal(game.board, seat.colour, action) is not None:
                write("[error] - illegal action detected (%s): %r." % (seat.colour, action))
                raise IllegalAction(
                    "%s player's action, %r, is not well-formed or not available. See "
                    "specification and game rules for details." % (seat.colour, action)
                )
            game.play(seat.colour, action)
            write(log_line(seat.colour, action))
            for other in seats:
                comment("updating %s player with %s's action %s..." % (other.colour, seat.colour, action))
                other.call(other.player.update, seat.colour, action)
    except IllegalAction as e:
        say("error: invalid action!")
        say(str(e))
        return 0
    except OutOfTime as e:
        say("error: resource limit exceeded!")
        say(str(e))
        return 0
    finally:
        if log is not None and game.result is None:
            log.close()
    if game.result[0] == "win":
        text = "winner: %s" % game.result[1].capitalize()
    elif game.result[1] == "repetition":
        text = "draw detected: game state occurred 4 times."
    else:
        text = "draw detected: maximum number of turns reached."
    write("[over ] - %s" % text)
    if log is not None:
        log.close()
    say(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
