"""Plays a few turns of Chexers with three arena_player.Player agents through a minimal
referee loop, checking every action against `arena moves chexers POSITION`.

Run: python3 integrations/comp30024/test_player.py   (ARENA=path/to/arena to pick the binary)
"""

import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arena_player import EngineError, Player, find_arena, from_notation, to_notation  # noqa: E402

START = "gggg/...../....../r.....b/r....b/r...b/r..b r 0,0,0 0"
TURNS = 10


def arena(*args):
    out = subprocess.run(
        [find_arena()] + list(args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        universal_newlines=True,
        timeout=60,
    )
    if out.returncode != 0:
        raise AssertionError("arena %s failed: %s" % (" ".join(args), out.stderr))
    return out.stdout.splitlines()


class NotationTest(unittest.TestCase):
    def test_round_trip(self):
        for text, action in [
            ("MOVE -3 1 -2 0", ("MOVE", ((-3, 1), (-2, 0)))),
            ("JUMP 0 -3 -2 -1", ("JUMP", ((0, -3), (-2, -1)))),
            ("EXIT 3 0", ("EXIT", (3, 0))),
            ("PASS", ("PASS", None)),
        ]:
            self.assertEqual(from_notation(text), action)
            self.assertEqual(to_notation(action), text)
        with self.assertRaises(ValueError):
            from_notation("EXIT 3")


class RefereeLoopTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        path = find_arena()
        if not os.path.exists(path):
            # A test that skips itself when a tool is missing would pass without testing.
            raise AssertionError(
                "no arena binary at %s (set ARENA, or build it with "
                "`cargo build --release -p plyforge-arena`)" % path
            )

    def test_three_players_play_legal_actions(self):
        os.environ.setdefault("ARENA_MOVETIME_MS", "50")
        self.play(TURNS)

    def test_an_engine_spec_with_weights_plays_and_a_bad_one_says_why(self):
        os.environ.setdefault("ARENA_MOVETIME_MS", "50")
        os.environ["ARENA_ENGINE"] = "engine,eval=default:draw_standing=0:contempt=600"
        try:
            self.play(3)
            os.environ["ARENA_ENGINE"] = "engine,eval=default:bravery=1"
            with self.assertRaises(EngineError) as caught:
                Player("red").action()
            self.assertIn('no weight "bravery"', str(caught.exception))
        finally:
            del os.environ["ARENA_ENGINE"]

    def test_the_game_clock_is_shared_out_and_never_overstepped(self):
        saved = os.environ.pop("ARENA_MOVETIME_MS", None)
        os.environ["ARENA_CLOCK_S"] = "4"
        try:
            players = self.play(TURNS)
        finally:
            del os.environ["ARENA_CLOCK_S"]
            if saved is not None:
                os.environ["ARENA_MOVETIME_MS"] = saved
        for colour, p in players.items():
            gos = p.gos
            self.assertTrue(gos, colour)
            times = []
            for go in gos:
                words = go.split()
                self.assertEqual(words[:2], ["go", "time"], go)
                times.append(int(words[2]))
            # The clock left, as sent: below the 4 s, falling action by action.
            self.assertLessEqual(times[0], 4000, colour)
            self.assertEqual(times, sorted(times, reverse=True), colour)
            self.assertGreater(times[-1], 0, colour)
            self.assertGreater(p.remaining(), 0, colour)

    def test_a_node_budget_plays_the_same_game_twice(self):
        saved = os.environ.pop("ARENA_MOVETIME_MS", None)
        os.environ["ARENA_NODES"] = "3000"
        try:
            first = self.play(6)
            second = self.play(6)
            os.environ["ARENA_NODES"] = "0"
            with self.assertRaises(ValueError) as caught:
                Player("red")
            self.assertIn("ARENA_NODES", str(caught.exception))
        finally:
            del os.environ["ARENA_NODES"]
            if saved is not None:
                os.environ["ARENA_MOVETIME_MS"] = saved
        for colour in ("red", "green", "blue"):
            self.assertEqual(first[colour].gos, ["go nodes 3000"] * 2, colour)
            # Whatever the load: the same budget, the same actions.
            self.assertEqual(first[colour].moves, second[colour].moves, colour)

    def play(self, turns):
        """Three Players through a minimal referee loop for `turns` turns; the players, with
        every `go` each sent in `gos`."""
        players = {c: Player(c) for c in ("red", "green", "blue")}
        for p in players.values():
            p.gos = []
        try:
            position = START
            for turn in range(turns):
                colour = ("red", "green", "blue")[turn % 3]
                action = players[colour].action()
                players[colour].gos.append(players[colour].last_go)
                self.assertIsInstance(action, tuple)
                self.assertEqual(len(action), 2)
                text = to_notation(action)
                legal = arena("moves", "chexers", position)
                self.assertIn(text, legal, "turn %d, %s in %s" % (turn, colour, position))
                lines = arena("apply", "chexers", position, text)
                position = lines[0]
                for p in players.values():
                    p.update(colour, action)
                if len(lines) > 1:  # "result: ..." (not expected within 10 turns)
                    break
            self.assertTrue(position.endswith(" %d" % turns), position)
        finally:
            for p in players.values():
                p.close()
        return players


if __name__ == "__main__":
    unittest.main()
