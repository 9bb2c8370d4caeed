"""Undo the last save of a round: the hand goes back to what it was (a first save is taken
back entirely), the history records it, and the round's completion follows."""

import io
import json

import pytest

from games.engine import POINTS, WENT_OUT
from games.models import Entry, Hand, HandChange, Refused
from games.transfer import export_json
from tests.helpers import hand_url, seats

pytestmark = pytest.mark.django_db


def undo_url(game, number):
    return f"/games/{game.pk}/rounds/{number}/undo/"


def test_undo_restores_the_previous_version_and_records_it(signed_in, member, make_game):
    game = make_game(member)
    ann = seats(game)[0]
    first = game.rounds.get()
    first.save_hand(ann, Entry(POINTS, "", 4), member)
    first.save_hand(ann, Entry("cards", "KS QD 2C", version=1), member)
    page = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert "Undo last save: Ann's hand" in page
    assert "Puts Ann's hand back to 4 points entered (4), as it was before" in page
    last = HandChange.objects.get(undo=False, new_points=22)
    response = signed_in.post(undo_url(game, 1), {"change": last.pk}, follow=True)
    text = response.content.decode()
    assert "Undone: Ann&#x27;s hand is back to 4 points entered." in text
    hand = Hand.objects.get()
    assert (hand.outcome, hand.cards, hand.entered_points, hand.points) == (POINTS, "", 4, 4)
    assert hand.version == 3  # a phone that saw version 2 must look again
    undo = HandChange.objects.get(undo=True)
    assert (undo.old_summary, undo.new_summary) == ("Cards left: KS QD 2C", "4 points entered")
    assert "undid the last save of <strong>Ann</strong>" in text
    assert "(undone)" in text
    # The login's name as the changes and the saved lines write it, not capitalised.
    assert f"↶ {member.username} undid the last save of Ann" in text


def test_undoing_a_first_save_removes_the_hand_and_keeps_its_history(signed_in, member, make_game):
    game = make_game(member)
    ann = seats(game)[0]
    game.rounds.get().save_hand(ann, Entry(POINTS, "", 4), member)
    page = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert "Takes Ann's hand out again (not entered), as it was before" in page
    response = signed_in.post(undo_url(game, 1), follow=True)
    text = response.content.decode()
    assert "Undone: Ann&#x27;s hand is not entered any more." in text
    assert not Hand.objects.exists()
    assert HandChange.objects.count() == 2
    assert "4 points entered (4) → not entered" in text
    assert "Still to enter: Ann, Bob, Cid." in text
    # Entered again, the hand takes its history back.
    game.rounds.get().save_hand(ann, Entry(POINTS, "", 6), member)
    assert HandChange.objects.filter(seat=Hand.objects.get().seat).count() == 3


def test_undo_goes_back_one_save_at_a_time(member, make_game):
    game = make_game(member)
    ann, bob, _ = seats(game)
    first = game.rounds.get()
    first.save_hand(ann, Entry(POINTS, "", 4), member)
    first.save_hand(bob, Entry(POINTS, "", 7), member)
    first.save_hand(ann, Entry(POINTS, "", 9, version=1), member)
    assert first.undo_last(member).seat == ann
    assert Hand.objects.get(seat=ann).points == 4
    assert first.undo_last(member).seat == bob
    assert not Hand.objects.filter(seat=bob).exists()
    assert first.undo_last(member).seat == ann
    assert not Hand.objects.exists()
    with pytest.raises(Refused, match="nothing was saved in this round to undo"):
        first.undo_last(member)


def test_undo_reopens_a_completed_round_and_drops_the_unplayed_next(signed_in, member, make_game):
    game = make_game(member)
    ann, bob, cid = seats(game)
    first = game.rounds.get()
    first.save_hand(ann, Entry(WENT_OUT), member)
    first.save_hand(bob, Entry(POINTS, "", 7), member)
    first.save_hand(cid, Entry(POINTS, "", 5), member)
    assert game.rounds.count() == 2
    signed_in.post(undo_url(game, 1))
    first.refresh_from_db()
    assert first.completed_at is None
    assert game.rounds.count() == 1
    assert game.current_round() == first
    first.save_hand(cid, Entry(POINTS, "", 6), member)
    second = game.rounds.get(number=2)
    assert second.dealer == bob


def test_undo_keeps_a_next_round_already_played(member, make_game):
    game = make_game(member, names=("Ann", "Bob"))
    ann, bob = seats(game)
    first = game.rounds.get()
    first.save_hand(ann, Entry(WENT_OUT), member)
    first.save_hand(bob, Entry(POINTS, "", 7), member)
    game.rounds.get(number=2).save_hand(ann, Entry(POINTS, "", 3), member)
    first.undo_last(member)
    assert game.rounds.count() == 2
    assert game.current_round().number == 1


def test_undo_of_a_rummy_winner_takes_back_the_double(member, make_game):
    game = make_game(member, kind="rummy13", names=("Ann", "Bob"))
    ann, bob = seats(game)
    first = game.rounds.get()
    first.save_hand(bob, Entry("cards", "5H 6H 7H 8C 8D 8S 2C 4D 9S JC QD KH AS"), member)
    first.save_hand(ann, Entry(WENT_OUT, "AS 2S 3S 4S 5D 6D 7D 8C 9C 10C JH QH KH"), member)
    assert Hand.objects.get(seat=bob).points == 110
    first.undo_last(member)
    assert Hand.objects.get(seat=bob).points == 55


def test_undo_is_refused_on_a_finished_game(signed_in, member, make_game):
    game = make_game(member)
    game.rounds.get().save_hand(seats(game)[0], Entry(POINTS, "", 4), member)
    game.finish()
    assert "Undo last save" not in signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    response = signed_in.post(undo_url(game, 1), follow=True)
    assert "Nothing was undone: this game is finished: reopen it to undo a save." in (
        response.content.decode()
    )
    assert Hand.objects.get().points == 4


def test_undo_is_refused_when_another_save_came_since_the_page_was_loaded(
    signed_in, member, make_game
):
    game = make_game(member)
    ann, bob, _ = seats(game)
    first = game.rounds.get()
    first.save_hand(ann, Entry(POINTS, "", 4), member)
    offered = first.last_save()
    first.save_hand(bob, Entry(POINTS, "", 8), member)  # from another phone
    response = signed_in.post(undo_url(game, 1), {"change": offered.pk}, follow=True)
    text = response.content.decode()
    assert "Nothing was undone: the last save is now Bob&#x27;s hand" in text
    assert Hand.objects.count() == 2
    assert "Undo last save: Bob's hand" in text


def test_undo_needs_a_post_a_member_and_the_groups_own_game(client, member, make_member, make_game):
    game = make_game(member)
    game.rounds.get().save_hand(seats(game)[0], Entry(POINTS, "", 4), member)
    assert client.post(undo_url(game, 1))["Location"].startswith("/login/")
    client.force_login(make_member("zed"))
    assert client.post(undo_url(game, 1)).status_code == 404
    client.force_login(member)
    assert client.get(undo_url(game, 1)).status_code == 405
    assert Hand.objects.count() == 1


def test_the_undo_button_is_in_the_round_summary_htmx_refreshes(signed_in, member, make_game):
    game = make_game(member)
    signed_in.post(
        hand_url(game, 1, seats(game)[1]),
        {"outcome": "points", "points": "5", "save": "1", "version": 0},
        HTTP_HX_REQUEST="true",
    )
    status = signed_in.get(f"/games/{game.pk}/rounds/1/", HTTP_HX_REQUEST="true")
    assert "Undo last save: Bob's hand" in status.content.decode()


def test_undo_history_survives_export_and_import(signed_in, member, make_game, make_member, client):
    game = make_game(member)
    ann, bob, _ = seats(game)
    first = game.rounds.get()
    first.save_hand(ann, Entry(POINTS, "", 4), member)
    first.save_hand(bob, Entry(POINTS, "", 7), member)
    first.undo_last(member)  # Bob's hand is removed; its history stays with the round
    exported = json.loads(signed_in.get("/group/export.json").content)
    removed = exported["nights"][0]["games"][0]["rounds"][0]["removed_hand_changes"]
    assert [(c["seat"], c["undo"]) for c in removed] == [(1, False), (1, True)]
    other = make_member("zoe")
    client.force_login(other)
    upload = io.BytesIO(json.dumps(exported).encode())
    upload.name = "history.json"
    assert client.post("/group/import/", {"file": upload}).status_code == 302
    assert export_json(other.memberships.get().group) == exported
    imported = other.memberships.get().group.games.get().rounds.get()
    assert imported.undo_last(other).seat.player.name == "Ann"


def test_the_changes_are_drawn_on_the_page_and_sent_again_when_opened(signed_in, member, make_game):
    game = make_game(member)
    ann, bob, _ = seats(game)
    first = game.rounds.get()
    first.save_hand(ann, Entry(POINTS, "", 4), member)
    page = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert '>Changes (<span id="round-changes-count"' in page and '">1</span>)' in page
    assert "4 points entered (4)" in page
    first.save_hand(bob, Entry(POINTS, "", 7), member)
    opened = signed_in.get(
        f"/games/{game.pk}/rounds/1/", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="round-changes-list"
    ).content.decode()
    assert opened.lstrip().startswith('<ul id="round-changes-list">')
    assert "saved <strong>Bob</strong>: 7 points entered (7)" in opened
