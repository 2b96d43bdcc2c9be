"""Tests of the Python stand-in agents (standins/) and the referee-style match runner
(referee_match.py): the stand-ins' rules agree with `arena moves chexers` and
`arena apply chexers` position by position (random games, exit wins, repetition and
turn-limit draws), the stand-ins answer with legal actions, and the runner plays a game to
its end with our Player and reports an illegal action as a loss.

Run: ARENA=path/to/arena python3 integrations/comp30024/test_standins.py
(`cargo test -p plyforge-arena --test comp30024` runs it with the freshly built `arena`.)
"""

import os
import random
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from arena_player import find_arena, to_notation  # noqa: E402
from standins import brs_player, maxn_player  # noqa: E402
from standins.chexers_state import COLOURS, HEXES, Game, available_actions  # noqa: E402
from test_player import START, arena  # noqa: E402  (the same `arena` helper, not its tests)

def rows():
    for r in range(-3, 4):
        yield r, [q for q in range(-3, 4) if (q, r) in HEXES]


def to_text(game):
    """The engine's position notation of a stand-in `Game`."""
    board = "/".join(
        "".join(game.board[(q, r)][0] if (q, r) in game.board else "." for q in qs)
        for r, qs in rows()
    )
    return "%s %s %s %d" % (
        board,
        game.to_move[0],
        ",".join(str(game.exits[c]) for c in COLOURS),
        game.turns,
    )


def from_text(text):
    """A stand-in `Game` from the engine's position notation (a composed start: its history
    starts there)."""
    board_text, to_move, exits, turns = text.split()
    letters = {c[0]: c for c in COLOURS}
    board = {}
    for (r, qs), row in zip(rows(), board_text.split("/")):
        assert len(row) == len(qs), text
        for q, ch in zip(qs, row):
            if ch != ".":
                board[(q, r)] = letters[ch]
    counts = dict(zip(COLOURS, (int(x) for x in exits.split(","))))
    return Game(board, letters[to_move], counts, int(turns))


def composed(board, red, green, blue, turns):
    """The notation of a composed position: `board` {(q, r): colour}, the exit counts, the
    turn count (the player to move follows from it)."""
    exits = {"red": red, "green": green, "blue": blue}
    return to_text(Game(board, COLOURS[turns % 3], exits, turns))


def result_text(result):
    """The stand-in's result as `arena apply` prints it."""
    if result is None:
        return None
    if result[0] == "win":
        return "result: winner %s" % result[1][0]
    return "result: draw %s" % result[1]


class RulesAgreeWithArena(unittest.TestCase):
    def check_game(self, start_text, choose, max_plies):
        """Plays from `start_text` with `choose(game, actions) -> action` until the end or
        `max_plies`, checking each position's legal set and each step against arena, then
        the whole game (with its history) in one `arena apply`. Returns the final Game."""
        game = from_text(start_text)
        self.assertEqual(to_text(game), start_text)
        played = []
        while game.result is None and len(played) < max_plies:
            text = to_text(game)
            ours = sorted(to_notation(a) for a in game.actions())
            theirs = sorted(arena("moves", "chexers", text))
            self.assertEqual(ours, theirs, text)
            action = choose(game, game.actions())
            mover = game.to_move
            game.play(mover, action)
            played.append(to_notation(action))
            lines = arena("apply", "chexers", text, played[-1])
            self.assertEqual(lines[0], to_text(game), "%s after %s" % (text, played[-1]))
            if game.result is None or game.result[1] != "repetition":
                # Without the history only the exit win and the turn limit can show.
                self.assertEqual(lines[1:], [result_text(game.result)] if game.result else [])
        # The whole game from its start, with the history: the same end, reached at the same
        # action (a move after an end would be an error, and `arena` would fail).
        lines = arena("apply", "chexers", start_text, *played)
        self.assertEqual(lines[0], to_text(game))
        self.assertEqual(lines[1:], [result_text(game.result)] if game.result else [])
        return game

    def test_random_games_from_the_start(self):
        rng = random.Random(20)
        for _ in range(2):
            self.check_game(START, lambda g, acts: rng.choice(acts), 90)

    def test_random_games_with_conversions_and_exit_wins(self):
        rng = random.Random(7)

        def eager(game, acts):
            # Exits and jumps first, so games reach conversions and a 4th exit quickly.
            best = [a for a in acts if a[0] == "EXIT"] or [a for a in acts if a[0] == "JUMP"]
            return rng.choice(best if best and rng.random() < 0.8 else acts)

        r, g, b = "red", "green", "blue"
        starts = [
            composed({(0, -2): r, (2, -1): g, (1, 0): b, (-1, 1): r, (3, -3): g, (-2, 2): b}, 2, 3, 1, 42),
            composed({(-1, -1): r, (0, -1): g, (0, 0): b, (2, 0): r, (-3, 3): b, (1, 1): g}, 3, 1, 2, 31),
            START,
        ]
        ends = []
        for start in starts:
            ends.append(self.check_game(start, eager, 150).result)
        self.assertGreaterEqual(sum(1 for e in ends if e is not None and e[0] == "win"), 2, ends)

    def test_repetition_draw_on_the_fourth_occurrence(self):
        start = composed({(-2, 0): "red", (2, -2): "green", (1, 2): "blue"}, 1, 1, 1, 30)
        game = from_text(start)
        cycle = {}  # each colour steps its piece out and back
        for colour in COLOURS:
            move = [a for a in available_actions(game.board, colour) if a[0] == "MOVE"][0]
            cycle[colour] = [move, ("MOVE", (move[1][1], move[1][0]))]
        plies = []

        def back_and_forth(g, acts):
            a = cycle[g.to_move][(len(plies) // 3) % 2]
            plies.append(a)
            return a

        # The start counts once; 6 plies bring it back: 2nd at 6, 3rd at 12, 4th at 18.
        game = self.check_game(start, back_and_forth, 40)
        self.assertEqual(game.result, ("draw", "repetition"))
        self.assertEqual(game.turns, 30 + 18)

    def test_turn_limit_draw_overrides_a_fourth_exit(self):
        # Turn 767, Blue to move with 3 exits and a piece on its exit hex: exiting is the
        # 768th turn, a draw (the turn limit wins over the 4th exit, as in the referee).
        start = composed({(0, -3): "blue", (0, 0): "red", (2, -1): "green"}, 1, 1, 3, 767)
        game = self.check_game(start, lambda g, acts: [a for a in acts if a[0] == "EXIT"][0], 5)
        self.assertEqual(game.result, ("draw", "turns"))
        self.assertEqual(game.exits["blue"], 4)
        # And a random ending to the limit.
        rng = random.Random(3)
        start = composed({(1, -3): "red", (3, -3): "blue", (0, -1): "red", (2, -1): "green", (-3, 2): "green", (-1, 3): "blue"}, 2, 1, 2, 741)
        game = self.check_game(start, lambda g, acts: rng.choice(acts), 40)
        self.assertIsNotNone(game.result)

    def test_pass_only_when_nothing_else(self):
        # Red's only piece, in a corner, is boxed in: no step, no landing for a jump.
        g, b = "green", "blue"
        board = {(-3, 3): "red", (-3, 2): g, (-2, 2): b, (-2, 3): g, (-3, 1): b, (-1, 1): g, (-1, 3): b}
        start = composed(board, 0, 0, 0, 30)
        self.assertEqual(from_text(start).actions(), [("PASS", None)])
        game = self.check_game(start, lambda g, acts: acts[0], 6)
        self.assertEqual(game.turns, 36)


def feed(player, actions):
    for colour, a in actions:
        player.update(colour, a)


class StandinsPlayLegalActions(unittest.TestCase):
    def positions(self):
        """A few games in progress as (colour to move, actions so far)."""
        out = []
        for seed, plies in [(1, 0), (2, 1), (3, 14), (4, 40)]:
            rng = random.Random(seed)
            game = Game()
            actions = []
            while len(actions) < plies and game.result is None:
                a = rng.choice(game.actions())
                actions.append((game.to_move, a))
                game.play(game.to_move, a)
            if game.result is None:
                out.append((game, actions))
        return out

    def test_each_standin_returns_legal_actions(self):
        for package in (brs_player, maxn_player):
            for game, actions in self.positions():
                player = package.Player(game.to_move)
                feed(player, actions)
                a = player.action()
                legal = arena("moves", "chexers", to_text(game))
                self.assertIn(to_notation(a), legal, "%s at %s" % (package.__name__, to_text(game)))
                # Deterministic: a fresh player in the same game answers the same.
                again = package.Player(game.to_move)
                feed(again, actions)
                self.assertEqual(again.action(), a)

    def test_each_standin_takes_a_winning_exit(self):
        # Red has 3 exits and a piece on its exit edge: both stand-ins exit and win.
        for package in (brs_player, maxn_player):
            player = package.Player("red")
            player.game = from_text(
                composed({(3, -2): "red", (0, 0): "green", (1, 1): "blue", (-2, 3): "blue"}, 3, 1, 1, 60)
            )
            self.assertEqual(player.action(), ("EXIT", (3, -2)), package.__name__)


class RunnerTest(unittest.TestCase):
    def run_runner(self, *args, env_extra=None):
        env = dict(os.environ)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["ARENA"] = os.path.abspath(find_arena())  # the runner works from this folder
        env.update(env_extra or {})
        return subprocess.run(
            [sys.executable, os.path.join(HERE, "referee_match.py")] + list(args),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            universal_newlines=True,
            cwd=HERE,
            env=env,
            timeout=300,
        )

    def test_plays_a_game_to_its_end_with_our_player(self):
        out = self.run_runner(
            "arena_player", "standins.brs_player", "standins.maxn_player", "--games", "1", "--moves-time-ms", "5"
        )
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        games = [l for l in lines if l.startswith("game ")]
        self.assertEqual(len(games), 1, out.stdout)
        self.assertRegex(games[0], r"(winner \w+ \(\S+\)|draw (repetition|turns)) +\d+ turns")
        self.assertIn("SUMMARY games 1 |", out.stdout)
        players = [l for l in lines if l.startswith("PLAYER ")]
        self.assertEqual(len(players), 3)
        for l in players:
            self.assertIn("ended-by-another 0", l)
            self.assertIn("(timeout 0 illegal 0 error 0)", l)
        # One game: one W and two L, or three D.
        ws = sum(int(l.split(" W ")[1].split()[0]) for l in players)
        ds = sum(int(l.split(" D ")[1].split()[0]) for l in players)
        self.assertIn((ws, ds), [(1, 0), (0, 3)])

    def test_an_illegal_action_loses_and_is_reported(self):
        with tempfile.TemporaryDirectory() as tmp:
            pkg = os.path.join(tmp, "cheater")
            os.mkdir(pkg)
            with open(os.path.join(pkg, "__init__.py"), "w") as f:
                f.write(
                    "class Player:\n"
                    "    def __init__(self, colour): self.colour = colour\n"
                    "    def update(self, colour, action): pass\n"
                    "    def action(self): return ('EXIT', (-3, 0))\n"
                )
            out = self.run_runner(
                "cheater",
                "standins.brs_player",
                "standins.maxn_player",
                "--games",
                "6",
                "--opening",
                "0",
                env_extra={"PYTHONPATH": tmp},
            )
        self.assertEqual(out.returncode, 0, out.stderr)
        games = [l for l in out.stdout.splitlines() if l.startswith("game ")]
        self.assertEqual(len(games), 6, out.stdout)
        for l in games:
            self.assertRegex(l, r"illegal (red|green|blue) \(cheater\): \1 player.s action, ")
        self.assertIn("PLAYER cheater W 0 D 0 L 6 (timeout 0 illegal 6 error 0)", out.stdout)
        self.assertIn("ended-by-another 6", out.stdout)

    def test_bad_options_are_refused(self):
        out = self.run_runner("a", "b", "c", "--shard", "2/2")
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("--shard", out.stderr)


if __name__ == "__main__":
    path = find_arena()
    if not os.path.exists(path):
        sys.exit("test_standins.py: no arena binary at %s (set ARENA or build target/release/arena)" % path)
    unittest.main()
