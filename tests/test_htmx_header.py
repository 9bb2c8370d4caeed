"""`request.htmx` (games.htmx) tells a request htmx sent as django-htmx tells it, from the one
header, without Django's `request.headers`."""

import pytest
from django.conf import settings
from django.test import RequestFactory
from django_htmx.middleware import HtmxDetails

from games.htmx import Details, Middleware


def test_the_site_marks_its_requests_with_it():
    assert "games.htmx.Middleware" in settings.MIDDLEWARE
    assert "django_htmx.middleware.HtmxMiddleware" not in settings.MIDDLEWARE


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"HTTP_HX_REQUEST": "true"},
        {"HTTP_HX_REQUEST": "false"},
        {"HTTP_HX_REQUEST": ""},
        {"HTTP_HX_REQUEST": "TRUE"},
        {"HTTP_HX_REQUEST": "tr%75e", "HTTP_HX_REQUEST_URI_AUTOENCODED": "true"},
        {"HTTP_HX_REQUEST": "tr%75e"},
        {"HTTP_HX_REQUEST": "true", "HTTP_HX_REQUEST_URI_AUTOENCODED": "false"},
        {"HTTP_HX_TARGET": "round-status"},
    ],
)
def test_whether_htmx_sent_it_is_django_htmxs_answer(headers):
    request = RequestFactory().post("/", **headers)
    ours = Details(request)
    sent_by_htmx = bool(ours)
    assert "headers" not in request.__dict__  # Django's mapping not built for it
    assert sent_by_htmx == bool(HtmxDetails(request))
    assert ours.target == HtmxDetails(request).target


def test_the_middleware_gives_each_request_its_details():
    seen = []
    middleware = Middleware(lambda request: seen.append(request.htmx) or "answer")
    assert middleware(RequestFactory().get("/", HTTP_HX_REQUEST="true")) == "answer"
    assert isinstance(seen[0], Details) and bool(seen[0])
