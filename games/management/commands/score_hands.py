"""JSON lines in, JSON lines out: the engine from the command line, nothing stored."""

import json
import sys

from django.core.management.base import BaseCommand

from games.engine.score_line import score_request


class Command(BaseCommand):
    help = "Score hands read as JSON lines on standard input (see RULES.md)."
    requires_system_checks = []
    requires_migrations_checks = False

    def handle(self, *args, **options):
        out = sys.stdout
        for line in sys.stdin:
            line = line.rstrip("\r\n")
            if not line.strip():
                answer = {"ok": False, "error": "empty line: expected a JSON object"}
            else:
                try:
                    request = json.loads(line)
                except ValueError as error:
                    answer = {"ok": False, "error": f"not valid JSON: {error}"}
                else:
                    answer = score_request(request)
            out.write(json.dumps(answer) + "\n")
            out.flush()
