"""Plays a few turns of Chexers with three arena_player.Player agents through a minimal
referee loop, checking every action against `arena moves chexers POSITION`; and the Player's
guards (issue 43): with a fake engine that stalls, answers late, dies, keeps dying, starts
slowly, refuses the position, sees no move or answers an illegal or unreadable move, the
Player still returns, in time, an action the referee accepts; its board is the referee's;
and in the referee's own measures (the CPU time of its process, the virtual memory of its
process over the level after the imports) a game of the real engine costs next to nothing.

Run: python3 integrations/comp30024/test_player.py   (ARENA=path/to/arena to pick the binary)
"""

import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from arena_player import (  # noqa: E402
    Board,
    EngineError,
    Player,
    _MAX_STARTS,
    clock_margin,
    fallback_action,
    find_arena,
    from_notation,
    to_notation,
)
from standins.chexers_state import COLOURS, Game, available_actions, why_illegal  # noqa: E402

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


# A fake `arena engine chexers`: the protocol, answering the last action the referee accepts,
# with one fault (FAKE_MODE) at the FAKE_AT-th `go` counted over all its processes (0: every
# `go`), or at its first start for `mute-start`. Its starts and gos are counted in files of
# FAKE_STATE.
FAKE_ENGINE = r"""
import os, sys, time
sys.path.insert(0, %(here)r)
from arena_player import Board, to_notation

mode = os.environ.get("FAKE_MODE", "ok")
at = int(os.environ.get("FAKE_AT", "1"))
state = os.environ["FAKE_STATE"]

def bump(name):
    path = os.path.join(state, name)
    n = (int(open(path).read()) if os.path.exists(path) else 0) + 1
    with open(path, "w") as f:
        f.write(str(n))
    return n

def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()

def fault(n):
    return n == at or at == 0

if bump("starts") == 1 and mode == "mute-start":
    time.sleep(3600)
board, mover = Board(), "red"
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        say("id name fake")
        say("uciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "position":
        n = bump("positions")
        if mode == "refuse" and fault(n):
            say("info string error: move 1: refused on purpose")
            continue
        board, colours = Board(), ["red", "green", "blue"]
        tokens = words[3:] if len(words) > 2 else []
        turn = 0
        while tokens:
            size = {"PASS": 1, "EXIT": 3}.get(tokens[0], 5)
            from arena_player import from_notation
            board.apply(colours[turn %% 3], from_notation(" ".join(tokens[:size])))
            tokens, turn = tokens[size:], turn + 1
        mover = colours[turn %% 3]
    elif words[0] == "go":
        n = bump("gos")
        answer = to_notation(board.available(mover)[-1])
        if fault(n):
            if mode == "stall":
                time.sleep(3600)
            if mode == "die":
                sys.exit(3)
            if mode == "slow":
                for more in sys.stdin:
                    if more.strip() == "stop":
                        break
            if mode == "illegal":
                answer = "EXIT 0 0"
            if mode == "garbage":
                answer = "hello world"
            if mode == "none":
                say("info string error: go: refused on purpose")
                answer = "none"
        say("bestmove " + answer)
    elif words[0] == "quit":
        break
"""


class Guards(unittest.TestCase):
    """The Player against a fake engine with one fault each: every action is one the referee
    accepts (checked with the stand-ins' rules, which test_standins.py checks against the
    engine), returned in time, and the fault is written down."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="arena-player-guards-")
        cls.fake = os.path.join(cls.tmp, "fake-arena")
        with open(cls.fake, "w") as f:
            f.write("#!" + sys.executable + "\n" + FAKE_ENGINE % {"here": HERE})
        os.chmod(cls.fake, os.stat(cls.fake).st_mode | stat.S_IXUSR)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        self.saved = dict(os.environ)
        self.state = tempfile.mkdtemp(dir=self.tmp)
        for k in ("ARENA_MOVETIME_MS", "ARENA_NODES", "ARENA_ENGINE", "ARENA_CLOCK_S", "ARENA_STALL_S"):
            os.environ.pop(k, None)
        os.environ.update(ARENA=self.fake, FAKE_STATE=self.state, FAKE_MODE="ok", FAKE_AT="1")

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.saved)

    def count(self, name):
        path = os.path.join(self.state, name)
        if not os.path.exists(path):
            return 0
        with open(path) as f:
            return int(f.read())

    def play(self, turns, **env):
        """A game of `turns` turns: our Player as red, green and blue playing the stand-ins'
        first action. Every red action is checked against the referee's rules; returns the
        Player (closed) and each red action's wall time."""
        os.environ.update({k: str(v) for k, v in env.items()})
        started = time.perf_counter()
        player = Player("red")
        init = time.perf_counter() - started
        game, times = Game(), []
        try:
            for turn in range(turns):
                colour = game.to_move
                if colour == "red":
                    started = time.perf_counter()
                    action = player.action()
                    times.append(time.perf_counter() - started)
                    self.assertIsNone(why_illegal(game.board, "red", action), (turn, action, player.incidents))
                else:
                    action = available_actions(game.board, colour)[0]
                game.play(colour, action)
                player.update(colour, action)
                self.assertIsNone(game.result)
        finally:
            player.close()
        player.init_time = init
        return player, times

    def kinds(self, player):
        return [i["kind"] for i in player.incidents]

    def test_a_stalled_engine_is_killed_and_the_action_comes_in_time(self):
        # It neither answers nor reads `stop`: stopped after half its time (where its own
        # time manager would have answered), killed before the clock's margin is used up, a
        # Python action played, a new engine for the next action.
        player, times = self.play(12, FAKE_MODE="stall", ARENA_CLOCK_S=3)
        self.assertEqual(self.kinds(player), ["stall"])
        self.assertEqual(player.starts, 2)
        self.assertEqual(self.count("gos"), 4)
        self.assertLess(player.used, 3.0)
        margin = clock_margin(3.0)
        budget = 3.0 - player.init_time - margin
        self.assertGreater(times[0], budget / 2)
        self.assertLess(times[0], 3.0 - player.init_time - margin / 3)
        self.assertTrue(player.last_go.startswith("go time "), player.last_go)
        # On a flat move time: stopped 1 s after it, killed 1 s later.
        self.state = tempfile.mkdtemp(dir=self.tmp)
        player, times = self.play(6, FAKE_MODE="stall", FAKE_AT="2", ARENA_MOVETIME_MS=100, FAKE_STATE=self.state)
        self.assertEqual(self.kinds(player), ["stall"])
        self.assertGreater(times[1], 2.0)
        self.assertLess(times[1], 2.6)

    def test_a_late_engine_is_stopped_and_its_move_played(self):
        player, times = self.play(3, FAKE_MODE="slow", ARENA_CLOCK_S=2)
        self.assertEqual(self.kinds(player), ["late"])
        self.assertEqual(player.starts, 1)
        self.assertLess(times[0], 2.0 - clock_margin(2.0) / 3)
        # The engine's move (its last available action), not a Python one.
        self.assertEqual(player.moves[0], to_notation(Board().available("red")[-1]))

    def test_a_dead_engine_is_replaced(self):
        player, times = self.play(9, FAKE_MODE="die", FAKE_AT="2")
        self.assertEqual(self.kinds(player), ["died"])
        self.assertIn("exit code 3", player.incidents[0]["detail"])
        self.assertEqual(player.starts, 2)
        self.assertEqual(self.count("gos"), 3)
        self.assertLess(max(times), 1.0)

    def test_an_engine_that_keeps_dying_is_given_up(self):
        player, times = self.play(24, FAKE_MODE="die", FAKE_AT="0")
        self.assertEqual(player.starts, _MAX_STARTS)
        kinds = self.kinds(player)
        self.assertEqual(kinds[:_MAX_STARTS], ["died"] * _MAX_STARTS)
        self.assertEqual(set(kinds[_MAX_STARTS:]), {"no-engine"})
        self.assertEqual(len(kinds), 8)  # every action played in Python, none refused
        self.assertLess(max(times), 1.0)

    def test_a_slow_start_does_not_stop_the_player(self):
        # The first engine does not answer `uci`: the constructor gives up after a quarter
        # of the clock (0.5 s of 2 s) without raising; the first action starts another.
        player, times = self.play(3, FAKE_MODE="mute-start", ARENA_CLOCK_S=2)
        self.assertLess(player.init_time, 0.9)
        self.assertEqual(self.kinds(player), ["no-engine"])
        self.assertEqual(player.starts, 2)
        self.assertEqual(self.count("gos"), 1)

    def test_refused_positions_unreadable_illegal_and_no_moves_give_a_legal_action(self):
        for mode, kind in [("refuse", "refused"), ("illegal", "illegal"), ("garbage", "illegal"), ("none", "none")]:
            self.state = tempfile.mkdtemp(dir=self.tmp)
            player, times = self.play(9, FAKE_MODE=mode, FAKE_AT="2", FAKE_STATE=self.state)
            self.assertEqual(self.kinds(player), [kind], mode)
            self.assertEqual(player.starts, 1, mode)  # the engine stays
            self.assertEqual(self.count("gos"), 2 if mode == "refuse" else 3, mode)
            self.assertLess(max(times), 1.0, mode)
            # The second action is the Python choice; the others the engine's (its last
            # available action).
            board, mine = Board(), []
            for turn, text in enumerate(player.moves):
                colour = COLOURS[turn % 3]
                if colour == "red":
                    mine.append((text, board.copy()))
                board.apply(colour, from_notation(text))
            self.assertEqual(mine[1][0], to_notation(fallback_action(mine[1][1], "red")), mode)
            for text, before in (mine[0], mine[2]):
                self.assertEqual(text, to_notation(before.available("red")[-1]), mode)

    def test_no_time_left_plays_in_python_at_once(self):
        player = Player("red")
        try:
            player.used = player.clock + 1.0
            started = time.perf_counter()
            action = player.action()
            self.assertLess(time.perf_counter() - started, 0.1)
        finally:
            player.close()
        self.assertIsNone(why_illegal(Game().board, "red", action))
        self.assertEqual([i["kind"] for i in player.incidents], ["clock"])
        self.assertEqual(self.count("gos"), 0)

    def test_a_single_legal_action_is_played_without_the_engine(self):
        player = Player("red")
        try:
            # Red's pieces boxed in on their hexes: only PASS is left.
            for qr in player.board.cells:
                if player.board.cells[qr] is None:
                    player.board.cells[qr] = "green"
            self.assertEqual(player.action(), ("PASS", None))
            self.assertIsNone(player.last_go)
        finally:
            player.close()
        self.assertEqual(self.count("gos"), 0)
        self.assertEqual(player.incidents, [])

    def test_the_board_and_the_fallback_follow_the_referees_rules(self):
        # Random games: Board accepts exactly the stand-ins' actions (the referee's rules,
        # checked against the engine by test_standins.py), and fallback_action is one of them.
        rng = random.Random(43)
        for _ in range(30):
            board, game = Board(), Game()
            while game.result is None:
                colour = game.to_move
                want = available_actions(game.board, colour)
                self.assertEqual(sorted(board.available(colour)), sorted(want))
                self.assertIn(fallback_action(board, colour), want)
                action = rng.choice(want)
                game.play(colour, action)
                board.apply(colour, action)
            self.assertEqual(board.exits, game.exits)
        # An exit is taken first.
        board = Board()
        board.cells[(3, -1)], board.cells[(-3, 1)] = "red", None
        self.assertEqual(fallback_action(board, "red"), ("EXIT", (3, -1)))


class RefereeMeasures(unittest.TestCase):
    """What the course referee measures of a player (referee/player.py, v1.1): the CPU time of
    its own process in the player's calls (`time.process_time`), and the virtual memory of
    its own process (/proc/self/status VmPeak) over its level after the imports, shared by the
    three players. With the real engine both stay near zero: the engine thinks and keeps its
    table in its own process, and the Player starts no thread."""

    SCRIPT = r"""
import json, os, sys, time
sys.path.insert(0, %(here)r)
from arena_player import Player
from standins.chexers_state import Game

def vm(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024.0

base = vm("VmSize")  # the referee's set_space_line(), after the imports
players = {c: Player(c) for c in ("red", "green", "blue")}
game, cpu, wall, peak = Game(), 0.0, 0.0, 0.0
for turn in range(12):
    colour = game.to_move
    c0, w0 = time.process_time(), time.perf_counter()
    action = players[colour].action()
    cpu += time.process_time() - c0
    wall += time.perf_counter() - w0
    game.play(colour, action)
    for p in players.values():
        p.update(colour, action)
    peak = max(peak, vm("VmPeak") - base)
threads = len(os.listdir("/proc/self/task"))
for p in players.values():
    p.close()
print(json.dumps({"cpu": cpu, "wall": wall, "peak_mb": peak, "threads": threads,
                  "incidents": sum(len(p.incidents) for p in players.values())}))
"""

    def test_the_referees_cpu_clock_and_space_measure_see_almost_nothing(self):
        path = find_arena()
        if not os.path.exists(path):
            raise AssertionError("no arena binary at %s (set ARENA)" % path)
        env = dict(os.environ, ARENA_MOVETIME_MS="150", PYTHONDONTWRITEBYTECODE="1")
        env.pop("ARENA_NODES", None)
        out = subprocess.run(
            [sys.executable, "-c", self.SCRIPT % {"here": HERE}],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            universal_newlines=True,
            env=env,
            timeout=120,
        )
        self.assertEqual(out.returncode, 0, out.stderr)
        got = __import__("json").loads(out.stdout)
        # 12 actions of 150 ms each: the wall time is the engine's, the referee's CPU clock
        # sees a few milliseconds (a player waiting on a pipe uses no CPU).
        self.assertGreater(got["wall"], 12 * 0.14)
        self.assertLess(got["cpu"], 0.05 * got["wall"], got)
        # The referee's space measure: no growth to speak of (its -s 100 allows 300 MB
        # shared), one thread only (a thread alone would add over 100 MB of address space).
        self.assertLess(got["peak_mb"], 8.0, got)
        self.assertEqual(got["threads"], 1, got)
        self.assertEqual(got["incidents"], 0, got)


if __name__ == "__main__":
    unittest.main()
