import os
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


def pytest_configure(config):
    from django.conf import settings

    # Hashing a password at full strength is work for nothing in a test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_collection_modifyitems(items):
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") or fixtures & DATABASE_FIXTURES:
            item.add_marker(pytest.mark.database)
        if item.get_closest_marker("browser"):
            # One Chromium and one live server per worker: the browser tests share a worker
            # (pytest-xdist's loadgroup), the others spread over the rest.
            item.add_marker(pytest.mark.xdist_group("browser"))


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
        viewport=PHONE, is_mobile=True, has_touch=True, base_url=live_server.url
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


def screenshot(page, name: str) -> Path:
    """Save a full-page screenshot and check the page has no horizontal scrolling."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{name}: the page scrolls sideways by {overflow}px"
    return path


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
