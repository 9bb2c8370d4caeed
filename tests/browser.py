"""What the browser tests do as a person at the table would: sign up, start a game, open a
hand, tap or type its cards without waiting for the server, save; phones signed in as a member;
a slow network; the requests that reach the server."""

import os
import re
import subprocess
import threading
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.signals import request_finished, request_started
from django.test import Client
from playwright.sync_api import expect

from games.engine.cards import parse_hand

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Headless Chromium is the whole browser: each new window (each phone here) preloads the address
# bar's drop-down and the toolbar as WebUI pages of their own, hundreds of chrome:// requests
# and a renderer's work for a window nobody sees. Features Chromium can turn off.
NO_BROWSER_UI = [
    "PreloadTopChromeWebUI",
    "WebUIOmniboxPopup",
    "WebUIOmniboxAimPopup",
    "InitialWebUI",
    "WebUIToolbarProcessOverheadExperiment",
]
SCREENSHOTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screenshots"
# The pictures are for a person to look at (`SCREENSHOTS=1 uv run pytest -m browser`): a
# full-page picture costs Chromium about 90 ms of CPU, over a hundred of them in a run.
SAVE_SCREENSHOTS = os.environ.get("SCREENSHOTS", "") not in ("", "0")
PHONE = {"width": 390, "height": 844}
# A page's service worker installs and fills its cache in every new browser context: work for
# nothing where a test is not about it (tests/test_browser_pwa.py is, and lets it run).
NO_WORKER = {"service_workers": "block"}


# Recorded in a page before its scripts run: each Content-Security-Policy violation.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""

PASSWORD = "Shuffle-and-deal-9"
LATENCY = 300  # ms each way, as a café's Wi-Fi
SETTLED = 10_000  # ms for the last answer to arrive through a slow network


def launch_chromium(playwright):
    """Debian's Chromium, headless, with CHROMIUM_ARGS, and with NO_BROWSER_UI turned off as
    well as the features Playwright turns off. Chromium keeps only the last --disable-features
    switch and Playwright passes one of its own, so the browser is launched with Playwright's
    alone, the list read back from its command line, and launched again with both in one."""
    first = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        switches = disabled_features(browser_command_line())
    finally:
        first.close()
    features = ",".join(dict.fromkeys([*sum(switches, []), *NO_BROWSER_UI]))
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[*CHROMIUM_ARGS, f"{DISABLE_FEATURES}{features}"],
    )


DISABLE_FEATURES = "--disable-features="


def disabled_features(arguments: list[str]) -> list[list[str]]:
    """The features each --disable-features switch of a command line names, switch by switch."""
    return [
        argument.removeprefix(DISABLE_FEATURES).split(",")
        for argument in arguments
        if argument.startswith(DISABLE_FEATURES)
    ]


def browser_command_line() -> list[str]:
    """The command line of the Chromium this process started (through Playwright's driver): its
    browser process, the one Playwright talks to over a pipe."""
    parents = {}
    for entry in Path("/proc").iterdir():
        try:
            status = (entry / "stat").read_text()  # pid (name) state ppid ...
            parents[int(entry.name)] = int(status.rsplit(")", 1)[1].split()[1])
        except (ValueError, OSError, IndexError):
            continue  # not a process, or one that has just ended

    def ours(pid):
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    for pid in filter(ours, parents):
        try:
            arguments = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
        except OSError:
            continue
        if "--remote-debugging-pipe" in arguments:
            return arguments
    raise RuntimeError("Chromium's browser process is not among this process's children")


# What the pages' Content-Security-Policy refused in the current test, from every phone's
# console (Chromium logs each refusal there): tests/conftest.py fails the test on any.
CSP_REFUSED: list[str] = []


def watch_policy(context):
    """Every page of this phone under watch for Content-Security-Policy refusals."""

    def logged(message):
        if "Content Security Policy" in message.text:
            CSP_REFUSED.append(f"{message.page.url if message.page else ''}: {message.text}")

    context.on("console", logged)
    return context


def phone_context(browser, live_server, viewport=PHONE, **options):
    """A new phone: a browser context of a phone's size and touch, against the live server,
    with no service worker unless `options` say otherwise, its pages' policy refusals watched."""
    context = browser.new_context(
        viewport=viewport,
        is_mobile=True,
        has_touch=True,
        base_url=live_server.url,
        **(NO_WORKER | options),
    )
    context.set_default_timeout(10_000)
    return watch_policy(context)


def signed_in_phone(browser, live_server, user, **options):
    """A phone-sized page whose browser holds `user`'s session (or none, for a guest)."""
    context = phone_context(browser, live_server, **options)
    if user is not None:
        hold_session(context, live_server, user)
    return context, context.new_page()


def hold_session(context, live_server, user):
    """The phone's browser holds a session of `user`'s, as Django's test client makes one."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )


def signed_in_at_new_game(page, live_server, user):
    """The phone signed in as `user` (a member with a group of their own, as signing up makes
    one) and on the new-game page, as `sign_up` leaves it: for the walks where signing up is
    not what is tested (tests/test_browser_groups.py signs up through the form, twice, and the
    view tests cover the form), one page load instead of three."""
    hold_session(page.context, live_server, user)
    page.goto("/games/new/")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()


def sign_up(page, username="table"):
    page.goto("/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()


def start_game(page, kind_label, players, choices=()):
    """Start a game from the new-game form: its kind, the players, any options' choices."""
    if not page.url.endswith("/games/new/"):
        page.goto("/games/new/")
    page.get_by_text(kind_label, exact=True).click()
    page.get_by_label("Players, starting with the first dealer and going left").fill(players)
    for choice in choices:
        page.get_by_text(choice, exact=True).click()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("h1")).to_contain_text(re.compile("Round 1|Deal 1|Hand 1"))


def panel_for(page, name):
    return page.locator("section.hand-panel").filter(
        has=page.locator("summary .who", has_text=re.compile(f"^{name}$"))
    )


def open_panel(page, name):
    """One hand at a time: open this player's hand if it is not open yet."""
    panel = panel_for(page, name)
    if panel.locator("details").get_attribute("open") is None:
        panel.locator("summary").click()
    return panel


# Where each wanted card's button is on the screen, and whether a tap there lands on it (not on
# the pinned bar over it, nor off the screen): {card: [x, y] or null}.
WHERE_TO_TAP = """(buttons, wanted) => {
  const found = {};
  for (const button of buttons) {
    if (!wanted.includes(button.value)) continue;
    const box = button.getBoundingClientRect();
    const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
    const hit = document.elementFromPoint(x, y);
    found[button.value] = hit && button.contains(hit) ? [x, y] : null;
  }
  return found;
}"""


def tap(page, name, cards: str):
    """Tap each card like a person, never waiting for the server: a touch where the card's
    button is on the screen, the way a thumb taps (the picker holds still while a hand is
    tapped: tests/test_browser_entry.py). Where it is off the screen or under the pinned bar,
    Playwright's click scrolls it into view first. Each button is found by value just before
    its tap: a click by the card's name ("7 of hearts", which the accessibility audits and the
    tests of the picker check) works out the name of every button on the page, and each click
    waits for its button to hold still over two frames, the costliest part of a whole game."""
    panel = open_panel(page, name)
    wanted = [str(card) for card in parse_hand(cards)]
    buttons = panel.locator("button.pick")
    for card in wanted:
        # Where the card is at this moment, as a thumb aims: the page may have moved since the
        # last tap (the round's summary drawn again under a hand saved just before).
        place = buttons.evaluate_all(WHERE_TO_TAP, [card]).get(card)
        if place:
            page.mouse.click(*place)
        else:
            panel.locator(f'button.pick[value="{card}"]').click(no_wait_after=True)


def enter_hand(page, name, cards: str, outcome: str | None = None, typed=False):
    """Enter a hand (tapped, or typed into the Cards field), choose the outcome, save, and
    wait for the saved line. Cards left that meld completely are asked about first: they are
    saved as cards left, as entered."""
    panel = open_panel(page, name)
    if typed:
        panel.get_by_label("Or type the cards").fill(cards)
    else:
        tap(page, name, cards)
        expect(panel.locator(".count")).to_have_text(
            re.compile(rf"^{len(cards.split())} of \d+ cards$")
        )
    if outcome:
        panel.get_by_text(outcome, exact=True).click()
    panel.get_by_role("button", name=f"Save {name}'s hand").click()
    saved = panel_for(page, name)
    said = page.locator("#save-said", has_text=f"{name}'s hand saved")
    asked = saved.locator(".question")
    # A save that finished the game has the page drawn again by its next live answer (live.js):
    # the save's own word may be gone by the time it is looked for, the game's notice in its place.
    finished = page.locator("#round-notice .notice", has_text="This game is finished")
    expect(said.or_(asked).or_(finished).first).to_be_attached()
    if asked.count():
        asked.get_by_role("button", name=re.compile("^No, ")).click()
    expect(said.or_(finished).first).to_be_attached()
    expect(saved_line(page, name)).to_be_visible()
    expect(page.locator(".htmx-settling")).to_have_count(0)  # the next hand has opened
    # Asked again until it holds: a save that finished the game has the page drawn again (by
    # its next live answer, live.js), and a one-off read would meet the page being replaced.
    expect(saved.locator(".field-error"), f"{name}'s hand has an error").to_have_count(0)


def saved_line(page, name):
    """The hand's line once it is saved, as every phone shows it: how it ended, its points and
    who saved it."""
    return panel_for(page, name).locator(".hand-line .saved")


def save_round(game, number, entries):
    """Save a round's hands ({player's name: Entry}) on the server, as a phone's save does:
    for the rounds of a whole game that the browser need not play."""
    from games.models import Round

    round_ = Round.objects.get(game=game, number=number)
    for seat in game.seats.select_related("player"):
        if seat.player.name in entries:
            round_.save_hand(seat, entries[seat.player.name])
    round_.refresh_from_db()
    assert round_.completed_at, f"round {number} is not complete"


def totals_on_table(page) -> list[int]:
    cells = page.locator("table.scores tfoot td")
    expect(cells.first).to_be_visible()  # the score table's page has loaded
    return [int(text) for text in cells.all_inner_texts()]


def slow_network(page, latency=LATENCY):
    """Slow the page's network in Chromium itself, through the DevTools protocol."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": latency, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    return cdp


class ServerRequests:
    """The requests that reached the live server (whatever the page did with them after)."""

    def __init__(self):
        self.seen: list[tuple[str, str, str]] = []
        self.lock = threading.Lock()

    def __call__(self, sender, environ=None, **kwargs):
        with self.lock:
            cookies = environ.get("HTTP_COOKIE", "")
            self.seen.append((environ["REQUEST_METHOD"], environ["PATH_INFO"], cookies))

    def count(self, method: str, path_part: str, session: str = "") -> int:
        """The requests of `method` whose path holds `path_part` (and, given a session
        cookie's value, sent with it: one phone's)."""
        with self.lock:
            return sum(
                1
                for m, path, cookies in self.seen
                if m == method and path_part in path and session in cookies
            )


@contextmanager
def server_requests():
    counter = ServerRequests()
    request_started.connect(counter, dispatch_uid="browser-test-counter")
    try:
        yield counter
    finally:
        request_started.disconnect(dispatch_uid="browser-test-counter")


class InFlight:
    """How many requests the live server is serving now, counted from Django's own signals
    while in a `with` block."""

    def __init__(self):
        self.serving = 0
        self.changed = threading.Condition()

    def started(self, sender, **kwargs):
        with self.changed:
            self.serving += 1

    def finished(self, sender, **kwargs):
        with self.changed:
            self.serving -= 1
            self.changed.notify_all()

    def wait_until_idle(self, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.serving <= 0, timeout)

    def __enter__(self):
        request_started.connect(self.started, dispatch_uid="browser-test-in-flight")
        request_finished.connect(self.finished, dispatch_uid="browser-test-in-flight")
        return self

    def __exit__(self, *exc):
        request_started.disconnect(dispatch_uid="browser-test-in-flight")
        request_finished.disconnect(dispatch_uid="browser-test-in-flight")


def screenshot(page, name: str, audit: bool = True) -> Path:
    """Save a full-page screenshot (with SCREENSHOTS=1), check the page has no horizontal
    scrolling, and check it with axe-core in the light and the dark theme (a page without
    JavaScript cannot run axe: its HTML is the same one the pages with it are checked on).
    `audit=False` where the same page in the same state is audited already: every page of the
    site is, by tests/test_browser_thumb_targets.py, so the walks audit only states of their
    own (a conflict, a draft kept offline, a guest's round, a hand's report)."""
    path = SCREENSHOTS / f"{name}.png"
    if SAVE_SCREENSHOTS:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{name}: the page scrolls sideways by {overflow}px"
    if audit:
        assert_accessible(page, name)
    return path


def both_themes(page, name: str, full_page=False) -> None:
    """The screen as it is, in the light and the dark theme (with SCREENSHOTS=1)."""
    if not SAVE_SCREENSHOTS:
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{scheme}.png"), full_page=full_page)
    page.emulate_media(color_scheme="light")


AXE = Path(__file__).resolve().parent.parent / ".ci/npm/node_modules/axe-core/axe.min.js"
# WCAG 2.0, 2.1 and 2.2, levels A and AA.
AXE_RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
AXE_THEMED = ["color-contrast", "link-in-text-block"]
# axe-core handed to the page through the DevTools protocol, which the page's CSP does not govern
# (its own scripts still may not eval). Not a route of the test run: a route makes Playwright
# intercept each later request of the page and turns its HTTP cache off, so every page after
# the first audit fetched its styles and scripts again.
AXE_LOAD = "(source) => { (0, eval)(source); }"
AXE_RUN = """async (only) => {
  // Only what a failure report needs: no CSS selectors worked out for every node checked, no
  // frames (the app has none), no fetching of the stylesheets again.
  const options = { resultTypes: ["violations"], selectors: false, iframes: false, preload: false };
  const found = await axe.run(document, { ...only, ...options });
  return found.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => {
      const where = v.nodes.slice(0, 3).map((n) => n.html.slice(0, 120)).join(", ");
      return `${v.id} (${v.impact}): ${where}`;
    });
}"""


@cache
def axe_source() -> str:
    """axe-core, pinned in .ci/npm (installed there from its lock when missing)."""
    if not AXE.exists():
        subprocess.run(["npm", "install", "--no-save", "--prefix", str(AXE.parents[2])], check=True)
    return AXE.read_text()


def assert_accessible(page, name: str) -> None:
    """No serious or critical axe-core violation (WCAG 2.2 A and AA), in both themes."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.wait_for_load_state()  # its styles in place: colours are part of the audit
        page.evaluate(AXE_LOAD, axe_source())
    shown = (
        "dark" if page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") else "light"
    )
    # At rest at the top: a target scrolled under the sticky top bar is not a target then. Moved
    # there as a thumb moves the page, which ends any hold of a tapped part in its place
    # (app.js holdInPlace): a hold still on would scroll the page back to its part as the
    # themes change under the audit, a few cards under the top bar (seen once in six runs).
    scrolled = page.evaluate("window.scrollY")
    page.evaluate("window.dispatchEvent(new WheelEvent('wheel')); window.scrollTo(0, 0)")
    # Every rule in the light theme; in the dark one only what the theme changes, the colours.
    page.emulate_media(color_scheme="light")
    found = {"light": page.evaluate(AXE_RUN, {"runOnly": {"type": "tag", "values": AXE_RULES}})}
    page.emulate_media(color_scheme="dark")
    found["dark"] = page.evaluate(AXE_RUN, {"runOnly": {"type": "rule", "values": AXE_THEMED}})
    page.emulate_media(color_scheme=shown)
    page.evaluate("(y) => window.scrollTo(0, y)", scrolled)
    assert found == {"light": [], "dark": []}, f"{name}: {found}"
