"""Fixtures only: helpers live in tests/helpers.py and tests/browser.py, factories in
tests/factories.py, the test settings in scorekeeper/test_settings.py."""

import compileall
import os
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from tests import factories
from tests.browser import CHROMIUM, CSP_REFUSED, InFlight, launch_chromium, phone_context
from tests.helpers import SmallDisk

# Each xdist worker and each command a test starts imports the project afresh. Where the
# environment says PYTHONDONTWRITEBYTECODE (Debian's images and this project's machines do),
# every one of them compiled every module from source, and pytest rewrote every test module's
# asserts again: about 5 s of CPU a process. The third-party packages are compiled when uv
# installs them (`compile-bytecode` in pyproject.toml); the project's own modules and the test
# modules' rewritten asserts are kept here, in the __pycache__ folders git ignores.
sys.dont_write_bytecode = False
ROOT = Path(__file__).resolve().parent.parent
for package in ("games", "scorekeeper", "tests"):
    compileall.compile_dir(ROOT / package, quiet=1)

# Tests that touch the database are marked so CI can run them again on PostgreSQL.
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "live_server",
    "django_user_model",
    "admin_user",
    "admin_client",
}


class BrowserTestsFirst:
    """The browser tests first (the long ones: whole games, every page) and the rest after, so
    the many short tests fill both workers at the end and neither waits on the other's last
    long test. The tests marked `waits` (most of their time spent waiting: taps at a person's
    pace, a slow network, a stream's word, a quiet interval) are spread evenly among the busy
    browser tests: handed out beside one, a waiting test leaves its core to that test's
    Chromium, where two waiting at once left both cores idle (a run's idle time was 35
    core-seconds, a quarter of it two of these at once). pytest-django puts tests with a live
    server last; they flush the database after each test, so the tests after them start from
    an empty one as before. Each xdist worker has its own database, live server and Chromium:
    nothing is shared to collide on. (`--dist=loadgroup` hands out one test at a time as a
    worker comes free, in this order; pytest 9.2 keeps pytest-xdist 3.8 from reading
    xdist_group marks, so none is set.)"""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items):
        waiting = [item for item in items if item.get_closest_marker("waits")]
        busy = [
            item
            for item in items
            if item.get_closest_marker("browser") and not item.get_closest_marker("waits")
        ]
        first = {id(item) for item in waiting + busy}
        rest = [item for item in items if id(item) not in first]
        items[:] = spread(waiting, among=busy) + rest


def spread(few: list, among: list) -> list:
    """`few` spread evenly through `among`, each one between two of them where there are enough:
    [a, b, c, d] and [x, y] give [a, x, b, c, y, d]."""
    if not few:
        return list(among)
    step = len(among) / len(few)
    placed = [(index * step + step / 2, 1, item) for index, item in enumerate(few)]
    placed += [(index + 0.5, 0, item) for index, item in enumerate(among)]
    return [item for _, _, item in sorted(placed, key=lambda placed: placed[:2])]


def pytest_configure(config):
    config.pluginmanager.register(BrowserTestsFirst(), "browser-tests-first")


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
        launched = launch_chromium(playwright)
        yield launched
        launched.close()


@pytest.fixture
def phone(browser, live_server):
    """A page in a 390x844 phone-sized window against the live server."""
    context = phone_context(browser, live_server)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(autouse=True)
def no_policy_refusal(request):
    """A browser test fails on anything the Content-Security-Policy refused on any of its
    phones' pages: every walk of the app, taps, saves and swaps included, is under the policy."""
    if request.node.get_closest_marker("browser") is None:
        yield
        return
    CSP_REFUSED.clear()
    yield
    assert not CSP_REFUSED, "\n".join(CSP_REFUSED)


@pytest.fixture(autouse=True)
def live_server_drained(request):
    """After a test with a live server, wait for the requests it is still serving before the
    database is emptied for the next test. A closed phone's requests are still served (an
    aborted request is not undone), and on PostgreSQL a save's transaction and the flush's
    TRUNCATE, each holding a lock the other wants, end in a deadlock."""
    if "live_server" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")  # set up first, so emptied after this waits
    with InFlight() as in_flight:
        yield
        if not in_flight.wait_until_idle(timeout=15):
            pytest.fail(f"the live server still serves {in_flight.serving} request(s) after 15 s")


@pytest.fixture(autouse=True)
def fresh_shared_states():
    """Each test's database starts anew, and its first game may have the id and version of the
    last test's: the rounds shared by version (`lookups.round_state_at`) and the guest links
    read for drawing a change (`live.changes`) start anew with it."""
    from games import lookups
    from games.history import kept as history_kept
    from games.history import shared as history_shared
    from games.live import changes

    lookups.forget_shared_states()
    changes.forget_guest_links()
    history_kept.forget()  # the look-back kept per group, and the pictures drawn
    history_shared.forget()
    yield


@pytest.fixture
def push_server(transactional_db):
    """The site as production serves it (ASGI, streams held open) on the test database."""
    from tests.servers import PushServer

    server = PushServer()
    yield server
    server.stop()


# ---------------------------------------------------------------- factories


@pytest.fixture
def make_member(db):
    """A login with its own group, as signing up makes one."""
    return factories.member


@pytest.fixture
def member(make_member):
    return make_member("ann")


@pytest.fixture
def signed_in(client, member):
    client.force_login(member)
    return client


@pytest.fixture
def make_game(db):
    """A game started the way the new-game form starts one, with its first round open."""
    return factories.game


@pytest.fixture
def phone_client(member):
    """A member's phone that gets the error pages a phone gets (no exception raised)."""
    client = Client(raise_request_exception=False)
    client.force_login(member)
    return client


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


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MiB tmpfs for the SQLite database, to be filled (mounting it takes root)."""
    if connection.vendor != "sqlite":
        pytest.skip("a full disk under SQLite; PostgreSQL's own disk is not the test's to fill")
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs for the database takes root")
    settings = connection.settings_dict
    saved = dict(settings)
    settings["CONN_MAX_AGE"] = 0
    disk = SmallDisk(tmp_path / "disk", "4m")
    disk.mount()
    yield disk
    connection.close()
    settings.clear()
    settings.update(saved)
    disk.unmount()
