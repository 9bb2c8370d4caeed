"""The look-back's pages: the night's story, the picture to share and its previews, records,
ratings, the year in review; who may see each, and a corrected round changing them at once."""

import io
import json
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from django.test import Client
from PIL import Image

from games.models import Entry, Game, GuestPass, Membership, NightLink, Removal
from games.transfer import export_json, import_json
from tests.helpers import without_tokens

pytestmark = pytest.mark.django_db

# Three Thirteen, round 1 (3s wild) and round 2 (4s wild): Ann goes out both times.
ROUND_1 = {"Ann": Entry("went_out", "5H 6H 7H"), "Bob": Entry("cards", "KS QD 2C")}
ROUND_2 = {"Ann": Entry("went_out", "5H 6H 7H 8H"), "Bob": Entry("cards", "AS 2D 5C 5D")}


def play(game, *rounds, finish=True):
    seats = {seat.player.name: seat for seat in game.seats.select_related("player")}
    for number, entries in enumerate(rounds, start=1):
        round_ = game.rounds.get(number=number)
        for name, entry in entries.items():
            round_.save_hand(seats[name], entry)
    if finish:
        game.refresh_from_db()
        game.finish()
    return game


@pytest.fixture
def night_game(member, make_game):
    return play(make_game(member, names=("Ann", "Bob")), ROUND_1, ROUND_2)


def test_a_finished_nights_page_tells_its_story_with_links_to_the_rounds(signed_in, night_game):
    page = signed_in.get(f"/nights/{night_game.night_id}/").content.decode()
    assert "The night's story" in page
    assert "Ann won Three Thirteen with 0 points" in page
    assert "Best hand: Ann went out in round 2 with all 4 cards melded (4s wild)." in page
    assert f'href="/games/{night_game.pk}/rounds/2/"><span>Best hand' in page
    assert f'href="/nights/{night_game.night_id}/share/"' in page
    assert f'property="og:image" content="http://testserver/nights/{night_game.night_id}/' in page


def test_a_night_of_two_games_tells_each_under_its_name(signed_in, night_game, member, make_game):
    rematch = make_game(member, names=("Ann", "Bob"))
    assert rematch.night_id == night_game.night_id
    entered = {"Ann": Entry("went_out", "5H 6H 7H"), "Bob": Entry("points", entered=45)}
    play(rematch, entered, finish=False)
    page = signed_in.get(f"/nights/{night_game.night_id}/").content.decode()
    # Two games of one kind: numbered, so each game's lines are told apart.
    assert page.count("<h3>Three Thirteen, game 1</h3>") == 1
    assert page.count("<h3>Three Thirteen, game 2</h3>") == 1
    # and so do the night's standings under it.
    assert f'<a href="/games/{rematch.pk}/">Three Thirteen, game 2</a>' in page
    # A game started by mistake and finished with no hand is not counted in the numbers.
    mistake = make_game(member, names=("Ann", "Bob"))
    mistake.finish()
    page = signed_in.get(f"/nights/{night_game.night_id}/").content.decode()
    assert f'<a href="/games/{mistake.pk}/">Three Thirteen</a>' in page
    assert f'<a href="/games/{rematch.pk}/">Three Thirteen, game 2</a>' in page
    assert "Biggest penalty: Bob&#x27;s 45 points in round 1: entered as a number." in page


def test_the_story_grows_while_the_game_is_played(signed_in, member, make_game):
    game = play(make_game(member, names=("Ann", "Bob")), ROUND_1, finish=False)
    live = signed_in.get(f"/nights/{game.night_id}/live/").content.decode()
    assert "Ann leads Three Thirteen by 22 points after round 1." in live


def test_the_share_picture_is_a_png_in_both_themes(signed_in, night_game):
    url = f"/nights/{night_game.night_id}/picture.png"
    light = signed_in.get(url)
    dark = signed_in.get(url, {"theme": "dark"})
    assert light["Content-Type"] == dark["Content-Type"] == "image/png"
    pictures = [Image.open(io.BytesIO(r.content)) for r in (light, dark)]
    assert [(p.format, p.size) for p in pictures] == [("PNG", (1200, 630))] * 2
    # The light picture's page is light, the dark one's dark (the top left corner is the felt).
    assert sum(pictures[0].getpixel((5, 620))) > sum(pictures[1].getpixel((5, 620)))
    assert signed_in.get(url, {"theme": "<b>"}).status_code == 200  # any other word: light
    share = signed_in.get(f"/nights/{night_game.night_id}/share/").content.decode()
    assert 'alt="Ann won Three Thirteen by 35. Three Thirteen: 1. Ann 0, 2. Bob 35."' in share
    assert "data-share-picture" in share and 'download="game-night-' in share


def correct_bobs_first_hand(game):
    """The finished game reopened, Bob's round 1 corrected to KS QD JC (no meld with 3s wild:
    30 instead of 22), and finished again."""
    game.reopen()
    bob = game.seats.get(player__name="Bob")
    hand = game.rounds.get(number=1).hands.get(seat=bob)
    game.rounds.get(number=1).save_hand(bob, Entry("cards", "KS QD JC", version=hand.version))
    game.refresh_from_db()
    game.finish()


def test_a_corrected_round_changes_the_story_and_records_at_once(signed_in, night_game, member):
    records = signed_in.get("/group/records/").content.decode()
    assert "Bob: 35 points" in records  # 22 + 13: the highest game total
    correct_bobs_first_hand(night_game)
    records = signed_in.get("/group/records/").content.decode()
    assert "Bob: 43 points" in records and "Bob: 35 points" not in records
    page = signed_in.get(f"/nights/{night_game.night_id}/").content.decode()
    assert "Ann won Three Thirteen with 0 points, 43 ahead of Bob." in page
    # The correction undone (the game reopened and finished again): the record is 35 again.
    night_game.reopen()
    night_game.rounds.get(number=1).undo_last()
    night_game.refresh_from_db()
    night_game.finish()
    records = signed_in.get("/group/records/").content.decode()
    assert "Bob: 35 points" in records and "Bob: 43 points" not in records


def test_an_import_changes_the_records_at_once(night_game, make_member):
    zed = make_member("zed")
    client = Client()
    client.force_login(zed)
    assert "No finished games yet" in client.get("/group/records/").content.decode()
    import_json(zed.memberships.get().group, json.dumps(export_json(night_game.group)))
    assert "Bob: 35 points" in client.get("/group/records/").content.decode()


def test_ratings_and_hands_on_the_player_page_and_the_group_page(signed_in, night_game):
    ann = night_game.seats.get(player__name="Ann").player
    page = signed_in.get(f"/players/{ann.pk}/").content.decode()
    assert "Win rate over time" in page and "Rating: " in page
    assert '<span class="label">Best hand</span> <a href="/games/' in page
    assert "Ann&#x27;s rating, game after game" in page
    group = signed_in.get("/group/").content.decode()
    assert "By rating" in group and "OpenSkill rating" in group


def test_the_year_in_review(signed_in, night_game):
    year = night_game.night.date.year
    page = signed_in.get(f"/group/year/{year}/").content.decode()
    assert f"{year} in review" in page
    assert "<strong>1</strong> game night" in page
    assert "<strong>Three Thirteen</strong> most played" in page
    assert "Records set in" in page and "Longest winning streak" in page
    assert signed_in.get("/group/year/").status_code == 302
    assert "No game nights in 1999" in signed_in.get("/group/year/1999/").content.decode()
    for bad in ("/group/year/0/", "/group/year/99999/", "/group/year/x/"):
        assert signed_in.get(bad).status_code == 404
    nights = signed_in.get("/nights/").content.decode()
    assert f'href="/group/year/{year}/"' in nights and 'href="/group/records/"' in nights


def test_the_year_names_both_games_played_most_when_they_are_level(
    signed_in, night_game, member, make_game
):
    gin = make_game(member, kind="gin", names=("Ann", "Bob"))
    gin.finish()
    page = signed_in.get(f"/group/year/{night_game.night.date.year}/").content.decode()
    assert "<strong>Three Thirteen and Gin Rummy</strong> most played (1 game each)" in page


def test_hours_at_the_table_stay_when_an_old_round_is_corrected(signed_in, member):
    # Played on 1 March 2025 from 19:00, its last round completed and the game finished at 20:00:
    # one hour at the table. Corrected a year later (reopened, a hand saved, finished again now),
    # the night was still one hour long, not the 12 hours (at most) its new finishing time makes.
    start = datetime(2025, 3, 1, 19, tzinfo=UTC)
    game = Game.objects.start(
        group=member.memberships.get().group,
        kind="three-thirteen",
        players=["Ann", "Bob"],
        rules={},
        user=member,
        date=date(2025, 3, 1),
        created_at=start,
    )
    play(game, ROUND_1, ROUND_2)
    game.rounds.update(completed_at=start + timedelta(hours=1))
    Game.objects.filter(pk=game.pk).update(finished_at=start + timedelta(hours=1))
    hours = "<strong>1.0</strong> hours at the table"
    assert hours in signed_in.get("/group/year/2025/").content.decode()
    game.refresh_from_db()
    correct_bobs_first_hand(game)
    page = signed_in.get("/group/year/2025/").content.decode()
    assert "Bob: 43 points" in page  # the correction is told
    assert hours in page


def test_another_groups_night_has_no_picture_or_share_page(night_game, make_member):
    stranger = Client()
    stranger.force_login(make_member("zed"))
    for url in ("picture.png", "share/"):
        assert stranger.get(f"/nights/{night_game.night_id}/{url}").status_code == 404
    outsider = Client()
    response = outsider.get(f"/nights/{night_game.night_id}/picture.png")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_a_guest_links_preview_shows_only_the_games_it_lets_in(member, make_game):
    first = {"Secret Sam": ROUND_1["Ann"], "Hidden Hal": ROUND_1["Bob"]}
    earlier = play(make_game(member, names=("Secret Sam", "Hidden Hal")), first)
    later = make_game(member, names=("Ann", "Bob"))
    assert later.night_id == earlier.night_id
    play(later, ROUND_1, finish=False)
    guest_pass = GuestPass.objects.create(game=later)
    visitor = Client()
    join = visitor.get(guest_pass.get_absolute_url()).content.decode()
    picture = f"/games/{later.pk}/guest/{guest_pass.token}/picture.png"
    assert f'property="og:image" content="http://testserver{picture}"' in join
    preview = join[join.index('property="og:description"') :][:300]
    assert "Ann leads Three Thirteen by 22" in preview
    assert "Secret" not in preview and "Hidden" not in preview
    response = visitor.get(picture)
    assert response["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(response.content)).size == (1200, 630)
    # A secret link's page and picture are for its holders, not for search engines.
    for secret in (visitor.get(guest_pass.get_absolute_url()), response):
        assert secret["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in join
    # Once in, the guest still may not open the night's own picture or share page.
    visitor.post(guest_pass.get_absolute_url(), {"device": "Mallory's phone"})
    for url in ("picture.png", "share/"):
        refused = visitor.get(f"/nights/{later.night_id}/{url}")
        assert refused.status_code == 302 and refused["Location"].startswith("/login/")
    assert visitor.get(f"/games/{later.pk}/guest/wrong/picture.png").status_code == 404
    guest_pass.ended_at = guest_pass.created_at
    guest_pass.save()
    assert visitor.get(picture).status_code == 404


def test_a_removed_member_sees_no_picture_of_the_group(night_game, django_user_model):
    bob = django_user_model.objects.create_user(username="bob", password="Bob-pass-4242")
    membership = Membership.objects.create(user=bob, group=night_game.group)
    guest_pass = GuestPass.objects.create(game=night_game)
    client = Client()
    client.force_login(bob)
    assert client.get(f"/nights/{night_game.night_id}/picture.png").status_code == 200
    Removal.objects.create(user=bob, group=night_game.group)
    membership.delete()
    for url in (
        f"/nights/{night_game.night_id}/picture.png",
        f"/nights/{night_game.night_id}/share/",
        f"/games/{night_game.pk}/guest/{guest_pass.token}/picture.png",
        "/group/records/",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "Ann" not in without_tokens(response.content.decode())


def test_a_night_shared_by_its_link_shows_its_picture_and_nothing_else(
    signed_in, member, make_game
):
    names = {"Secret Sam": ROUND_1["Ann"], "Hidden Hal": ROUND_1["Bob"]}
    game = play(make_game(member, names=("Secret Sam", "Hidden Hal")), names)
    share = f"/nights/{game.night_id}/share/"
    assert "Make a link to share" in signed_in.get(share).content.decode()
    made = signed_in.post(f"{share}link/", {"action": "make"})
    assert made.status_code == 302 and made["Location"] == share
    link = NightLink.objects.get()
    page = signed_in.get(share).content.decode()
    assert f'value="http://testserver/shared/{link.token}/"' in page
    assert "Stop sharing the link" in page
    # Tapped again (or on a second phone): the same link, not a second one.
    signed_in.post(f"{share}link/", {"action": "make"})
    assert list(NightLink.objects.values_list("token", flat=True)) == [link.token]

    stranger = Client()  # a chat's preview fetcher: no session
    shown = stranger.get(f"/shared/{link.token}/")
    assert shown.status_code == 200
    body = without_tokens(shown.content.decode())
    picture = f"/shared/{link.token}/picture.png"
    assert f'property="og:image" content="http://testserver{picture}"' in body
    assert "Secret won Three Thirteen by 22. Three Thirteen: 1. Secret 0, 2. Hidden 22." in body
    assert "<li>Secret won Three Thirteen by 22.</li>" in body
    assert "Secret Sam" not in body and "Hidden Hal" not in body  # first names only
    assert f"/nights/{game.night_id}" not in body and f"/games/{game.pk}" not in body
    response = stranger.get(picture, {"theme": "dark"})
    assert response["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(response.content)).size == (1200, 630)
    assert shown["X-Robots-Tag"] == response["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in body
    assert stranger.post(f"/shared/{link.token}/").status_code == 405

    # Stopped: the link shows nothing; a new one is a new secret.
    signed_in.post(f"{share}link/", {"action": "stop"})
    assert not NightLink.objects.exists()
    assert stranger.get(f"/shared/{link.token}/").status_code == 404
    assert stranger.get(picture).status_code == 404
    signed_in.post(f"{share}link/", {"action": "make"})
    assert NightLink.objects.get().token != link.token


def test_only_the_nights_group_makes_or_stops_its_link(night_game, signed_in, make_member):
    url = f"/nights/{night_game.night_id}/share/link/"
    zed = Client()
    zed.force_login(make_member("zed"))
    assert zed.post(url, {"action": "make"}).status_code == 404
    outsider = Client()
    refused = outsider.post(url, {"action": "make"})
    assert refused.status_code == 302 and refused["Location"].startswith("/login/")
    guest = Client()
    guest.post(GuestPass.objects.create(game=night_game).get_absolute_url(), {"device": "Bob's"})
    assert guest.post(url, {"action": "make"})["Location"].startswith("/login/")
    assert not NightLink.objects.exists()
    odd = signed_in.post(url, {"action": "<b>both</b>"})
    assert odd.status_code == 400 and b"Make the link or stop it" in odd.content
    assert signed_in.get(url).status_code == 405
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(night_game.group.memberships.get().user)
    assert checked.post(url, {"action": "make"}).status_code == 403  # no CSRF token
    assert not NightLink.objects.exists()
    NightLink.objects.create(night=night_game.night)
    assert zed.post(url, {"action": "stop"}).status_code == 404
    assert NightLink.objects.exists()


def test_a_member_removed_after_the_link_was_made_sees_nothing_by_it(night_game, django_user_model):
    bob = django_user_model.objects.create_user(username="bob", password="Bob-pass-4242")
    membership = Membership.objects.create(user=bob, group=night_game.group)
    link = NightLink.objects.create(night=night_game.night)
    client = Client()
    client.force_login(bob)
    assert client.get(f"/shared/{link.token}/").status_code == 200
    Removal.objects.create(user=bob, group=night_game.group)
    membership.delete()
    for url in (f"/shared/{link.token}/", f"/shared/{link.token}/picture.png"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "Ann" not in without_tokens(response.content.decode())


def test_cards_in_the_story_are_shown_as_faces_as_on_the_round_page(signed_in, member, make_game):
    # Round 1, 3s wild: Bob's 3D cannot meld with KS QD and is left over.
    left_over = {"Ann": Entry("went_out", "5H 6H 7H"), "Bob": Entry("cards", "3D KS QD")}
    game = play(make_game(member, names=("Ann", "Bob")), left_over)
    night = signed_in.get(f"/nights/{game.night_id}/").content.decode()
    story = night[night.index('id="night-story"') :][:4000]
    assert "Biggest penalty: Bob" in story
    assert "3D" not in story and 'aria-label="3 of diamonds"' in story
    bob = game.seats.get(player__name="Bob").player
    player = signed_in.get(f"/players/{bob.pk}/").content.decode()
    worst = player[player.index("Worst hand") :][:1500]
    assert "3D" not in worst and 'aria-label="3 of diamonds"' in worst


def test_cards_in_plain_text_are_printed_as_on_their_corners():
    from games.engine.cards import cards_as_printed

    assert cards_as_printed("7C is wild but left over: it counts 0") == (
        "7♣ is wild but left over: it counts 0"
    )
    assert cards_as_printed("QS stands for 10C; JK; 10X") == "Q♠ stands for 10♣; JK; 10★"
    assert cards_as_printed("type it like 7H or 10S") == "type it like 7H or 10S"


def test_a_players_best_game_is_their_best_place_then_their_fewest_points(
    signed_in, member, make_game
):
    names = ("Ann", "Bob", "Cid")
    # Bob wins on 25 points (60, 25, 40 over two rounds); later he is third on 22, fewer points.
    won = play(
        make_game(member, names=names),
        {"Ann": Entry("points", "", 30), "Bob": Entry("went_out"), "Cid": Entry("points", "", 40)},
        {"Ann": Entry("points", "", 30), "Bob": Entry("points", "", 25), "Cid": Entry("went_out")},
    )
    last = play(
        make_game(member, names=names),
        {"Ann": Entry("went_out"), "Bob": Entry("points", "", 22), "Cid": Entry("points", "", 5)},
    )
    bob = won.seats.get(player__name="Bob").player
    page = signed_in.get(f"/players/{bob.pk}/").content.decode()
    best = page[page.index("Best game</span>") :][:1500]
    best_game, worst_game = best.split("Worst game</span>")[:2]
    assert f'href="{won.get_absolute_url()}"' in best_game and "25 points, place 1" in best_game
    assert f'href="{last.get_absolute_url()}"' in worst_game
    assert "22 points, place 3" in worst_game


def test_the_year_in_review_lists_records_in_the_apps_order_of_games(
    signed_in, night_game, member, make_game
):
    rummy = make_game(member, kind="rummy13", names=("Ann", "Bob"))
    play(rummy, {"Ann": Entry("went_out"), "Bob": Entry("points", "", 40)})
    year = night_game.night.date.year
    page = signed_in.get(f"/group/year/{year}/").content.decode()
    records = page[page.index("Records set in") :]
    # Three Thirteen first, as on the records page and the new-game form, not by slug.
    assert records.index("Three Thirteen") < records.index("13-card Rummy")


def test_the_pictures_lines_name_their_game_and_a_long_headline_is_wrapped_not_cut(
    signed_in, night_game, member, make_game, monkeypatch
):
    from games.history import picture

    drawn = {}
    real = picture.draw_night

    def drawing(title, headline, games, lines, theme="light", description=""):
        drawn.update(headline=headline, lines=lines)
        return real(title, headline, games, lines, theme, description)

    monkeypatch.setattr(picture, "draw_night", drawing)
    play(make_game(member, names=("Ann", "Bob")), ROUND_1)
    assert signed_in.get(f"/nights/{night_game.night_id}/picture.png").status_code == 200
    assert drawn["lines"] and all(
        line.startswith(("Three Thirteen, game 1: ", "Three Thirteen, game 2: "))
        for line in drawn["lines"]
    )
    assert "won Three Thirteen, game 1" in drawn["headline"]

    from PIL import Image, ImageDraw

    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    headline = "; ".join(f"Ann{n} won Three Thirteen by {n} points" for n in range(10, 13))
    rows = picture._wrapped(draw, headline, 1104, picture.font(26, True), 2)
    assert rows is not None and len(rows) == 2 and " ".join(rows) == headline
    assert all(draw.textlength(row, font=picture.font(26, True)) <= 1104 for row in rows)


def test_a_game_finished_with_a_round_left_open_counts_its_hands_in_the_look_back(
    signed_in, member, make_game
):
    # Round 2 left open with Bob's hand alone entered (AS 2D 5C 5D: 13 points): finished now,
    # the score table counts it (22 + 13), and so do the picture, its preview and the story.
    game = play(make_game(member, names=("Ann", "Bob")), ROUND_1, {"Bob": ROUND_2["Bob"]})
    table = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert ">35<" in table.replace(" ", "").replace("\n", "")
    night = signed_in.get(f"/nights/{game.night_id}/").content.decode()
    preview = night[night.index('property="og:description"') :][:300]
    assert "Bob 35" in preview
    assert "Ann won Three Thirteen with 0 points, 35 ahead of Bob" in night


def test_nobody_leads_a_game_with_no_hand_entered(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"))
    for page in (signed_in.get("/").content.decode(), signed_in.get("/nights/").content.decode()):
        line = page[page.index('class="game-result"') :][:200]
        assert "In play, no hand entered yet" in line and "leading" not in line
    night = signed_in.get(f"/nights/{game.night_id}/").content.decode()
    standings = night[night.index('class="standings-list"') :][:1500]
    assert 'class="place">–<' in standings and "winner" not in standings
    play(game, ROUND_1, finish=False)
    home = signed_in.get("/").content.decode()
    assert "In play, leading:" in home and "<strong>Ann</strong>" in home
    night = signed_in.get(f"/nights/{game.night_id}/").content.decode()
    standings = night[night.index('class="standings-list"') :][:1500]
    assert 'class="winner"><span class="place">1<' in standings


def test_a_player_named_like_a_card_is_not_drawn_as_one(signed_in, member, make_game):
    # "JK" and "AS" are initials here: only the engine's cards are faces, and the picture
    # prints only those as cards.
    left_over = {"JK": Entry("went_out", "5H 6H 7H"), "AS": Entry("cards", "3D KS QD")}
    game = play(make_game(member, names=("JK", "AS")), left_over)
    night = signed_in.get(f"/nights/{game.night_id}/").content.decode()
    story = night[night.index('id="night-story"') :][:4000]
    assert "JK won Three Thirteen" in story and "Biggest penalty: AS" in story
    assert 'aria-label="Joker' not in story and 'aria-label="Ace of spades' not in story
    assert 'aria-label="3 of diamonds"' in story

    from games.engine.cards import cards_as_printed, mark_cards

    line = f"AS's 23 points in round 1: {mark_cards('3D is wild but left over: it counts 3')}"
    assert (
        cards_as_printed(line) == "AS's 23 points in round 1: 3♦ is wild but left over: it counts 3"
    )


def test_a_game_finished_with_no_hand_is_no_result_for_anybody(signed_in, member, make_game):
    from games.history.results import leaderboard, player_record

    empty = make_game(member, names=("Ann", "Bob"))
    empty.finish()
    group = member.memberships.first().group
    assert leaderboard(group) == []
    ann = empty.seats.get(player__name="Ann").player
    assert player_record(ann).won.get("three-thirteen", 0) == 0
    assert player_record(ann).results == []
    year = signed_in.get(f"/group/year/{empty.night.date.year}/").content.decode()
    assert "No finished games this year." in year


def test_a_game_in_play_is_led_by_its_complete_rounds(signed_in, member, make_game):
    """Who leads a game in play is told by its complete rounds: a round half entered would
    put whoever has not entered yet in the lead with 0."""
    game = make_game(member, names=("Ann", "Bob"))
    play(game, {"Bob": ROUND_1["Bob"]}, finish=False)  # the first round half entered
    home = signed_in.get("/").content.decode()
    line = home[home.index('class="game-result"') :][:300]
    assert "In play, first round being entered" in line and "leading" not in line
    night = signed_in.get(f"/nights/{game.night_id}/").content.decode()
    standings = night[night.index('class="standings-list"') :][:1500]
    assert 'class="place">–<' in standings and "winner" not in standings
    assert "placed after" not in night

    # Round 1 complete (Ann 0, Bob 22); Ann's 40 of round 2 entered, Bob's not yet.
    play(game, {"Ann": ROUND_1["Ann"]}, {"Ann": Entry("cards", "KS QD JC 10D")}, finish=False)
    home = signed_in.get("/").content.decode()
    line = home[home.index('class="game-result"') :][:300]
    assert "In play, leading:" in line and "<strong>Ann</strong>" in line and "Bob" not in line
    night = signed_in.get(f"/nights/{game.night_id}/").content.decode()
    assert "in play, placed after 1 complete round<" in night
    standings = night[night.index('class="standings-list"') :][:1500]
    first = standings[: standings.index("</li>")]
    assert 'class="winner"' in first and ">Ann<" in first
    table = signed_in.get(f"/games/{game.pk}/").content.decode()
    leaders = re.findall(r'<th scope="col" class="leader[^"]*" title="([^"]+)"', table)
    assert leaders == ["Ann"]
