"""Chexers game state, the way a COMP30024 (2019) team would write it for its agents.

The board is a dict from (q, r) hex coordinates to a colour name ("red", "green", "blue");
actions are the referee's tuples:

    ("MOVE", ((q1, r1), (q2, r2)))   step to an adjacent empty hex
    ("JUMP", ((q1, r1), (q2, r2)))   jump over an adjacent piece (converting it)
    ("EXIT", (q, r))                 leave the board from one of your exit hexes
    ("PASS", None)                   only when you have nothing else

`available_actions` lists the actions in the referee's order (per piece: EXIT, then per
direction a MOVE or else a JUMP), `apply_action` returns a new board and exit counts
(search uses these), and `Game` keeps the whole game the way the referee does: whose turn,
the turn count, the exits, and how often each position (board + whose turn, exits not
included) has occurred, with the referee's end rules: a 4th occurrence of a position draws,
the 768th turn draws, 4 exits win (a draw found on the same action wins over the exit).

Standard library only.
"""

from collections import Counter

COLOURS = ("red", "green", "blue")

#: The 37 hexes of the board.
HEXES = frozenset(
    (q, r) for q in range(-3, 4) for r in range(-3, 4) if -3 <= -q - r <= 3
)

#: Neighbour steps in the referee's order.
STEPS = ((-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1))

START = {}
for _qr in [(-3, 0), (-3, 1), (-3, 2), (-3, 3)]:
    START[_qr] = "red"
for _qr in [(0, -3), (1, -3), (2, -3), (3, -3)]:
    START[_qr] = "green"
for _qr in [(3, 0), (2, 1), (1, 2), (0, 3)]:
    START[_qr] = "blue"

EXIT_HEXES = {
    "red": frozenset([(3, -3), (3, -2), (3, -1), (3, 0)]),
    "green": frozenset([(-3, 3), (-2, 3), (-1, 3), (0, 3)]),
    "blue": frozenset([(-3, 0), (-2, -1), (-1, -2), (0, -3)]),
}

EXITS_TO_WIN = 4
MAX_TURNS = 768
REPEATS_TO_DRAW = 4

# For each hex: (neighbour, hex beyond it or None) per direction, off-board ones left out.
_AROUND = {}
for (_q, _r) in HEXES:
    _around = []
    for (_dq, _dr) in STEPS:
        _n = (_q + _dq, _r + _dr)
        if _n in HEXES:
            _b = (_q + 2 * _dq, _r + 2 * _dr)
            _around.append((_n, _b if _b in HEXES else None))
    _AROUND[(_q, _r)] = tuple(_around)


def next_colour(colour):
    return COLOURS[(COLOURS.index(colour) + 1) % 3]


def distance_to_exit(colour, qr):
    """Steps from hex `qr` to the nearest exit hex of `colour` (0 on an exit hex)."""
    q, r = qr
    if colour == "red":
        return 3 - q
    if colour == "green":
        return 3 - r
    return 3 + q + r  # blue exits where s = -q - r = 3


def pieces_of(board, colour):
    return sorted(qr for qr, c in board.items() if c == colour)


def available_actions(board, colour):
    """Every legal action of `colour` on `board`, in the referee's order."""
    actions = []
    exits = EXIT_HEXES[colour]
    for qr in pieces_of(board, colour):
        if qr in exits:
            actions.append(("EXIT", qr))
        for (n, beyond) in _AROUND[qr]:
            if n not in board:
                actions.append(("MOVE", (qr, n)))
            elif beyond is not None and beyond not in board:
                actions.append(("JUMP", (qr, beyond)))
    if not actions:
        actions.append(("PASS", None))
    return actions


def apply_action(board, exits, colour, action):
    """The board and exit counts after `colour` plays `action` (new objects; the arguments
    are left alone). `exits` is a dict colour -> count. No legality check."""
    kind, arg = action
    board = dict(board)
    if kind == "MOVE":
        (a, b) = arg
        del board[a]
        board[b] = colour
    elif kind == "JUMP":
        (a, b) = arg
        over = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
        del board[a]
        board[b] = colour
        board[over] = colour  # converted (a no-op for one's own piece)
    elif kind == "EXIT":
        del board[arg]
        exits = dict(exits)
        exits[colour] += 1
    return board, exits


def why_illegal(board, colour, action):
    """None if `action` is legal for `colour` on `board`, else a short reason."""
    try:
        kind, arg = action
    except (TypeError, ValueError):
        return "not an action tuple: %r" % (action,)
    legal = available_actions(board, colour)
    if (kind, arg) in legal:
        return None
    if kind == "PASS" and legal[0][0] != "PASS":
        return "PASS while other actions are available"
    return "%r is not among %s's %d available actions" % (action, colour, len(legal))


class Game:
    """A game of Chexers as the referee keeps it.

    `result` is None while the game goes on, then ("win", colour), ("draw", "repetition")
    or ("draw", "turns")."""

    def __init__(self, board=None, to_move="red", exits=None, turns=0):
        self.board = dict(START if board is None else board)
        self.to_move = to_move
        self.exits = dict(exits) if exits else {c: 0 for c in COLOURS}
        self.turns = turns
        self.history = Counter()
        self.history[self.snapshot()] += 1
        self.result = None

    def snapshot(self):
        """What the repetition rule compares: the board and whose turn it is."""
        return (frozenset(self.board.items()), self.to_move)

    def actions(self):
        if self.result is not None:
            return []
        return available_actions(self.board, self.to_move)

    def play(self, colour, action):
        """Applies `colour`'s action; raises ValueError naming the fault if it is not legal
        (out of turn, after the end, or not available). Returns the result (or None)."""
        if self.result is not None:
            raise ValueError("the game is over (%s)" % (self.result,))
        if colour != self.to_move:
            raise ValueError("%s acted on %s's turn" % (colour, self.to_move))
        why = why_illegal(self.board, colour, action)
        if why is not None:
            raise ValueError(why)
        self.board, self.exits = apply_action(self.board, self.exits, colour, action)
        self.turns += 1
        self.to_move = next_colour(colour)
        self.history[self.snapshot()] += 1
        if self.history[self.snapshot()] >= REPEATS_TO_DRAW:
            self.result = ("draw", "repetition")
        elif self.turns >= MAX_TURNS:
            self.result = ("draw", "turns")
        elif self.exits[colour] >= EXITS_TO_WIN:
            self.result = ("win", colour)
        return self.result


# The greedy evaluation both stand-in agents use: exits first, then the pieces needed for the
# remaining exits as close to the exit edge as possible, then the number of pieces owned.
W_EXIT = 40
W_DISTANCE = 3
W_PIECE = 8
WIN_SCORE = 10000


def greedy_score(board, exits, colour):
    """How good `board` is for `colour`: exits, distance of its closest pieces to the exit
    edge (the ones it still needs, each counting its exit action too), piece count."""
    done = exits[colour]
    if done >= EXITS_TO_WIN:
        return WIN_SCORE
    dists = sorted(distance_to_exit(colour, qr) + 1 for qr, c in board.items() if c == colour)
    need = EXITS_TO_WIN - done
    missing = max(0, need - len(dists))
    return (
        W_EXIT * done
        - W_DISTANCE * sum(dists[:need])
        - W_DISTANCE * 8 * missing
        + W_PIECE * len(dists)
    )
