"""The test run's settings: the site's own, with what only tests want (pytest reads this module,
`DJANGO_SETTINGS_MODULE` in pyproject.toml)."""

import os

from .settings import *  # noqa: F403 - every setting of the site, then the tests' changes
from .settings import BASE_DIR, DATABASES

# Hashing a password at full strength is work for nothing in a test.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Tests run on a file too, so threads race on real connections as the server's would.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("TEST_SQLITE_PATH", str(BASE_DIR / ".test-db.sqlite3"))
    }

# The files `collectstatic` gathers (the README's `manage.py serve` does, into staticfiles/) are
# not the tests' business: the live server serves the app's own folders, and WhiteNoise would
# read every collected file again for each test client (a second per hundred tests). A test
# that wants them collects its own (tests/test_views_pwa.py, tests/faults.py).
# A server a test starts is given its own collected files (STATIC_ROOT in its environment).
if "STATIC_ROOT" not in os.environ:
    STATIC_ROOT = BASE_DIR / ".test-static-never-collected"
