"""The quick start's one command: the database made or brought up to date, then the site served
as production serves it (gunicorn with uvicorn workers on the ASGI application, so the live
table's streams are held and every phone shows a save at once), on the embedded SQLite unless
`DATABASE_URL` says otherwise."""

import os
import sys

from django.core.management import call_command
from django.core.management.base import BaseCommand

# The README's production command (tests/faults.py runs the same one).
GUNICORN = [
    "-m",
    "gunicorn",
    "scorekeeper.asgi",
    "--worker-class",
    "scorekeeper.workers.QuietUvicornWorker",
]


def gunicorn_command(address: str, workers: int) -> list[str]:
    """The command line that serves the site on `address` ("host:port") with `workers`."""
    return [sys.executable, *GUNICORN, "--bind", address, "--workers", str(workers)]


class Command(BaseCommand):
    help = "Migrate, then serve the site as production does (streams and all)."

    def add_arguments(self, parser):
        parser.add_argument("address", nargs="?", default="0.0.0.0:8000", help="host:port")
        parser.add_argument(
            "--workers", type=int, default=2, help="uvicorn workers: one a core (2)"
        )

    def handle(self, address, workers, **options):
        if ":" not in address:
            address = f"0.0.0.0:{address}"  # a port alone, as runserver takes it
        call_command("migrate", interactive=False, verbosity=options["verbosity"])
        self.stdout.write(f"Serving on http://{address}/ (streams held); Ctrl-C stops it.")
        self.stdout.flush()
        # gunicorn in this process's place: its signals (Ctrl-C, a stop) reach it directly.
        command = gunicorn_command(address, workers)
        os.execv(command[0], command)
