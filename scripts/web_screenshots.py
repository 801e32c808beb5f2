#!/usr/bin/env python3
"""The page's pictures in docs/images (README.md, docs/web.md), taken in headless Chromium as
scripts/browser_test.py drives it. Usage: web_screenshots.py BOARDLAB_BINARY [DIR]
(DIR: docs/images). Run with the venv of scripts/browser.sh; not run by CI."""

import os
import sys
import time

from browser_test import CHAIN_LINE, PROMOTION_LINE, Page, Server, By


def main():
    binary = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else "docs/images"
    server = Server(binary)
    page = Page(server, os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"), size=(1000, 700))
    p = page

    def shot(name):
        time.sleep(0.3)  # the last frame drawn
        p.d.save_screenshot(os.path.join(out, name))
        print("wrote", os.path.join(out, name))

    try:
        # Checkers: a two-jump chain half played, its next landing dotted.
        p.open("checkers", CHAIN_LINE)
        p.click("d2")
        p.wait_dots({"f4"})
        p.click("f4")
        p.wait_dots({"h6"})
        shot("web-checkers.png")
        # Chess: a pawn takes on h8, the chooser asks for the piece.
        p.open("chess", PROMOTION_LINE)
        p.click("g7")
        p.wait_dots({"f8", "h8"})
        p.click("h8")
        p.wait("the chooser", lambda: p.d.find_element(By.ID, "chooser").is_displayed())
        shot("web-chess-promotion.png")
        # Amazons: the queen's move chosen, the arrow's cells dotted.
        p.open("amazons", ["d1-d7/g7"])
        p.click("g10")
        p.click("e8")
        p.wait("the arrow's cells", lambda: len(p.dots()) > 3)
        shot("web-amazons.png")
        # Pyramida: the machine has moved, its line shown.
        p.open("pyramida")
        field = p.d.find_element(By.ID, "engine")
        field.clear()
        field.send_keys("ab:d3")
        p.button("#machine")
        p.wait("the machine's move", lambda: len(p.moves()) == 1)
        shot("web-pyramida.png")
    finally:
        p.d.quit()
        server.stop()


if __name__ == "__main__":
    main()
