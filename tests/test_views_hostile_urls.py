"""No URL of the site answers 500, whatever is written where an id, a round's number or a link's
token goes: numbers past 64 bits, signed, not numbers, Unicode, control characters; nor
whatever the pages' own query parameters are given. What cannot be an id is no such page."""

import re
from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import site_urls

pytestmark = pytest.mark.django_db

HOSTILE = st.one_of(
    st.integers(min_value=2**63 - 2, max_value=10**40).map(str),
    st.integers(max_value=-1).map(str),
    st.sampled_from(["0", "00", "1e3", "0x10", "١٢", "٣", "1 2", "%00", "..", "🂡", "a" * 300]),
    st.text(min_size=1, max_size=40),
)
QUERIES = st.sampled_from(["seat", "rematch", "page", "player", "kind", "start", "end", "next"])


@pytest.fixture
def table(member, make_game):
    game = make_game(member)
    return site_urls(game)


def hostile_variants(url: str, value: str) -> list[str]:
    """The URL with each of its path's values (numbers and tokens) replaced by `value`."""
    parts = url.split("/")
    found = []
    for index, part in enumerate(parts):
        if re.fullmatch(r"[0-9]+|[A-Za-z0-9_-]{20,}", part):
            changed = list(parts)
            changed[index] = quote(value, safe="")
            found.append("/".join(changed))
    return found


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data(), value=HOSTILE)
def test_no_path_value_answers_500(client, signed_in_too, table, data, value):
    name = data.draw(st.sampled_from(sorted(table)))
    for url in hostile_variants(table[name], value):
        for visitor in (client, signed_in_too):
            for method in ("get", "post"):
                response = getattr(visitor, method)(url, {"save": "1", "outcome": "cards"})
                assert response.status_code < 500, (url, method, response.status_code)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data(), parameter=QUERIES, value=HOSTILE)
def test_no_query_value_answers_500(signed_in_too, table, data, parameter, value):
    name = data.draw(st.sampled_from(sorted(table)))
    url = f"{table[name]}?{parameter}={quote(value, safe='')}"
    response = signed_in_too.get(url)
    assert response.status_code < 500, (url, response.status_code)


def test_an_id_past_64_bits_is_no_such_page(signed_in_too, table):
    game = table["game"].split("/")[2]
    for url in (
        f"/games/{10**20}/",
        f"/games/{game}/rounds/99999/",
        f"/games/{game}/guest/{'x' * 65}/",
        "/games/99999999999999999999/guest/abc/",
        f"/nights/{2**64}/live/",
    ):
        assert signed_in_too.get(url).status_code == 404, url


@pytest.fixture
def signed_in_too(member):
    """A member's phone that reports what a view raises as the 500 it would be."""
    phone = Client(raise_request_exception=False)
    phone.force_login(member)
    return phone


def test_a_next_page_that_is_not_a_path_of_the_site_is_not_followed(signed_in_too):
    for hostile in ("9223372036854775806", "home", "//evil.example/", "https://evil.example/"):
        response = signed_in_too.get(f"/signup/?next={quote(hostile, safe='')}")
        assert response.status_code == 302 and response["Location"] == "/", hostile
