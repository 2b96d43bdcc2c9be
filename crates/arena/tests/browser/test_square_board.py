"""A board of squares in the page of `arena web`: the 6×6 Breakthrough of
`crates/arena/examples/breakthrough` (a game registered through the public API, whose
`BoardView` asks for `Layout::Squares`). In headless Chromium: the squares are shaded by the
parity of file + rank (a1 dark, as on a chess board; no two neighbours alike), the files are
written along the bottom and the ranks along the left side, outside the board where they
overlap no square, and the board plays by clicks against the engine.

Run by `cargo xtask web` (xtask/src/web.rs) as:
    ARENA=target/debug/examples/breakthrough SHOTS=target/web-screenshots \
        python -m unittest -v test_square_board
"""

import unittest
from urllib.parse import quote

from selenium.webdriver.common.by import By

from test_web import BOX_JS, ENGINE, BrowserCase, centre_in, overlap

GAME = "breakthrough"
FILES = "abcdef"
RANKS = "123456"

# Every square's id, its fill as drawn, and its box on the screen; and every coordinate
# label's text and box.
MEASURE = BOX_JS + """
return {
  cells: [...document.querySelectorAll('#board [data-cell]')].map(e =>
    [e.getAttribute('data-cell'), getComputedStyle(e).fill, box(e)]),
  files: [...document.querySelectorAll('#board [data-file]')].map(e => [e.textContent, box(e)]),
  ranks: [...document.querySelectorAll('#board [data-rank]')].map(e => [e.textContent, box(e)]),
};
"""


class SquareBoard(BrowserCase):
    def measure(self):
        p = self.page(GAME)
        p.open("seats=human~human")
        return p, self.driver.execute_script(MEASURE)

    def test_squares_are_chequered_by_file_and_rank(self):
        p, m = self.measure()
        fill = {cell: colour for cell, colour, _ in m["cells"]}
        self.assertEqual(sorted(fill), sorted(f + r for f in FILES for r in RANKS))
        self.assertEqual(len(set(fill.values())), 2, fill)
        dark = fill["a1"]
        for f, file in enumerate(FILES):
            for r, rank in enumerate(RANKS):
                cell = file + rank
                # a1 is dark, and the shade changes with every step along a file or a rank
                # (listing order would give stripes on a board of an even width).
                self.assertEqual(fill[cell] == dark, (f + r) % 2 == 0, cell)
                if f + 1 < len(FILES):
                    self.assertNotEqual(fill[cell], fill[FILES[f + 1] + rank], cell)
                if r + 1 < len(RANKS):
                    self.assertNotEqual(fill[cell], fill[file + RANKS[r + 1]], cell)
        # The colours drawn match the squares' places on the screen, too: a1 bottom left.
        box = {cell: b for cell, _, b in m["cells"]}
        self.assertLess(box["a1"][0], box["b1"][0])
        self.assertGreater(box["a1"][1], box["a2"][1])
        p.shot("start")

    def test_coordinates_lie_outside_the_board_beside_their_file_and_rank(self):
        p, m = self.measure()
        # On by default for a board of squares.
        self.assertTrue(self.driver.find_element(By.ID, "coords").is_selected())
        box = {cell: b for cell, _, b in m["cells"]}
        self.assertEqual([t for t, _ in m["files"]], list(FILES))
        self.assertEqual([t for t, _ in m["ranks"]], list(reversed(RANKS)))
        labels = m["files"] + m["ranks"]
        for text, b in labels:
            self.assertGreater(b[2] - b[0], 0, text)
            for cell, c in box.items():
                self.assertFalse(overlap(b, c), f"label {text} {b} overlaps square {cell} {c}")
        bottom = max(c[3] for c in box.values())
        left = min(c[0] for c in box.values())
        for text, b in m["files"]:
            # Under the bottom rank, within its file's column.
            column = box[text + "1"]
            self.assertGreaterEqual(b[1], bottom, text)
            self.assertTrue(centre_in(b, [column[0], b[1], column[2], b[3]]), text)
        for text, b in m["ranks"]:
            # Left of file a, within its rank's row.
            row = box["a" + text]
            self.assertLessEqual(b[2], left, text)
            self.assertTrue(centre_in(b, [b[0], row[1], b[2], row[3]]), text)
        # Off: no labels.
        self.driver.find_element(By.ID, "coords").click()
        p.wait(lambda: not self.driver.find_elements(By.CSS_SELECTOR, "#board [data-file]"), "the labels gone")
        self.driver.find_element(By.ID, "coords").click()
        p.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#board [data-file]"), "the labels back")

    def test_the_board_plays_by_clicks_against_the_engine(self):
        d = self.driver
        p = self.page(GAME)
        p.open("seats=" + quote("human~" + ENGINE))
        p.wait_human()
        p.click_spot("c2")
        self.assertEqual(sorted(p.targets()), ["b3", "c3", "d3"])
        p.click_spot("d3")
        p.wait(lambda: len(p.moves()) >= 2, "the move and the engine's reply")
        p.wait_human()
        self.assertEqual(p.moves()[0], "c2-d3")
        p.check_position()
        self.assertTrue(d.find_elements(By.CSS_SELECTOR, "#board .last.to"))
        p.shot("mid")


if __name__ == "__main__":
    unittest.main(verbosity=2)
