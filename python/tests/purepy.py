"""Plain-Python implementations of the four games' rules, written for the speed comparison
(`bench_speed.py`): what a course user writes without the package. Each keeps its game's
history rules, so that a random playout ends exactly where the native one would; the tests
(`test_speed.py`) check them move for move against the package.

Each class has ``clone()``, ``legal_moves()`` (moves as Python values, in the style of course code),
``play(move)``, ``result()`` (None, or the result notation of ``arena apply``),
``notation()`` and ``move_text(move)`` (the package's notation, for the checks only).
"""

from typing import Any, Dict, List, Optional, Tuple

# ---------------------------------------------------------------------------------------------
# Jumpy3: one row of 16 squares; a list of characters, as the course programs keep it.


class Jumpy3:
    def __init__(self, text: str = "Wwww........bbbB w") -> None:
        squares, side = text.split()
        self.board = [("." if c == "x" else c) for c in squares]
        self.side = side
        self.seen: Dict[Tuple[str, str], int] = {}
        self.outcome: Optional[str] = None
        self._count()

    def _count(self) -> None:
        key = ("".join(self.board), self.side)
        self.seen[key] = self.seen.get(key, 0) + 1
        if self.seen[key] >= 3:
            self.outcome = "draw repetition"

    def legal_moves(self) -> List[int]:
        if self.outcome is not None:
            return []
        mine = ("W", "w") if self.side == "w" else ("B", "b")
        return [i for i in range(16) if self.board[i] in mine]

    def play(self, i: int) -> None:
        b = self.board
        white = self.side == "w"
        step = 1 if white else -1
        edge = 15 if white else 0
        enemy = ("B", "b") if white else ("W", "w")
        piece = b[i]
        b[i] = "."
        if i == edge:
            j = -1
        elif b[i + step] == ".":
            j = i + step
        else:
            j = i + step
            while 0 <= j <= 15 and b[j] != ".":
                j += step
            if not 0 <= j <= 15:
                j = -1
        if j >= 0:
            b[j] = piece
            over = i + step
            if j == i + 2 * step and b[over] in enemy:
                # To the farthest empty square on the enemy's side (the rightmost for White's
                # victims, the leftmost for Black's), found with the victim still in place.
                k = 15 if white else 0
                while b[k] != ".":
                    k -= step
                b[k] = b[over]
                b[over] = "."
        self.side = "b" if white else "w"
        if piece in ("W", "B") and j < 0:
            self.outcome = "winner " + ("w" if piece == "W" else "b")
            return
        self._count()

    def result(self) -> Optional[str]:
        return self.outcome

    def clone(self) -> "Jumpy3":
        c = object.__new__(Jumpy3)
        c.board, c.side, c.seen, c.outcome = self.board[:], self.side, dict(self.seen), self.outcome
        return c

    def notation(self) -> str:
        return "".join(self.board) + " " + self.side

    @staticmethod
    def move_text(i: int) -> str:
        return str(i + 1)


# ---------------------------------------------------------------------------------------------
# Chexers: the course referee's style: a dict from (q, r) to a colour, actions as tuples.

_RAN = range(-3, 4)
_HEXES = [(q, r) for r in _RAN for q in _RAN if -q - r in _RAN]
_STEPS = [(-1, +0), (+0, -1), (+1, -1), (+1, +0), (+0, +1), (-1, +1)]
_EXITS = {
    "red": [(3, -3), (3, -2), (3, -1), (3, 0)],
    "green": [(-3, 3), (-2, 3), (-1, 3), (0, 3)],
    "blue": [(-3, 0), (-2, -1), (-1, -2), (0, -3)],
}
_START = {
    "red": [(-3, 0), (-3, 1), (-3, 2), (-3, 3)],
    "green": [(0, -3), (1, -3), (2, -3), (3, -3)],
    "blue": [(3, 0), (2, 1), (1, 2), (0, 3)],
}
_NEXT = {"red": "green", "green": "blue", "blue": "red"}

Hex = Tuple[int, int]
Action = Tuple[str, Any]


class Chexers:
    def __init__(self) -> None:
        self.board: Dict[Tuple[int, int], str] = {qr: " " for qr in _HEXES}
        for colour, hexes in _START.items():
            for qr in hexes:
                self.board[qr] = colour
        self.colour = "red"
        self.exits = {"red": 0, "green": 0, "blue": 0}
        self.turns = 0
        self.history: Dict[Tuple[Tuple[str, ...], str], int] = {}
        self.outcome: Optional[str] = None
        self._count()

    def _snapshot(self) -> Tuple[Tuple[str, ...], str]:
        return (tuple(self.board[qr] for qr in _HEXES), self.colour)

    def _count(self) -> int:
        key = self._snapshot()
        self.history[key] = self.history.get(key, 0) + 1
        return self.history[key]

    def legal_moves(self) -> List[Action]:
        if self.outcome is not None:
            return []
        colour = self.colour
        actions: List[Action] = []
        for qr in _HEXES:
            if self.board[qr] != colour:
                continue
            q, r = qr
            for dq, dr in _STEPS:
                adj = (q + dq, r + dr)
                if adj not in self.board:
                    continue
                if self.board[adj] == " ":
                    actions.append(("MOVE", (qr, adj)))
                else:
                    opp = (q + 2 * dq, r + 2 * dr)
                    if opp in self.board and self.board[opp] == " ":
                        actions.append(("JUMP", (qr, opp)))
            if qr in _EXITS[colour]:
                actions.append(("EXIT", qr))
        if not actions:
            actions.append(("PASS", None))
        return actions

    def play(self, action: Action) -> None:
        kind, args = action
        colour = self.colour
        if kind == "MOVE":
            a, b = args
            self.board[a] = " "
            self.board[b] = colour
        elif kind == "JUMP":
            a, b = args
            self.board[a] = " "
            self.board[b] = colour
            self.board[((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)] = colour
        elif kind == "EXIT":
            self.board[args] = " "
            self.exits[colour] += 1
        self.turns += 1
        self.colour = _NEXT[colour]
        count = self._count()
        if count >= 4:
            self.outcome = "draw repetition"
        elif self.turns >= 768:
            self.outcome = "draw turns"
        elif self.exits[colour] >= 4:
            self.outcome = "winner " + colour[0]

    def result(self) -> Optional[str]:
        return self.outcome

    def clone(self) -> "Chexers":
        c = object.__new__(Chexers)
        c.board, c.colour, c.exits, c.turns = dict(self.board), self.colour, dict(self.exits), self.turns
        c.history, c.outcome = dict(self.history), self.outcome
        return c

    def notation(self) -> str:
        rows = []
        for r in _RAN:
            rows.append("".join(("." if self.board[(q, r)] == " " else self.board[(q, r)][0]) for q in _RAN if (q, r) in self.board))
        exits = ",".join(str(self.exits[c]) for c in ("red", "green", "blue"))
        return "%s %s %s %d" % ("/".join(rows), self.colour[0], exits, self.turns)

    @staticmethod
    def move_text(action: Action) -> str:
        kind, args = action
        if kind == "PASS":
            return "PASS"
        if kind == "EXIT":
            q, r = args
            return "EXIT %d %d" % (q, r)
        (q1, r1), (q2, r2) = args
        return "%s %d %d %d %d" % (kind, q1, r1, q2, r2)


# ---------------------------------------------------------------------------------------------
# Throne: a dict from (q, r) to a piece letter; moves as ((q, r), (q, r)) or None for a pass.

_TR = range(-5, 6)
_CELLS = [(q, r) for r in _TR for q in _TR if -q - r in _TR]
_AXES = [((1, 0), (-1, 0)), ((0, 1), (0, -1)), ((1, -1), (-1, 1))]
_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]


def _radius(c: Tuple[int, int]) -> int:
    q, r = c
    return max(abs(q), abs(r), abs(q + r))


_RING1 = [c for c in _CELLS if _radius(c) == 1]
ThroneMove = Optional[Tuple[Tuple[int, int], Tuple[int, int]]]


class Throne:
    def __init__(self) -> None:
        self.board: Dict[Tuple[int, int], str] = {c: "." for c in _CELLS}
        for q in range(-5, 1):
            self.board[(q, 5)] = "b"
            self.board[(-q, -5)] = "w"
        self.board[(-2, 4)] = "B"
        self.board[(2, -4)] = "W"
        self.side = "b"
        self.ply = 0
        self.traps = {"b": [0, 0], "w": [0, 0]}  # Ptrap, Qtrap
        self.outcome: Optional[str] = None

    def _owner(self, c: Tuple[int, int]) -> Optional[str]:
        p = self.board.get(c, ".")
        return None if p == "." else p.lower()

    def _sandwiched(self, c: Tuple[int, int], enemy: str) -> bool:
        q, r = c
        for (a, b), (x, y) in _AXES:
            if self._owner((q + a, r + b)) == enemy and self._owner((q + x, r + y)) == enemy:
                return True
        return False

    def _prisoners(self, side: str) -> List[Tuple[int, int]]:
        enemy = "w" if side == "b" else "b"
        return [c for c in _CELLS if self._owner(c) == side and self._sandwiched(c, enemy)]

    def legal_moves(self) -> List[ThroneMove]:
        if self.outcome is not None:
            return []
        me = self.side
        enemy = "w" if me == "b" else "b"
        queen = me.upper()
        moves: List[ThroneMove] = []
        prisoners = self._prisoners(me)
        if prisoners:
            queens = [c for c in prisoners if self.board[c] == queen]
            if queens:
                targets = [c for c in _CELLS if self.board[c] == "." and c != (0, 0)]
                sources = queens
            else:
                targets = [c for c in _CELLS if self.board[c] == "." and _radius(c) == 5]
                sources = prisoners
            for f in sources:
                for t in targets:
                    if not self._sandwiched(t, enemy):
                        moves.append((f, t))
            if not moves:
                moves.append(None)
            return moves
        for f in _CELLS:
            piece = self.board[f]
            if piece.lower() != me:
                continue
            rf = _radius(f)
            q, r = f
            for dq, dr in _DIRS:
                t = (q + dq, r + dr)
                if self.board.get(t) != ".":
                    continue
                if _radius(t) > rf or (t == (0, 0) and piece != queen):
                    continue
                if not self._sandwiched(t, enemy):
                    moves.append((f, t))
        moves.append(None)
        return moves

    def play(self, move: ThroneMove) -> None:
        me = self.side
        enemy = "w" if me == "b" else "b"
        if move is not None:
            f, t = move
            before = {c for c in _CELLS if self._owner(c) == enemy and self._sandwiched(c, enemy=me)}
            self.board[t] = self.board[f]
            self.board[f] = "."
            q, r = t
            for dq, dr in _DIRS:
                n = (q + dq, r + dr)
                if self._owner(n) == enemy and self._owner((q + 2 * dq, r + 2 * dr)) == me and n not in before:
                    self.traps[me][1 if self.board[n].isupper() else 0] += 1
        self.ply += 1
        self.side = enemy
        soldiers = [c for c in _RING1 if self.board[c] == me]
        if len(soldiers) == 6:
            if self.board[(0, 0)] == me.upper():
                self.outcome = "winner " + me
                return
            if self.board[(0, 0)] == ".":
                self.outcome = "winner " + enemy
                return
        if self.ply >= 300:
            b, w = self.score("b"), self.score("w")
            self.outcome = "winner b" if b > w else "winner w" if w > b else "draw score"

    def score(self, side: str) -> int:
        s = 0
        for c in _CELLS:
            p = self.board[c]
            if p == side:
                s += 10 * (6 - _radius(c))
            elif p == side.upper():
                s += 20 * (6 - _radius(c))
        return s + 5 * self.traps[side][0] + 10 * self.traps[side][1]

    def result(self) -> Optional[str]:
        return self.outcome

    def clone(self) -> "Throne":
        c = object.__new__(Throne)
        c.board, c.side, c.ply, c.outcome = dict(self.board), self.side, self.ply, self.outcome
        c.traps = {k: v[:] for k, v in self.traps.items()}
        return c

    def notation(self) -> str:
        rows = ["".join(self.board[(q, r)] for q in _TR if (q, r) in self.board) for r in _TR]
        t = self.traps
        return "%s %s %d %d %d %d %d" % ("/".join(rows), self.side, self.ply, t["b"][0], t["b"][1], t["w"][0], t["w"][1])

    @staticmethod
    def move_text(move: ThroneMove) -> str:
        if move is None:
            return "pass"
        (a, b), (c, d) = move
        return "%d,%d>%d,%d" % (a, b, c, d)


# ---------------------------------------------------------------------------------------------
# Chaos Clock: a list of 12 pieces (0 empty); moves as ("w", n), ("p", n), ("pass", 0).

CCMove = Tuple[str, int]


class ChaosClock:
    def __init__(self, text: str) -> None:
        board, side, last = text.split(";")
        self.board = [int(x) for x in board.split(",")]
        self.side = int(side)  # 0 Odd, 1 Even
        self.last = int(last)
        self.passes = 0
        self.seen: Dict[Tuple[Tuple[int, ...], int, int, int], int] = {}
        self.outcome: Optional[str] = None
        self._judge(self._count())

    def _lands_on_home(self, piece: int, square: int) -> bool:
        t = (square - 1 + piece) % 12 + 1
        return self.board[t - 1] == t

    def _restriction(self) -> int:
        n = self.last
        if n == 0 or n not in self.board:
            return 0
        sq = self.board.index(n) + 1
        if sq == n or self._lands_on_home(n, sq):
            return 0
        return n

    def _count(self) -> int:
        key = (tuple(self.board), self.side, self._restriction(), self.passes)
        self.seen[key] = self.seen.get(key, 0) + 1
        return self.seen[key]

    def _judge(self, count: int) -> None:
        odd = all(self.board[n - 1] == n for n in (1, 3, 5, 7, 9, 11))
        even = all(self.board[n - 1] == n for n in (2, 4, 6, 8, 10, 12))
        if count >= 2:
            self.outcome = "both lose"
        elif odd and even:
            self.outcome = "both win"
        elif odd and self.side == 0:
            self.outcome = "winner odd"
        elif even and self.side == 1:
            self.outcome = "winner even"
        elif self.passes >= 2:
            self.outcome = "both lose"

    def legal_moves(self) -> List[CCMove]:
        if self.outcome is not None:
            return []
        moves: List[CCMove] = []
        for i, p in enumerate(self.board):
            sq = i + 1
            if p != 0 and p != sq and p != self.last and not self._lands_on_home(p, sq):
                moves.append(("w", p))
        for n in range(1 + (self.side == 1), 13, 2):
            if n not in self.board:
                moves.append(("p", n))
        moves.append(("pass", 0))
        return moves

    def play(self, move: CCMove) -> None:
        kind, n = move
        keep = False
        if kind == "w":
            sq = self.board.index(n) + 1
            self.board[sq - 1] = 0
            if n != 12:
                t = (sq - 1 + n) % 12 + 1
                self.board[t - 1] = n
            self.passes = 0
            self.last = n
        elif kind == "p":
            captured = self.board[n - 1]
            if captured != 0 and captured % 2 != n % 2:
                keep = True
            self.board[n - 1] = n
            self.passes = 0
            self.last = n
        else:
            self.passes = min(self.passes + 1, 2)
            self.last = 0
        if not keep:
            self.side ^= 1
        self._judge(self._count())

    def result(self) -> Optional[str]:
        return self.outcome

    def clone(self) -> "ChaosClock":
        c = object.__new__(ChaosClock)
        c.board, c.side, c.last, c.passes = self.board[:], self.side, self.last, self.passes
        c.seen, c.outcome = dict(self.seen), self.outcome
        return c

    def notation(self) -> str:
        return "%s;%d;%d" % (",".join(map(str, self.board)), self.side, self.last)

    @staticmethod
    def move_text(move: CCMove) -> str:
        kind, n = move
        return "pass" if kind == "pass" else "%s%d" % (kind, n)


def perft(game: Any, depth: int) -> int:
    """Leaf positions `depth` moves ahead (the moves of the last ply counted, not played)."""
    moves = game.legal_moves()
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    total = 0
    for m in moves:
        child = game.clone()
        child.play(m)
        total += perft(child, depth - 1)
    return total
