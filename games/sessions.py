"""Django's signed-cookie sessions, each cookie's signature checked once in a process.

Every request of a phone carries the same session cookie until the session changes, and Django
checks its signature (an HMAC over it), decodes its base64 and, where it was compressed, inflates
it, on every request: a live poll's answer spent about a seventh of its interpreter work there
(issue 45). Here a cookie whose signature was found good is kept, as its decoded JSON and its
timestamp, for the next request that brings the very same text: it is read again (a new dict
every time, as Django's is), and its age checked against the session's as Django checks it. A
cookie that fails the check is never kept (it fails again, the Django way, every time); a new
secret key checks every cookie afresh. Only the check's result is kept, never a session's
changes: a session that changes gets a new cookie, a new text."""

import time
import zlib

from django.conf import settings
from django.contrib.sessions.backends import signed_cookies
from django.core import signing

SALT = "django.contrib.sessions.backends.signed_cookies"  # Django's, as its store signs them
KEPT = 4096  # cookies kept checked in a process (all of them forgotten past that)
_CHECKED: dict[tuple[str, str], tuple[bytes, int]] = {}  # (cookie, key): its JSON, signed at


class SessionStore(signed_cookies.SessionStore):
    def load(self):
        checked = _CHECKED.get((self.session_key, settings.SECRET_KEY))
        if checked is None:
            checked = _check(self.session_key, self.get_session_cookie_age())
        if checked is None or time.time() - checked[1] > self.get_session_cookie_age():
            # A bad signature, or too old (as Django's `signing.loads` refuses it): a new session.
            self.create()
            return {}
        try:
            return self.serializer().loads(checked[0])
        except Exception:  # as Django's store: whatever fails to load is a new session
            self.create()
            return {}


def _check(cookie: str, max_age: int) -> tuple[bytes, int] | None:
    """The JSON of a session cookie whose signature is good and that is not older than
    `max_age` (as `signing.loads` checks it), and when it was signed; None for any other."""
    try:
        signer = signing.TimestampSigner(salt=SALT)
        signer.unsign(cookie, max_age=max_age)  # the signature, with the current or old keys
        value, stamp, _ = cookie.rsplit(signer.sep, 2)
        signed_at = signing.b62_decode(stamp)
        compressed = value[:1] == "."
        data = signing.b64_decode(value[compressed:].encode())
        if compressed:
            data = zlib.decompress(data)
    except Exception:  # BadSignature, SignatureExpired, bad base64 or zlib: not a session
        return None
    if len(_CHECKED) >= KEPT:
        _CHECKED.clear()
    _CHECKED[cookie, settings.SECRET_KEY] = (data, signed_at)
    return data, signed_at
