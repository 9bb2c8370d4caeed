"""What the request path does once instead of on every request (issue 45) still answers as
Django's own way did: the policy header, a hand form's fields, a meld's card faces."""

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.utils.csp import CSP, build_policy

from games.csp import ContentSecurityPolicyMiddleware
from games.engine import CARDS, WENT_OUT
from games.forms.hands import HandForm

pytestmark = pytest.mark.django_db


def answered(middleware, response=None):
    from django.http import HttpResponse

    request = RequestFactory().get("/")
    middleware.process_request(request)
    return middleware.process_response(request, response or HttpResponse())


def test_the_policy_header_is_djangos_built_once_for_the_settings_as_they_are(settings):
    middleware = ContentSecurityPolicyMiddleware(lambda request: None)
    first = answered(middleware)
    assert first["Content-Security-Policy"] == build_policy(settings.SECURE_CSP)
    assert "Content-Security-Policy-Report-Only" not in first
    settings.SECURE_CSP = {"default-src": [CSP.SELF], "img-src": [CSP.SELF, "data:"]}
    settings.SECURE_CSP_REPORT_ONLY = {"script-src": [CSP.NONE]}
    changed = answered(middleware)  # the settings changed: built again
    assert changed["Content-Security-Policy"] == "default-src 'self'; img-src 'self' data:"
    assert changed["Content-Security-Policy-Report-Only"] == "script-src 'none'"


def test_a_policy_with_a_nonce_gets_a_new_nonce_each_answer(settings):
    from django.http import HttpResponse

    settings.SECURE_CSP = {"script-src": [CSP.SELF, CSP.NONCE]}
    middleware = ContentSecurityPolicyMiddleware(lambda request: None)
    request = RequestFactory().get("/")
    middleware.process_request(request)
    str(request._csp_nonce)  # a page that used its nonce
    first = middleware.process_response(request, HttpResponse())
    second = answered(middleware)
    assert "'nonce-" in first["Content-Security-Policy"]
    assert first["Content-Security-Policy"] != second["Content-Security-Policy"]


def test_a_views_own_policy_header_stays(settings):
    from django.http import HttpResponse

    response = HttpResponse()
    response["Content-Security-Policy"] = "default-src 'none'"
    assert (
        answered(ContentSecurityPolicyMiddleware(lambda r: None), response)[
            "Content-Security-Policy"
        ]
        == "default-src 'none'"
    )


def test_forms_of_different_games_offer_their_own_outcomes_and_share_no_state(member, make_game):
    three = make_game(member, kind="three-thirteen")
    gin = make_game(member, kind="gin", names=("Ann", "Bob"))
    a = HandForm({"outcome": "drawn", "cards": "KS"}, game=three)
    b = HandForm({"outcome": CARDS, "cards": "KS QS JS"}, game=three)
    c = HandForm({"outcome": "drawn", "cards": ""}, game=gin)
    assert not a.is_valid() and "outcome" in a.errors  # Gin's drawn hand: not Three Thirteen's
    assert b.is_valid() and not b.errors and c.is_valid()  # one form's errors are its own
    assert a.fields is not b.fields and a.fields["outcome"] is b.fields["outcome"]
    assert a.fields["outcome"].choices == three.kind_def.outcomes(three.engine_rules)
    assert c.fields["outcome"].choices == gin.kind_def.outcomes(gin.engine_rules)
    assert dict(c.fields["outcome"].choices)[WENT_OUT] == "Knocked"


def test_a_melds_faces_in_one_tag_are_each_cards_face():
    cards = ["7H", "8H", "JK", "9H"]
    one_by_one = Template(
        "{% load cards %}{% for c in cards %}{% card_face c True '9' %}{% endfor %}"
    ).render(Context({"cards": cards}))
    at_once = Template("{% load cards %}{% card_faces cards True '9' %}").render(
        Context({"cards": cards})
    )
    assert at_once == one_by_one and one_by_one.count('class="face') == 4


def test_numbers_and_dates_print_as_a_localizing_context_prints_them(settings):
    """The site's templates do not localize (games.templating): what they print is what
    Django's localizing context prints for this English site."""
    import datetime
    import decimal

    from django.template import Context, Template, engines
    from django.utils import timezone

    source = (
        "{{ count }} {{ big }} {{ ratio }} {{ money }} {{ day }} {{ moment }} {{ clock }} "
        "{{ moment|date:'N j, H:i' }} {{ yes }} {{ ratio|floatformat:2 }}"
    )
    context = {
        "count": 7,
        "big": 1234567,
        "ratio": 12.5,
        "money": decimal.Decimal("3.50"),
        "day": datetime.date(2026, 11, 28),
        "moment": timezone.now(),
        "clock": datetime.time(21, 5),
        "yes": True,
    }
    site = engines["django"].from_string(source).render(context)
    localized = Template(source).render(Context(context))
    assert site == localized
    assert "1234567 12.5 3.50 Nov. 28, 2026" in site


def test_a_taps_scoring_reads_its_own_seat_alone(signed_in, member, make_game):
    """A tap's scoring reads the seat it scores, not the game's every seat, and a seat of
    another game is not found."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.helpers import hand_url, seats

    game = make_game(member)
    ann, bob, _ = seats(game)
    other = make_game(member)
    tap = {"outcome": CARDS, "cards": "3H 4H 5H"}
    with CaptureQueriesContext(connection) as reads:
        scored = signed_in.post(hand_url(game, 1, bob), tap, HTTP_HX_REQUEST="true")
    assert scored.status_code == 200 and f'id="preview-{bob.pk}"' in scored.content.decode()
    seat_reads = [q["sql"] for q in reads.captured_queries if "games_seat" in q["sql"]]
    assert len(seat_reads) == 1 and f" = {bob.pk} " in seat_reads[0]
    assert signed_in.post(hand_url(other, 1, ann), tap, HTTP_HX_REQUEST="true").status_code == 404


def test_games_with_the_same_options_share_their_rules_and_new_options_are_read_anew(
    member, make_game
):
    from games.models import Game

    game = make_game(member)
    again = Game.objects.get(pk=game.pk)
    assert again.engine_rules is game.engine_rules
    options = dict(game.rules) | {"decks": 3}
    again.rules = options
    assert again.engine_rules.decks == 3 and game.engine_rules.decks != 3


def test_a_url_tag_gives_djangos_url_under_each_prefix_and_urlconf(member, make_game):
    """`{% url %}` keeps each URL once worked out (games.templatetags.links), by what `reverse`
    reads: the same URL as Django's for the same arguments, the script prefix of the time,
    `as` and its silence, and the error of a view that has no such URL."""
    from django.template import engines
    from django.test import override_settings
    from django.urls import NoReverseMatch, reverse, set_script_prefix

    from games.templatetags.links import _kept

    game = make_game(member)
    render = (
        engines["django"]
        .from_string(
            "{% url 'round' pk 1 %}|{% url 'game' pk as there %}{{ there }}|"
            "{% url 'round' pk 'x' as nowhere %}{{ nowhere }}|{% url 'game' game %}"
        )
        .render
    )
    expected = f"{reverse('round', args=[game.pk, 1])}|{reverse('game', args=[game.pk])}||"
    assert render({"pk": game.pk, "game": game.pk}) == expected + reverse("game", args=[game.pk])
    kept_before = _kept.cache_info().hits
    assert render({"pk": game.pk, "game": game.pk}) == expected + reverse("game", args=[game.pk])
    assert _kept.cache_info().hits >= kept_before + 3  # the literal view names' too
    try:
        set_script_prefix("/scores/")
        assert render({"pk": game.pk, "game": game.pk}).startswith(f"/scores/games/{game.pk}/")
    finally:
        set_script_prefix("/")
    assert render({"pk": game.pk, "game": game.pk}) == expected + reverse("game", args=[game.pk])
    with pytest.raises(NoReverseMatch):
        engines["django"].from_string("{% url 'round' 'x' 1 %}").render({})
    five = engines["django"].from_string("{% url 'game' 5 %}")
    assert five.render({}) == reverse("game", args=[5])
    with override_settings(ROOT_URLCONF="tests.urls_elsewhere"):
        assert five.render({}) == "/elsewhere/5/"
    assert five.render({}) == reverse("game", args=[5])


def test_a_taps_preview_is_drawn_whole_and_escaped(signed_in, member, make_game):
    """A tap's answer (drawn in Python, `cards.hand_preview`) is the panel's whole preview: the
    cards read back, the melds as faces, why, and the points once the hand is complete; nothing
    is said of a hand still being tapped, and what the phone typed is never drawn as markup."""
    import re

    from tests.helpers import hand_url, seats

    game = make_game(member, kind="rummy13")
    ann = seats(game)[0]
    url = hand_url(game, 1, ann)
    whole = "AH 2H 3H 4H 5S 6S 7S 8S 9D 10D JD QD KC"
    text = signed_in.post(url, {"outcome": CARDS, "cards": whole}, HTTP_HX_REQUEST="true")
    text = text.content.decode()
    assert text.startswith(f'<div class="preview" id="preview-{ann.pk}" aria-live="polite"')
    assert f'data-cards="{whole}"' in text and 'data-entry-key="' in text
    assert text.count('<div class="meld">') == 3 and 'aria-label="Ace of hearts"' in text
    assert '<div class="unmelded"><span class="label">Left over</span>' in text
    assert '<ul class="reasons" aria-label="Why">' in text
    points = re.search(r'data-points="(\d+)"', text).group(1)
    assert f'<p class="points-line"><strong>{points}</strong> points</p>' in text
    assert text.endswith("</div>")
    tapping = signed_in.post(url, {"outcome": CARDS, "cards": "AH 2H"}, HTTP_HX_REQUEST="true")
    tapping = tapping.content.decode()
    assert "points-line" not in tapping and "field-error" not in tapping
    typed = {"outcome": CARDS, "cards": f'{whole} <b>"x'}
    hostile = signed_in.post(url, typed, HTTP_HX_REQUEST="true")
    hostile = hostile.content.decode()
    assert "<b>" not in hostile and hostile.startswith('<div class="preview"')
