"""Every page but home and login needs a login, and no group sees another group's data."""

import pytest

from tests.helpers import hand_url

pytestmark = pytest.mark.django_db


def private_urls(game):
    seat = game.seats.first()
    return [
        ("get", "/players/"),
        ("get", "/games/new/"),
        ("get", f"/games/{game.pk}/"),
        ("post", f"/games/{game.pk}/finish/"),
        ("get", f"/games/{game.pk}/rounds/1/"),
        ("post", hand_url(game, 1, seat)),
        ("get", f"/nights/{game.night_id}/"),
    ]


def test_every_private_page_sends_a_stranger_to_log_in(client, member, make_game):
    game = make_game(member)
    for method, url in private_urls(game):
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/login/"), url


def test_another_group_gets_not_found_on_every_page_of_a_game(
    client, member, make_member, make_game
):
    game = make_game(member)
    client.force_login(make_member("zed"))
    for method, url in private_urls(game)[2:]:
        response = getattr(client, method)(url, {"outcome": "cards", "cards": "5H", "save": "1"})
        assert response.status_code == 404, url
    assert game.rounds.first().hands.count() == 0
    game.refresh_from_db()
    assert game.finished_at is None


def test_another_groups_players_and_games_are_not_listed(client, member, make_member, make_game):
    make_game(member, names=("Secret Sam", "Hidden Hal"))
    client.force_login(make_member("zed"))
    assert b"Secret Sam" not in client.get("/players/").content
    assert b"Secret Sam" not in client.get("/").content


def test_home_and_login_are_public(client):
    assert client.get("/").status_code == 200
    assert client.get("/login/").status_code == 200
    assert client.get("/signup/").status_code == 200


def test_posts_without_a_csrf_token_are_refused(member, make_game):
    from django.test import Client

    game = make_game(member)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(member)
    seat = game.seats.first()
    response = strict.post(hand_url(game, 1, seat), {"cards": "5H 6H 7H", "save": "1"})
    assert response.status_code == 403
    page = strict.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert page.count('name="csrfmiddlewaretoken"') >= game.seats.count()


def test_names_from_users_are_escaped(signed_in, member, make_game):
    game = make_game(member, names=("<script>alert(1)</script>", "Bob"))
    page = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
