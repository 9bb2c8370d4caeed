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
