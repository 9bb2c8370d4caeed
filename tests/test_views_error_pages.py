"""The error pages are the site's own: its layout, the phone's viewport, the stylesheet (so the
dark theme), a way back; the 500 page is drawn without the database."""

import sys

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.test import Client, RequestFactory
from django.utils.functional import SimpleLazyObject
from django.views import defaults

from games.views.errors import server_error

pytestmark = pytest.mark.django_db


def in_the_sites_layout(html: str) -> bool:
    return all(
        part in html
        for part in (
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            '<meta name="color-scheme" content="light dark">',
            "css/app.css",
            '<meta name="description"',
            '<main id="main">',
            "Back to the scores",
        )
    )


def test_a_page_that_is_not_there_is_the_sites_404(client):
    response = client.get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert in_the_sites_layout(html) and "<h1>Not found</h1>" in html


def test_bad_requests_and_refusals_are_the_sites_pages(rf):
    request = RequestFactory().get("/")
    for view, exception, status, title in (
        (defaults.bad_request, SuspiciousOperation("x"), 400, "That request could not be read"),
        (defaults.permission_denied, PermissionDenied("x"), 403, "Not allowed"),
    ):
        response = view(request, exception)
        html = response.content.decode()
        assert response.status_code == status
        assert in_the_sites_layout(html) and f"<h1>{title}</h1>" in html


def test_a_form_sent_without_its_token_is_the_sites_403():
    phone = Client(enforce_csrf_checks=True)
    response = phone.post("/signup/", {"username": "x"})
    html = response.content.decode()
    assert response.status_code == 403
    assert in_the_sites_layout(html) and "The page had expired" in html


def test_the_500_page_is_drawn_without_the_database(database_switch, member):
    request = RequestFactory().get("/")
    # The login as the middleware leaves it: read from the database only if something asks.
    request.user = SimpleLazyObject(lambda: User.objects.get(pk=member.pk))
    request.session = {}
    database_switch.cut()
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        assert sys.exc_info()[0] is RuntimeError
        response = server_error(request)
    html = response.content.decode()
    assert response.status_code == 500
    assert in_the_sites_layout(html) and "<h1>Something went wrong</h1>" in html
