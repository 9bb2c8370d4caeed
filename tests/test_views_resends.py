"""A phone's own earlier save is never a conflict: each save carries the key the phone gave its
entry, and a resend behind only that phone's saves of it (their answers lost on the way back)
is taken; a save behind another phone's change still meets the conflict."""

import pytest

from games.models import Hand, HandChange
from tests.helpers import save, seats, status_of

pytestmark = pytest.mark.django_db


def test_a_resend_whose_answer_was_lost_is_saved_not_a_conflict(signed_in, member, make_game):
    game = make_game(member)
    seat = seats(game)[0]
    first = save(signed_in, game, 1, seat, "KS QD 2C", htmx=True, save_key="phone-a-1")
    assert status_of(first) == 200 and first["X-Hand-Version"] == "1"
    # The answer never reached the phone: it sends the same entry again, from version 0.
    again = save(signed_in, game, 1, seat, "KS QD 2C", htmx=True, save_key="phone-a-1")
    assert status_of(again) == 200 and again["X-Hand-Version"] == "1"
    assert HandChange.objects.filter(seat=seat).count() == 1
    # Meanwhile the player tapped one card more: the resend, still from version 0, is the
    # next change of this phone's own hand.
    changed = save(signed_in, game, 1, seat, "KS QD 3C", htmx=True, save_key="phone-a-1")
    assert status_of(changed) == 200 and changed["X-Hand-Version"] == "2"
    assert Hand.objects.get(seat=seat).cards == "KS QD 3C"
    changes = HandChange.objects.filter(seat=seat).order_by("pk")
    assert [c.new_summary.split(": ")[1] for c in changes] == ["KS QD 2C", "KS QD 3C"]
    assert {c.save_key for c in changes} == {"phone-a-1"}


def test_a_save_behind_another_phones_change_is_still_a_conflict(signed_in, member, make_game):
    game = make_game(member)
    seat = seats(game)[0]
    save(signed_in, game, 1, seat, "KS QD 2C", htmx=True, save_key="phone-a-1")
    other = save(signed_in, game, 1, seat, "KS QD 4C", version=1, htmx=True, save_key="phone-b")
    assert status_of(other) == 200
    late = save(signed_in, game, 1, seat, "KS QD 3C", htmx=True, save_key="phone-a-1")
    assert status_of(late) == 409
    assert Hand.objects.get(seat=seat).cards == "KS QD 4C"
    # Without a key (the page before this change, or a form without JavaScript), as before.
    keyless = save(signed_in, game, 1, seat, "KS QD 5C", version=1, htmx=True)
    assert status_of(keyless) == 409


def test_an_undo_since_makes_an_old_resend_a_conflict(signed_in, member, make_game):
    game = make_game(member)
    seat = seats(game)[0]
    save(signed_in, game, 1, seat, "KS QD 2C", htmx=True, save_key="phone-a-1")
    save(signed_in, game, 1, seat, "KS QD 3C", version=1, htmx=True, save_key="phone-a-2")
    signed_in.post(f"/games/{game.pk}/rounds/1/undo/")
    late = save(signed_in, game, 1, seat, "KS QD 4C", version=1, htmx=True, save_key="phone-a-2")
    assert status_of(late) == 409


def test_a_key_the_page_did_not_make_is_refused_by_name(signed_in, member, make_game):
    game = make_game(member)
    seat = seats(game)[0]
    response = save(signed_in, game, 1, seat, "KS QD 2C", htmx=True, save_key="<script>")
    assert status_of(response) == 422
    assert "this page did not make that key" in response.content.decode()
    assert not Hand.objects.exists()
