"""`manage.py read_cards`: one answer per photo, in order, and a clear message for a bad one."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "vision"


@pytest.fixture(autouse=True)
def _looks_at_once_put_back(monkeypatch):
    """The command runs the finder's looks on its cores (reader.run_at_once): put it back."""
    from games.vision import reader

    monkeypatch.setattr(reader, "AT_ONCE", reader.AT_ONCE)


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


TABLE = {  # tests/fixtures/vision/real-table.jpg, read by eye (its README)
    "bottom": "KC 10S 9D QS 4H 5H 8H JC 8C 3C 2H QH KS",
    "left": "10C 2S 4D QD 3D 5S 6H 9C KH JS 8D 9H 7H",
    "top": "QC 6D 7D JD 4S 3S AS JH 3H 4C KD 2C AH",
    "right": "6S 7C AC 10H 6C 5C",  # a hand cut by the photo's edge: what shows
}


def test_a_table_photo_is_read_into_its_hands_bottom_left_top_right():
    out = io.StringIO()
    call_command(
        "read_cards", "--hands", "4", "--json", str(FIXTURES / "real-table.jpg"), stdout=out
    )
    answer = json.loads(out.getvalue())
    assert set(answer) == {"photo", "hands", "doubtful", "seconds"}
    assert len(answer["hands"]) == 4
    for seat, hand in zip(TABLE, answer["hands"], strict=True):
        read = [card["card"] for card in hand]
        assert all(set(card) == {"card", "confidence"} for card in hand)
        held = set(TABLE[seat].split())
        assert len(set(read) & held) >= len(held) - 1, (seat, read)
        others = {c for other in TABLE if other != seat for c in TABLE[other].split()}
        assert not set(read) & others, (seat, read)
    assert answer["doubtful"] == []


def test_decks_limit_each_card_to_its_copies_and_bad_counts_are_refused():
    """--decks D: no card read more than D times (--jokers J: jokers J times); the counts are
    checked before any photo is read."""
    photo = FIXTURES / "hand.jpg"
    out = io.StringIO()
    call_command("read_cards", "--json", "--decks", "1", "--jokers", "0", str(photo), stdout=out)
    cards = [card["card"] for card in json.loads(out.getvalue())["cards"]]
    assert cards and len(cards) == len(set(cards)) and "JK" not in cards
    for arguments, message in [
        (["--decks", "0"], "at least 1"),
        (["--decks", "two"], "at least 1"),
        (["--decks", "1", "--jokers", "-1"], "at least 0"),
        (["--jokers", "2"], "--jokers goes with --decks"),
    ]:
        with pytest.raises(CommandError, match=message):
            call_command("read_cards", *arguments, str(photo))


def test_table_reading_refuses_bad_photos_and_a_number_of_hands_outside_two_to_six(tmp_path):
    hostile = tmp_path / "table.jpg"
    hostile.write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 64)  # a JPEG's start, then nothing
    out = io.StringIO()
    with pytest.raises(CommandError, match="2 of 2 photos could not be read"):
        call_command(
            "read_cards",
            "--hands",
            "3",
            "--json",
            str(hostile),
            str(tmp_path / "gone.jpg"),
            stdout=out,
        )
    damaged, gone = (json.loads(line) for line in out.getvalue().splitlines())
    assert "photo" in damaged["error"] and damaged["hands"] == [[], [], []]
    assert "cannot read this file" in gone["error"] and gone["doubtful"] == []
    for hands in ("1", "7", "four"):
        with pytest.raises(CommandError, match="read into 2 to 6 hands"):
            call_command("read_cards", "--hands", hands, str(FIXTURES / "backs.jpg"))


def test_without_json_a_table_photo_gets_one_readable_line_of_hands():
    out = io.StringIO()
    call_command("read_cards", "--hands", "2", str(FIXTURES / "backs.jpg"), stdout=out)
    assert out.getvalue().startswith(
        f"{FIXTURES / 'backs.jpg'}: hand 1: no cards; hand 2: no cards ("
    )
