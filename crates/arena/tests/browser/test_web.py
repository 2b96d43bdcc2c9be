"""The page of `arena web` in a real browser: headless Chromium (Debian's `chromium` and
`chromium-driver`) driven through its driver by Selenium.

For every game: open the page (the first seat a person's, the others the engine's), play
moves by clicking cells and by the text box, compare `#position` with `arena apply` from
the same start, let the engine reply, refuse an illegal move, go back and forward, take a
move back, reload from the URL fragment, analyse (a best-move arrow), play the last move of
a short game to its result, and solve (Jumpy3, Chaos Clock). Screenshots of every board go
to $SHOTS (start, mid-game, analysis, end).

Run by `cargo xtask ci` (xtask/src/web.rs) as:
    ARENA=target/debug/arena SHOTS=target/web-screenshots python -m unittest -v test_web
"""

import os
import shutil
import subprocess
import tempfile
import time
import unittest
from urllib.parse import quote

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ARENA = os.environ["ARENA"]
SHOTS = os.environ.get("SHOTS", "target/web-screenshots")
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
WAIT = 60  # seconds: the longest any step may take

GAMES = ["jumpy3", "chexers", "throne", "chaosclock"]
PLAYERS = {"jumpy3": 2, "chexers": 3, "throne": 2, "chaosclock": 2}
# The engine seats of the tests: quick and deterministic.
ENGINE = "engine,depth=2@200"

# One move from the end, and how to play that move by clicking: (from spot, to spot),
# or the Pass button.
ENDS = {
    "jumpy3": ("B..............W w", "16", ("16", "off-w")),
    "chexers": ("...r/...../....../......./....../...../g..b r 3,0,0 9", "EXIT 3 -3", ("3,-3", "exit-r")),
    "throne": (
        "wwwwww/...W.../......../........./........../.........../........../........./......../...B.../bbbbbb w 299 0 0 0 0",
        "pass",
        "pass",
    ),
    "chaosclock": ("1,4,3,6,5,8,7,10,9,12,2,0;0;0", "p11", ("hand-odd", "11")),
}
# Small positions to solve (a pawn a side; a Chaos Clock position from the tests' data).
SOLVE = {
    "jumpy3": "W..w.......b...B w",
    "chaosclock": "1,2,0,8,0,3,5,6,0,10,9,12;1;9",
}


# JavaScript: `box(e)`, an element's box on the screen as [left, top, right, bottom].
BOX_JS = "const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };"


def overlap(a, b):
    """Whether two boxes [left, top, right, bottom] share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def centre_in(a, b):
    """Whether the centre of box `a` lies in box `b`."""
    x, y = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
    return b[0] <= x <= b[2] and b[1] <= y <= b[3]


def arena(*args):
    out = subprocess.run([ARENA, *args], capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    if out.returncode != 0:
        raise AssertionError(f"arena {args}: {out.stderr}")
    return out.stdout.splitlines()


class Server:
    def __init__(self):
        self.proc = subprocess.Popen(
            [ARENA, "web", "--addr", "127.0.0.1:0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        first = self.proc.stdout.readline().strip()
        assert first.startswith("listening "), first
        self.url = "http://" + first.split(" ", 1)[1]

    def stop(self):
        self.proc.kill()
        self.proc.wait()


def make_driver(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1400,1000",
    ]:
        options.add_argument(arg)
    return webdriver.Chrome(options=options, service=Service(executable_path=DRIVER))


class Page:
    """One game's page and the moves on it."""

    def __init__(self, test, driver, base, game):
        self.t, self.d, self.base, self.game = test, driver, base, game

    def open(self, fragment=""):
        # A blank page between two opens, so that a new fragment loads a new page.
        self.d.get("about:blank")
        self.d.get(f"{self.base}/{self.game}" + (("#" + fragment) if fragment else ""))
        self.wait(lambda: self.text("position") != "")

    def wait(self, cond, what="a condition"):
        def check(_):
            try:
                return cond()
            except StaleElementReferenceException:
                return False

        return WebDriverWait(self.d, WAIT, poll_frequency=0.05).until(check, what)

    def text(self, id_):
        return self.d.find_element(By.ID, id_).text.strip()

    def moves(self):
        lines = [l.strip() for l in self.d.find_element(By.ID, "moves").text.splitlines() if l.strip()]
        out = []
        for i, l in enumerate(lines, 1):
            prefix = f"{i}. "
            self.t.assertTrue(l.startswith(prefix), l)
            out.append(l[len(prefix):])
        return out

    def start(self):
        return self.d.execute_script("return new URLSearchParams(location.hash.slice(1)).get('start') || 'start'")

    def snapshot(self):
        """#position and #moves read together (an engine may move at any moment)."""
        pos, moves = self.d.execute_script(
            "return [document.getElementById('position').textContent,"
            " document.getElementById('moves').innerText]"
        )
        lines = [l.strip() for l in moves.splitlines() if l.strip()]
        return pos.strip(), [l.split(". ", 1)[1] for l in lines]

    def check_position(self):
        """#position is what `arena apply` reaches from the same start with #moves."""
        pos, moves = self.snapshot()
        want = arena("apply", self.game, self.start(), *moves)
        self.t.assertEqual(pos, want[0], moves)
        return want

    def human_to_move(self):
        turn = self.text("turn")
        return (turn.endswith("to move") and "(engine)" not in turn) or self.text("result") != ""

    def wait_human(self):
        self.wait(self.human_to_move, "a person's turn")

    def spot(self, id_):
        for sel in (f'[data-cell="{id_}"]', f'[data-spot="{id_}"]'):
            found = self.d.find_elements(By.CSS_SELECTOR, sel)
            if found:
                return found[0]
        raise AssertionError(f"no spot {id_}")

    def click_spot(self, id_):
        self.spot(id_).click()

    def targets(self):
        return [e.get_attribute("data-target") for e in self.d.find_elements(By.CSS_SELECTOR, "[data-target]")]

    def click_a_move(self):
        """Clicks pieces until one shows where it may go, then clicks its first target."""
        before = len(self.moves())
        cells = [e.get_attribute("data-cell") for e in self.d.find_elements(By.CSS_SELECTOR, "[data-cell]")]
        zones = [e.get_attribute("data-spot") for e in self.d.find_elements(By.CSS_SELECTOR, "[data-spot]")]
        for id_ in cells + zones:
            self.click_spot(id_)
            targets = self.targets()
            if targets:
                self.click_spot(targets[0])
                self.wait(lambda: len(self.moves()) > before, "the clicked move")
                return id_, targets[0]
        raise AssertionError("no piece could be moved by clicking")

    def type_move(self, move):
        box = self.d.find_element(By.ID, "move-input")
        box.clear()
        box.send_keys(move)
        box.send_keys(Keys.ENTER)

    def shot(self, name):
        os.makedirs(SHOTS, exist_ok=True)
        self.d.save_screenshot(os.path.join(SHOTS, f"{self.game}-{name}.png"))


class BrowserCase(unittest.TestCase):
    """Tests with one `arena web` server and one headless Chromium for the class."""

    @classmethod
    def setUpClass(cls):
        cls.server = Server()
        cls.profile = tempfile.mkdtemp(prefix="arena-web-chromium-")
        cls.driver = make_driver(cls.profile)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.stop()
        shutil.rmtree(cls.profile, ignore_errors=True)

    def page(self, game):
        return Page(self, self.driver, self.server.url, game)


class WebPage(BrowserCase):

    def test_1_every_game_by_click_and_text_box_against_the_engine(self):
        for game in GAMES:
            with self.subTest(game=game):
                p = self.page(game)
                # The contract: /GAME starts from the rules' start, the first seat a person's,
                # the others the engine's.
                p.open()
                # The start, or (Chaos Clock, where Even moves first) the engine's first move.
                self.assertEqual(p.start(), "start")
                p.check_position()
                who = [s.get_attribute("value") for s in self.driver.find_elements(By.CSS_SELECTOR, ".seat select.who")]
                self.assertEqual(who, ["human"] + ["engine"] * (PLAYERS[game] - 1))
                cells = self.driver.find_elements(By.CSS_SELECTOR, "#board [data-cell]")
                self.assertEqual(len(cells), {"jumpy3": 16, "chexers": 37, "throne": 91, "chaosclock": 12}[game])
                p.wait_human()
                p.check_position()
                p.shot("start")
                # Quick engines for the rest.
                seats = "~".join(["human"] + [ENGINE] * (PLAYERS[game] - 1))
                p.open("seats=" + quote(seats))
                p.wait_human()
                p.check_position()
                # A move by clicking; the engine replies.
                n = len(p.moves())
                frm, to = p.click_a_move()
                p.wait_human()
                moves = p.moves()
                self.assertGreaterEqual(len(moves), n + PLAYERS[game] if not p.text("result") else n + 1)
                p.check_position()
                # The last move is highlighted.
                self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "#board .last.to"))
                # A move typed into the text box.
                n = len(p.moves())
                legal = arena("moves", game, p.text("position"))
                p.type_move(legal[-1])
                p.wait(lambda: len(p.moves()) > n, "the typed move")
                self.assertEqual(p.moves()[n], legal[-1])
                p.wait_human()
                p.check_position()
                # An illegal move is refused with a reason; nothing changes.
                pos, n = p.text("position"), len(p.moves())
                p.type_move("nonsense 99")
                p.wait(lambda: p.text("message") != "", "the refusal")
                self.assertIn("nonsense", p.text("message"))
                self.assertEqual((p.text("position"), len(p.moves())), (pos, n))
                p.shot("mid")
                # Back and forward.
                moves = p.moves()
                self.driver.find_element(By.ID, "back").click()
                p.wait(lambda: p.text("position") == arena("apply", game, "start", *moves[:-1])[0], "one back")
                self.driver.find_element(By.ID, "forward").click()
                p.wait(lambda: p.text("position") == pos, "forward again")
                # Reload from the URL fragment: the same game.
                url = self.driver.current_url
                self.assertIn("moves=", url)
                self.driver.get("about:blank")
                self.driver.get(url)
                p.wait(lambda: p.text("position") == pos, "the reloaded game")
                self.assertEqual(p.moves(), moves)
                # Undo: back to the person's previous turn.
                self.driver.find_element(By.ID, "undo").click()
                p.wait(lambda: len(p.moves()) < len(moves), "the take-back")
                p.wait_human()
                p.check_position()
                self.assertTrue(p.human_to_move())

    def test_2_analysis_shows_lines_and_an_arrow(self):
        for game in GAMES:
            with self.subTest(game=game):
                p = self.page(game)
                # Both (all) seats people's: nothing moves by itself.
                p.open("seats=" + "~".join(["human"] * PLAYERS[game]))
                self.driver.find_element(By.ID, "analysis-time").clear()
                self.driver.find_element(By.ID, "analysis-time").send_keys("20")
                self.driver.find_element(By.ID, "analyse").click()
                p.wait(lambda: p.text("info-depth") not in ("", "0", "1"), "two iterations")
                # Read together: the next iteration may come at any moment.
                best, pv = self.driver.execute_script(
                    "return [document.getElementById('info-best').textContent,"
                    " document.getElementById('info-pv').title]"
                )
                self.assertIn(best, arena("moves", game, p.text("position")))
                self.assertEqual(pv.split("  ")[0], best)
                p.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#board .arrow"), "the best-move arrow")
                p.shot("analysis")
                self.driver.find_element(By.ID, "analyse").click()
                p.wait(lambda: self.driver.find_element(By.ID, "analyse").text == "Analyse", "the stop")

    def test_3_short_games_end_with_the_result_of_arena_apply(self):
        for game in GAMES:
            with self.subTest(game=game):
                start, last, how = ENDS[game]
                p = self.page(game)
                # People in every seat: the last move is the test's.
                p.open("start=" + quote(start) + "&seats=" + "~".join(["human"] * PLAYERS[game]))
                p.wait_human()
                if how == "pass":
                    self.driver.find_element(By.ID, "pass").click()
                else:
                    frm, to = how
                    p.click_spot(frm)
                    self.assertIn(to, p.targets())
                    p.click_spot(to)
                p.wait(lambda: p.text("result") != "", "the result")
                self.assertEqual(p.moves()[0], last)
                want = p.check_position()
                results = [l for l in want if l.startswith("result: ")]
                self.assertEqual(len(results), 1, want)
                self.assertEqual(p.text("result"), results[0][len("result: "):])
                p.shot("end")

    def test_4_solve_shows_the_value_and_every_best_move(self):
        for game, pos in SOLVE.items():
            with self.subTest(game=game):
                p = self.page(game)
                p.open("start=" + quote(pos) + "&seats=" + "~".join(["human"] * PLAYERS[game]))
                self.driver.find_element(By.ID, "solve").click()
                p.wait(lambda: "best:" in p.text("solve-result"), "the solution")
                out = arena("solve", game, pos)
                best = next(l for l in out if l.startswith("best:"))
                self.assertIn(best, p.text("solve-result"))
                p.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#board .arrow.solve"), "the arrows")
                p.shot("solve")

    def test_5_clocks_run_for_the_side_to_move(self):
        p = self.page("throne")
        # The contest's time control: 2 minutes and 150 moves a side.
        p.open("clock=120000~150&seats=human~" + quote(ENGINE))
        clocks = self.driver.find_elements(By.CSS_SELECTOR, "#clocks .clock")
        self.assertEqual([c.get_attribute("data-player") for c in clocks], ["b", "w"])
        running = lambda: [c.get_attribute("data-player") for c in self.driver.find_elements(By.CSS_SELECTOR, "#clocks .clock.running")]
        self.assertEqual(running(), ["b"])

        def seconds(c):
            m, s = c.text.strip().split(":")
            return int(m) * 60 + float(s)

        p.click_a_move()
        p.wait_human()
        p.wait(lambda: running() == ["b"], "Black's clock running again")
        # Both clocks were charged for their moves, and neither went up.
        p.wait(lambda: all(seconds(c) < 120 for c in self.driver.find_elements(By.CSS_SELECTOR, "#clocks .clock")), "both clocks charged")
        p.check_position()
        p.shot("clock")

    def test_6_a_record_file_loads(self):
        p = self.page("chexers")
        p.open("seats=human~human~human")
        moves = ["MOVE -3 1 -2 1", "MOVE 0 -3 0 -2", "MOVE 2 1 1 1"]
        start = arena("apply", "chexers", "start")[0]
        text = "# plyforge record: Chexers\ngame chexers\nstart " + start + "\n" + "".join(
            f"{i}. {m}\n" for i, m in enumerate(moves, 1)
        )
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(text)
        try:
            load = self.driver.find_element(By.ID, "load")
            self.driver.execute_script("arguments[0].hidden = false", load)
            load.send_keys(f.name)
            p.wait(lambda: p.moves() == moves, "the loaded moves")
            self.assertEqual(p.start(), start)
            p.check_position()
        finally:
            os.unlink(f.name)

    def test_7_seats_fit_their_card_in_a_narrow_window(self):
        # At 1300 px the Seats panel's inputs once ran past the card's right edge.
        self.driver.set_window_size(1300, 900)
        try:
            for game in GAMES:
                with self.subTest(game=game):
                    p = self.page(game)
                    p.open()
                    edges = self.driver.execute_script(
                        """const card = document.getElementById('seats-panel').getBoundingClientRect();
                        return [card.right, [...document.querySelectorAll('#seats input, #seats select')]
                            .map(e => e.getBoundingClientRect().right)];"""
                    )
                    card, inputs = edges
                    self.assertEqual(len(inputs), 3 * PLAYERS[game])
                    for right in inputs:
                        self.assertLessEqual(right, card, f"{game}: an input ends at {right}, the card at {card}")
                    if game == "chexers":
                        self.driver.save_screenshot(os.path.join(SHOTS, "seats-1300.png"))
        finally:
            self.driver.set_window_size(1400, 1000)


if __name__ == "__main__":
    unittest.main(verbosity=2)
