"""The CSRF token's mask drawn from one read of the system's randomness (games.csrf_mask): still
unbiased, still accepted by Django's CSRF check, one read a page."""

import os
import secrets
from collections import Counter

import pytest
from django.middleware import csrf
from django.test import Client, RequestFactory

from games import csrf_mask


def test_django_draws_its_csrf_strings_here():
    assert csrf._get_new_csrf_string is csrf_mask.random_string


def test_a_token_is_masked_with_one_read_of_randomness(monkeypatch):
    reads = []

    def counted(size):
        reads.append(size)
        return secrets.token_bytes(size)

    monkeypatch.setattr(os, "urandom", counted)
    monkeypatch.setattr(secrets, "choice", lambda seq: pytest.fail("a read a character"))
    request = RequestFactory().get("/")
    request.META["CSRF_COOKIE"] = "a" * csrf.CSRF_SECRET_LENGTH
    token = csrf.get_token(request)
    assert len(reads) == 1
    assert len(token) == 2 * csrf.CSRF_SECRET_LENGTH
    assert csrf._unmask_cipher_token(token) == "a" * csrf.CSRF_SECRET_LENGTH


def test_bytes_that_would_bias_the_alphabet_are_dropped():
    # 248..255 would make the first 8 characters likelier; they are skipped, never folded in.
    given = iter([bytes([248, 255, 0, 61, 62, 247] + [1] * 40), bytes([5] * 44)])
    drawn = csrf_mask.random_string(4, read=lambda size: next(given))
    alphabet = csrf.CSRF_ALLOWED_CHARS
    assert drawn == alphabet[0] + alphabet[61] + alphabet[0] + alphabet[247 % 62]


def test_a_read_short_of_kept_bytes_reads_again():
    given = iter([bytes([250] * 44), bytes([3] * 44)])
    assert (
        csrf_mask.random_string(32, read=lambda size: next(given))
        == csrf.CSRF_ALLOWED_CHARS[3] * 32
    )


def test_every_character_is_as_likely():
    counts = Counter("".join(csrf_mask.random_string() for _ in range(4000)))
    expected = 4000 * 32 / 62
    assert set(counts) == set(csrf.CSRF_ALLOWED_CHARS)
    chi_square = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi_square < 120  # 61 degrees of freedom: p < 1e-5 above this


@pytest.mark.django_db
def test_a_form_posted_with_the_masked_token_is_accepted(member):
    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    page = client.get("/games/new/")
    token = page.content.decode().split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert csrf._unmask_cipher_token(token) == client.cookies["csrftoken"].value
    assert client.post("/games/new/", {"csrfmiddlewaretoken": token}).status_code == 200
    refused = Client(enforce_csrf_checks=True)
    refused.force_login(member)
    assert refused.post("/games/new/", {"csrfmiddlewaretoken": token}).status_code == 403
