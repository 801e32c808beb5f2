#!/usr/bin/env python3
"""`boardlab serve`'s page driven in a real browser: headless Chromium through chromedriver
(Selenium's WebDriver client). Usage: browser_test.py BOARDLAB_BINARY.

It starts `boardlab serve checkers --port 0`, opens the printed address and plays as a person
would, with real mouse clicks on the board: a checkers move and a two-jump chain (one landing
at a time, then at once), a Connect Four drop, a chess promotion through its chooser, an Amazons
two-part turn, a machine move, flip, the arrow keys, undo; every check reads the page (its
move list, its board) and the API's state. It measures how long the page takes to draw
Pyramida's 97 cells, and opens every variant's page (no script error; with
BOARDLAB_SCREENSHOTS=DIR, a screenshot of each into DIR).

Run by scripts/browser.sh (CI: .ci/run). Exit status 1 when a check fails.
"""

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 20  # seconds any one page change may take (a machine move on a loaded CI machine)

# A checkers line after which black's man on d2 has a two-jump chain: d2xf4 over e3, then
# f4xh6 over g5 (white's men got there by g5xe3 and f6-g5; f4 and h6 were emptied by them).
CHAIN_LINE = ("c3-b4 f6-e5 b4-c5 d6xb4 a3xc5 b6xd4 e3xc5 g7-f6 d2-c3 h6-g5 c3-d4 e5xc3 "
              "b2xd4 h8-g7 g3-f4 g5xe3 e1-d2 f6-g5").split()

# Chess: white's g-pawn takes its way to g7, from where it takes on f8 or h8 and promotes.
PROMOTION_LINE = "g2-g4 h7-h5 g4xh5 g7-g6 h5xg6 a7-a6 g6-g7 a6-a5".split()


class Server:
    """`boardlab serve VARIANT --port 0`, its address read from the line it prints."""

    def __init__(self, binary, variant="checkers"):
        self.proc = subprocess.Popen([binary, "serve", variant, "--port", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"http://\S+/", line)
        if not m:
            self.stop()
            raise RuntimeError(f"serve printed no address: {line!r} {self.proc.stderr.read()!r}")
        self.url = m.group(0)

    def api(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path.lstrip("/"), data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=WAIT) as r:
            return json.loads(r.read() or b"null")

    def stop(self):
        self.proc.kill()
        self.proc.wait()


class Page:
    """The page in headless Chromium, and the game it shows."""

    def __init__(self, server, chromium, chromedriver, size=(1280, 1000)):
        self.server = server
        opts = webdriver.ChromeOptions()
        opts.binary_location = chromium
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  f"--window-size={size[0]},{size[1]}", "--hide-scrollbars"):
            opts.add_argument(a)
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.d = webdriver.Chrome(service=Service(executable_path=chromedriver), options=opts)
        self.id = None

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def wait(self, what, cond):
        try:
            return WebDriverWait(self.d, WAIT, poll_frequency=0.02).until(lambda _: cond())
        except Exception as e:
            raise AssertionError(f"{type(e).__name__} waiting for {what}; the page says "
                                 f"{self.message()!r}, its moves {self.moves()}") from None

    def open(self, variant, moves=()):
        """Opens the page on a new game of `variant` after `moves`; its game's id."""
        q = {"variant": variant}
        if moves:
            q["moves"] = ",".join(moves)
        self.d.get(self.server.url + "?" + urllib.parse.urlencode(q))
        self.wait(f"the {variant} board", lambda: self.js(
            "const b = document.getElementById('board');"
            "return b.dataset.game && b.querySelector('svg') && window.boardlab"
            " && boardlab.state().variant === arguments[0] ? b.dataset.game : null;", variant))
        self.id = int(self.js("return document.getElementById('board').dataset.game"))
        return self.id

    def state(self):
        """The game's state as the API tells it (not the page)."""
        return self.server.api("GET", f"/api/games/{self.id}")

    def click(self, cell):
        """A real mouse click on the cell's centre."""
        x, y = self.js("return boardlab.cellPoint(arguments[0])", cell)
        ab = ActionBuilder(self.d)
        ab.pointer_action.move_to_location(int(round(x)), int(round(y)))
        ab.pointer_action.click()
        ab.perform()

    def button(self, selector):
        self.d.find_element(By.CSS_SELECTOR, selector).click()

    def dots(self):
        """The cells dotted on the board (where the picked piece can go)."""
        return set(self.js("return [...document.querySelectorAll('#overlay circle[data-cell]')]"
                           ".map(c => c.dataset.cell)"))

    def wait_dots(self, want):
        self.wait(f"dots on {sorted(want)}", lambda: self.dots() == set(want))

    def moves(self):
        """The move list as the page shows it (played moves, then those ahead)."""
        return self.js("return [...document.querySelectorAll('#moves li')].map(l => l.textContent)")

    def wait_moves(self, want):
        self.wait(f"the move list {want}", lambda: self.moves() == list(want))

    def message(self):
        try:
            return self.d.find_element(By.ID, "message").text
        except Exception:
            return ""

    def occupied(self):
        """The cells the board's picture draws a piece on."""
        return set(self.js("""
            const cells = boardlab.cells();
            const at = {};
            for (const [n, [x, y]] of Object.entries(cells)) at[`${Math.round(x)},${Math.round(y)}`] = n;
            return [...document.querySelectorAll('#board #pieces circle')]
              .map(c => at[`${Math.round(+c.getAttribute('cx'))},${Math.round(+c.getAttribute('cy'))}`])
              .filter(Boolean);"""))

    def label(self, cell):
        """The letter the picture writes on the piece of `cell`."""
        return self.js("""
            const [x, y] = boardlab.cells()[arguments[0]];
            const t = [...document.querySelectorAll('#board #pieces text')]
              .find(t => Math.abs(+t.getAttribute('x') - x) < 1 && Math.abs(+t.getAttribute('y') - y) < 10);
            return t ? t.textContent : null;""", cell)

    def script_errors(self):
        """Script errors the browser logged (a refused move's 4xx is not one)."""
        return [e["message"] for e in self.d.get_log("browser")
                if e["level"] == "SEVERE" and e.get("source") != "network"]


def expect(what, got, want):
    if got != want:
        raise AssertionError(f"{what}: got {got!r}, expected {want!r}")


def checkers_moves_and_chains(p):
    p.open("checkers")
    p.click("c3")
    p.wait_dots({"b4", "d4"})  # a man moves forward diagonally
    p.click("d4")
    p.wait_moves(["c3-d4"])
    expect("history", p.state()["history"], ["c3-d4"])
    occ = p.occupied()
    expect("d4 and c3 on the board", ("d4" in occ, "c3" in occ), (True, False))
    # The arrow keys step back and forward; flip turns the board (a1 goes to the top right).
    p.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    p.wait("the move list's step back", lambda: p.js("return document.querySelector('#moves li').className") == "ahead")
    expect("the game stepped back", p.state()["ahead"], ["c3-d4"])
    p.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    p.wait("the move list's step forward", lambda: p.js("return document.querySelector('#moves li').className") == "current")
    expect("the game stepped forward", p.state()["history"], ["c3-d4"])
    a1 = p.js("return boardlab.cellPoint('a1')")
    p.button("#flip")
    p.wait("the flipped board", lambda: p.js("return boardlab.cellPoint('a1')")[0] > a1[0] + 100)
    p.button("#flip")
    p.wait("the board unflipped", lambda: abs(p.js("return boardlab.cellPoint('a1')")[0] - a1[0]) < 2)

    # A two-jump chain, one landing at a time: the next landing is dotted after the first.
    p.open("checkers", CHAIN_LINE)
    p.wait_moves(CHAIN_LINE)
    p.click("d2")
    p.wait_dots({"f4"})  # capture is compulsory: the chain is the only move
    p.click("f4")
    p.wait_dots({"h6"})
    expect("the game during the chain", len(p.state()["history"]), len(CHAIN_LINE))
    p.click("h6")
    p.wait_moves(CHAIN_LINE + ["d2xf4xh6"])
    expect("history", p.state()["history"][-1], "d2xf4xh6")
    occ = p.occupied()
    expect("the chain's cells", {c: c in occ for c in ("d2", "e3", "f4", "g5", "h6")},
           {"d2": False, "e3": False, "f4": False, "g5": False, "h6": True})
    # Undone, then played at once by clicking the chain's last landing.
    p.button("#undo")
    p.wait_moves(CHAIN_LINE + ["d2xf4xh6"])  # still listed, now ahead
    p.wait("the undo", lambda: p.state()["ahead"] == ["d2xf4xh6"])
    p.click("d2")
    p.wait_dots({"f4"})
    p.click("h6")
    p.wait("the chain at once", lambda: p.state()["history"][-1:] == ["d2xf4xh6"] and not p.state()["ahead"])


def connect_four_drop(p):
    p.open("connect-four")
    # Every move is a drop: their cells are dotted before anything is picked.
    p.wait_dots({f"{f}1" for f in "abcdefg"})
    p.click("d1")
    p.wait_moves(["@d1"])
    expect("history", p.state()["history"], ["@d1"])
    expect("d1 on the board", "d1" in p.occupied(), True)
    p.wait_dots({f"{f}1" for f in "abcefg"} | {"d2"})


def chess_promotion(p):
    p.open("chess", PROMOTION_LINE)
    p.click("g7")
    p.wait_dots({"f8", "h8"})  # g8 is blocked by the knight; f8 and h8 are captures
    p.click("h8")
    p.wait("the promotion chooser", lambda: p.d.find_element(By.ID, "chooser").is_displayed())
    choices = p.d.find_elements(By.CSS_SELECTOR, "#chooser button[data-move]")
    expect("the choices", sorted(b.get_attribute("data-move") for b in choices),
           ["g7xh8=B", "g7xh8=N", "g7xh8=Q", "g7xh8=R"])
    next(b for b in choices if b.get_attribute("data-move") == "g7xh8=N").click()
    p.wait_moves(PROMOTION_LINE + ["g7xh8=N"])
    expect("history", p.state()["history"][-1], "g7xh8=N")
    expect("the piece on h8", p.label("h8"), "N")
    expect("the chooser after the move", p.d.find_element(By.ID, "chooser").is_displayed(), False)


def amazons_two_parts(p):
    p.open("amazons")
    p.click("a4")
    p.click("a3")  # the queen's move...
    p.wait("the arrow's cells", lambda: "a4" in p.dots() and "a3" not in p.dots())
    expect("the game before the arrow", p.state()["history"], [])
    p.click("h8")  # not a cell for the arrow: the queen's move is kept, the page says so
    p.wait("the hint", lambda: "not a cell for the second part" in p.message())
    expect("the arrow's cells after a stray click", "a4" in p.dots(), True)
    p.click("a4")  # ...then the arrow, shot back where she stood
    p.wait_moves(["a4-a3/a4"])
    expect("history", p.state()["history"], ["a4-a3/a4"])
    occ = p.occupied()
    expect("queen on a3 and arrow on a4", ("a3" in occ, "a4" in occ), (True, True))


def schess_gating(p):
    # S-chess: the knight leaving b1 may take the hawk or the elephant in with it; the chooser
    # names each gate by the piece and its cell, and the hawk then stands on b1.
    p.open("seirawan")
    p.click("b1")
    p.wait_dots({"a3", "c3"})
    p.click("c3")
    p.wait("the gating chooser", lambda: p.d.find_element(By.ID, "chooser").is_displayed())
    choices = p.d.find_elements(By.CSS_SELECTOR, "#chooser button[data-move]")
    expect("the choices", sorted(b.text for b in choices), ["E@b1", "H@b1", "none"])
    next(b for b in choices if b.text == "H@b1").click()
    p.wait_moves(["b1-c3/H@b1"])
    expect("the piece on b1", p.label("b1"), "H")
    expect("the knight on c3", p.label("c3"), "N")


def machine_move(p):
    p.open("checkers", ["c3-d4"])
    legal = {m["text"] for m in p.state()["legal"]}
    field = p.d.find_element(By.ID, "engine")
    field.clear()
    field.send_keys("ab:d2")
    p.button("#machine")
    p.wait("the machine's move", lambda: len(p.moves()) == 2)
    s = p.state()
    expect("the move list", p.moves(), s["history"])
    if s["history"][1] not in legal:
        raise AssertionError(f"the machine played {s['history'][1]}, not a legal move")
    thinking = p.d.find_element(By.ID, "thinking").text
    if f"played {s['history'][1]}" not in thinking:
        raise AssertionError(f"the thinking line does not name the move: {thinking!r}")
    expect("the machine's landing on the board", s["last"]["to"] in p.occupied(), True)
    expect("the machine's start on the board", s["last"]["from"] in p.occupied(), False)


def pyramida_draw_time(p):
    """How long Pyramida's 97 cells take to draw: the page's own measures, over 5 loads."""
    drawn, frame, loaded = [], [], []
    for _ in range(5):
        p.open("pyramida")
        p.wait("the measures", lambda: p.js("return performance.getEntriesByName('board-frame').length"))
        m = p.js("const b = performance.getEntriesByName('board')[0];"
                 "const f = performance.getEntriesByName('board-frame')[0];"
                 "return [b.duration, f.duration, b.startTime + b.duration];")
        drawn.append(m[0])
        frame.append(m[1])
        loaded.append(m[2])
    expect("Pyramida's cells", len(p.js("return Object.keys(boardlab.cells())")), 97)
    med = statistics.median
    print(f"Pyramida's board (97 cells), median of 5: drawn and laid out {med(drawn):.1f} ms, "
          f"to the next frame {med(frame):.1f} ms; from navigation to the board drawn "
          f"{med(loaded):.1f} ms")


def every_variant(p):
    shots = os.environ.get("BOARDLAB_SCREENSHOTS")
    names = p.server.api("GET", "/api/variants")["variants"]
    for name in names:
        p.open(name)
        if p.message():
            raise AssertionError(f"{name}: the page says {p.message()!r}")
        if shots:
            os.makedirs(shots, exist_ok=True)
            p.d.save_screenshot(os.path.join(shots, f"{name}.png"))
    print(f"{len(names)} variants' pages open")


CHECKS = [checkers_moves_and_chains, connect_four_drop, chess_promotion, amazons_two_parts,
          schess_gating, machine_move, pyramida_draw_time, every_variant]


def main():
    binary = sys.argv[1]
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    chromedriver = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
    began = time.monotonic()
    server = Server(binary)
    failed = []
    try:
        page = Page(server, chromium, chromedriver)
        try:
            for check in CHECKS:
                try:
                    check(page)
                    errors = page.script_errors()
                    if errors:
                        raise AssertionError(f"script errors: {errors}")
                    print(f"ok   {check.__name__}")
                except Exception as e:  # every check runs; all failures are reported
                    failed.append(check.__name__)
                    print(f"FAIL {check.__name__}: {e}")
                    shot = os.path.join(tempfile.gettempdir(), f"boardlab-browser-{check.__name__}.png")
                    page.d.save_screenshot(shot)
                    print(f"     the page then: {shot}")
        finally:
            page.d.quit()
    finally:
        server.stop()
    print(f"browser test took {time.monotonic() - began:.1f} s")
    print(f"browser: {len(CHECKS) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
