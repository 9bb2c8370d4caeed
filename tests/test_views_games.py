import re
from html import unescape

import pytest

from games.models import Game, GameNight, Hand, HandChange, Player
from tests.helpers import hand_url, save, seats, status_of

pytestmark = pytest.mark.django_db

NEW_GAME = {
    "kind": "three-thirteen",
    "players": "Ann, Bob, Cid",
    "date": "2026-11-22",
    "tt_aces": "low",
    "tt_faces": "ten",
    "tt_jokers": 0,
    "tt_all_wild_melds": "yes",
    "r_decks": 2,
    "r_jokers": 2,
    "r_all_joker_melds": "yes",
    "r_format": "open",
    "r_pool_limit": 101,
    "r_first_drop": 20,
    "r_middle_drop": 40,
    "r_wrong_declaration": 80,
}


def test_new_game_seats_players_in_order_and_stores_the_options(signed_in, member):
    response = signed_in.post("/games/new/", {**NEW_GAME, "players": "Cid, Ann, Bob, Dee, Eve"})
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/rounds/1/"
    assert [s.player.name for s in seats(game)] == ["Cid", "Ann", "Bob", "Dee", "Eve"]
    assert game.rules["decks"] == 3  # five players: one deck more than four
    assert game.rounds.get().dealer.player.name == "Cid"
    assert Player.objects.count() == 5
    page = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert "Low only; an ace left over costs 1" in page and "J, Q, K cost 10" in page


def test_a_game_needs_two_players(signed_in):
    response = signed_in.post("/games/new/", {**NEW_GAME, "players": "Ann"})
    assert "at least two players" in response.content.decode()
    assert not Game.objects.exists()


def test_games_started_the_same_evening_share_a_game_night(signed_in):
    signed_in.post("/games/new/", NEW_GAME)
    signed_in.post("/games/new/", {**NEW_GAME, "kind": "rummy13"})
    assert GameNight.objects.count() == 1
    assert Game.objects.count() == 2


def test_round_page_shows_cards_wild_rank_and_dealer(signed_in, member, make_game):
    game = make_game(member)
    page = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert "<strong>3</strong> cards a hand" in page
    assert "<strong>3s wild</strong>" in page
    assert "<strong>Ann</strong> deals" in page
    assert 'data-name="7 of hearts"' in page


def test_a_hand_being_tapped_is_scored_in_its_preview_only(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"))
    seat = seats(game)[0]
    url = hand_url(game, 1, seat)
    response = signed_in.post(
        url, {"outcome": "cards", "cards": "7h 5H 6H"}, HTTP_HX_REQUEST="true"
    )
    text = response.content.decode()
    assert status_of(response) == 200
    assert text.lstrip().startswith(f'<div class="preview" id="preview-{seat.pk}"')
    assert response["HX-Retarget"] == f"#preview-{seat.pk}"
    assert 'data-cards="7H 5H 6H"' in text  # what the server read, for the phone's chosen cards
    assert "<strong>0</strong> points" in text
    assert "picker" not in text
    assert not Hand.objects.exists()  # scoring never saves


def test_a_hand_cleared_or_part_chosen_is_no_error_until_it_is_saved(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"))
    url = hand_url(game, 1, seats(game)[0])
    for cards in ("", "7H"):  # cleared, or still being tapped: nothing said in red
        text = signed_in.post(
            url, {"outcome": "cards", "cards": cards}, HTTP_HX_REQUEST="true"
        ).content.decode()
        assert "field-error" not in text and "chosen; this hand holds" not in text, cards
    # Too many is said at once: no tap can make it right.
    text = signed_in.post(
        url, {"outcome": "cards", "cards": "7H 8H 9H 10H"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "4 cards chosen; this hand holds 3" in text


def test_without_javascript_a_tap_draws_the_page_with_the_card_chosen(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"))
    response = signed_in.post(
        hand_url(game, 1, seats(game)[0]), {"outcome": "cards", "cards": "5H 6H", "tap": "7H"}
    )
    text = response.content.decode()
    assert 'value="5H 6H 7H"' in text
    assert "<strong>0</strong> points" in text
    assert not Hand.objects.exists()


def test_tapping_a_chosen_card_takes_it_back(signed_in, member, make_game):
    game = make_game(member)
    response = signed_in.post(
        hand_url(game, 1, seats(game)[0]), {"outcome": "cards", "cards": "5H 6H 7H", "untap": "6H"}
    )
    assert 'value="5H 7H"' in response.content.decode()


def test_a_wrong_count_is_named_and_nothing_is_lost(signed_in, member, make_game):
    game = make_game(member)
    response = save(signed_in, game, 1, seats(game)[0], "5H 6H 7H 8H")
    text = response.content.decode()
    assert status_of(response) == 422
    assert "4 cards chosen; this hand holds 3" in text
    assert 'value="5H 6H 7H 8H"' in text
    assert not Hand.objects.exists()


def test_a_refusal_answers_the_pages_script_200_with_its_status_and_a_whole_page_its_status(
    signed_in, member, make_game
):
    """A browser writes each 4xx answer a script receives into its console as an error: the
    page's script (htmx) is answered 200, the refusal's status in X-Refused, and swaps the
    refused panel in all the same; a page sent without JavaScript keeps the status."""
    game = make_game(member)
    ann, bob = seats(game)[:2]
    scripted = save(signed_in, game, 1, ann, "5H 6H 7H 8H", htmx=True)
    assert scripted.status_code == 200 and scripted["X-Refused"] == "422"
    assert "4 cards chosen; this hand holds 3" in scripted.content.decode()
    assert "X-Hand-Version" not in scripted  # the page's script reads: not saved
    whole = save(signed_in, game, 1, ann, "5H 6H 7H 8H")
    assert whole.status_code == 422 and "X-Refused" not in whole
    saved = save(signed_in, game, 1, bob, "KS QD 2C", htmx=True)
    assert saved.status_code == 200 and "X-Refused" not in saved and saved["X-Hand-Version"]
    late = save(signed_in, game, 1, bob, "9S 9D 2C", htmx=True)  # read before the save above
    assert late.status_code == 200 and late["X-Refused"] == "409"
    assert not Hand.objects.filter(seat=ann).exists()


def test_an_unknown_card_is_named(signed_in, member, make_game):
    game = make_game(member)
    response = save(signed_in, game, 1, seats(game)[0], "5H 6H 1H")
    assert "&quot;1H&quot; is not a card" in response.content.decode()
    assert 'value="5H 6H 1H"' in response.content.decode()


def test_too_many_copies_across_the_round_name_the_card(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"))  # rules default to 2 decks
    ann, bob = seats(game)
    save(signed_in, game, 1, ann, "KS KS 2C", outcome="cards")
    response = save(signed_in, game, 1, bob, "KS 9D 2C")
    text = response.content.decode()
    assert (
        '<span class="face black small" role="img" aria-label="King of spades">'
        'K<span class="suit">♠</span></span> is held 3 times '
        "across the hands of this round, but 2 decks have only 2"
    ) in text
    assert Hand.objects.count() == 1


def test_went_out_needs_a_hand_that_melds_completely(signed_in, member, make_game):
    game = make_game(member)
    response = save(signed_in, game, 1, seats(game)[0], "5H 6H 8C", outcome="went_out")
    assert "does not meld completely" in response.content.decode()
    assert not Hand.objects.exists()


def test_a_round_completes_and_the_next_dealer_is_to_the_left(signed_in, member, make_game):
    game = make_game(member)
    ann, bob, cid = seats(game)
    save(signed_in, game, 1, ann, "5H 6H 7H", outcome="went_out")
    save(signed_in, game, 1, bob, "KS QD 2C")
    save(signed_in, game, 1, cid, outcome="points", points="12")
    assert game.rounds.get(number=1).completed_at is not None
    page = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert "Enter round 2 · Bob deals" in page
    assert 'title="Entered as a number"' in page
    hands = {h.seat.player.name: h.points for h in Hand.objects.select_related("seat__player")}
    assert hands == {"Ann": 0, "Bob": 22, "Cid": 12}


def test_two_players_cannot_both_go_out(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"))
    ann, bob = seats(game)
    save(signed_in, game, 1, ann, "5H 6H 7H", outcome="went_out")
    save(signed_in, game, 1, bob, "9S 10S JS", outcome="went_out")
    page = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert "Only one player can be marked as went out (Ann, Bob are)" in page
    assert game.rounds.get().completed_at is None


def test_a_double_submit_saves_once(signed_in, member, make_game):
    game = make_game(member)
    ann = seats(game)[0]
    first = save(signed_in, game, 1, ann, "KS QD 2C")
    second = save(signed_in, game, 1, ann, "KS QD 2C")
    assert status_of(first) == status_of(second) == 302
    assert Hand.objects.count() == 1
    assert HandChange.objects.count() == 1


def test_a_second_phone_is_shown_the_saved_hand_instead_of_overwriting(
    signed_in, member, make_game
):
    game = make_game(member)
    ann = seats(game)[0]
    save(signed_in, game, 1, ann, "KS QD 2C")  # phone one
    response = save(signed_in, game, 1, ann, "9S 9D 2C", htmx=True)  # phone two loaded version 0
    text = response.content.decode()
    assert status_of(response) == 409
    assert "Saved from another phone" in text
    assert 'aria-label="King of spades"' in text.split("Saved from another phone")[1]
    assert 'value="9S 9D 2C"' in text  # the second phone's entry is kept
    assert Hand.objects.get().cards == "KS QD 2C"
    # Saving again, knowingly, replaces it and the history keeps both.
    version = Hand.objects.get().version
    save(signed_in, game, 1, ann, "9S 9D 2C", version=version)
    assert Hand.objects.get().cards == "9S 9D 2C"
    assert HandChange.objects.count() == 2


def test_editing_an_earlier_round_changes_totals_and_is_recorded(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"))
    ann, bob = seats(game)
    save(signed_in, game, 1, ann, "5H 6H 7H", outcome="went_out")
    save(signed_in, game, 1, bob, "KS QD 2C")
    signed_in.get(f"/games/{game.pk}/")  # opens round 2
    hand = Hand.objects.get(seat=bob)
    save(signed_in, game, 1, bob, "KS QD AC", version=hand.version)
    assert Hand.objects.get(seat=bob).points == 21
    footer = signed_in.get(f"/games/{game.pk}/").content.decode().split("<tfoot>")[1]
    assert ">21</td>" in footer
    history = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    change = history.split('id="round-changes-list"')[1].split("</li>")[0]
    said = re.sub(
        r'<span class="face[^"]*" role="img" aria-label="([^"]+)">.*?</span></span>',
        r"[\1]",
        change,
    )
    said = re.sub(r"<[^>]+>", "", said)
    assert (
        "Cards left: [King of spades] [Queen of diamonds] [2 of clubs] (22) → "
        "Cards left: [King of spades] [Queen of diamonds] [Ace of clubs] (21)"
    ) in said


def test_finishing_gives_standings_where_equal_totals_share_a_place(signed_in, member, make_game):
    game = make_game(member)
    ann, bob, cid = seats(game)
    save(signed_in, game, 1, ann, "5H 6H 7H", outcome="went_out")
    save(signed_in, game, 1, bob, "KS QD 2C")
    save(signed_in, game, 1, cid, "KC QH 2D")
    signed_in.post(f"/games/{game.pk}/finish/")
    page = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert "Final standings" in page
    assert page.count('<span class="place">2</span>') == 2  # Bob and Cid tie on 22
    assert '<span class="place">3</span>' not in page
    home = signed_in.get("/").content.decode()
    assert "Won by" in home and "<strong>Ann</strong>" in home


def test_rummy_all_pure_declaration_doubles_the_others(signed_in, member, make_game):
    game = make_game(member, kind="rummy13", names=("Ann", "Bob"), max_count=80)
    ann, bob = seats(game)
    save(signed_in, game, 1, bob, "AH 3H 5H 7H 9S JS KS 2C 4C 6C 8D 10D QD")
    assert Hand.objects.get(seat=bob).points == 80  # 94, capped
    save(signed_in, game, 1, ann, "AS 2S 3S 4S 5D 6D 7D 8C 9C 10C JH QH KH", outcome="went_out")
    assert Hand.objects.get(seat=bob).points == 80
    page = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert (
        "Ann declared four pure sequences: every other count is doubled (Bob&#x27;s count)." in page
    )


def test_rummy_doubling_without_a_cap(signed_in, member, make_game):
    game = make_game(member, kind="rummy13", names=("Ann", "Bob"))
    ann, bob = seats(game)
    save(signed_in, game, 1, bob, "5H 6H 7H 8C 8D 8S 2C 4D 9S JC QD KH AS")
    assert Hand.objects.get(seat=bob).points == 55
    save(signed_in, game, 1, ann, "AS 2S 3S 4S 5D 6D 7D 8C 9C 10C JH QH KH", outcome="went_out")
    assert Hand.objects.get(seat=bob).points == 110


def test_an_invalid_declaration_gives_the_reason(signed_in, member, make_game):
    game = make_game(member, kind="rummy13", names=("Ann", "Bob"))
    response = save(
        signed_in,
        game,
        1,
        seats(game)[0],
        "AH 3H 5H 7H 9S JS KS 2C 4C 6C 8D 10D QD",
        outcome="went_out",
    )
    assert "Not a valid declaration: no pure sequence" in response.content.decode()
    assert not Hand.objects.exists()


def test_pool_rummy_drops_put_a_player_out_and_the_deal_skips_them(signed_in, member, make_game):
    game = make_game(
        member, kind="rummy13", names=("Ann", "Bob", "Cid"), format="pool", pool_limit=101
    )
    ann, bob, cid = seats(game)
    winner_cards = "AS 2S 3S 4S 5D 6D 7D 8C 9C 10C JH QH KH"
    for number in (1, 2):
        save(signed_in, game, number, ann, outcome="went_out", cards=winner_cards)
        save(signed_in, game, number, bob, outcome="wrong_declaration")
        save(signed_in, game, number, cid, outcome="drop")
        signed_in.get(f"/games/{game.pk}/")  # opens the next deal
    assert sum(Hand.objects.filter(seat=bob).values_list("points", flat=True)) == 160
    deal3 = game.rounds.get(number=3)
    assert deal3.dealer.player.name == "Cid"  # Ann, then Bob: Bob is out, so Cid
    page = signed_in.get(f"/games/{game.pk}/rounds/3/").content.decode()
    assert f"hand-{bob.pk}" not in page


def test_the_round_summary_is_refreshed_by_htmx(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"))
    save(signed_in, game, 1, seats(game)[0], "5H 6H 7H", outcome="went_out")
    response = signed_in.get(f"/games/{game.pk}/rounds/1/", HTTP_HX_REQUEST="true")
    text = response.content.decode()
    assert text.lstrip().startswith('<section id="round-status"')
    assert "Still to enter: Bob." in text


def test_a_save_from_the_page_answers_with_the_hands_line_and_cards_only(
    signed_in, member, make_game
):
    game = make_game(member)
    seat = seats(game)[1]
    response = save(signed_in, game, 1, seat, "KS QD 2C", htmx=True)
    text = response.content.decode()
    assert status_of(response) == 200
    assert response["HX-Reswap"] == "none" and response["HX-Trigger"] == "round-changed"
    assert response["X-Hand-Version"] == "1"
    assert response["X-Saved-Key"] == Hand.objects.get(seat=seat).entry_key
    assert f'id="hand-line-{seat.pk}" hx-swap-oob="true"' in text
    # The line every phone draws for the hand, and a word for a screen reader.
    assert "Cards left · <strong>22</strong> points" in text and "Saved by ann" in text
    assert "Bob's hand saved: Cards left, 22 points." in text
    assert f'id="hand-shown-{seat.pk}" hx-swap-oob="true"' in text
    assert "picker" not in text  # the form the phone filled stays as it is


def test_the_page_is_told_which_stored_hand_an_entry_would_be(signed_in, member, make_game):
    """The scoring answer carries the entry's key and the saved hand's line the stored one's:
    the same cards in another order are the same hand; another card is not."""
    game = make_game(member)
    seat = seats(game)[1]
    preview = save(signed_in, game, 1, seat, "2C QD KS", htmx=True, save="")
    key = re.search(r'data-entry-key="([^"]*)"', preview.content.decode()).group(1)
    saved = save(signed_in, game, 1, seat, "KS QD 2C", htmx=True)
    assert unescape(key) == saved["X-Saved-Key"] == Hand.objects.get(seat=seat).entry_key
    other = save(signed_in, game, 1, seat, "KS QD 3C", htmx=True, save="")
    other_key = re.search(r'data-entry-key="([^"]*)"', other.content.decode()).group(1)
    assert unescape(other_key) != saved["X-Saved-Key"]
    # Sent again as it is (its answer lost on the way), it is no new change.
    again = save(signed_in, game, 1, seat, "2C KS QD", htmx=True)
    assert status_of(again) == 200 and HandChange.objects.filter(seat=seat).count() == 1


def test_the_round_page_shows_its_latest_changes_and_costs_the_same_however_long_its_history(
    signed_in, member, make_game, django_assert_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.lookups import SHOWN_CHANGES

    game = make_game(member, names=("Ann", "Bob"))
    _, bob = seats(game)
    url = f"/games/{game.pk}/rounds/1/"

    def saved_again(times):
        for _ in range(times):
            hand = Hand.objects.filter(seat=bob).first()
            points = "KS QD 2C" if hand is None or "2C" not in hand.cards else "KS QD 3C"
            save(signed_in, game, 1, bob, points, version=hand.version if hand else 0, htmx=True)

    def page_and_queries():
        with CaptureQueriesContext(connection) as read:
            page = signed_in.get(url).content.decode()
        return page, len(read.captured_queries)

    saved_again(SHOWN_CHANGES + 2)
    page, queries = page_and_queries()
    listed = page.split('id="round-changes-list"')[1].split("</ul>")[0]
    assert listed.count("saved <strong>Bob</strong>") == SHOWN_CHANGES
    assert f'href="?changes=all#round-changes">All {SHOWN_CHANGES + 2} changes' in listed
    assert f'data-live-key="{SHOWN_CHANGES + 2}">{SHOWN_CHANGES + 2}<' in page  # Changes (12)
    saved_again(30)
    longer, more_queries = page_and_queries()
    assert more_queries == queries and abs(len(longer) - len(page)) < 40  # the same, renumbered
    everything = signed_in.get(url + "?changes=all").content.decode()
    listed = everything.split('id="round-changes-list"')[1].split("</ul>")[0]
    assert listed.count("saved <strong>Bob</strong>") == SHOWN_CHANGES + 32
    assert 'id="round-changes" open' in everything and "All " not in listed


def test_the_seat_a_phone_enters_for_is_kept_for_the_games_next_rounds(
    signed_in, member, make_game
):
    game = make_game(member, names=("Ann", "Bob", "Cid"))
    other = make_game(member, names=("Ann", "Bob"))
    bob = game.seats.get(player__name="Bob")
    picked = f'<option value="{bob.pk}" selected>Bob</option>'
    first = signed_in.get(f"/games/{game.pk}/rounds/1/", {"seat": bob.pk})
    assert picked in first.content.decode()
    kept = first.cookies[f"entering_for_{game.pk}"]
    assert kept.value == str(bob.pk) and kept["path"] == f"/games/{game.pk}/" and kept["httponly"]
    # The next round (here the same page again, as "Next ›" opens it): Bob's hand first, open.
    again = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert picked in again
    ann = game.seats.get(player__name="Ann")
    assert again.index(f'id="hand-{bob.pk}"') < again.index(f'id="hand-{ann.pk}"')
    # Another game of the night is not this one's choice.
    assert "selected>Bob" not in signed_in.get(f"/games/{other.pk}/rounds/1/").content.decode()
    # "Everyone" is kept too; a seat of another game is no choice here.
    everyone = signed_in.get(f"/games/{game.pk}/rounds/1/", {"seat": ""})
    assert everyone.cookies[f"entering_for_{game.pk}"].value == "everyone"
    assert picked not in signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    signed_in.cookies[f"entering_for_{game.pk}"] = str(other.seats.first().pk)
    assert status_of(signed_in.get(f"/games/{game.pk}/rounds/1/")) == 200
