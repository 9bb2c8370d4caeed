"""Django's CSRF strings (a token's mask, a new secret) drawn from one read of the system's
randomness instead of one a character.

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


def install() -> None:
    """Django's CSRF middleware draws its masks and secrets here (games.apps)."""
    csrf._get_new_csrf_string = random_string
