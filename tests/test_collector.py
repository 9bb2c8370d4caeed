"""The production application sets aside what its worker made to start (`gc.freeze`), views
and all, so that the collector's full collections no longer walk it on every few hundred
saves (scorekeeper/asgi.py)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_served_application_sets_aside_what_starting_it_made():
    code = (
        "import gc, sys\n"
        "before = gc.get_freeze_count()\n"
        "import scorekeeper.asgi\n"
        "print(before, gc.get_freeze_count(), 'games.views.rounds' in sys.modules,"
        " len(gc.get_objects()))\n"
    )
    env = os.environ | {"DJANGO_SETTINGS_MODULE": "scorekeeper.settings"}
    shown = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    before, frozen, views, left = shown.stdout.split()
    assert int(before) == 0 and int(frozen) > 50_000
    assert views == "True"  # the URLconf's views were imported before, and set aside with it
    assert int(left) < 1_000  # what the collector still tracks: next to nothing yet
