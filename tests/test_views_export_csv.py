"""Exports a spreadsheet can open safely: text that a spreadsheet would run as a formula is
written as text, numbers stay numbers, and the JSON export keeps every name exactly."""

import csv
import io
import json

import pytest

from games.transfer import spreadsheet_cell
from tests.helpers import hand_url

pytestmark = pytest.mark.django_db

HOSTILE = ('=HYPERLINK("http://x.invalid")', "+1+cmd|' /C calc'!A0", "@SUM(1)", "-2+3")


@pytest.fixture
def hostile_game(signed_in, member, make_game):
    game = make_game(member, kind="rummy13", names=HOSTILE)
    seats = list(game.seats.all())
    hands = [
        ("went_out", ""),
        ("cards", "KS QD 2C 3H 5D 7S 9C JH QH 4S 6D 8C TD"),
        ("cards", "KC QS 2D 3S 5H 7C 9D JS QC 4D 6H 8S TH"),
        ("cards", "KH QC 2S 3C 5S 7D 9H JC QD 4C 6S 8D TS"),
    ]
    for seat, (outcome, cards) in zip(seats, hands, strict=True):
        entry = {"outcome": outcome, "cards": cards, "save": "1", "version": 0}
        response = signed_in.post(hand_url(game, 1, seat), entry)
        assert response.status_code in (200, 302)
    return game


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_text_a_spreadsheet_would_run_is_written_as_text(start):
    assert spreadsheet_cell(f"{start}1+1") == f"'{start}1+1"


def test_numbers_and_plain_text_are_written_as_they_are():
    assert spreadsheet_cell(-3) == -3
    assert spreadsheet_cell(22) == 22
    assert spreadsheet_cell("Ann") == "Ann"
    assert spreadsheet_cell("KS QD 2C") == "KS QD 2C"


@pytest.mark.parametrize("url", ["/group/export.csv", "night"])
def test_csv_exports_show_formula_like_names_as_text(signed_in, hostile_game, url):
    if url == "night":
        url = f"/nights/{hostile_game.night_id}/export.csv"
    rows = list(csv.DictReader(io.StringIO(signed_in.get(url).content.decode())))
    assert sorted(row["player"] for row in rows) == sorted("'" + name for name in HOSTILE)
    for row in rows:
        assert not row["player"].startswith(("=", "+", "-", "@"))
        assert row["points"].isdigit() and row["round"] == "1"
    assert {int(row["points"]) for row in rows} - {0}


def test_json_round_trip_keeps_formula_like_names_exactly(
    signed_in, hostile_game, make_member, client
):
    exported = json.loads(signed_in.get("/group/export.json").content)
    assert {player["name"] for player in exported["players"]} == set(HOSTILE)
    assert set(exported["nights"][0]["games"][0]["seats"]) == set(HOSTILE)
    client.force_login(make_member("zoe"))
    upload = io.BytesIO(json.dumps(exported).encode())
    upload.name = "history.json"
    assert client.post("/group/import/", {"file": upload}).status_code == 302
    again = json.loads(client.get("/group/export.json").content)
    assert again == exported
