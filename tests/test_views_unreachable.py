"""The database going away is a pause: 503 in the app's style, nothing acknowledged that was
not stored, the entry kept, and the first requests after it returns succeed."""

import pytest

from games.models import Hand, HandChange
from games.views.errors import UNREACHABLE
from tests.helpers import hand_url

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_page_answers_503_with_a_plain_message(
    phone_client, member, make_game, database_switch
):
    game = make_game(member)
    urls = ["/", f"/games/{game.pk}/", f"/games/{game.pk}/rounds/1/", "/nights/", "/group/"]
    database_switch.cut()
    for url in urls:
        response = phone_client.get(url)
        assert response.status_code == 503, url
        page = response.content.decode()
        assert "Can&#x27;t reach the scores right now" in page
        assert "nothing you saved is lost" in page
        assert response["Retry-After"] == "5"
        assert "<nav" not in page.split("<main", 1)[0].split("</header>")[0]
    database_switch.restore()
    for url in urls:
        assert phone_client.get(url).status_code == 200, url


def test_a_save_while_the_database_is_away_is_not_acknowledged(
    phone_client, member, make_game, database_switch
):
    game = make_game(member)
    seat = game.seats.first()
    entry = {"outcome": "cards", "cards": "KS QD 2C", "save": "1", "version": 0}
    database_switch.cut()
    response = phone_client.post(hand_url(game, 1, seat), entry, headers={"HX-Request": "true"})
    assert response.status_code == 503
    assert response.content.decode().strip() == (
        '<p class="field-error unreachable" role="alert" data-unreachable>'
        "Can&#x27;t reach the scores right now — nothing you saved is lost; "
        "try again in a moment.</p>"
    )
    database_switch.restore()
    assert not Hand.objects.exists() and not HandChange.objects.exists()
    saved = phone_client.post(hand_url(game, 1, seat), entry, headers={"HX-Request": "true"})
    assert saved.status_code == 200
    assert Hand.objects.get().points == 22


def test_other_server_errors_stay_a_plain_500(phone_client, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("not the database")

    monkeypatch.setattr("games.views.games.render", broken)
    response = phone_client.get("/")
    assert response.status_code == 500
    assert UNREACHABLE not in response.content.decode()
