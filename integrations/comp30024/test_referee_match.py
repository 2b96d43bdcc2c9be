"""Tests of the strength harness `referee_match.py` (issues 28 and 33): a candidate against every
pair of opponents, seats rotated, seeded openings the same for every pair and every candidate,
several games at once with the same results, the referee's forfeits (illegal action,
exception, CPU time) counted apart from the candidate's win rate, wall time over the clock
reported, the course referee's command line (`--referee`) and its output read back; the pool
(issue 33): the pairs chosen (`--pairs`, `--pairs-must-include`, a seeded `--sample`) with their
games (`--games-for`), shards that play each game exactly once, a run resumed after a kill
(a torn last line included), shards merged into the report of the unsharded run, a merge of
different runs refused, and the report per pair, per agent and per game not won.

The games are played by `sim_referee.py` (the course referee's command line and output on
this folder's rules) or, for `--referee`, by a stand-in folder holding a package `referee`
that runs it; the course's own referee is not needed.

Run: python3 integrations/comp30024/test_referee_match.py
(`cargo test -p plyforge-arena --test comp30024` runs it.)
"""

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import referee_match  # noqa: E402
from arena_player import from_notation  # noqa: E402
from standins.chexers_state import COLOURS, Game  # noqa: E402

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
    # The second legal action (the only one if there is one).
    "second": "    def action(self):\n        acts = self.game.actions()\n        return acts[min(1, len(acts) - 1)]\n",
    # Takes 50 MB on its second action, past a small shared -s.
    "hog": (
        "    def action(self):\n"
        "        self.n = getattr(self, 'n', 0) + 1\n"
        "        if self.n == 2: self.hog = bytearray(50 * 1024 * 1024)\n"
        "        return first_action(self.game)\n"
    ),
    # Spends CPU time in its fourth update, past any small -t.
    "slowupdate": (
        "    def update(self, colour, action):\n"
        "        self.game.play(colour, action)\n"
        "        self.n = getattr(self, 'n', 0) + 1\n"
        "        if self.n == 4:\n"
        "            t = time.process_time()\n"
        "            while time.process_time() - t < 0.8: pass\n"
        "    def action(self): return first_action(self.game)\n"
    ),
    # Keeps what its guards met, as arena_player does: one incident on its first action.
    "guarded": (
        "    incidents = None\n"
        "    def action(self):\n"
        "        if self.incidents is None:\n"
        "            self.incidents = [{'turn': 0, 'kind': 'stall', 'detail': 'on purpose'}]\n"
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


def command(*args, path=None):
    cmd = [sys.executable, os.path.join(HERE, "referee_match.py")] + list(args)
    return cmd + (["--path", path] if path else [])


def child_env():
    return dict(os.environ, PYTHONDONTWRITEBYTECODE="1")


def run(*args, path=None):
    return subprocess.run(
        command(*args, path=path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        universal_newlines=True,
        cwd=HERE,
        env=child_env(),
        timeout=600,
    )


def report_lines(stdout):
    """The report of a run or a merge (non-wins, pairs, agents, summary, players), without
    what depends on the machine (thinking times, load, elapsed time)."""
    keep = ("NONWIN ", "PAIR ", "AGENT ", "SUMMARY ", "PLAYER ")
    return [re.split(r" \| (think|load) ", l)[0] for l in stdout.splitlines() if l.startswith(keep)]


def game_keys(path):
    """The (pair, game) of every complete game line of a results file."""
    with open(path) as f:
        return [(r["pair_index"], r["game"]) for r in map(json.loads, f.read().splitlines()[1:])]


def without_times(r):
    return {k: v for k, v in r.items() if k not in ("wall", "cpu", "longest_action", "elapsed", "load", "ended", "over")}


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


def record(seats, verdict, exits, pieces=(4, 4, 4), game=0, candidate="us", call=(None, None)):
    """A game record as the harness makes it from a game's outcome (`verdict`: the referee's,
    as parse_result reads it; `call` the call running at the end, as call_in_progress reads
    it; `exits` and `pieces` by colour, red first)."""
    names = [candidate] + [n for n in seats if n != candidate]
    settings = {"candidate": candidate, "plan": [[names[1], names[2], 6]], "seed": 1, "time": 60.0, "clock": None}
    out = {
        "result": verdict,
        "turns": 100,
        "exits": dict(zip(referee_match.COLOURS, exits)),
        "pieces": dict(zip(referee_match.COLOURS, pieces)),
        "seats": {c: {"wall": 1.0, "cpu": 1.0} for c in referee_match.COLOURS},
        "actions": [],
        "call": call,
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

    def test_every_early_ending_is_attributed_to_its_player(self):
        # Against hog (over a shared -s of 5 MB on its second action) and slowupdate (over
        # -t 0.5 in its fourth update): every game ends early, each ending under the package
        # and the call that caused it, none under the candidate or nobody.
        results = os.path.join(self.tmp.name, "endings.jsonl")
        out = run("first", "hog", "slowupdate", "--games", "6", "--opening", "0", "-t", "0.5", "-s", "5",
                  "--results", results, path=self.tmp.name)
        self.assertEqual(out.returncode, 0, out.stderr)
        with open(results) as f:
            header, *games = map(json.loads, f.read().splitlines())
        self.assertEqual(header["settings"]["space"], 5.0)
        self.assertEqual(len(games), 6)
        kinds = {}
        for r in games:
            e = r["ended_by"]
            self.assertEqual(r["result"], "forfeit", r)
            self.assertEqual(e["package"], r["seats"][COLOURS.index(e["colour"])])
            self.assertIs(e["candidate"], False)
            want = {"hog": ("space", "action"), "slowupdate": ("timeout", "update")}[e["package"]]
            self.assertEqual((e["kind"], e["phase"]), want, r)
            kinds[e["package"]] = kinds.get(e["package"], 0) + 1
        self.assertEqual(set(kinds), {"hog", "slowupdate"}, kinds)
        ends = [l for l in out.stdout.splitlines() if l.startswith("ENDINGS ")]
        self.assertEqual(len(ends), 1, out.stdout)
        self.assertRegex(ends[0], r"^ENDINGS early, by the player that caused them: first 0 \| hog %d \(space %d: " % (kinds["hog"], kinds["hog"]))
        self.assertIn("| slowupdate %d (timeout %d: " % (kinds["slowupdate"], kinds["slowupdate"]), ends[0])
        self.assertIn("| nobody known 0 | first's engine incidents not reported", ends[0])
        self.assertIn("PLAYER hog W 0 D 0 L %d (timeout 0 illegal 0 error 0 space %d)" % (kinds["hog"], kinds["hog"]), out.stdout)
        self.assertIn("opponents' forfeits 6 (timeout %d, illegal 0, error 0, space %d)" % (kinds["slowupdate"], kinds["hog"]), out.stdout)
        # The candidate's own: hog as the candidate loses its games by the space limit.
        out = run("hog", "first", "middle", "--games", "3", "--opening", "0", "-s", "5", path=self.tmp.name)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("own faults 3 (timeout 0, illegal 0, error 0, space 3)", out.stdout)
        self.assertRegex(out.stdout, r"ENDINGS early, by the player that caused them: hog 3 \(space 3: red 2, green 1\) \| first 0 \| middle 0 \| nobody known 0")
        # What a candidate's guards met (the `incidents` its Player keeps) is counted too.
        out = run("guarded", "first", "middle", "--games", "2", "--opening", "0", path=self.tmp.name)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("| guarded's engine incidents 2 in 2 of 2 games (stall 2)", out.stdout)

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
        agents = ["first", "middle", "last", "second"]
        for args, word in [
            (["a", "b"], "at least two opponents"),
            (["a", "b", "b"], "each package once"),
            (["a", "b", "c", "--concurrency", "0"], "--concurrency"),
            (["a", "b", "c", "--path", "/no/such/folder"], "--path"),
            (["a", "b", "c", "--shard", "3/3"], "--shard '3/3': expected K/N with 0 <= K < N"),
            (["a", "b", "c", "--shard", "one"], "--shard 'one': expected K/N"),
            (["a", "b", "c", "--resume"], "--resume needs --results"),
            (["first", "middle", "nosuchagent"], "unknown agent nosuchagent: no module nosuchagent on the Python path"),
            (agents + ["--pairs-must-include", "max"], "--pairs-must-include max: unknown agent, not among the opponents"),
            (agents + ["--games-for", "max=30"], "--games-for max: unknown agent"),
            (agents + ["--games-for", "middle"], "--games-for 'middle': expected AGENT=N"),
            (agents + ["--games-for", "middle=0"], "--games-for middle=0: at least 1 game"),
            (agents + ["--pairs", "middle+max"], "--pairs max: unknown agent"),
            (agents + ["--pairs", "middle+middle"], "two different agents a pair"),
            (agents + ["--pairs-must-include", "middle", "--sample", "2"], "--sample 2: between 0 and 1 (the other pairs)"),
        ]:
            out = run(*args, path=self.tmp.name)
            self.assertEqual(out.returncode, 2, (args, out.stderr))
            self.assertIn(word, out.stderr, args)
            self.assertNotIn("Traceback", out.stderr, args)


class Pool(unittest.TestCase):
    """The pool (issue 33): pairs and their games chosen, shards, resume, merge and the report.
    The reference is one unsharded run with its results file; the agents are deterministic, so
    every other way of playing the same run gives the same games."""

    # 3 opponents, 3 pairs: middle + last 6 games, the pairs with `second` 8 (a cycle and a
    # third of the next): 22 games.
    ARGS = ["first", "middle", "last", "second", "--games", "6", "--games-for", "second=8", "--seed", "7"]

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        write_packages(cls.tmp.name)
        cls.reference = os.path.join(cls.tmp.name, "reference.jsonl")
        cls.whole = run(*cls.ARGS, "--results", cls.reference, path=cls.tmp.name)
        assert cls.whole.returncode == 0, cls.whole.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def parse(self, *args):
        return referee_match.parse_args(list(args) + ["--path", self.tmp.name])

    def test_pairs_are_chosen_and_the_sample_is_seeded(self):
        opponents = ["middle", "last", "second", "sleeper"]
        every = [("middle", "last"), ("middle", "second"), ("middle", "sleeper"), ("last", "second"), ("last", "sleeper"), ("second", "sleeper")]
        self.assertEqual(self.parse("first", *opponents).pairs, every)
        self.assertEqual(self.parse("first", *opponents, "--pairs", "all").pairs, every)
        # A list of pairs, either way round, kept in the opponents' order.
        self.assertEqual(self.parse("first", *opponents, "--pairs", "second+last,middle+sleeper").pairs, [("middle", "sleeper"), ("last", "second")])
        # Every pair with middle or second, and nothing else.
        must = [("middle", "last"), ("middle", "second"), ("middle", "sleeper"), ("last", "second"), ("second", "sleeper")]
        self.assertEqual(self.parse("first", *opponents, "--pairs-must-include", "middle,second").pairs, must)
        # ... plus a seeded sample of the others: the same for the same seed, --seed by default,
        # and not always the same pair.
        samples = {}
        for seed in range(1, 9):
            a = self.parse("first", *opponents, "--pairs-must-include", "middle", "--sample", "1", "--sample-seed", str(seed)).pairs
            b = self.parse("first", *opponents, "--pairs-must-include", "middle", "--sample", "1", "--seed", str(seed)).pairs
            self.assertEqual(a, b)
            self.assertEqual(a[:3], every[:3])
            self.assertEqual(len(a), 4)
            samples[seed] = a[3]
        self.assertLessEqual(set(samples.values()), set(every[3:]))
        self.assertGreater(len(set(samples.values())), 1, samples)
        # A sample of all the pairs, and the whole of them.
        self.assertEqual(len(self.parse("first", *opponents, "--sample", "2").pairs), 2)
        self.assertEqual(self.parse("first", *opponents, "--sample", "6").pairs, every)
        # Games a pair: --games, or the largest --games-for of the pair's agents.
        args = self.parse("first", *opponents, "--games", "12", "--games-for", "middle=30,second=20", "--games-for", "sleeper=5")
        self.assertEqual(
            [referee_match.pair_games(args, p) for p in every],
            [30, 30, 30, 20, 5, 20],
        )
        # What --plan prints: each pair and its games, nothing played.
        out = run(
            "first",
            *opponents,
            "--pairs-must-include",
            "middle",
            "--sample",
            "1",
            "--games",
            "12",
            "--games-for",
            "middle=30",
            "--plan",
            path=self.tmp.name,
        )
        self.assertEqual(out.returncode, 0, out.stderr)
        plan = [l for l in out.stdout.splitlines() if l.startswith("PLAN pair")]
        self.assertEqual(len(plan), 4, out.stdout)
        self.assertRegex(plan[0], r"^PLAN pair 1 middle \+ last \| games 30 \| this shard 30: 1-30$")
        self.assertRegex(plan[3], r"^PLAN pair 4 \S+ \+ \S+ \| games 12 \| this shard 12: 1-12$")
        self.assertIn("PLAN games 102, this shard 102", out.stdout)
        self.assertNotIn("\ngame ", out.stdout)

    def test_shards_play_each_game_exactly_once_in_whole_cycles(self):
        for plan in ([["a", "b", 6], ["a", "c", 6], ["b", "c", 6]], [["a", "b", 30], ["a", "c", 12], ["b", "c", 8], ["c", "d", 1]]):
            every = sorted((p, g) for p, x in enumerate(plan) for g in range(x[2]))
            for n in range(1, 6):
                shards = [referee_match.shard_games(plan, (k, n)) for k in range(n)]
                played = sorted(pg for s in shards for pg in s)
                self.assertEqual(played, every, (plan, n))
                for s in shards:
                    # Whole cycles: a cycle's games are all in one shard.
                    cycles = {(p, g // 6) for p, g in s}
                    self.assertEqual(sorted(s), sorted((p, g) for p, c in cycles for g in range(6 * c, min(6 * c + 6, plan[p][2]))))
                    # In the order they are played: game, then pair.
                    self.assertEqual(s, sorted(s, key=lambda pg: (pg[1], pg[0])))
                # Balanced within a cycle's games.
                sizes = [len(s) for s in shards]
                self.assertLessEqual(max(sizes) - min(sizes), 6, (plan, n, sizes))
        # Three shards of the reference run: each game once, the same games, merged into the
        # reference's report.
        files = [self.path("shard%d.jsonl" % k) for k in range(3)]
        for k, f in enumerate(files):
            out = run(*self.ARGS, "--shard", "%d/3" % k, "--results", f, "--quiet", path=self.tmp.name)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("| shard %d/3 |" % k, out.stdout)
        keys = [key for f in files for key in game_keys(f)]
        self.assertEqual(sorted(keys), sorted(game_keys(self.reference)))
        self.assertEqual(len(keys), 22)
        self.assertEqual(len(set(keys)), 22)
        with open(self.reference) as f:
            whole = {(r["pair_index"], r["game"]): without_times(r) for r in map(json.loads, f.read().splitlines()[1:])}
        for path in files:
            with open(path) as f:
                for r in map(json.loads, f.read().splitlines()[1:]):
                    self.assertEqual(without_times(r), whole[(r["pair_index"], r["game"])])
        merged = run("--merge", *files)
        self.assertEqual(merged.returncode, 0, merged.stderr)
        self.assertIn("files 3 (shards 0/3 1/3 2/3) | games 22 of 22 planned", merged.stdout)
        self.assertEqual(report_lines(merged.stdout), report_lines(self.whole.stdout))
        self.assertIn("| missing 0 of 22 planned |", merged.stdout)
        # Two of the three: the same tables over fewer games, the rest missing.
        part = run("--merge", files[0], files[2])
        self.assertEqual(part.returncode, 0, part.stderr)
        self.assertIn("| missing %d of 22 planned |" % len(game_keys(files[1])), part.stdout)

    def test_a_run_resumes_after_a_kill(self):
        # Stopped by SIGTERM after its first game: the games that ended are in the file.
        f = self.path("killed.jsonl")
        proc = subprocess.Popen(
            command(*self.ARGS, "--results", f, path=self.tmp.name),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            universal_newlines=True,
            cwd=HERE,
            env=child_env(),
        )
        for line in proc.stdout:
            if line.startswith("game "):
                proc.send_signal(signal.SIGTERM)
                break
        rest, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 130, err)
        self.assertIn("STOPPED", rest)
        ended = game_keys(f)
        self.assertGreaterEqual(len(ended), 1)
        self.assertLess(len(ended), 22)
        # Started again without --resume: refused, the file left alone.
        again = run(*self.ARGS, "--results", f, path=self.tmp.name)
        self.assertEqual(again.returncode, 2)
        self.assertIn("exists: --resume continues it", again.stderr)
        self.assertEqual(game_keys(f), ended)
        # A different run on that file: refused, naming what differs.
        other = run(*self.ARGS, "--seed", "8", "--results", f, "--resume", path=self.tmp.name)
        self.assertEqual(other.returncode, 2)
        self.assertIn("seed 7 against 8", other.stderr)
        # Resumed: the missing games only, then the whole run's report.
        resumed = run(*self.ARGS, "--results", f, "--resume", path=self.tmp.name)
        self.assertEqual(resumed.returncode, 0, resumed.stderr)
        self.assertIn("RESUMED %d games" % len(ended), resumed.stdout)
        self.assertEqual(len([l for l in resumed.stdout.splitlines() if l.startswith("game ")]), 22 - len(ended))
        self.assertEqual(sorted(game_keys(f)), sorted(game_keys(self.reference)))
        self.assertEqual(report_lines(resumed.stdout), report_lines(self.whole.stdout))

        # Killed while writing: the file cut after 5 games and half of the 6th.
        f = self.path("torn.jsonl")
        with open(self.reference) as src:
            lines = src.read().splitlines(True)
        with open(f, "w") as out:
            out.writelines(lines[:6])
            out.write(lines[6][: len(lines[6]) // 2])
        resumed = run(*self.ARGS, "--results", f, "--resume", path=self.tmp.name)
        self.assertEqual(resumed.returncode, 0, resumed.stderr)
        self.assertIn("RESUMED 5 games", resumed.stdout)
        self.assertEqual(len([l for l in resumed.stdout.splitlines() if l.startswith("game ")]), 17)
        keys = game_keys(f)  # every line whole JSON again
        self.assertEqual(sorted(keys), sorted(game_keys(self.reference)))
        self.assertEqual(len(set(keys)), 22)
        self.assertEqual(report_lines(resumed.stdout), report_lines(self.whole.stdout))
        # Nothing left to play: the report again, no game.
        done = run(*self.ARGS, "--results", f, "--resume", path=self.tmp.name)
        self.assertIn("RESUMED 22 games", done.stdout)
        self.assertNotIn("\ngame ", done.stdout)
        self.assertEqual(report_lines(done.stdout), report_lines(self.whole.stdout))

    def test_a_merge_of_different_runs_is_refused(self):
        other = self.path("other.jsonl")
        out = run("first", "middle", "last", "--games", "1", "--seed", "8", "--results", other, path=self.tmp.name)
        self.assertEqual(out.returncode, 0, out.stderr)
        for files, word in [
            ([self.reference, other], "not one run (settings: seed 7 against 8)"),
            ([self.reference, self.reference], "game 1 of middle + last is in both"),
            ([self.reference, os.path.join(HERE, "README.md")], "not a JSON line"),
            ([self.reference, self.path("none.jsonl")], "none.jsonl: No such file"),
        ]:
            out = run("--merge", *files)
            self.assertEqual(out.returncode, 2, (files, out.stdout))
            self.assertIn(word, out.stderr)
            self.assertNotIn("Traceback", out.stderr)
        # A run that differs in its plan only (here --games-for) plays the same games: those
        # it shares with the reference are found twice.
        shard = self.path("games-for.jsonl")
        args = self.ARGS[:-4] + ["--games-for", "second=7", "--seed", "7", "--shard", "1/2", "--results", shard, "--quiet"]
        self.assertEqual(run(*args, path=self.tmp.name).returncode, 0)
        out = run("--merge", self.reference, shard)
        self.assertEqual(out.returncode, 2)
        self.assertRegex(out.stderr, r"game \d+ of \w+ \+ second is in both .*reference.jsonl and .*games-for.jsonl")

    def test_a_run_extended_by_another_merges_into_one_report(self):
        # The reference plays 8 games a pair with `second`; a later run with 12 a pair skips
        # the first 8: the two merge into the report of one run of 12 games a pair with it
        # (the pairs and their games of both, each game once).
        longer = self.ARGS[:-4] + ["--games-for", "second=12", "--seed", "7"]
        extension = self.path("extension.jsonl")
        out = run(*longer, "--skip", "8", "--results", extension, "--quiet", path=self.tmp.name)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(sorted(k[1] for k in game_keys(extension)), [8, 8, 9, 9, 10, 10, 11, 11])
        whole = run(*longer, path=self.tmp.name)
        self.assertEqual(whole.returncode, 0, whole.stderr)
        merged = run("--merge", self.reference, extension)
        self.assertEqual(merged.returncode, 0, merged.stderr)
        self.assertIn("files 2 (shards 0/1) | games 30 of 30 planned", merged.stdout)
        self.assertEqual(report_lines(merged.stdout), report_lines(whole.stdout))
        # The extension alone: the same plan, its first 8 games a pair missing.
        alone = run("--merge", extension)
        self.assertIn("games 8 of 30 planned", alone.stdout)
        # And a run of more pairs: a pair the reference lacks joins the plan after its own.
        more = self.path("more-pairs.jsonl")
        out = run("first", "middle", "last", "raiser", "--pairs", "middle+raiser", "--games", "6", "--seed", "7",
                  "--results", more, "--quiet", path=self.tmp.name)
        self.assertEqual(out.returncode, 0, out.stderr)
        merged = run("--merge", self.reference, more)
        self.assertEqual(merged.returncode, 0, merged.stderr)
        self.assertIn("| 4 pair(s) | files 2 (shards 0/1) | games 28 of 28 planned", merged.stdout)
        pairs = [l.split(" | ")[0] for l in merged.stdout.splitlines() if l.startswith("PAIR ")]
        self.assertEqual(pairs, ["PAIR middle + last", "PAIR middle + second", "PAIR last + second", "PAIR middle + raiser"])

    def test_the_report_of_a_real_run(self):
        lines = self.whole.stdout.splitlines()
        games = [l for l in lines if l.startswith("game ")]
        self.assertEqual(len(games), 22)
        with open(self.reference) as f:
            header, *records = map(json.loads, f.read().splitlines())
        self.assertEqual(header["settings"]["plan"], [["middle", "last", 6], ["middle", "second", 8], ["last", "second", 8]])
        self.assertRegex(self.whole.stdout, r"\| run %s \|" % header["run"])
        # The standing at the end is the game's: replayed from its actions.
        for r in records:
            game = Game()
            for a in r["actions"]:
                game.play(game.to_move, from_notation(a))
            self.assertEqual(r["turns"], len(r["actions"]))
            self.assertEqual(r["exits"], game.exits)
            self.assertEqual(r["pieces"], {c: sum(v == c for v in game.board.values()) for c in COLOURS})
            if game.result[0] == "draw":
                self.assertEqual((r["result"], r["winner"]), (game.result[1], None))
            else:
                winner = r["seats"][COLOURS.index(game.result[1])]
                self.assertEqual((r["result"], r["winner"]), ("win" if winner == "first" else "loss", game.result[1]))
        # A NONWIN line per game first did not win.
        nonwins = [l for l in lines if l.startswith("NONWIN ")]
        self.assertEqual(len(nonwins), sum(r["result"] != "win" for r in records))
        self.assertGreater(len(nonwins), 0)
        for l in nonwins:
            self.assertRegex(
                l,
                r"^NONWIN pair \d \S+ \+ \S+ \| game \d+ \| .* \| \d+ turns \| "
                r"red \S+ \d exits? \d+ pieces?, green .*, blue .* \| first (led|level|behind) in exits$",
            )
        # Per agent: the sums of the pairs it is in.
        pair = {m.group(1): m for m in re.finditer(r"^PAIR (\S+ \+ \S+) \| games (\d+) \| first W (\d+) D (\d+) L (\d+)", self.whole.stdout, re.M)}
        self.assertEqual(set(pair), {"middle + last", "middle + second", "last + second"})
        for agent in ("middle", "last", "second"):
            m = re.search(r"^AGENT %s \| pairs 2 \| games (\d+) \| first W (\d+) D (\d+) L (\d+)" % agent, self.whole.stdout, re.M)
            self.assertIsNotNone(m, agent)
            mine = [p for name, p in pair.items() if agent in name.split(" + ")]
            for i in range(1, 5):
                self.assertEqual(int(m.group(i)), sum(int(p.group(i + 1)) for p in mine), agent)
        reps = sum(r["result"] == "repetition" for r in records)
        self.assertRegex(self.whole.stdout, r"SUMMARY games 22 \| draws by repetition %d \(%.1f%% of games\)" % (reps, 100.0 * reps / 22))

    def test_the_report_per_agent_and_the_standing_of_each_non_win(self):
        # Games of "us" against the pairs of a, b and c, one of each kind of result.
        settings = {
            "candidate": "us",
            "plan": [["a", "b", 6], ["a", "c", 6], ["b", "c", 6]],
            "seed": 1,
            "time": 60.0,
            "clock": None,
        }

        def game(p, g, seats, verdict, exits, pieces):
            r = record(seats, verdict, exits, pieces, game=g)
            r["pair_index"], r["pair"] = p, settings["plan"][p][:2]
            return r

        records = [
            game(0, 0, ["us", "a", "b"], ("win", "red"), (4, 1, 0), (2, 5, 4)),
            game(0, 1, ["a", "us", "b"], ("draw", "repetition"), (1, 3, 0), (6, 2, 4)),
            game(0, 2, ["a", "b", "us"], ("win", "green"), (2, 4, 1), (3, 4, 3)),
            game(1, 0, ["c", "us", "a"], ("draw", "turns"), (0, 0, 0), (4, 4, 4)),
            game(1, 1, ["us", "c", "a"], ("fault", "blue", "illegal", "blue player's action"), (0, 0, 0), (4, 4, 4)),
            game(2, 0, ["b", "c", "us"], ("fault", "blue", "timeout", "blue player exceeded available time"), (1, 0, 0), (3, 4, 5)),
            game(2, 1, ["us", "b", "c"], ("fault", None, "error", "the game did not end"), (0, 0, 0), (4, 4, 4)),
        ]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            referee_match.report(settings, records, 18, "merged 1 files", markdown=True)
        text = out.getvalue()
        nonwins = [l for l in text.splitlines() if l.startswith("NONWIN")]
        self.assertEqual(
            nonwins,
            [
                "NONWIN pair 1 a + b | game 2 | repetition draw | 100 turns | red a 1 exit 6 pieces, green us 3 exits 2 pieces, "
                "blue b 0 exits 4 pieces | us led in exits",
                "NONWIN pair 1 a + b | game 3 | loss: green (b) won | 100 turns | red a 2 exits 3 pieces, green b 4 exits 4 pieces, "
                "blue us 1 exit 3 pieces | us behind in exits",
                "NONWIN pair 2 a + c | game 1 | turn-limit draw | 100 turns | red c 0 exits 4 pieces, green us 0 exits 4 pieces, "
                "blue a 0 exits 4 pieces | us level in exits",
                "NONWIN pair 2 a + c | game 2 | forfeit of blue (a), illegal: blue player's action | 100 turns | red us 0 exits 4 pieces, "
                "green c 0 exits 4 pieces, blue a 0 exits 4 pieces | us level in exits",
                "NONWIN pair 3 b + c | game 1 | loss: own fault, timeout: blue player exceeded available time | 100 turns | "
                "red b 1 exit 3 pieces, green c 0 exits 4 pieces, blue us 0 exits 5 pieces | us behind in exits",
                "NONWIN pair 3 b + c | game 2 | forfeit of nobody known, error: the game did not end | 100 turns | red us 0 exits 4 pieces, "
                "green b 0 exits 4 pieces, blue c 0 exits 4 pieces | us level in exits",
            ],
        )
        self.assertIn(
            "PAIR a + b | games 3 | us W 1 D 1 L 1 | played out 3 | win rate 33.3% | draws by repetition 1 (while ahead 1), by turns 0 | "
            "opponents' forfeits 0 (timeout 0, illegal 0, error 0) | own faults 0 (timeout 0, illegal 0, error 0) | wins a 0, b 1 | "
            "non-wins led in exits 1, level 0, behind 1 |",
            text,
        )
        # a: in pairs 1 and 2 (5 games, one a forfeit of its own); c: pairs 2 and 3.
        self.assertIn(
            "AGENT a | pairs 2 | games 5 | us W 1 D 2 L 1 | played out 4 | win rate 25.0% | draws by repetition 1 (while ahead 1), "
            "by turns 1 | opponents' forfeits 1 (timeout 0, illegal 1, error 0; by a 1) | own faults 0 (timeout 0, illegal 0, error 0) | "
            "wins a 0 | non-wins led in exits 1, level 1, behind 1 |",
            text,
        )
        self.assertIn(
            "AGENT c | pairs 2 | games 4 | us W 0 D 1 L 1 | played out 2 | win rate 0.0% | draws by repetition 0 (while ahead 0), "
            "by turns 1 | opponents' forfeits 1 (timeout 0, illegal 1, error 0; by a 1) | own faults 1 (timeout 1, illegal 0, error 0) |",
            text,
        )
        self.assertIn(
            "SUMMARY games 7 | draws by repetition 1 (14.3% of games), by turns 1 | us W 1 D 2 L 2 of 5 played out: 20.0%, "
            "worst pair 0.0% | opponents' forfeits 1 (timeout 0, illegal 1, error 0) | own faults 1 (timeout 1, illegal 0, error 0) | "
            "over the clock 0 | repetition draws while ahead in exits 1 | non-wins led in exits 1, level 1, behind 2 | "
            "missing 11 of 18 planned | load ",
            text,
        )
        self.assertIn("PLAYER a W 0 D 2 L 3 (timeout 0 illegal 1 error 0) ended-by-another 0 |", text)
        self.assertIn("PLAYER c W 0 D 1 L 0 (timeout 0 illegal 0 error 0) ended-by-another 3 |", text)
        self.assertIn("| a + b | 3 | 1 | 1 | 0 | 1 | 33.3% | 0 | 1 |", text)
        self.assertIn("| a (2 pairs) | 5 | 1 | 1 | 1 | 1 | 25.0% | 1 | 1 |", text)
        self.assertIn("| **all** | 7 | 1 | 1 | 1 | 2 | 20.0% | 2 | 1 |", text)


# The ends of real course-referee (v1.1) outputs at -v 1, one for each kind of early ending
# (packages made to fail on purpose, the boards left out).
REAL_INVALID = """\
* updating blue player with red's action ('MOVE', ((-3, 3), (-2, 2)))...
*   time:  + 0.000s  (just elapsed)    0.000s  (game total)
*   space:   0.000MB (current usage)   0.000MB (max usage) (shared)
* ** green player's turn **
* asking green player for next action...
*   green player returned action: ('EXIT', (0, 0))
*   time:  + 0.000s  (just elapsed)    0.000s  (game total)
*   space:   0.000MB (current usage)   0.000MB (max usage) (shared)
* ** game error **
* error: invalid action!
* green player's action, ('EXIT', (0, 0)), is not well-formed or not available. See specification and game \
rules for details, or consider currently available actions:
*   ('MOVE', ((1, -3), (1, -2)))
*   ('MOVE', ((1, -3), (0, -2)))
"""
REAL_TIMEOUT_ACTION = """\
* updating blue player with green's action ('MOVE', ((1, -3), (1, -2)))...
*   time:  + 0.000s  (just elapsed)    0.000s  (game total)
*   space:   0.000MB (current usage)   0.000MB (max usage) (shared)
* ** blue player's turn **
* asking blue player for next action...
* ** game error **
* error: resource limit exceeded!
* blue player exceeded available time
"""
REAL_TIMEOUT_UPDATE = """\
* updating red player with red's action ('MOVE', ((-3, 3), (-2, 2)))...
*   time:  + 0.000s  (just elapsed)    0.000s  (game total)
*   space:   0.000MB (current usage)   0.000MB (max usage) (shared)
* updating green player with red's action ('MOVE', ((-3, 3), (-2, 2)))...
* ** game error **
* error: resource limit exceeded!
* green player exceeded available time
"""
REAL_SPACE = """\
* updating blue player with blue's action ('MOVE', ((3, 0), (2, 0)))...
*   time:  + 0.000s  (just elapsed)    0.000s  (game total)
*   space:   0.000MB (current usage)   0.000MB (max usage) (shared)
* ** red player's turn **
* asking red player for next action...
* ** game error **
* error: resource limit exceeded!
* players exceeded shared space limit
"""
# An exception (the traceback goes to stderr) or a hang: the output stops in the call.
REAL_STOPPED = """\
* updating blue player with red's action ('MOVE', ((-3, 3), (-2, 2)))...
*   time:  + 0.000s  (just elapsed)    0.000s  (game total)
*   space:   0.000MB (current usage)   0.000MB (max usage) (shared)
* ** green player's turn **
* asking green player for next action...
"""
REAL_INIT = """\
* ** initialising players **
* initialising red player as a 'seat_red.Seat_red'
"""


class ReadsTheRefereesOutput(unittest.TestCase):
    """The course referee's verdicts and log lines, as v1.1 prints them."""

    def test_every_early_ending_names_its_player_and_call(self):
        # The verdict names the player (an invalid action, a time-out) or the commentary
        # does (the shared space limit: the call that was running); an exception or a hang
        # leaves no verdict, and the call that was running names the player.
        for text, verdict, call in [
            (REAL_INVALID, ("fault", "green", "illegal"), (None, None)),
            (REAL_TIMEOUT_ACTION, ("fault", "blue", "timeout"), ("blue", "action")),
            (REAL_TIMEOUT_UPDATE, ("fault", "green", "timeout"), ("green", "update")),
            (REAL_SPACE, ("fault", "red", "space"), ("red", "action")),
            (REAL_STOPPED, None, ("green", "action")),
            (REAL_INIT, None, ("red", "init")),
            ("* asking red player for next action...\n*   red player returned action: ('PASS', None)\n"
             "*   time:  + 0.000s  (just elapsed)    0.000s  (game total)\n* ** game over! **\n* winner: Red\n",
             ("win", "red"), (None, None)),
        ]:
            got = referee_match.parse_result(text)
            self.assertEqual(got if got is None else got[:3], verdict, text)
            self.assertEqual(referee_match.call_in_progress(text), call, text)
        self.assertEqual(referee_match.parse_result(REAL_SPACE)[3], "players exceeded shared space limit (in red player's action)")
        # As a game's record: the package, its call, whether it is the candidate.
        for text, seats, ended_by in [
            (REAL_TIMEOUT_UPDATE, ["a", "us", "b"], {"colour": "green", "package": "us", "kind": "timeout", "phase": "update", "candidate": True}),
            (REAL_SPACE, ["a", "us", "b"], {"colour": "red", "package": "a", "kind": "space", "phase": "action", "candidate": False}),
            (REAL_INVALID, ["a", "b", "us"], {"colour": "green", "package": "b", "kind": "illegal", "phase": "action", "candidate": False}),
        ]:
            r = record(seats, referee_match.parse_result(text), (0, 0, 0), call=referee_match.call_in_progress(text))
            self.assertEqual({k: v for k, v in r["ended_by"].items() if k != "detail"}, ended_by, text)
            self.assertEqual(r["result"], "loss" if ended_by["candidate"] else "forfeit")
        self.assertIsNone(record(["a", "us", "b"], ("win", "red"), (4, 0, 0))["ended_by"])

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
                "[green] - JUMP from (2.0, -2.0) to (0.0, -2.0).\n"
                "[over ] - winner: Blue\n"
            )
        self.assertEqual(
            referee_match.parse_log(path),
            [
                ("red", ("MOVE", ((-3, 1), (-2, 0)))),
                ("green", ("JUMP", ((0, -3), (-2, -1)))),
                ("blue", ("EXIT", (-3, 0))),
                ("red", ("PASS", None)),
                # An agent that answers in floats (beta_come): the referee plays them.
                ("green", ("JUMP", ((2, -2), (0, -2)))),
            ],
        )
        with open(path, "w") as f:
            f.write("[red  ] - MOVE from (2.5, -2) to (0, -2).\n")
        with self.assertRaisesRegex(ValueError, "cannot read"):
            referee_match.parse_log(path)

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
