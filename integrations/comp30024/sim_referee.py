"""A referee for Chexers with the command line, the output and the log of the COMP30024
(2019) course referee (v1.1), written on this folder's own rules (``standins.chexers_state``):
``referee_match.py`` uses it where the course referee is not at hand (``--referee`` not
given), and its tests use it.

    python3 sim_referee.py RED GREEN BLUE [-t SECONDS] [-v LEVEL] [-l LOGFILE]

Each of RED, GREEN and BLUE is an importable module holding a ``Player`` class (or
``module:Class``). As the course referee does, it constructs the three players, asks the
player to move for ``action()`` and tells all three with ``update(colour, action)``; it
counts each player's CPU time (``time.process_time``) in those calls against ``-t``
(0: no limit) and ends the game at once when a player oversteps it or plays an action that
is not available. It prints, on lines starting with ``*``:

* ``winner: Red`` (``Green``, ``Blue``), or ``draw detected: game state occurred 4 times.``
  or ``draw detected: maximum number of turns reached.``;
* ``error: invalid action!`` then ``COLOUR player's action, ACTION, is not well-formed or not
  available. ...``;
* ``error: resource limit exceeded!`` then ``COLOUR player exceeded available time``.

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


class Seat:
    """One player and its CPU clock, as the course referee's wrapper keeps them."""

    def __init__(self, colour, cls, limit):
        self.colour, self.cls, self.limit, self.used = colour, cls, limit, 0.0

    def call(self, method, *args):
        start = time.process_time()
        out = method(*args)
        self.used += time.process_time() - start
        if self.limit and self.used > self.limit:
            raise OutOfTime("%s player exceeded available time" % self.colour)
        return out

    def init(self):
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
    ap.add_argument("-v", "--verbosity", type=int, default=1, help="0: the result only; 1 and up: each action too")
    ap.add_argument("-l", "--logfile", help="write each action to this file")
    args = ap.parse_args(argv)
    log = open(args.logfile, "w") if args.logfile else None

    def say(text):
        print("* " + text, flush=True)

    def write(line):
        if log is not None:
            log.write(line + "\n")
            log.flush()

    seats = [Seat(c, load(spec), args.time) for c, spec in zip(COLOURS, (args.red, args.green, args.blue))]
    game = Game()
    try:
        for seat in seats:
            seat.init()
        while game.result is None:
            seat = seats[COLOURS.index(game.to_move)]
            action = seat.call(seat.player.action)
            if args.verbosity >= 1:
                say("%s player returned action: %r" % (seat.colour, action))
            if why_illegal(game.board, seat.colour, action) is not None:
                write("[error] - illegal action detected (%s): %r." % (seat.colour, action))
                raise IllegalAction(
                    "%s player's action, %r, is not well-formed or not available. See "
                    "specification and game rules for details." % (seat.colour, action)
                )
            game.play(seat.colour, action)
            write(log_line(seat.colour, action))
            for other in seats:
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
