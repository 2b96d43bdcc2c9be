"""Max^n search at depth 3: each player in turn picks the action best for itself, a leaf
being worth every player's own greedy score. The first few actions come from a short opening
book (each colour advances two side pieces), played while they are legal. Deterministic:
ties go to the first action in the referee's order."""

from ..chexers_state import (
    COLOURS,
    EXITS_TO_WIN,
    WIN_SCORE,
    Game,
    apply_action,
    available_actions,
    greedy_score,
    next_colour,
)

DEPTH = 3

#: The book: this colour's first actions, in order, each played only if legal then.
BOOK = {
    "red": [("MOVE", ((-3, 1), (-2, 1))), ("MOVE", ((-3, 2), (-2, 2))), ("MOVE", ((-2, 1), (-1, 1)))],
    "green": [("MOVE", ((1, -3), (1, -2))), ("MOVE", ((2, -3), (2, -2))), ("MOVE", ((1, -2), (1, -1)))],
    "blue": [("MOVE", ((2, 1), (1, 1))), ("MOVE", ((1, 2), (0, 2))), ("MOVE", ((1, 1), (0, 1)))],
}


class Player:
    def __init__(self, colour):
        self.colour = colour
        self.game = Game()
        self.my_turns = 0
        self.nodes = 0

    def action(self):
        board, exits = self.game.board, self.game.exits
        actions = available_actions(board, self.colour)
        book = BOOK[self.colour]
        if self.my_turns < len(book) and book[self.my_turns] in actions:
            return book[self.my_turns]
        if len(actions) == 1:
            return actions[0]
        me = COLOURS.index(self.colour)
        best, best_value = actions[0], None
        for action in actions:
            b, e = apply_action(board, exits, self.colour, action)
            values = self.maxn(b, e, next_colour(self.colour), DEPTH - 1)
            if best_value is None or values[me] > best_value[me]:
                best, best_value = action, values
        return best

    def update(self, colour, action):
        if colour == self.colour:
            self.my_turns += 1
        self.game.play(colour, action)

    def maxn(self, board, exits, colour, depth):
        """Every player's value (a list in colour order) of `board` with `colour` to move."""
        self.nodes += 1
        for i, c in enumerate(COLOURS):
            if exits[c] >= EXITS_TO_WIN:
                values = [-WIN_SCORE] * 3
                values[i] = WIN_SCORE + depth
                return values
        if depth == 0:
            return [greedy_score(board, exits, c) for c in COLOURS]
        i = COLOURS.index(colour)
        best = None
        for action in available_actions(board, colour):
            b, e = apply_action(board, exits, colour, action)
            values = self.maxn(b, e, next_colour(colour), depth - 1)
            if best is None or values[i] > best[i]:
                best = values
        return best
