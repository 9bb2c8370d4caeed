"""A live poll whose table has not changed is answered before Django's handler
(`games.live.polls`) exactly as Django's whole way answers it: the same 304 with the same
headers, for a member and for a guest, on a game, a round and a night; and everything else is
left to Django, untouched."""

import gzip
import re
from unittest import mock

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import DatabaseError, close_old_connections
from django.test import Client, RequestFactory

from games.live import polls
from games.live.polls import LivePolls
from tests.helpers import save, seats
from tests.test_live_streams import as_guest

pytestmark = pytest.mark.django_db


def environ(client: Client, path: str, method="get", **headers) -> dict:
    """The WSGI environ of a phone's request, with its cookies."""
    cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    made = getattr(RequestFactory(), method)(path, headers={"cookie": cookies, **headers})
    return made.environ


def served(app, env: dict) -> tuple[str, list, bytes]:
    """The status, headers and body `app` answers; as Django's test client does, the request's
    start and end leave the test's own connection open."""
    answered = []
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        body = app(env, lambda status, headers, exc_info=None: answered.extend([status, headers]))
        try:
            content = b"".join(body)
        finally:
            body.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return answered[0], answered[1], content


def both(client: Client, path: str, **headers):
    """The answer of the site as production serves it, and of Django's handler alone."""
    django = WSGIHandler()
    return (
        served(LivePolls(django), environ(client, path, **headers)),
        served(django, environ(client, path, **headers)),
    )


def etag_of(client: Client, path: str) -> str:
    return dict(served(WSGIHandler(), environ(client, path))[1])["ETag"]


def _tokens_out(page: bytes) -> bytes:
    """A page without its forms' CSRF tokens (masked anew for every answer)."""
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', b"", page)


@pytest.fixture
def looks():
    """How many quick looks the polls and the views take."""
    from games.views import live

    with mock.patch.object(live, "quick_look", wraps=live.quick_look) as looked:
        yield looked


def test_an_unchanged_poll_is_djangos_own_304_for_a_member_and_a_guest(
    signed_in, member, make_game
):
    game = make_game(member)
    guest = as_guest(game)
    signed_in.cookies["tz"] = "Europe/Paris"
    paths = {
        signed_in: [
            f"/games/{game.pk}/live/",
            f"/games/{game.pk}/rounds/1/live/",
            f"/nights/{game.night_id}/live/",
        ],
        guest: [f"/games/{game.pk}/rounds/1/live/"],
    }
    finished = []

    def ended(sender, **kwargs):
        finished.append(sender)

    request_finished.connect(ended)
    try:
        for client, urls in paths.items():
            for path in urls:
                etag = etag_of(client, path)
                site = LivePolls(WSGIHandler())
                with mock.patch.object(WSGIHandler, "get_response") as django:
                    status, headers, body = served(site, environ(client, path, if_none_match=etag))
                django.assert_not_called()  # Django's handler was not asked
                _, (django_status, django_headers, django_body) = both(
                    client, path, if_none_match=etag
                )
                assert (status, headers, body) == (django_status, django_headers, django_body)
                assert status == "304 Not Modified" and dict(headers)["ETag"] == etag
                assert "Content-Security-Policy" in dict(headers)
    finally:
        request_finished.disconnect(ended)
    assert finished  # each answer's end is told, as Django's is (its connections tended)


def test_a_changed_poll_is_answered_by_the_view_from_the_polls_one_look(
    signed_in, member, make_game, looks
):
    game = make_game(member)
    path = f"/games/{game.pk}/rounds/1/live/"
    etag = etag_of(signed_in, path)
    save(signed_in, game, 1, seats(game)[0], outcome="points", points="7", version=0)
    looks.reset_mock()
    (status, headers, body), (django_status, _, django_body) = both(
        signed_in, path, if_none_match=etag
    )
    assert status == django_status == "200 OK"
    assert _tokens_out(body) == _tokens_out(django_body) and b"Ann" in body
    assert looks.call_count == 2  # one for the site (its view took the poll's), one for Django


@pytest.mark.parametrize(
    "case",
    [
        "not a poll",
        "no etag",
        "a post",
        "a host not allowed",
        "signed out",
        "to https",
        "a csrf cookie django replaces",
        "a middleware of another site",
        "db down",
        "a bug",
    ],
)
def test_anything_else_goes_djangos_whole_way(case, signed_in, member, make_game, settings):
    game = make_game(member)
    path = f"/games/{game.pk}/rounds/1/live/"
    etag = etag_of(signed_in, path)
    client, headers, method = signed_in, {"if_none_match": etag}, "get"
    if case == "not a poll":
        path = f"/games/{game.pk}/rounds/1/"
    elif case == "no etag":
        headers = {}
    elif case == "a post":
        method = "post"
    elif case == "a host not allowed":
        settings.ALLOWED_HOSTS = ["testserver"]
        headers["host"] = "evil.example"
    elif case == "signed out":
        client = Client()
    elif case == "to https":
        settings.SECURE_SSL_REDIRECT = True
    elif case == "a csrf cookie django replaces":
        client.cookies["csrftoken"] = "not-a-token"
    elif case == "a middleware of another site":
        settings.MIDDLEWARE = [*settings.MIDDLEWARE, "django.middleware.locale.LocaleMiddleware"]
    django = WSGIHandler()
    site = LivePolls(django)
    with mock.patch.object(django, "get_response", wraps=django.get_response) as handled:
        failing = {"db down": DatabaseError("gone"), "a bug": ValueError("a slip")}.get(case)
        if failing is not None:
            with mock.patch.object(polls, "quick_etag", side_effect=failing):
                status, answered, _ = served(site, environ(client, path, method, **headers))
        else:
            status, answered, _ = served(site, environ(client, path, method, **headers))
    handled.assert_called_once()  # Django's handler answered it
    expected, headers_expected, _ = served(django, environ(client, path, method, **headers))
    assert status == expected
    if case == "a csrf cookie django replaces":
        assert any(name == "Set-Cookie" and "csrftoken=" in value for name, value in answered)
    assert not status.startswith("5")
    if case == "a host not allowed":
        assert status.startswith("400")
    if case == "to https":
        assert status.startswith("301")


def test_a_change_kept_as_drawn_is_djangos_own_answer_to_a_member_and_a_guest(
    signed_in, member, make_game
):
    from games.live.changes import forget_guest_links, mark_followed

    game = make_game(member)
    guest = as_guest(game)
    forget_guest_links()
    mark_followed([game.pk], by_guests=[game.pk])  # both kinds of page follow: drawn for both
    path = f"/games/{game.pk}/rounds/1/live/"
    seen = {client: etag_of(client, path) for client in (signed_in, guest)}
    save(signed_in, game, 1, seats(game)[0], outcome="points", points="7", version=0)
    for client, etag in seen.items():
        asked = {"if_none_match": etag, "accept_encoding": "gzip, deflate, br"}
        site = LivePolls(WSGIHandler())
        with mock.patch.object(WSGIHandler, "get_response") as django:
            status, headers, body = served(site, environ(client, path, **asked))
        django.assert_not_called()  # the kept change, answered before Django's handler
        _, (django_status, django_headers, django_body) = both(client, path, **asked)
        assert status == django_status == "200 OK"
        names = [name for name, _ in headers]
        assert names == [name for name, _ in django_headers] and "Set-Cookie" in names
        same = {"Content-Length", "Set-Cookie"}  # a token masked anew: its length may move
        assert [h for h in headers if h[0] not in same] == [
            h for h in django_headers if h[0] not in same
        ]
        shown = _tokens_out(gzip.decompress(body))
        assert shown == _tokens_out(gzip.decompress(django_body)) and b"Ann" in shown
