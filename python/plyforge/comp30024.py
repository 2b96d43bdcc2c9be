"""The COMP30024 (University of Melbourne, 2019) course referee's ``Player`` for Chexers,
playing in-process with the plyforge engine (no subprocess, no ``arena`` binary)::

    from plyforge.comp30024 import Player
    p = Player("red")            # "red", "green" or "blue"
    a = p.action()               # ("MOVE", ((q1, r1), (q2, r2))), ("JUMP", ...),
                                 # ("EXIT", (q, r)) or ("PASS", None)
    p.update("green", action)    # called for every player's action, its own included

To hand it to the referee, put a package beside the referee whose ``__init__.py`` says
``from plyforge.comp30024 import Player``. Settings, as keyword arguments or environment
variables: ``time`` / ``PLYFORGE_MOVETIME_MS`` (thinking time per action, default 100 ms),
``spec`` / ``PLYFORGE_ENGINE`` (an engine specification, as ``arena match`` takes them;
default the game's recommended engine), ``threads`` / ``PLYFORGE_THREADS`` (default 1).
"""

import os
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
    ) -> None:
        if colour not in COLOURS:
            raise ValueError("colour must be one of %s, not %r" % (", ".join(COLOURS), colour))
        self.colour = colour
        self.game = plyforge.load_game("chexers")
        self.state = self.game.new_initial_state()
        if time is None:
            time = int(os.environ.get("PLYFORGE_MOVETIME_MS", "100")) / 1000.0
        self.time = time
        spec = spec or os.environ.get("PLYFORGE_ENGINE") or "engine"
        threads = threads or int(os.environ.get("PLYFORGE_THREADS", "1"))
        self.engine = plyforge.Engine(self.game, threads=threads, spec=spec)
        # A spec with its own limit (depth=, time=, nodes=) keeps it.
        keys = {part.split("=")[0].strip() for part in spec.split(",")[1:]}
        self.own_limit = bool(keys & {"depth", "d", "time", "t", "movetime", "nodes", "n"})

    def action(self) -> Action:
        """This player's next action, as the referee expects it."""
        if self.state.is_terminal():
            raise ValueError("the game is already over (%s)" % self.state.result())
        r = self.engine.search(self.state, time=None if self.own_limit else self.time)
        assert r.move is not None, "a game that is not over has a move"
        return from_notation(r.move)

    def update(self, colour: str, action: Action) -> None:
        """Records an action of any player (this one included); an illegal one raises
        ``ValueError`` naming the reason."""
        if colour not in COLOURS:
            raise ValueError("colour must be one of %s, not %r" % (", ".join(COLOURS), colour))
        mover = self.state.current_player()
        if mover >= 0 and COLOURS[mover] != colour:
            raise ValueError("it is %s's turn, not %s's" % (COLOURS[mover], colour))
        self.state.apply_move(to_notation(action))
