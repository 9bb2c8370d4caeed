"""`manage.py read_cards`: one answer per photo, in order, and a clear message for a bad one."""

import io
import json
import subprocess
import sys
from pathlib import Path

from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "vision"


def read_cards(*arguments):
    return subprocess.run(
        [sys.executable, "manage.py", "read_cards", *map(str, arguments)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_each_photo_gets_one_json_answer_in_order_and_a_bad_one_a_message(tmp_path):
    not_a_photo = tmp_path / "notes.txt"
    not_a_photo.write_text("7H 8H 9H")
    done = read_cards(
        "--json", FIXTURES / "hand.jpg", not_a_photo, FIXTURES / "backs.jpg", tmp_path / "gone.jpg"
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["photo"] for a in answers] == [
        str(FIXTURES / "hand.jpg"),
        str(not_a_photo),
        str(FIXTURES / "backs.jpg"),
        str(tmp_path / "gone.jpg"),
    ]
    hand, text, backs, gone = answers
    assert sorted(c["card"] for c in hand["cards"]) == sorted(
        ["7H", "QS", "10D", "AC", "7H", "JK", "5S"]
    )
    for card in hand["cards"]:
        assert set(card) == {"card", "confidence", "box"}
        assert 0 < card["confidence"] <= 1 and len(card["box"]) == 4
    assert isinstance(hand["seconds"], float) and hand["seconds"] > 0
    assert "error" not in hand and "error" not in backs
    assert backs["cards"] == []
    assert text["cards"] == [] and "not a photo the reader can open" in text["error"]
    assert gone["cards"] == [] and "cannot read this file" in gone["error"]
    assert done.returncode != 0
    assert "2 of 4 photos could not be read" in done.stderr
    assert "Traceback" not in done.stderr


def test_without_json_each_photo_gets_a_readable_line():
    out = io.StringIO()
    call_command("read_cards", str(FIXTURES / "backs.jpg"), stdout=out)
    assert out.getvalue().startswith(f"{FIXTURES / 'backs.jpg'}: no cards (")
