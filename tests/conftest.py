import os
import subprocess
from pathlib import Path

import pytest
from django.db import connection

# Tests that touch the database are marked so CI can run them again on PostgreSQL.
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "live_server",
    "django_user_model",
    "admin_user",
    "admin_client",
}
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
# A page's service worker installs and fills its cache in every new browser context: work for
# nothing where a test is not about it (tests/test_browser_pwa.py is, and lets it run).
NO_WORKER = {"service_workers": "block"}


class BrowserTestsFirst:
    """The browser tests first (the long ones: whole games, every page) and the rest after, so
    the many short tests fill both workers at the end and neither waits on the other's last
    long test. pytest-django puts tests with a live server last; they flush the database
    after each test, so the tests after them start from an empty one as before. Each xdist
    worker has its own database, live server and Chromium: nothing is shared to collide on.
    (`--dist=loadgroup` hands out one test at a time as a worker comes free; pytest 9.2 keeps
    pytest-xdist 3.8 from reading xdist_group marks, so none is set.)"""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items):
        items.sort(key=lambda item: item.get_closest_marker("browser") is None)


def pytest_configure(config):
    from django.conf import settings

    config.pluginmanager.register(BrowserTestsFirst(), "browser-tests-first")

    # Hashing a password at full strength is work for nothing in a test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_collection_modifyitems(items):
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") or fixtures & DATABASE_FIXTURES:
            item.add_marker(pytest.mark.database)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless, driven by Playwright (it cannot download browsers here)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not at {CHROMIUM}: install Debian's chromium package")
    # Playwright's sync API runs an event loop in this thread; the ORM calls in the tests
    # and the live server thread are ordinary synchronous code.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


@pytest.fixture
def phone(browser, live_server):
    """A page in a 390x844 phone-sized window against the live server."""
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, base_url=live_server.url, **NO_WORKER
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


def screenshot(page, name: str, audit: bool = True) -> Path:
    """Save a full-page screenshot, check the page has no horizontal scrolling, and check it
    with axe-core in the light and the dark theme (a page without JavaScript cannot run axe:
    its HTML is the same one the pages with it are checked on). `audit=False` where the same
    page in the same state is audited already: every page of the site is, by
    tests/test_browser_thumb_targets.py, so the walks audit only states of their own (a
    conflict, a draft kept offline, a guest's round, a hand's report)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{name}: the page scrolls sideways by {overflow}px"
    if audit:
        assert_accessible(page, name)
    return path


AXE = Path(__file__).resolve().parent.parent / ".ci/npm/node_modules/axe-core/axe.min.js"
AXE_URL = "/__test-run/axe.min.js"  # served to the page by the test run, never by the site
# WCAG 2.0, 2.1 and 2.2, levels A and AA.
AXE_RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
AXE_THEMED = ["color-contrast", "link-in-text-block"]
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


def axe_source() -> str:
    """axe-core, pinned in .ci/npm (installed there from its lock when missing)."""
    if not AXE.exists():
        subprocess.run(["npm", "install", "--no-save", "--prefix", str(AXE.parents[2])], check=True)
    return AXE.read_text()


def assert_accessible(page, name: str) -> None:
    """No serious or critical axe-core violation (WCAG 2.2 A and AA), in both themes. axe is
    loaded from the page's own origin (a route of the test run), which its CSP allows."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.route(
            f"**{AXE_URL}",
            lambda route: route.fulfill(body=axe_source(), content_type="text/javascript"),
        )
        page.wait_for_load_state()
        page.add_script_tag(url=AXE_URL)
    shown = (
        "dark" if page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") else "light"
    )
    # At rest at the top: a target scrolled under the sticky top bar is not a target then.
    scrolled = page.evaluate("window.scrollY")
    page.evaluate("window.scrollTo(0, 0)")
    # Every rule in the light theme; in the dark one only what the theme changes, the colours.
    page.emulate_media(color_scheme="light")
    found = {"light": page.evaluate(AXE_RUN, {"runOnly": {"type": "tag", "values": AXE_RULES}})}
    page.emulate_media(color_scheme="dark")
    found["dark"] = page.evaluate(AXE_RUN, {"runOnly": {"type": "rule", "values": AXE_THEMED}})
    page.emulate_media(color_scheme=shown)
    page.evaluate("(y) => window.scrollTo(0, y)", scrolled)
    assert found == {"light": [], "dark": []}, f"{name}: {found}"


# ---------------------------------------------------------------- factories

PASSWORD = "Table-talk-42"


@pytest.fixture
def make_member(django_user_model):
    """A login with its own group, as signing up makes one."""
    from games.models import Group

    def make(username="ann"):
        user = django_user_model.objects.create_user(username=username, password=PASSWORD)
        Group.found(user, f"{username}'s table")
        return user

    return make


@pytest.fixture
def member(make_member):
    return make_member("ann")


@pytest.fixture
def signed_in(client, member):
    client.force_login(member)
    return client


@pytest.fixture
def make_game():
    """A game started the way the new-game form starts one, with its first round open."""
    from games.models import Game

    def make(user, kind="three-thirteen", names=("Ann", "Bob", "Cid"), **rules):
        return Game.objects.start(
            group=user.memberships.first().group,
            kind=kind,
            players=list(names),
            rules=rules,
            user=user,
        )

    return make


def hand_url(game, number, seat):
    return f"/games/{game.pk}/rounds/{number}/seats/{seat.pk}/"


@pytest.fixture
def database_switch():
    """Cuts the way to the database (a file in a folder that does not exist, or a closed port)
    and restores it; every thread's connection reads these settings when it next connects."""
    settings = connection.settings_dict
    saved = dict(settings)
    # Each request connects afresh, as after a restart of the database server.
    settings["CONN_MAX_AGE"] = 0

    class Switch:
        def cut(self):
            connection.close()
            if connection.vendor == "sqlite":
                settings["NAME"] = "/nonexistent-folder/scores.sqlite3"
            else:
                settings.update(HOST="127.0.0.1", PORT="1")

        def restore(self):
            connection.close()
            settings.clear()
            settings.update(saved)

    switch = Switch()
    yield switch
    switch.restore()
