"""Accounts and headers: password guessing slowed per account and per address, a password a
signed-in user can change, and a strict Content-Security-Policy on every page."""

import re

import pytest
from django.contrib.auth import get_user_model

from tests.factories import PASSWORD
from tests.helpers import site_urls

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"\sstyle\s*=", re.IGNORECASE)
EVENT_ATTRIBUTE = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)


def login(client, username, password, address="10.0.0.1"):
    return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_every_page_has_a_strict_policy_and_no_inline_script_or_style(signed_in, member, make_game):
    game = make_game(member)
    for name, url in site_urls(game).items():
        response = signed_in.get(url)
        policy = response["Content-Security-Policy"]
        for directive in (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
        ):
            assert directive in policy, (name, directive)
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert response["Referrer-Policy"] == "same-origin", name
        assert response["X-Content-Type-Options"] == "nosniff", name
        assert response["X-Frame-Options"] == "DENY", name
        if response["Content-Type"].startswith("text/html"):
            page = response.content.decode()
            assert not INLINE_SCRIPT.search(page), name
            assert not STYLE_ATTRIBUTE.search(page), name
            assert not EVENT_ATTRIBUTE.search(page), name


def test_failed_logins_for_one_account_are_paused_from_any_address(client, member):
    for attempt in range(4):
        assert login(client, "ann", "wrong", f"10.0.0.{attempt}").status_code == 200
    assert login(client, "ann", "wrong", "10.0.0.5").status_code == 429
    refused = login(client, "ann", PASSWORD, "10.0.9.9")
    assert refused.status_code == 429
    assert "Too many tries" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_failed_logins_from_one_address_are_paused_for_every_account(client, make_member):
    make_member("bob")
    for attempt in range(4):
        assert login(client, f"guess{attempt}", "wrong").status_code == 200
    assert login(client, "guess5", "wrong").status_code == 429
    assert login(client, "bob", PASSWORD).status_code == 429
    assert login(client, "bob", PASSWORD, "10.0.0.2").status_code == 302


def test_a_good_login_before_the_limit_clears_the_count(client, member):
    for _ in range(4):
        login(client, "ann", "wrong")
    assert login(client, "ann", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert login(client, "ann", "wrong").status_code == 200
    assert login(client, "ann", PASSWORD).status_code == 302


def test_behind_the_proxy_the_address_is_the_one_the_proxy_added(client, member, settings):
    settings.BEHIND_HTTPS_PROXY = True

    def through_proxy(username, password, forwarded):
        return client.post(
            "/login/",
            {"username": username, "password": password},
            REMOTE_ADDR="10.9.9.9",
            HTTP_X_FORWARDED_FOR=forwarded,
        )

    for attempt in range(5):
        through_proxy(f"guess{attempt}", "x", f"1.2.3.{attempt}, 5.6.7.8")
    assert through_proxy("ann", PASSWORD, "9.9.9.9, 5.6.7.8").status_code == 429
    assert through_proxy("ann", PASSWORD, "1.1.1.1").status_code == 302


def test_a_signed_in_user_changes_their_password(signed_in, member, client):
    page = signed_in.get("/")
    assert 'href="/account/password/"' in page.content.decode()
    wrong = signed_in.post(
        "/account/password/",
        {
            "old_password": "nope",
            "new_password1": "Fresh-deck-77",
            "new_password2": "Fresh-deck-77",
        },
    )
    assert wrong.status_code == 200
    assert "Your old password was entered incorrectly" in wrong.content.decode()
    done = signed_in.post(
        "/account/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "Fresh-deck-77",
            "new_password2": "Fresh-deck-77",
        },
    )
    assert done.status_code == 302 and done["Location"] == "/account/password/done/"
    assert signed_in.get("/account/password/done/").status_code == 200
    assert signed_in.get("/").status_code == 200  # this phone stays signed in
    member = get_user_model().objects.get(pk=member.pk)
    assert member.check_password("Fresh-deck-77") and not member.check_password(PASSWORD)


def test_a_password_change_needs_a_login_and_a_sane_length(client, signed_in):
    long = "Aa1-" * 40
    refused = signed_in.post(
        "/account/password/",
        {"old_password": PASSWORD, "new_password1": long, "new_password2": long},
    )
    assert refused.status_code == 200
    assert "at most 128 characters" in refused.content.decode()
    signed_in.logout()
    assert client.get("/account/password/")["Location"].startswith("/login/")
