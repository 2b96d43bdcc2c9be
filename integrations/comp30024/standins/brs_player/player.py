"""Best-reply search (Schadd & Winands): our move, then the single strongest reply of either
opponent (the other one's turn is skipped), then our move again, at depth 3 with alpha-beta.
A leaf is worth our greedy score minus the best opponent's. Deterministic: ties go to the
first action in the referee's order."""

from ..chexers_state import (
    COLOURS,
    WIN_SCORE,
    Game,
    apply_action,
    available_actions,
    greedy_score,
)

DEPTH = 3
INF = float("inf")


class Player:
    def __init__(self, colour):
        self.colour = colour
        self.opponents = [c for c in COLOURS if c != colour]
        self.game = Game()
        self.nodes = 0

    def action(self):
        board, exits = self.game.board, self.game.exits
        actions = available_actions(board, self.colour)
        if len(actions) == 1:
            return actions[0]
        best, best_value = actions[0], -INF
        alpha = -INF
        for action in actions:
            b, e = apply_action(board, exits, self.colour, action)
            value = self.search(b, e, DEPTH - 1, alpha, INF, False)
            if value > best_value:
                best, best_value = action, value
                alpha = max(alpha, value)
        return best

    def update(self, colour, action):
        self.game.play(colour, action)

    def evaluate(self, board, exits):
        mine = greedy_score(board, exits, self.colour)
        theirs = max(greedy_score(board, exits, c) for c in self.opponents)
        return mine - theirs

    def search(self, board, exits, depth, alpha, beta, my_turn):
        self.nodes += 1
        if any(exits[c] >= 4 for c in COLOURS):
            if exits[self.colour] >= 4:
                return 2 * WIN_SCORE + depth  # sooner is better
            return -2 * WIN_SCORE - depth
        if depth == 0:
            return self.evaluate(board, exits)
        if my_turn:
            value = -INF
            for action in available_actions(board, self.colour):
                b, e = apply_action(board, exits, self.colour, action)
                value = max(value, self.search(b, e, depth - 1, alpha, beta, False))
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
            return value
        # The opponents' layer: every action of either opponent; the other one skips.
        replies = []
        for c in self.opponents:
            for action in available_actions(board, c):
                if action[0] != "PASS":
                    replies.append((c, action))
        if not replies:
            return self.search(board, exits, depth - 1, alpha, beta, True)
        value = INF
        for c, action in replies:
            b, e = apply_action(board, exits, c, action)
            value = min(value, self.search(b, e, depth - 1, alpha, beta, True))
            beta = min(beta, value)
            if alpha >= beta:
                break
        return value
