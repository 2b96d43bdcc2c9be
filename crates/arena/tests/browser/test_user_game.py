"""A user's own game in the page of `arena web`: the example `examples/connect-four`, whose
binary is `Arena::with_default_games().game::<ConnectFour>()`, serves `/connect-four` from
the game's registration alone (its `BoardView`: a grid of cells, stones, and for each move
the cell its stone lands on). In headless Chromium: the page lists the game, draws its 42
cells, takes a click on a landing cell as the move, answers with the engine, highlights the
last move, analyses (the best move's cell marked) and refuses an illegal move with the
game's own reason.

Run by `cargo xtask ci` (xtask/src/example.rs) as:
    ARENA=examples/connect-four/target/release/connect-four-arena SHOTS=target/web-screenshots \
        python -m unittest -v test_user_game
"""

import unittest
from urllib.parse import quote

from selenium.webdriver.common.by import By

from test_web import BOX_JS, ENGINE, BrowserCase, arena, centre_in, overlap

GAME = "connect-four"


class UserGamePage(BrowserCase):
    def test_the_game_is_listed_and_played_by_clicks(self):
        d = self.driver
        d.get(self.server.url + "/")
        p = self.page(GAME)
        p.wait(lambda: d.find_elements(By.CSS_SELECTOR, f'a[href="/{GAME}"]'), "the game in the index")
        p.open("seats=" + quote("human~" + ENGINE))
        p.wait_human()
        self.assertEqual(p.text("position"), arena("apply", GAME, "start")[0])
        cells = d.find_elements(By.CSS_SELECTOR, "#board [data-cell]")
        self.assertEqual(len(cells), 42)
        # Each legal move is a cell to click, the lowest of its column.
        targets = sorted(p.targets())
        self.assertEqual(targets, ["a1", "b1", "c1", "d1", "e1", "f1", "g1"])
        p.shot("start")
        p.click_spot("d1")
        p.wait(lambda: len(p.moves()) >= 2, "the move and the engine's reply")
        p.wait_human()
        moves = p.moves()
        self.assertEqual(moves[0], "4")
        p.check_position()
        self.assertTrue(d.find_elements(By.CSS_SELECTOR, "#board .last.to"))
        # The stone stands on d1 (a piece on the cell the move named).
        self.assertEqual(
            d.execute_script(
                "return [...document.querySelectorAll('#board .piece[data-player=\"x\"]')].length > 0"
            ),
            True,
        )
        # An illegal move is refused with the game's own reason.
        box = d.find_element(By.ID, "move-input")
        box.clear()
        box.send_keys("9\n")
        p.wait(lambda: p.text("message") != "", "the refusal")
        self.assertIn("no column 9", p.text("message"))
        p.shot("mid")

    def test_analysis_marks_the_best_cell(self):
        d = self.driver
        p = self.page(GAME)
        p.open("seats=human~human")
        d.find_element(By.ID, "analysis-time").clear()
        d.find_element(By.ID, "analysis-time").send_keys("20")
        d.find_element(By.ID, "analyse").click()
        p.wait(lambda: p.text("info-depth") not in ("", "0", "1"), "two iterations")
        best = p.text("info-best")
        self.assertIn(best, arena("moves", GAME, p.text("position")))
        p.wait(lambda: d.find_elements(By.CSS_SELECTOR, "#board .target-ring.best"), "the best move's cell")
        p.shot("analysis")
        d.find_element(By.ID, "analyse").click()
        p.wait(lambda: d.find_element(By.ID, "analyse").text == "Analyse", "the stop")

    def test_coordinates_stay_in_their_own_holes(self):
        d = self.driver
        p = self.page(GAME)
        p.open("seats=human~human")
        # An upright frame of holes: coordinates are off until asked for.
        self.assertFalse(d.find_element(By.ID, "coords").is_selected())
        self.assertTrue(d.find_elements(By.CSS_SELECTOR, "#board .grid-frame"))
        d.find_element(By.ID, "coords").click()
        p.wait(lambda: d.find_elements(By.CSS_SELECTOR, "#board .coord"), "the coordinates")
        m = d.execute_script(
            BOX_JS
            + """return [[...document.querySelectorAll('#board [data-cell]')].map(e => [e.getAttribute('data-cell'), box(e)]),
                    [...document.querySelectorAll('#board .coord')].map(e => [e.textContent, box(e)])];"""
        )
        cells, coords = dict(m[0]), m[1]
        self.assertEqual(sorted(t for t, _ in coords), sorted(cells))
        for text, b in coords:
            # In its own hole, over no other (once they were written over the next row).
            self.assertTrue(centre_in(b, cells[text]), text)
            for cell, c in cells.items():
                self.assertTrue(cell == text or not overlap(b, c), f"{text} over {cell}")
        p.shot("coordinates")


if __name__ == "__main__":
    unittest.main(verbosity=2)
