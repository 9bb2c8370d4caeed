"""Sessions read from their signed cookie, each cookie's signature checked once in a process
(games.sessions): the same sessions as Django's own store reads, and the same refusals."""

import time

import pytest
from django.conf import settings
from django.contrib.sessions.backends import signed_cookies
from django.core import signing
from django.test import Client, override_settings

from games import sessions


@pytest.fixture(autouse=True)
def nothing_checked_yet():
    sessions._CHECKED.clear()
    yield
    sessions._CHECKED.clear()


def signed(data: dict) -> str:
    """A cookie as Django's signed-cookie store writes it."""
    store = signed_cookies.SessionStore()
    store.update(data)
    store.save()
    return store.session_key


def read(cookie: str) -> tuple[dict, bool]:
    """What the site's store reads from `cookie`, and whether it starts a new session."""
    store = sessions.SessionStore(cookie)
    return dict(store.items()), store.modified


def test_the_site_reads_sessions_with_this_store():
    assert settings.SESSION_ENGINE == "games.sessions"


@pytest.mark.parametrize(
    "data",
    [
        {"_auth_user_id": "7", "group": 3},
        {"guest": {"game": 12, "token": "abc", "device": "Bob's phone"}},
        # Large enough that Django compresses it (a "." before its base64).
        {"notes": ["the same words again"] * 80},
    ],
)
def test_a_cookie_reads_as_djangos_store_reads_it_first_and_again(data):
    cookie = signed(data)
    assert read(cookie) == (data, False)
    assert read(cookie) == (data, False)  # from what was checked
    assert dict(signed_cookies.SessionStore(cookie).items()) == data
    if len(str(data)) > 500:
        assert cookie.startswith(".")


def test_a_session_read_again_is_a_new_dict_each_time():
    cookie = signed({"guest": {"game": 1, "token": "t"}})
    first = sessions.SessionStore(cookie)
    first["guest"]["game"] = 99  # changed in place by one request
    first["more"] = 1
    assert read(cookie) == ({"guest": {"game": 1, "token": "t"}}, False)


@pytest.mark.parametrize("change", ["signature", "value", "timestamp"])
def test_a_changed_cookie_is_a_new_empty_session_every_time(change):
    cookie = signed({"_auth_user_id": "7"})
    value, stamp, signature = cookie.rsplit(":", 2)
    flip = {"A": "B"}.get
    if change == "signature":
        cookie = f"{value}:{stamp}:{flip(signature[0], 'A')}{signature[1:]}"
    elif change == "value":
        cookie = f"{flip(value[0], 'A')}{value[1:]}:{stamp}:{signature}"
    else:
        cookie = f"{value}:{flip(stamp[0], 'A')}{stamp[1:]}:{signature}"
    assert read(cookie) == ({}, True)
    assert read(cookie) == ({}, True)
    assert not sessions._CHECKED


@pytest.mark.parametrize(
    "cookie", ["", "x", "a:b", "a:b:c:d", "abcdefgh:b:c:d", ".%%%:1:xxxxxxxx", "\x00" * 40]
)
def test_a_cookie_that_is_no_session_at_all_reads_as_djangos_store_reads_it(cookie):
    django_store = signed_cookies.SessionStore(cookie)
    expected = (dict(django_store.items()), django_store.modified)
    assert expected[0] == {}
    assert read(cookie) == expected
    # Too short to be a key is no session (nothing to start); any other is a new one.
    assert expected[1] == (len(cookie) >= 8)
    assert not sessions._CHECKED


def test_a_session_too_old_is_refused_though_its_signature_was_checked(monkeypatch):
    cookie = signed({"_auth_user_id": "7"})
    assert read(cookie) == ({"_auth_user_id": "7"}, False)
    later = time.time() + settings.SESSION_COOKIE_AGE + 5
    monkeypatch.setattr(time, "time", lambda: later)
    assert read(cookie) == ({}, True)


def test_a_cookie_already_too_old_when_first_read_is_refused(monkeypatch):
    then = time.time() - settings.SESSION_COOKIE_AGE - 5
    monkeypatch.setattr(time, "time", lambda: then)
    cookie = signed({"_auth_user_id": "7"})
    monkeypatch.undo()
    assert read(cookie) == ({}, True)
    assert not sessions._CHECKED


def test_a_new_secret_key_checks_every_cookie_again():
    cookie = signed({"_auth_user_id": "7"})
    assert read(cookie) == ({"_auth_user_id": "7"}, False)
    with override_settings(SECRET_KEY="another-key-" + "y" * 50):
        assert read(cookie) == ({}, True)
    old = settings.SECRET_KEY
    with override_settings(SECRET_KEY="another-key-" + "y" * 50, SECRET_KEY_FALLBACKS=[old]):
        assert read(cookie) == ({"_auth_user_id": "7"}, False)


def test_what_is_kept_stays_bounded(monkeypatch):
    monkeypatch.setattr(sessions, "KEPT", 3)
    cookies = [signed({"n": n}) for n in range(5)]
    for n, cookie in enumerate(cookies):
        assert read(cookie) == ({"n": n}, False)
        assert len(sessions._CHECKED) <= 3


def test_a_cookie_signed_with_another_salt_is_no_session():
    cookie = signing.dumps({"_auth_user_id": "7"}, salt="another.salt", compress=True)
    assert read(cookie) == ({}, True)


@pytest.mark.django_db
def test_a_member_stays_logged_in_from_request_to_request(django_user_model):
    django_user_model.objects.create_user("ann", password="Shuffle-sessions-42x")
    phone = Client()
    assert phone.post("/login/", {"username": "ann", "password": "Shuffle-sessions-42x"})
    cookie = phone.cookies[settings.SESSION_COOKIE_NAME].value
    for _ in range(2):
        assert phone.get("/").context["user"].username == "ann"
    assert (cookie, settings.SECRET_KEY) in sessions._CHECKED
    phone.post("/logout/")
    assert phone.get("/").context["user"].is_anonymous
