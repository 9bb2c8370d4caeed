"""One photo of the table, sent from the round page: the reader's hands are given to the round's
seats from the photographer's, each hand's reading comes back for its panel, nothing saved; a
hand or a card is moved with one tap, a card lying between hands goes to no hand until given
one; bad photos and bad moves get a clear message (never a 500); and only a phone that may
enter the round's hands may send its table photo."""

import io
import re
from datetime import date

import pytest
from django.core.files import uploadedfile
from django.test import Client

from games import table_photos, vision
from games.models import Game, GameNight, GuestPass, Hand
from tests.helpers import save, seats, status_of

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NAMES = ("Ann", "Bob", "Cid", "Dee")
# Four hands of 13, as they lie from the photo's bottom edge round to the left.
DEALT = [
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
]


def readings(cards: str, confidence=0.99):
    return tuple(
        vision.CardReading(card, confidence, (0, 0, 9, 9), "2C", 0.0) for card in cards.split()
    )


def table_of(*hands: str, between=()):
    """What the reader makes of a photo of these hands (and of cards lying between two)."""
    doubtful = tuple(vision.DoubtfulCard(readings(card)[0], places) for card, places in between)
    return vision.TableReading(tuple(readings(hand) for hand in hands), doubtful)


@pytest.fixture
def rummy(member, make_game):
    return make_game(member, kind="rummy13", names=NAMES)


@pytest.fixture
def reads(monkeypatch):
    """The reader's answer for the next photos, and how many hands it was asked for (and,
    in `answer.supplies`, the copies of each card it was told the round's decks hold)."""
    asked = []

    def answer(table):
        def read_table(data, hands, supply=None):
            asked.append(hands)
            answer.supplies.append(supply)
            if data.startswith(b"not"):
                raise vision.NotAPhoto()
            return table

        monkeypatch.setattr(table_photos.vision, "read_table", read_table)
        return asked

    answer.supplies = []
    return answer


def url(game, number=1, move=False):
    return f"/games/{game.pk}/rounds/{number}/table-photo/{'move/' if move else ''}"


def send(client, game, data=b"photo", photographer=None, number=1, htmx=True):
    upload = io.BytesIO(data)
    upload.name = "table.jpg"
    fields = {"photo": upload}
    if photographer is not None:
        fields["photographer"] = photographer.pk
    return client.post(url(game, number), fields, **(HTMX if htmx else {}))


def hands_shown(text: str) -> dict[str, list[str]]:
    """Each hand the answer gives a seat: the seat's id and its cards."""
    return {
        seat: cards.split()
        for seat, cards in re.findall(
            r'data-table-hand data-seat="(\d+)" data-cards="([^"]*)"', text
        )
    }


def carried(text: str) -> dict:
    """The fields the reading's form carries, as the page would send them back."""
    fields = {}
    for name, value in re.findall(r'<input type="hidden" name="([\w-]+)" value="([^"]*)"', text):
        if name != "csrfmiddlewaretoken":
            fields.setdefault(name, []).append(value.replace("&#x27;", "'"))
    return fields


def test_every_hand_comes_back_for_its_panel_from_the_photographers_seat_round_to_the_left(
    signed_in, rummy, reads
):
    asked = reads(table_of(*DEALT))
    ann, bob, cid, dee = seats(rummy)
    response = send(signed_in, rummy, photographer=cid)
    assert status_of(response) == 200 and asked == [4]
    text = response.content.decode()
    # Nearest the camera is Cid's, then Dee's to Cid's left, then Ann's and Bob's.
    order = [cid, dee, ann, bob]
    assert hands_shown(text) == {str(seat.pk): DEALT[at].split() for at, seat in enumerate(order)}
    assert "Cid&#x27;s nearest the camera, then to Cid&#x27;s left Dee, Ann and Bob" in text
    for seat in order:  # each panel's own photo line, as a photo of that hand says it
        assert f'hx-swap-oob="innerHTML:#photo-{seat.pk}"' in text
    assert text.count("Found 13 of the 13 cards this hand holds.") == 2 * 4
    assert not Hand.objects.exists()
    # The reader is told the round's decks: two of each card and the two printed jokers.
    (supply,) = reads.supplies
    assert supply == dict.fromkeys(vision.LABELS[:-1], 2) | {"JK": 2}


def test_the_page_offers_the_table_photo_from_the_first_seat_still_to_enter(signed_in, rummy):
    ann, bob, *_ = seats(rummy)
    assert (
        status_of(save(signed_in, rummy, 1, ann, "AS 3H 5D 7C 9S JH KD 2C 4H 6D 8C 10S QH")) == 302
    )
    page = signed_in.get(f"/games/{rummy.pk}/rounds/1/").content.decode()
    assert "Read the table from a photo" in page and 'capture="environment"' in page
    assert re.search(r"selected>(\w+)'s seat", page).group(1) == "Bob"
    own = signed_in.get(f"/games/{rummy.pk}/rounds/1/?seat={seats(rummy)[3].pk}").content.decode()
    assert re.search(r"selected>(\w+)'s seat", own).group(1) == "Dee"


def test_a_hand_given_to_the_wrong_seat_is_moved_with_one_tap(signed_in, rummy, reads):
    reads(table_of(*DEALT))
    ann, bob, cid, dee = seats(rummy)
    text = send(signed_in, rummy, photographer=ann).content.decode()
    assert re.search(rf'value="hand:{ann.pk}:{cid.pk}" class="button">These are Cid\'s<', text)
    moved = signed_in.post(
        url(rummy, move=True), carried(text) | {"move": f"hand:{ann.pk}:{cid.pk}"}, **HTMX
    )
    assert status_of(moved) == 200
    shown = hands_shown(moved.content.decode())
    assert shown[str(cid.pk)] == DEALT[0].split() and shown[str(ann.pk)] == DEALT[2].split()
    assert shown[str(bob.pk)] == DEALT[1].split()
    assert not Hand.objects.exists()


def test_a_card_in_the_wrong_hand_is_moved_with_one_tap_and_the_counts_follow(
    signed_in, rummy, reads
):
    reads(table_of(*DEALT))
    ann, bob, *_ = seats(rummy)
    text = send(signed_in, rummy, photographer=ann).content.decode()
    moved = signed_in.post(
        url(rummy, move=True), carried(text) | {"move": f"card:{ann.pk}:AS:{bob.pk}"}, **HTMX
    )
    text = moved.content.decode()
    shown = hands_shown(text)
    assert "AS" not in shown[str(ann.pk)] and shown[str(bob.pk)][-1] == "AS"
    assert "Found 12 of the 13 cards this hand holds: 1 card missing." in text
    assert "Found 14 cards, but this hand holds 13" in text


def chosen_for(text: str, seat) -> int:
    """The seat a card tapped in `seat`'s hand goes to, as its list shows it."""
    listed = text.split(f'id="to-{seat.pk}"')[1].split("</select>")[0]
    return int(re.search(r'<option value="(\d+)" selected>', listed)[1])


def test_a_card_tapped_goes_to_the_hand_chosen_for_its_hand_the_next_one_at_first(
    signed_in, rummy, reads
):
    reads(table_of(*DEALT))
    ann, bob, cid, dee = seats(rummy)
    text = send(signed_in, rummy, photographer=ann).content.decode()
    # Each hand's taps go to the next hand round the table until another is chosen.
    for this, following in ((ann, bob), (bob, cid), (cid, dee), (dee, ann)):
        assert chosen_for(text, this) == following.pk
    tap = {"move": f"card:{ann.pk}:AS"}
    text = signed_in.post(url(rummy, move=True), carried(text) | tap, **HTMX).content.decode()
    assert "AS" not in hands_shown(text)[str(ann.pk)] and hands_shown(text)[str(bob.pk)][-1] == "AS"
    # Dee's hand chosen for Ann's taps: the choice is kept from tap to tap.
    fields = carried(text) | {f"to-{ann.pk}": str(dee.pk), "move": f"card:{ann.pk}:KS"}
    text = signed_in.post(url(rummy, move=True), fields, **HTMX).content.decode()
    assert hands_shown(text)[str(dee.pk)][-1] == "KS"
    assert chosen_for(text, ann) == dee.pk
    # A seat not at this table, or the hand's own, falls back to the next hand.
    fields = carried(text) | {f"to-{ann.pk}": str(ann.pk), "move": f"card:{ann.pk}:QS"}
    text = signed_in.post(url(rummy, move=True), fields, **HTMX).content.decode()
    assert hands_shown(text)[str(bob.pk)][-1] == "QS"


def test_cards_lying_between_hands_are_in_none_until_given_a_seat(signed_in, rummy, reads):
    hands = [hand.replace("AS ", "") if i == 0 else hand for i, hand in enumerate(DEALT)]
    reads(table_of(*hands, between=[("AS", (0, 1))]))
    ann, bob, *_ = seats(rummy)
    text = send(signed_in, rummy, photographer=ann).content.decode()
    assert "these cards could be either hand" in text
    assert all("AS" not in cards for cards in hands_shown(text).values())  # never in two
    assert f'name="loose" value="AS|{ann.pk},{bob.pk}|"' in text
    # Every seat may take it; the two hands it lies between say so in their buttons' words.
    buttons = re.findall(r'value="loose:0:(\d+)"[^>]*>(.*?)</button>', text)
    lies_there = {int(pk) for pk, words in buttons if "(it lies there)" in words}
    assert len(buttons) == 4 and lies_there == {ann.pk, bob.pk}
    given = signed_in.post(
        url(rummy, move=True), carried(text) | {"move": f"loose:0:{ann.pk}"}, **HTMX
    )
    text = given.content.decode()
    assert hands_shown(text)[str(ann.pk)][-1] == "AS" and 'name="loose"' not in text
    assert text.count("Found 13 of the 13 cards this hand holds.") == 2 * 4


@pytest.mark.parametrize(
    "move",
    [
        "hand:{ann}:999999",
        "card:{ann}:KH:{bob}",
        "card:{ann}:AS:{ann}",
        "loose:3:{ann}",
        "",
        "hand:x",
    ],
)
def test_a_move_that_does_not_fit_the_reading_is_refused_by_name(signed_in, rummy, reads, move):
    reads(table_of(*DEALT))
    ann, bob, *_ = seats(rummy)
    text = send(signed_in, rummy, photographer=ann).content.decode()
    fields = carried(text) | {"move": move.format(ann=ann.pk, bob=bob.pk)}
    response = signed_in.post(url(rummy, move=True), fields, **HTMX)
    assert status_of(response) == 422
    assert "read the photo again" in response.content.decode()


@pytest.mark.parametrize(
    "change",
    [
        {"hand-{ann}": "AS ZZ"},
        {"hand-{ann}": "AS " * 70},
        {"photographer": "999999"},
        {"loose": "AS|999|"},
        {"loose": "AS AH|{ann}|"},
    ],
)
def test_a_reading_changed_on_the_way_is_refused_not_a_500(signed_in, rummy, reads, change):
    reads(table_of(*DEALT))
    ann, bob, *_ = seats(rummy)
    text = send(signed_in, rummy, photographer=ann).content.decode()
    fields = carried(text) | {"move": f"hand:{ann.pk}:{bob.pk}"}
    fields |= {name.format(ann=ann.pk): value.format(ann=ann.pk) for name, value in change.items()}
    response = signed_in.post(url(rummy, move=True), fields, **HTMX)
    assert status_of(response) == 422


def test_the_count_follows_each_game(signed_in, member, make_game, reads):
    reads(table_of("7H 8H 9H", "2C 3C 4C"))
    thirteen = make_game(member, names=("Ann", "Bob"))  # Three Thirteen: 3 cards in round 1
    text = send(signed_in, thirteen).content.decode()
    assert text.count("Found 3 of the 3 cards this hand holds.") == 2 * 2
    gin = make_game(member, kind="gin", names=("Ann", "Bob"))
    text = send(signed_in, gin).content.decode()
    assert "Found 3 of the 10 or 11 cards this hand holds: 7 cards missing." in text
    asked = reads(table_of(*(["7H 8H 9H"] * 6)))
    six = make_game(member, names=("A", "B", "C", "D", "E", "F"))
    assert status_of(send(signed_in, six)) == 200 and asked[-1] == 6


def test_a_bad_photo_is_refused_by_name_and_nothing_is_given(signed_in, rummy, reads):
    reads(table_of(*DEALT))
    response = send(signed_in, rummy, b"not a photo")
    assert status_of(response) == 422
    # To the page's script: 200, the refusal's status in X-Refused (no console error).
    assert response.status_code == 200 and response["X-Refused"] == "422"
    assert "data-table-hand" not in response.content.decode()
    none = signed_in.post(url(rummy), {}, **HTMX)
    assert status_of(none) == 422 and "Choose a photo of the table first" in none.content.decode()
    huge = send(signed_in, rummy, b"\xff" * (vision.MAX_BYTES + 2**17))
    assert status_of(huge) == 422 and "too large" in huge.content.decode()


def test_a_real_photo_with_no_card_is_refused_and_no_panel_is_emptied(signed_in, rummy):
    # Refused as a bad file is: no reading comes back, so no panel loses the cards it holds
    # (a hand photo with no card leaves its panel as it was).
    with open("tests/fixtures/vision/backs.jpg", "rb") as photo:
        response = send(signed_in, rummy, photo.read())
    assert status_of(response) == 422
    text = response.content.decode()
    assert "No cards were found in this photo" in text and "Nothing was changed" in text
    assert "data-table-hand" not in text and "innerHTML:#photo-" not in text
    empty = send(signed_in, rummy, b"")
    assert status_of(empty) == 422 and "not a photo" in empty.content.decode()


def test_without_javascript_the_round_page_shows_every_panel_filled(signed_in, rummy, reads):
    reads(table_of(*DEALT))
    ann, *_ = seats(rummy)
    response = send(signed_in, rummy, photographer=ann, htmx=False)
    assert status_of(response) == 200
    text = response.content.decode()
    for cards in DEALT:
        assert f'name="cards" value="{cards}"' in text
    assert "These are Bob's" in text and not Hand.objects.exists()


def test_a_table_photo_is_read_only_for_who_may_enter_the_rounds_hands(
    rummy, member, make_member, make_game, reads
):
    reads(table_of(*DEALT))
    stranger = Client()
    stranger.force_login(make_member("zed"))
    assert status_of(send(stranger, rummy)) == 404
    assert status_of(send(Client(), rummy)) == 302
    guest = Client()
    guest.post(GuestPass.objects.create(game=rummy).get_absolute_url(), {"device": "Bob's"})
    shown = hands_shown(send(guest, rummy).content.decode())
    assert set(shown) == {str(seat.pk) for seat in seats(rummy)}  # its game's seats
    other = make_game(member, names=("Eve", "Fay"))
    night = GameNight.objects.create(group=other.group, date=date(2026, 1, 2))
    Game.objects.filter(pk=other.pk).update(night=night)
    assert status_of(send(guest, other)) in (302, 404)
    move = {"photographer": seats(other)[0].pk, "move": "hand:1:2"}
    assert status_of(guest.post(url(other, move=True), move)) in (302, 404)


def test_a_finished_game_or_a_deck_the_reader_cannot_read_is_refused(
    signed_in, member, make_game, rummy, reads
):
    reads(table_of(*DEALT))
    crowns = make_game(member, kind="five-crowns", names=NAMES)
    assert (
        "Read the table from a photo"
        not in signed_in.get(f"/games/{crowns.pk}/rounds/1/").content.decode()
    )
    assert status_of(send(signed_in, crowns)) == 422
    Game.objects.filter(pk=rummy.pk).update(finished_at="2026-01-01T00:00Z")
    response = send(signed_in, rummy)
    assert status_of(response) == 422 and "finished" in response.content.decode()


def test_a_round_with_every_hand_in_offers_no_table_photo(signed_in, member, make_game):
    from games.engine import POINTS, WENT_OUT
    from games.models import Entry

    game = make_game(member, names=("Ann", "Bob"))
    page = f"/games/{game.pk}/rounds/1/"
    assert "Read the table from a photo" in signed_in.get(page).content.decode()
    first = game.rounds.get(number=1)
    ann, bob = seats(game)
    first.save_hand(ann, Entry(WENT_OUT, "5H 6H 7H"), member)
    first.save_hand(bob, Entry(POINTS, "", 7), member)
    first.refresh_from_db()
    assert first.completed_at is not None
    assert "Read the table from a photo" not in signed_in.get(page).content.decode()
    second = f"/games/{game.pk}/rounds/2/"
    assert "Read the table from a photo" in signed_in.get(second).content.decode()


def test_a_table_photo_is_never_written(signed_in, rummy, reads, settings, tmp_path, monkeypatch):
    reads(table_of(*DEALT))
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    written = []
    monkeypatch.setattr(
        uploadedfile.TemporaryUploadedFile, "__init__", lambda *args, **kwargs: written.append(1)
    )
    # Over Django's in-memory threshold, under the reader's limit: kept in memory all the same.
    response = send(signed_in, rummy, b"\x89PNG\r\n\x1a\n" + bytes(3 * 2**20))
    assert status_of(response) == 200 and "data-table-hand" in response.content.decode()
    assert list(tmp_path.iterdir()) == [] and written == []


def test_a_table_of_more_hands_than_the_reader_groups_is_told_so(signed_in, member, make_game):
    seven = make_game(member, names=("A", "B", "C", "D", "E", "F", "G"))
    page = signed_in.get(f"/games/{seven.pk}/rounds/1/").content.decode()
    assert "Read the table from a photo" not in page and "Read cards from a photo" in page
    response = send(signed_in, seven)
    assert status_of(response) == 422
    assert "A table photo is read into 2 to 6 hands, not 7." in response.content.decode()


def test_without_javascript_save_every_hand_saves_the_reading_asking_what_a_save_asks(
    signed_in, rummy, reads
):
    reads(table_of(*DEALT))
    ann, bob, cid, dee = seats(rummy)
    page = send(signed_in, rummy, photographer=ann, htmx=False).content.decode()
    assert '<button type="submit" name="move" value="save"' in page
    shown = hands_shown(page)
    # Every hand is a 13-card sequence: Ann's, the first, is asked about, nothing saved yet.
    asked = signed_in.post(url(rummy, move=True), carried(page) | {"move": "save"})
    text = asked.content.decode()
    assert status_of(asked) == 200 and not Hand.objects.exists()
    assert "Ann's hand is not saved yet: Did Ann declare?" in text
    assert f'value="save:{ann.pk}:went_out"' in text and "Yes, Ann declared" in text
    # Answered: Ann declared, and the others (no winner left to be) saved as their cards.
    done = signed_in.post(
        url(rummy, move=True), carried(text) | {"move": f"save:{ann.pk}:went_out"}
    )
    assert status_of(done) == 302 and done["Location"] == f"/games/{rummy.pk}/rounds/1/"
    hands = {hand.seat_id: hand for hand in Hand.objects.all()}
    assert hands[ann.pk].outcome == "went_out"
    assert [hands[seat.pk].outcome for seat in (bob, cid, dee)] == ["cards"] * 3
    assert {seat: hands[int(seat)].cards.split() for seat in shown} == shown
    followed = signed_in.get(done["Location"]).content.decode()
    assert "Every hand of the photo is saved (4)." in followed


def test_without_javascript_a_refused_hand_stops_the_saving_where_it_is_said(
    signed_in, rummy, reads
):
    reads(table_of(*DEALT))
    ann, bob, cid, dee = seats(rummy)
    page = send(signed_in, rummy, photographer=ann, htmx=False).content.decode()
    fields = carried(page)
    # A card read into Cid's hand that is Bob's: Bob's hand 12 cards, Cid's 14.
    bobs, cids = fields[f"hand-{bob.pk}"][0].split(), fields[f"hand-{cid.pk}"][0].split()
    fields[f"hand-{bob.pk}"], fields[f"hand-{cid.pk}"] = (
        [" ".join(bobs[1:])],
        [" ".join([*cids, bobs[0]])],
    )
    refused = signed_in.post(url(rummy, move=True), fields | {"move": f"save:{ann.pk}:went_out"})
    text = refused.content.decode()
    assert status_of(refused) == 422
    assert [hand.seat_id for hand in Hand.objects.all()] == [ann.pk]  # saved before it
    assert "Bob's hand is not saved: 12 cards chosen; this hand holds 13" in text
    assert "Saved before it: Ann." in text
    assert text.count("12 cards chosen; this hand holds 13") == 2  # in Bob's panel too
    assert f'name="cards" value="{" ".join(cids)} {bobs[0]}"' in text  # Cid's kept as read
    # A post that is not an answer the page offered is refused by name, nothing saved.
    odd = signed_in.post(url(rummy, move=True), fields | {"move": f"save:{bob.pk}:maybe"})
    assert status_of(odd) == 422 and "not one the page offered" in odd.content.decode()
    assert Hand.objects.count() == 1
