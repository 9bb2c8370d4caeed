"""Every page at 360x780: everything a thumb can tap is at least 44x44 px, the top bar is one
line, nothing scrolls sideways, every radio and checkbox sits on its label's first line, and
nothing logs an error or meets the Content-Security-Policy, with every panel open and the
round's changes opened (fetched) and closed (not fetched)."""

import pytest
from playwright.sync_api import expect

from games.engine import POINTS, WENT_OUT
from games.models import Entry
from tests.browser import (
    RECORD_VIOLATIONS,
    assert_accessible,
    hold_session,
    phone_context,
    screenshot,
)
from tests.factories import PASSWORD
from tests.helpers import site_urls, url_names

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 780}
TAP = 44
# What a thumb taps. A radio or checkbox is tapped through its label, which must be the target.
TAPPABLE = ", ".join(
    [
        "a[href]",
        "button",
        "input:not([type=hidden]):not([type=radio]):not([type=checkbox])",
        "select",
        "textarea",
        "summary",
        "label:has(input[type=radio])",
        "label:has(input[type=checkbox])",
    ]
)
# Pages that only answer a POST or send a file: no page to look at.
NOT_PAGES = {
    "logout",
    "reopen_game",
    "hand_entry",
    "hand_photo",
    "table_photo",
    "table_move",
    "undo_save",
    "group_time_zone",
    "export_night",
    "export_group",
    "night_picture",
    "night_link",
    "shared_picture",
    "guest_picture",
    "manifest",
    "service_worker",
    "game_live",
    "round_live",
    "night_live",
    "game_stream",
    "night_stream",
    "switch_group",
    "rename_group",
    "make_owner",
    "remove_member",
    "leave_group",
    "new_invitation",
    "revoke_invitation",
    "new_guest_pass",
}
PUBLIC = {"home", "login", "signup", "offline", "shared_night"}

SMALL_TARGETS = """(selector) => {
  const small = [];
  for (const element of document.querySelectorAll(selector)) {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (!box.width || !box.height || style.visibility === "hidden") continue;
    if (element.closest("[hidden], details:not([open]) > :not(summary)")) continue;
    if (box.width < %(tap)s - 0.5 || box.height < %(tap)s - 0.5) {
      const name = (element.getAttribute("aria-label") || element.textContent || element.name || "")
        .trim().replace(/\\s+/g, " ").slice(0, 40);
      const size = `${box.width.toFixed(1)}x${box.height.toFixed(1)}`;
      small.push(`${element.tagName.toLowerCase()} "${name}" ${size}`);
    }
  }
  return small;
}""" % {"tap": TAP}  # noqa: UP031


# A radio or checkbox against its label's words: how far its centre is from the middle of their
# first line, and the gap between it and them (px).
ALIGNMENT = """() => {
  const found = [];
  for (const input of document.querySelectorAll("input[type=radio], input[type=checkbox]")) {
    const box = input.getBoundingClientRect();
    if (!box.width || input.closest("[hidden], details:not([open]) > :not(summary)")) continue;
    const what = `${input.name}=${input.value}`;
    const label = input.closest("label") || document.querySelector(`label[for="${input.id}"]`);
    const words = label && document.createTreeWalker(label, NodeFilter.SHOW_TEXT, (node) =>
      node.textContent.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP).nextNode();
    if (!words) { found.push({ what, off: Infinity, gap: 0 }); continue; }
    const range = document.createRange();
    range.selectNodeContents(words);
    const line = range.getClientRects()[0];
    const off = box.top + box.height / 2 - (line.top + line.height / 2);
    found.push({ what, off, gap: line.left - box.right });
  }
  return found;
}"""
ALIGNED = 2  # px between a control's centre and its label's first line, at most
GAP = 4  # px between a control and its label's words, at least

# Recorded in every page before its scripts run: policy violations, and the requests htmx makes
# for a round's changes.
WATCH = (
    RECORD_VIOLATIONS
    + """
window.__changesAsked = 0;
window.__changesSwapped = 0;
document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.elt.id === "round-changes") window.__changesAsked += 1;
});
document.addEventListener("htmx:afterSettle", (event) => {
  if (event.detail.elt.id === "round-changes-list") window.__changesSwapped += 1;
});
"""
)
CLOSE_CHANGES = """async () => {
  const changes = document.querySelector("#round-changes");
  const closed = new Promise((done) => changes.addEventListener("toggle", done, { once: true }));
  changes.open = false;
  await closed;  // after the page's own toggle listeners, htmx's included
  return window.__changesAsked;
}"""


def misaligned(found_controls, name) -> list[str]:
    """Each radio and checkbox shown that is off its label's first line or touches its words."""
    return [
        f"{name}: {found['what']} {found['off']:+.1f}px off its label's first line, "
        f"{found['gap']:.1f}px from its words"
        for found in found_controls
        if abs(found["off"]) > ALIGNED or found["gap"] < GAP
    ]


def changes_fetched_once(page, name) -> list[str]:
    """The round's changes: asked for when opened (every panel was), not when closed."""
    if not page.locator("#round-changes").count():
        return []
    page.wait_for_function("window.__changesSwapped >= 1")
    asked = page.evaluate(CLOSE_CHANGES)
    return [] if asked == 1 else [f"{name}: the changes were asked for {asked} times, not once"]


# The page's width, its top bar's height, its small targets and its controls against their
# labels, in one call (each call is a round trip through Playwright's driver).
LOOK = f"""(tappable) => ({{
  overflow: document.documentElement.scrollWidth - window.innerWidth,
  bar: document.querySelector("header.topbar").getBoundingClientRect().height,
  small: ({SMALL_TARGETS})(tappable),
  alignment: ({ALIGNMENT})(),
}})"""


def check_page(page, name) -> list[str]:
    """What is wrong with the page for a thumb at 360 px, in words."""
    problems = []
    look = page.evaluate(LOOK, TAPPABLE)
    if look["overflow"] > 0:
        problems.append(f"{name}: scrolls sideways by {look['overflow']}px")
    if look["bar"] > 56:
        problems.append(f"{name}: the top bar wraps ({look['bar']}px high)")
    if look["small"]:
        problems.append(f"{name}: targets under {TAP}x{TAP}px: {look['small']}")
    return problems + misaligned(look["alignment"], name)


def each_game_chosen(page) -> list[str]:
    """The new-game page with each game chosen in turn, its "More options" open: only that
    game's options shown, thumb-sized and lined up."""
    problems = []
    for radio in page.locator("input[name=kind]").all():
        radio.check()
        kind = radio.get_attribute("value")
        shown = page.locator(".options[data-game]:visible")
        if shown.count() != 1 or shown.get_attribute("data-game") != kind:
            problems.append(f"new_game, {kind} chosen: options shown for {shown.count()} games")
        open_every_panel(page)
        problems += check_page(page, f"new_game, {kind} chosen, more options open")
    return problems


def open_every_panel(page):
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")


@pytest.fixture
def table(member, make_game):
    """A Three Thirteen game with round 1 complete and round 2 half entered, a finished pool
    Rummy game and a Five Crowns game just started: every kind of panel and table."""
    playing = make_game(member)
    first = playing.rounds.get()
    seats = list(playing.seats.all())
    first.save_hand(seats[0], Entry(WENT_OUT, "5H 6H 7H"), member)
    first.save_hand(seats[1], Entry("cards", "KS QD 2C"), member)
    first.save_hand(seats[2], Entry(POINTS, "", 7), member)
    second = playing.rounds.get(number=2)
    second.save_hand(seats[0], Entry(POINTS, "", 5), member)
    rummy = make_game(
        member,
        kind="rummy13",
        names=("Ann", "Bob", "Dee"),
        format="pool",
        pool_limit=101,
        wild_rank="7",
    )
    deal = rummy.rounds.get()
    for seat, points in zip(rummy.seats.all(), (0, 30, 80), strict=True):
        deal.save_hand(seat, Entry(WENT_OUT) if points == 0 else Entry(POINTS, "", points), member)
    rummy.finish()
    crowns = make_game(member, kind="five-crowns", names=("Ann", "Eve"))
    # Oklahoma Gin with a knock the table may read two ways (its choices listed), and a Gin
    # game played to 100 (its standings with their bonus lines).
    gin = make_game(member, kind="gin", names=("Ann", "Bob"), variant="oklahoma")
    ann, bob = gin.seats.all()
    knock = gin.rounds.get()
    knock.save_hand(ann, Entry(WENT_OUT, "2H 3H 4H 3S 3D 9C 10C JC QC KC", extra={"upcard": "KD"}))
    knock.save_hand(bob, Entry("cards", "3C 5H 6H 8S 9S KD QD 2S 7D 8D"), member)
    won = make_game(member, kind="gin", names=("Ann", "Bob"))
    ann, bob = won.seats.all()
    for number, (knocker, defender) in enumerate(
        [
            ("5H 6H 7H JS JD JC 2C 3C 4C AS", "3H 4H 8H 9H KS QS KD 2D 9S 7C"),
            ("AH 2H 3H 5S 5D 5C 9C 10C JC QC", "4H 6H 7H KS QS 2S 3S 7D 8H 8S"),
        ],
        start=1,
    ):
        hand = won.rounds.get(number=number)
        hand.save_hand(ann, Entry(WENT_OUT, knocker), member)
        hand.save_hand(bob, Entry("cards", defender), member)
    return playing, rummy, crowns, gin, won


# Every page is looked at in one of two halves, one test each: the suite's two workers share
# them (one test of every page took 16 s, the last of a worker's tests more often than not).
@pytest.mark.parametrize("half", [0, 1], ids=["public-and-first-half", "second-half"])
def test_every_page_has_thumb_sized_targets_at_360px(browser, live_server, member, table, half):
    playing, rummy, crowns, gin, won = table
    urls = site_urls(playing)
    assert set(urls) == url_names(), "a page is missing from tests/helpers.py site_urls"
    context = phone_context(browser, live_server, viewport=SMALL_PHONE)
    context.add_init_script(WATCH)
    page = context.new_page()
    problems = []
    shown = {"name": "home"}

    def logged(message):
        if message.type == "error":
            problems.append(f"{shown['name']}: {message.text}")

    page.on("console", logged)
    page.on("pageerror", lambda error: problems.append(f"{shown['name']}: {error}"))

    def violations():
        return [f"{shown['name']}: CSP {v}" for v in page.evaluate("window.__violations")]

    for name in sorted(PUBLIC) if half == 0 else []:
        shown["name"] = f"{name} (signed out)"
        page.goto(urls[name])
        problems += check_page(page, shown["name"]) + violations()
    if half == 0:  # logged in on the phone itself, its form at 360 px
        page.goto("/login/")
        page.get_by_label("Username").fill(member.username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_role("link", name="New game")).to_be_visible()
    else:  # the same login's session, without its form's two page loads again
        hold_session(context, live_server, member)
    extra = {
        "round 2 (half entered)": f"/games/{playing.pk}/rounds/2/",
        "pool rummy game (finished)": f"/games/{rummy.pk}/",
        "pool rummy deal": f"/games/{rummy.pk}/rounds/1/",
        "five crowns round": f"/games/{crowns.pk}/rounds/1/",
        "gin hand with layouts to pick": f"/games/{gin.pk}/rounds/1/",
        "gin game (finished, bonuses)": f"/games/{won.pk}/",
        "leaderboard with an error": "/group/?start=2026-05-01&end=2026-04-01",
    }
    pages = {name: url for name, url in urls.items() if name not in NOT_PAGES} | extra
    for name in sorted(pages)[half::2]:
        url = pages[name]
        shown["name"] = name
        page.goto(url)
        problems += check_page(page, name)
        if name == "new_game":
            problems += each_game_chosen(page)
        # The picture as the page opens; the audit with every panel open, pickers and all.
        screenshot(page, f"targets-360-{name.replace(' ', '-')}", audit=False)
        if page.evaluate("window.__changesAsked"):
            problems.append(f"{name}: the changes were asked for before they were opened")
        if page.locator("details").count():
            open_every_panel(page)
            problems += check_page(page, f"{name}, every panel open")
        assert_accessible(page, name)
        problems += changes_fetched_once(page, name) + violations()
    context.close()
    assert not problems, "\n".join(problems)
