"""The reads written in plain SQL for speed (`games.plain`: who is asking, a round's seats, its
lock, its table, its winners) give exactly what the ORM's queries they replace give: the same
rows, in the same order, with the same values (dates and times aware, JSON parsed, on SQLite and
PostgreSQL alike), and the same refusals."""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.db.models import FilteredRelation, Q
from django.http import Http404
from django.test import Client, RequestFactory
from django.utils import timezone

from games import engine
from games.access import Guest, _guest, _session_memberships, guest_grant
from games.lookups import seats_for
from games.models import GuestPass, Hand, Membership, Round, Seat
from tests.factories import join
from tests.helpers import save, seats
from tests.test_views_reasons import ALL_PURE, NO_PURE

pytestmark = pytest.mark.django_db


def values(obj) -> dict:
    """Every column's value of a model instance, as the ORM gives it."""
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


@pytest.fixture
def rummy(member, make_game, signed_in):
    """A Rummy game whose first round has two hands saved: one counted, one gone out pure."""
    game = make_game(member, kind="rummy13", names=("Maya", "Priya", "Sam"))
    maya, priya, _ = seats(game)
    save(signed_in, game, 1, priya, NO_PURE)
    save(signed_in, game, 1, maya, ALL_PURE, outcome="went_out")
    game.refresh_from_db()
    return game


def test_a_rounds_seats_with_their_game_night_and_players_are_the_orms(member, rummy):
    request = SimpleNamespace(as_guest=False, group=member.memberships.get().group)
    plain = seats_for(request, rummy.pk, 1)
    orm = list(
        Seat.objects.select_related("game__night", "player").filter(
            game__rounds__number=1, game_id=rummy.pk
        )
    )
    assert [values(seat) for seat in plain] == [values(seat) for seat in orm]
    assert [values(seat.player) for seat in plain] == [values(seat.player) for seat in orm]
    assert values(plain[0].game) == values(orm[0].game)
    assert values(plain[0].game.night) == values(orm[0].game.night)
    assert isinstance(plain[0].game.rules, dict) and plain[0].game.created_at.tzinfo is not None


def test_a_rounds_seats_are_not_found_for_another_group_a_missing_round_or_game(rummy, make_member):
    stranger = SimpleNamespace(as_guest=False, group=make_member("zed").memberships.get().group)
    member = SimpleNamespace(as_guest=False, group=rummy.group)
    nobody = SimpleNamespace(as_guest=False, group=None)
    for request, game_id, number in (
        (stranger, rummy.pk, 1),
        (nobody, rummy.pk, 1),
        (member, rummy.pk, 2),
        (member, rummy.pk + 1000, 1),
    ):
        with pytest.raises(Http404):
            seats_for(request, game_id, number)


def test_a_guests_seats_are_its_games_only(rummy, member, make_game):
    guest = Guest(rummy.pk, rummy.group_id, "phone", 1, rummy.night_id, rummy.created_at)
    request = SimpleNamespace(as_guest=True, guest=guest)
    assert [seat.pk for seat in seats_for(request, rummy.pk, 1)] == [s.pk for s in seats(rummy)]
    earlier = make_game(member)
    earlier.created_at = rummy.created_at - timedelta(minutes=5)
    earlier.save()
    with pytest.raises(Http404):
        seats_for(request, earlier.pk, 1)


def test_the_locked_round_and_its_game_are_the_orms(rummy):
    plain = Round.locked(rummy.pk, 1)
    orm = Round.objects.select_related("game").get(game_id=rummy.pk, number=1)
    assert values(plain) == values(orm) and values(plain.game) == values(orm.game)
    with pytest.raises(Round.DoesNotExist):
        Round.locked(rummy.pk, 2)


def test_a_rounds_table_holds_the_orms_seats_players_and_hands(rummy):
    round_ = Round.objects.select_related("game").get(game_id=rummy.pk, number=1)
    table = round_.table()
    orm = list(
        rummy.seats.select_related("player")
        .annotate(this_hand=FilteredRelation("hands", condition=Q(hands__round=round_)))
        .select_related("this_hand")
    )
    assert [values(seat) for seat in table.seats] == [values(seat) for seat in orm]
    assert [values(seat.player) for seat in table.seats] == [values(seat.player) for seat in orm]
    orm_hands = {seat.pk: getattr(seat, "this_hand", None) for seat in orm}
    expected = {pk: values(hand) for pk, hand in orm_hands.items() if hand is not None}
    assert {pk: values(hand) for pk, hand in table.hands.items()} == expected
    assert len(expected) == 2
    assert all(seat.game is round_.game for seat in table.seats)
    assert all(hand.seat.pk == pk and hand.round is round_ for pk, hand in table.hands.items())
    known = round_.table(table.seats)  # the seats known: the hands read on their own
    assert {pk: values(hand) for pk, hand in known.hands.items()} == expected
    assert all(
        known.hands[pk].seat is seat
        for pk, seat in ((s.pk, s) for s in table.seats)
        if pk in known.hands
    )


def test_the_rounds_winner_who_doubles_is_read_as_the_orm_reads_it(rummy):
    round_ = Round.objects.get(game_id=rummy.pk, number=1)
    orm = Hand.objects.filter(
        round__game_id=rummy.pk, round__number=1, outcome=engine.WENT_OUT
    ).values_list("outcome", "all_pure", "seat__player__name")
    assert round_.doubler() == rummy.kind_def.doubler(orm) == "Maya"
    assert round_.doubler() == round_.doubler(round_.table())


def session_of(client: Client):
    request = RequestFactory().get("/")
    request.session = client.session
    return request


def test_a_logins_memberships_are_the_orms_in_their_order(member, make_member):
    other = make_member("zed").memberships.get().group
    join(other, member)
    client = Client()
    client.force_login(member)
    plain = _session_memberships(session_of(client))
    orm = list(Membership.objects.select_related("group", "user").filter(user=member))
    assert [values(m) for m in plain] == [values(m) for m in orm] and len(plain) == 2
    assert [values(m.group) for m in plain] == [values(m.group) for m in orm]
    assert values(plain[0].user) == values(orm[0].user)
    User.objects.filter(pk=member.pk).update(is_active=False)
    assert _session_memberships(session_of(client)) == []


def test_a_guests_grant_holds_while_its_link_is_good(rummy):
    guest_pass = GuestPass.objects.create(game=rummy)
    client = Client()
    client.post(guest_pass.get_absolute_url(), {"device": "phone"})
    request = session_of(client)
    assert guest_grant(request.session) is not None
    guest, zone = _guest(request.session)
    assert guest == Guest(
        rummy.pk,
        rummy.group_id,
        guest.device,
        guest_pass.pk,
        rummy.night_id,
        rummy.created_at,
    )
    assert zone == rummy.group.time_zone
    GuestPass.objects.filter(pk=guest_pass.pk).update(
        created_at=timezone.now() - timedelta(hours=13)
    )
    assert _guest(request.session) == (None, "")
    GuestPass.objects.filter(pk=guest_pass.pk).update(
        created_at=timezone.now(), ended_at=timezone.now()
    )
    assert _guest(request.session) == (None, "")


@pytest.mark.parametrize("game", ["7", None, True, 7.0, [7]])
def test_a_guest_grant_whose_game_is_not_a_number_lets_no_one_in(rummy, game):
    guest_pass = GuestPass.objects.create(game=rummy)
    session = {"guest": {"game": game, "token": guest_pass.token, "device": "x"}}
    assert _guest(session) == (None, "")


def test_an_instance_made_without_the_models_init_is_the_one_from_db_makes(rummy):
    """`plain.made` skips `Model.__init__` where nothing could tell: the same values and
    state, and it behaves as the ORM's own instance (saved as an update, its related rows
    read, compared, pickled)."""
    import pickle

    from games import plain

    orm = Seat.objects.get(game=rummy, position=0)
    row = [getattr(orm, field.attname) for field in Seat._meta.concrete_fields]
    made = plain.made(Seat, list(row))
    assert type(made) is Seat and made.__dict__.keys() >= {"id", "game_id", "player_id"}
    assert values(made) == values(orm) and made == orm
    assert (made._state.adding, made._state.db) == (False, orm._state.db)
    assert made.player == orm.player and made.game.pk == rummy.pk  # its relations read
    assert pickle.loads(pickle.dumps(made)) == made
    made.player_id = orm.player_id  # a foreign key's id set as before: nothing cached forgot
    made.save()  # an update of its row, not a second row
    assert Seat.objects.filter(game=rummy).count() == len(seats(rummy))
    made.refresh_from_db()
    assert values(made) == values(orm)


def test_a_model_whose_init_someone_hears_is_made_by_from_db(rummy):
    from django.db.models.signals import post_init

    from games import plain

    heard = []

    def receiver(sender, instance, **kwargs):
        heard.append(instance)

    orm = Seat.objects.get(game=rummy, position=0)
    row = [getattr(orm, field.attname) for field in Seat._meta.concrete_fields]
    post_init.connect(receiver, sender=Seat)
    try:
        made = plain.made(Seat, list(row))
    finally:
        post_init.disconnect(receiver, sender=Seat)
    assert heard == [made] and values(made) == values(orm)
    plain.made(Seat, list(row))  # no one hears it any more: not sent
    assert len(heard) == 1
