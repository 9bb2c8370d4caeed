"""Django's CSRF strings (a token's mask, a new secret) drawn from one read of the system's
randomness instead of one a character; and a token masked and unmasked by looking each pair of
characters up, instead of Django's generators working out each character's place.

Django draws each of the 32 characters with `secrets.choice`, one `getrandom` syscall each: 34
syscalls on every page with a form, about a quarter of such a page's (issue 45). Here the
bytes for the whole string are read at once and each becomes a character by rejection: a byte
at or past the largest multiple of the alphabet's size under 256 is dropped, so every
character stays equally likely (no modulo bias) and as unpredictable as the bytes."""

import os

from django.middleware import csrf

ALPHABET = csrf.CSRF_ALLOWED_CHARS
LENGTH = csrf.CSRF_SECRET_LENGTH
_TAKEN_BELOW = 256 - 256 % len(ALPHABET)  # 248 for 62 characters: bytes kept are unbiased


def random_string(length: int = LENGTH, read=None) -> str:
    """`length` characters of ALPHABET, each uniformly random, from one read of `read` (more
    only in the rare case too many bytes were dropped)."""
    read = read or os.urandom
    chosen: list[str] = []
    size = len(ALPHABET)
    while len(chosen) < length:
        # A quarter more than needed: 248 of 256 bytes are kept, so one read nearly always does.
        for byte in read(length + length // 4 + 4):
            if byte < _TAKEN_BELOW:
                chosen.append(ALPHABET[byte % size])
                if len(chosen) == length:
                    break
    return "".join(chosen)


# Django masks a secret's character `s` with a mask's `m` as ALPHABET[(place(s) + place(m)) % 62]
# and unmasks as ALPHABET[place(c) - place(m)]: here every pair is looked up at once (a call
# for each of the 64 characters of a token, on every form's page and every post, is one).
_PLACE = {char: place for place, char in enumerate(ALPHABET)}
_MASKED = {
    (s, m): ALPHABET[(_PLACE[s] + _PLACE[m]) % len(ALPHABET)] for s in ALPHABET for m in ALPHABET
}
_UNMASKED = {
    (c, m): ALPHABET[(_PLACE[c] - _PLACE[m]) % len(ALPHABET)] for c in ALPHABET for m in ALPHABET
}


def mask_cipher_secret(secret: str) -> str:
    """Django's `_mask_cipher_secret`: a new mask, then the secret masked with it."""
    mask = csrf._get_new_csrf_string()
    return mask + "".join(map(_MASKED.__getitem__, zip(secret, mask, strict=True)))


def unmask_cipher_token(token: str) -> str:
    """Django's `_unmask_cipher_token`: the secret of a token (its format checked first, as
    Django checks it before it unmasks one)."""
    mask, cipher = token[:LENGTH], token[LENGTH:]
    return "".join(map(_UNMASKED.__getitem__, zip(cipher, mask, strict=True)))


def install() -> None:
    """Django's CSRF middleware draws its masks and secrets here, and masks and unmasks its
    tokens here (games.apps)."""
    csrf._get_new_csrf_string = random_string
    csrf._mask_cipher_secret = mask_cipher_secret
    csrf._unmask_cipher_token = unmask_cipher_token
