"""The seat of one player in a game played by ``referee_match.py``: a ``Player`` class that
wraps a package's own ``Player`` for the referee, plays the seat's seeded opening actions,
and keeps the seat's figures.

``referee_match.py`` writes, for each game, a module per seat that the referee loads:

    import referee_seat
    Player = referee_seat.wrap("flying_solo", "red", [("MOVE", ((-3, 1), (-2, 0)))],
                               "/tmp/.../seat-red.json")

The wrapper's ``action()`` returns the seat's opening actions (the first ones of its turns,
chosen by the runner) without asking the package, then the package's own answers; every
``update`` reaches the package (its own opening actions included, as if it had chosen
them). It counts the wall time and the CPU time of this process spent in the package's
calls (construction, ``action``, ``update``), and the longest ``action``; an exception the
package raises is written down with its phase and raised on, so that the referee sees it.
A package whose Player keeps a list ``incidents`` (``arena_player``: what its guards met,
as dicts with a ``kind``) has it copied into the figures. The figures go to the JSON file
when the process ends.

Standard library only.
"""

import atexit
import importlib
import json
import time


def load(spec):
    """The ``Player`` class of ``module`` or ``module:Class``."""
    module, _, cls = spec.partition(":")
    return getattr(importlib.import_module(module), cls or "Player")


def wrap(spec, colour, opening, stats_path):
    """The referee's ``Player`` class for the package `spec` in seat `colour` (``"red"``,
    ``"green"``, ``"blue"``), with its opening actions and its figures' file."""
    inner_cls = load(spec)
    stats = {
        "package": spec,
        "colour": colour,
        "wall": 0.0,
        "cpu": 0.0,
        "longest_action": 0.0,
        "actions": 0,
        "opening": 0,
        "error": None,
    }
    seat = {}  # the package's Player, once constructed

    def save():
        incidents = getattr(seat.get("inner"), "incidents", None)
        if isinstance(incidents, list):
            stats["incidents"] = [
                {"turn": i.get("turn"), "kind": str(i.get("kind")), "detail": str(i.get("detail"))[:200]}
                for i in incidents[:100]
                if isinstance(i, dict)
            ]
        with open(stats_path, "w") as f:
            json.dump(stats, f)

    atexit.register(save)

    def timed(phase, call, *args):
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return call(*args)
        except BaseException as e:
            if stats["error"] is None:
                stats["error"] = "%s: %r" % (phase, e)
            raise
        finally:
            took = time.perf_counter() - wall
            stats["wall"] += took
            stats["cpu"] += time.process_time() - cpu
            if phase == "action":
                stats["longest_action"] = max(stats["longest_action"], took)

    class Player:
        def __init__(self, seat_colour):
            self.forced = list(opening)
            self.inner = seat["inner"] = timed("init", inner_cls, seat_colour)

        def action(self):
            if self.forced:
                stats["opening"] += 1
                return self.forced.pop(0)
            stats["actions"] += 1
            return timed("action", self.inner.action)

        def update(self, mover, action):
            return timed("update", self.inner.update, mover, action)

    Player.__name__ = Player.__qualname__ = "Seat_" + colour
    return Player

