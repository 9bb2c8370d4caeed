"""The CSRF token's mask drawn from one read of the system's randomness (games.csrf_mask): still
unbiased, still accepted by Django's CSRF check, one read a page."""

import os
import re
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


def django_mask(secret: str, mask: str) -> str:
    """Django's own `_mask_cipher_secret` with its mask given."""
    chars = csrf.CSRF_ALLOWED_CHARS
    pairs = zip((chars.index(x) for x in secret), (chars.index(x) for x in mask), strict=True)
    return mask + "".join(chars[(x + y) % len(chars)] for x, y in pairs)


def django_unmask(token: str) -> str:
    """Django's own `_unmask_cipher_token`."""
    mask, token = token[: csrf.CSRF_SECRET_LENGTH], token[csrf.CSRF_SECRET_LENGTH :]
    chars = csrf.CSRF_ALLOWED_CHARS
    pairs = zip((chars.index(x) for x in token), (chars.index(x) for x in mask), strict=True)
    return "".join(chars[x - y] for x, y in pairs)


def test_django_masks_and_unmasks_its_tokens_here():
    assert csrf._mask_cipher_secret is csrf_mask.mask_cipher_secret
    assert csrf._unmask_cipher_token is csrf_mask.unmask_cipher_token


def test_a_token_is_masked_and_unmasked_as_django_does(monkeypatch):
    alphabet = csrf.CSRF_ALLOWED_CHARS
    edges = ["0" * 32, "Z" * 32, alphabet[:32], alphabet[-32:]]
    secrets_ = edges + [csrf_mask.random_string() for _ in range(300)]
    for secret in secrets_:
        mask = csrf_mask.random_string()
        monkeypatch.setattr(csrf, "_get_new_csrf_string", lambda mask=mask: mask)
        token = csrf_mask.mask_cipher_secret(secret)
        assert token == django_mask(secret, mask)
        assert csrf_mask.unmask_cipher_token(token) == django_unmask(token) == secret
    for mask in edges:  # masks at the alphabet's ends: the sums and differences wrap
        for secret in edges:
            token = django_mask(secret, mask)
            assert csrf_mask.unmask_cipher_token(token) == secret


def test_a_post_with_the_token_of_its_page_is_let_through_and_a_changed_one_is_not():
    client = Client(enforce_csrf_checks=True)
    page = client.get("/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())[1]
    assert client.post("/login/", {"csrfmiddlewaretoken": token}).status_code == 200
    changed = token[:-1] + ("a" if token[-1] != "a" else "b")
    assert client.post("/login/", {"csrfmiddlewaretoken": changed}).status_code == 403
