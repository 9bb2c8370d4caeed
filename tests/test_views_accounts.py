import pytest

from games.models import Membership, Player

pytestmark = pytest.mark.django_db


def test_signing_up_gives_a_new_group_and_logs_in(client):
    response = client.post(
        "/signup/",
        {"username": "meera", "password1": "Rummy-night-77", "password2": "Rummy-night-77"},
    )
    assert response.status_code == 302
    membership = Membership.objects.get(user__username="meera")
    assert membership.group.name == "meera's table"
    assert client.get("/games/new/").status_code == 200


def test_log_in_and_out(client, member):
    from tests.factories import PASSWORD

    response = client.post("/login/", {"username": "ann", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/players/").status_code == 200
    client.post("/logout/")
    assert client.get("/players/").status_code == 302


def test_a_player_is_added_once_per_group(signed_in, member):
    signed_in.post("/players/", {"name": "  Ravi  "})
    response = signed_in.post("/players/", {"name": "ravi"})
    assert "already one of your players" in response.content.decode()
    assert list(Player.objects.values_list("name", flat=True)) == ["Ravi"]
