"""Tests of the strength harness `referee_match.py` (issue 28): a candidate against every pair
of opponents, seats rotated, seeded openings the same for every pair and every candidate,
several games at once with the same results, the referee's forfeits (illegal action,
exception, CPU time) counted apart from the candidate's win rate, wall time over the clock
reported, the course referee's command line (`--referee`) and its output read back.

The games are played by `sim_referee.py` (the course referee's command line and output on
this folder's rules) or, for `--referee`, by a stand-in folder holding a package `referee`
that runs it; the course's own referee is not needed.

Run: python3 integrations/comp30024/test_referee_match.py
(`cargo test -p plyforge-arena --test comp30024` runs it.)
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import referee_match  # noqa: E402
from arena_player import from_notation  # noqa: E402
from standins.chexers_state import Game  # noqa: E402

# Small Player packages with known faults, written into a folder on the Python path.
PACKAGES = {
    # The first legal action in the referee's order: fast and deterministic.
    "first": "",
    # The last legal action.
    "last": "    def action(self): return self.game.actions()[-1]\n",
    # The action in the middle of the legal ones.
    "middle": "    def action(self):\n        acts = self.game.actions()\n        return acts[len(acts) // 2]\n",
    # An action that is never legal: an EXIT from the centre.
    "cheater": "    def action(self): return ('EXIT', (0, 0))\n",
    # Raises on its third action.
    "raiser": (
        "    def action(self):\n"
        "        self.asked = getattr(self, 'asked', 0) + 1\n"
        "        if self.asked == 3: raise RuntimeError('broken on purpose')\n"
        "        return first_action(self.game)\n"
    ),
    # Spends CPU time on its first action, past any small -t.
    "burner": (
        "    def action(self):\n"
        "        if not getattr(self, 'burnt', False):\n"
        "            self.burnt = True\n"
        "            t = time.process_time()\n"
        "            while time.process_time() - t < 0.8: pass\n"
        "        return first_action(self.game)\n"
    ),
    # Sleeps (wall time, no CPU time) on its first action.
    "sleeper": (
        "    def action(self):\n"
        "        if not getattr(self, 'slept', False):\n"
        "            self.slept = True\n"
        "            time.sleep(0.8)\n"
        "        return first_action(self.game)\n"
    ),
}

PACKAGE_HEAD = (
    "import time\n"
    "from standins.chexers_state import Game\n"
    "def first_action(game): return game.actions()[0]\n"
    "class Player:\n"
    "    def __init__(self, colour): self.game = Game()\n"
    "    def update(self, colour, action): self.game.play(colour, action)\n"
)


def write_packages(folder):
    for name, body in PACKAGES.items():
        os.mkdir(os.path.join(folder, name))
        with open(os.path.join(folder, name, "__init__.py"), "w") as f:
            f.write(PACKAGE_HEAD + (body or "    def action(self): return first_action(self.game)\n"))


def run(*args, path=None):
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    cmd = [sys.executable, os.path.join(HERE, "referee_match.py")] + list(args)
    if path:
        cmd += ["--path", path]
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, cwd=HERE, env=env, timeout=600)


def game_lines(stdout):
    return sorted((l for l in stdout.splitlines() if l.startswith("game ")), key=lambda l: (int(l.split()[1]), int(l.split()[3])))


def records(path):
    """The recorded games: {(game, pair): (header, [actions])}."""
    out = {}
    cur = None
    with open(path) as f:
        for line in f.read().splitlines():
            if line.startswith("#"):
                m = re.match(r"# game (\d+) \| pair (\S+) \+ (\S+) \|", line)
                cur = out.setdefault((int(m.group(1)), m.group(2) + "+" + m.group(3)), (line, []))
            elif line:
                cur[1].append(line)
    return out


def record(seats, verdict, exits, pieces=(4, 4, 4), game=0, candidate="us"):
    """A game record as the harness makes it from a game's outcome (`verdict`: the referee's,
    as parse_result reads it; `exits` and `pieces` by colour, red first)."""
    names = [candidate] + [n for n in seats if n != candidate]
    settings = {"candidate": candidate, "plan": [[names[1], names[2], 6]], "seed": 1, "time": 60.0, "clock": None}
    out = {
        "result": verdict,
        "turns": 100,
        "exits": dict(zip(referee_match.COLOURS, exits)),
        "pieces": dict(zip(referee_match.COLOURS, pieces)),
        "seats": {c: {"wall": 1.0, "cpu": 1.0} for c in referee_match.COLOURS},
        "actions": [],
    }
    return referee_match.game_record("run", settings, 0, game, seats, out, 1.0)


class Harness(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        write_packages(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_pair_every_seating_the_same_openings_and_concurrency_changes_nothing(self):
        # Candidate `first` against the pairs of three opponents: 3 pairs x 6 games.
        rec1 = os.path.join(self.tmp.name, "one.txt")
        rec2 = os.path.join(self.tmp.name, "two.txt")
        args = ["first", "middle", "standins.brs_player", "last", "--games", "6", "--opening", "6", "--seed", "5"]
        one = run(*args, "--record", rec1, path=self.tmp.name)
        two = run(*args, "--record", rec2, "--concurrency", "3", path=self.tmp.name)
        for out in (one, two):
            self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(len(game_lines(one.stdout)), 18, one.stdout)
        # The players are deterministic: the same games whatever the concurrency (the
        # seconds aside).
        strip = lambda l: l.split("  think")[0]
        self.assertEqual([strip(l) for l in game_lines(one.stdout)], [strip(l) for l in game_lines(two.stdout)])
        games = records(rec1)
        self.assertEqual(games, records(rec2))
        pairs = {"middle+standins.brs_player", "middle+last", "standins.brs_player+last"}
        self.assertEqual({p for _, p in games}, pairs)
        for pair in pairs:
            seatings = set()
            for g in range(1, 7):
                header, actions = games[(g, pair)]
                seatings.add(re.search(r"r=(\S+) g=(\S+) b=(\S+)", header).groups())
                # Every game of the cycle, of every pair, opens with the same six plies, each
                # legal, played by the seats (two each) and not by their packages.
                self.assertEqual(actions[:6], games[(1, "middle+standins.brs_player")][1][:6])
                replay = Game()
                for a in actions:
                    replay.play(replay.to_move, from_notation(a))
                self.assertRegex(header, r"\| %d turns \|" % len(actions))
            # All six orders of the three packages over the colours.
            self.assertEqual(len(seatings), 6, seatings)
        # A pair table per pair, then the summary: `first` plays 18 games.
        self.assertEqual(len([l for l in one.stdout.splitlines() if l.startswith("PAIR ")]), 3)
        self.assertRegex(one.stdout, r"SUMMARY games 18 \| .* first W \d+ D \d+ L \d+ of 18 played out")
        # Another seed, other openings.
        rec3 = os.path.join(self.tmp.name, "three.txt")
        three = run(*args[:-1], "6", "--record", rec3, "--games", "1", path=self.tmp.name)
        self.assertEqual(three.returncode, 0, three.stderr)
        first3 = records(rec3)[(1, "middle+standins.brs_player")][1][:6]
        self.assertNotEqual(first3, games[(1, "middle+standins.brs_player")][1][:6])

    def test_forfeits_are_counted_apart_and_wall_time_over_the_clock_is_reported(self):
        # Candidate `first` against cheater (illegal at once), raiser (an exception on its
        # third action) and burner (over a CPU budget of 0.5 s): every game ends with a
        # forfeit of an opponent, none of which counts in `first`'s win rate.
        out = run("first", "cheater", "raiser", "burner", "--games", "6", "--opening", "0", "-t", "0.5", "--concurrency", "2", path=self.tmp.name)
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = game_lines(out.stdout)
        self.assertEqual(len(lines), 18)
        for l in lines:
            self.assertRegex(l, r"(illegal \w+ \(cheater\)|error \w+ \(raiser\)|timeout \w+ \(burner\))")
        self.assertRegex(out.stdout, r"PLAYER cheater W 0 D 0 L (\d+) \(timeout 0 illegal \1 error 0\)")
        self.assertRegex(out.stdout, r"PLAYER burner W 0 D 0 L (\d+) \(timeout \1 illegal 0 error 0\)")
        self.assertRegex(out.stdout, r"SUMMARY games 18 \| .* first W 0 D 0 L 0 of 0 played out: 0.0%.* opponents' forfeits 18 ")
        self.assertIn("own faults 0 (timeout 0, illegal 0, error 0)", out.stdout)
        self.assertIn("PLAYER first W 0 D 0 L 0 (timeout 0 illegal 0 error 0) ended-by-another 18", out.stdout)
        # The candidate's own fault is a loss; a sleeping candidate is over a 0.5 s clock in
        # wall time while the referee (CPU time) lets it play on.
        out = run("sleeper", "first", "cheater", "--games", "3", "--opening", "0", "-t", "0.5", path=self.tmp.name)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout, r"over the clock 3 \| repetition draws")
        out = run("cheater", "first", "sleeper", "--games", "3", "--opening", "0", path=self.tmp.name)
        self.assertRegex(out.stdout, r"cheater W 0 D 0 L 3 of 3 played out.* own faults 3 \(timeout 0, illegal 3, error 0\)")

    def test_the_course_referees_command_line_through_referee(self):
        # A folder holding a package `referee` (here a stand-in that runs sim_referee) and,
        # beside it, an agent: `--referee` runs `python3 -m referee` with that folder on the
        # path.
        with tempfile.TemporaryDirectory() as course:
            os.mkdir(os.path.join(course, "referee"))
            with open(os.path.join(course, "referee", "__main__.py"), "w") as f:
                f.write("import sys, sim_referee\nsys.exit(sim_referee.main())\n")
            os.mkdir(os.path.join(course, "beside"))
            with open(os.path.join(course, "beside", "__init__.py"), "w") as f:
                f.write("from standins.brs_player import Player\n")
            out = run("beside", "standins.maxn_player", "first", "--referee", course, "--games", "2", path=self.tmp.name)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("referee %s |" % os.path.abspath(course), out.stdout)
            self.assertEqual(len(game_lines(out.stdout)), 2)
            bad = run("first", "a", "b", "--referee", self.tmp.name)
            self.assertNotEqual(bad.returncode, 0)
            self.assertIn("no referee/__main__.py", bad.stderr)

    def test_bad_options_are_refused(self):
        for args, word in [
            (["a", "b"], "at least two opponents"),
            (["a", "b", "b"], "each package once"),
            (["a", "b", "c", "--concurrency", "0"], "--concurrency"),
            (["a", "b", "c", "--path", "/no/such/folder"], "--path"),
        ]:
            out = run(*args)
            self.assertNotEqual(out.returncode, 0, args)
            self.assertIn(word, out.stderr, args)


class ReadsTheRefereesOutput(unittest.TestCase):
    """The course referee's verdicts and log lines, as v1.1 prints them."""

    def test_results(self):
        cases = [
            ("* winner: Green\n", ("win", "green")),
            ("* draw detected: game state occurred 4 times.\n", ("draw", "repetition")),
            ("* draw detected: maximum number of turns reached.\n", ("draw", "turns")),
            ("* ** game error **\n* error: resource limit exceeded!\n* blue player exceeded available time\n", ("fault", "blue", "timeout")),
            (
                "* ** game error **\n* error: invalid action!\n* red player's action, ('EXIT', (0, 0)), is not well-formed or not available.\n",
                ("fault", "red", "illegal"),
            ),
            ("Traceback (most recent call last):\n", None),
        ]
        for text, want in cases:
            got = referee_match.parse_result("* welcome\n" + text)
            self.assertEqual(got if got is None else got[: len(want)], want, text)

    def test_log(self):
        path = os.path.join(tempfile.mkdtemp(), "game.log")
        with open(path, "w") as f:
            f.write(
                "[game ] - Start Chexers game log at Mon\n"
                "[red  ] - MOVE from (-3, 1) to (-2, 0).\n"
                "[green] - JUMP from (0, -3) to (-2, -1).\n"
                "[blue ] - EXIT from (-3, 0).\n"
                "[red  ] - PASS.\n"
                "[over ] - winner: Blue\n"
            )
        self.assertEqual(
            referee_match.parse_log(path),
            [
                ("red", ("MOVE", ((-3, 1), (-2, 0)))),
                ("green", ("JUMP", ((0, -3), (-2, -1)))),
                ("blue", ("EXIT", (-3, 0))),
                ("red", ("PASS", None)),
            ],
        )

    def test_a_repetition_draw_while_ahead_in_exits_is_counted(self):
        t = referee_match.Table("us", ["a", "b"])
        t.add(record(["a", "us", "b"], ("draw", "repetition"), (1, 2, 0)))
        t.add(record(["a", "us", "b"], ("draw", "repetition"), (2, 2, 0)))
        t.add(record(["us", "a", "b"], ("win", "red"), (4, 2, 0)))
        t.add(record(["us", "a", "b"], ("fault", "green", "timeout", ""), (0, 0, 0)))
        self.assertEqual((t.games, t.W, t.D, t.L, t.rep, t.rep_ahead, t.played_out()), (4, 1, 2, 0, 2, 1, 3))
        self.assertAlmostEqual(t.rate(), 100.0 / 3)

if __name__ == "__main__":
    unittest.main()
