"""The card reader on photos composed from svg-cards' art, and its pure helpers."""

import io
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from games.vision import CardReading, check_words, read_cards, unsure
from games.vision.pairing import card_mismatch, cards_from_corners, same_card
from games.vision.readings import LABELS, Corner

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "vision"
HAND = "7H QS 10D AC 7H JK 5S"  # games/vision/training/fixtures.py lays these out


def photo_bytes(image, kind="PNG", **options):
    buffer = io.BytesIO()
    image.save(buffer, kind, **options)
    return buffer.getvalue()


def test_a_hand_on_the_table_is_read_card_by_card():
    cards = read_cards((FIXTURES / "hand.jpg").read_bytes())
    assert Counter(c.card for c in cards) == Counter(HAND.split())


def test_a_real_photograph_of_a_hand_is_read_card_by_card():
    # A photo nobody here took, of a deck the models saw only as 52 flat face photographs;
    # its cards as a person reads them (tests/fixtures/vision/README.md).
    truth = "KC 10S 9D QS 4H 5H 8H JC 8C 3C 2H QH KS"
    cards = read_cards((FIXTURES / "real-hand.jpg").read_bytes())
    assert Counter(c.card for c in cards) == Counter(truth.split())


@pytest.mark.parametrize(
    "name, truth",
    [
        ("real-fan.jpg", "QC QD QH QS"),
        ("real-close-up.jpg", "5D"),
    ],
    ids=["fanned-on-a-table", "close-to-the-lens"],
)
def test_real_photographs_nobody_here_took_are_read_card_by_card(name, truth):
    # Held-out photos of the real set (tests/fixtures/vision/README.md): never trained on.
    cards = read_cards((FIXTURES / name).read_bytes())
    assert Counter(c.card for c in cards) == Counter(truth.split())


def test_an_index_a_quarter_of_the_photos_height_is_read():
    # The close-up cut to its card alone and brought up: a hand held close to the lens, its
    # index (about 100 of the card's 370 pixels) over a quarter of the photo's height.
    card = Image.open(FIXTURES / "real-close-up.jpg").crop((0, 140, 540, 510))
    close = card.resize((card.width * 2, card.height * 2), Image.BICUBIC)
    assert [c.card for c in read_cards(photo_bytes(close, "JPEG", quality=90))] == ["5D"]


def test_an_index_a_dozen_pixels_tall_is_read():
    # The close-up's card alone, brought down to a sixth and laid on a wooden table's colour:
    # a card across the table, its index (some 70 pixels in the close-up) about 12 pixels tall.
    small = Image.open(FIXTURES / "real-close-up.jpg").crop((0, 140, 540, 510)).reduce(6)
    table = Image.new("RGB", (800, 600), (150, 136, 116))
    table.paste(small, (360, 260))
    assert [c.card for c in read_cards(photo_bytes(table, "JPEG", quality=90))] == ["5D"]


def test_every_card_comes_with_its_confidence_and_a_box_inside_the_photo():
    cards = read_cards((FIXTURES / "hand.jpg").read_bytes())
    for card in cards:
        assert 0 < card.confidence <= 1
        x0, y0, x1, y1 = card.box
        assert 0 <= x0 < x1 <= 960 and 0 <= y0 < y1 <= 640
        assert card.alternative != card.card


def test_the_backs_of_cards_are_no_cards():
    assert read_cards((FIXTURES / "backs.jpg").read_bytes()) == []


@pytest.mark.parametrize("colour", ["white", (40, 110, 60), (120, 80, 40)])
def test_an_empty_table_is_no_cards(colour):
    assert read_cards(photo_bytes(Image.new("RGB", (800, 600), colour))) == []


def _corner(x, y, to_x, to_y, label="7H", score=0.9, **others):
    """A corner read as `label`, or as any of `others` with the probability each is given."""
    labels = np.full(len(LABELS), 0.001)
    labels[LABELS.index(label)] = 1.0
    for other, likely in others.items():
        labels[LABELS.index(other)] = likely
    return Corner((x, y), (x - 10, y - 20, x + 10, y + 20), (to_x, to_y), score, labels)


def test_a_one_deck_supply_reads_the_less_sure_of_two_alike_as_its_next_likeliest():
    """Two cards both likeliest an 8 of hearts: from two decks, two; from one deck, the surer
    one is, and the other is what it most likely is instead (a queen read as an 8), its
    alternative the 8 the surer one took. A card of which no copy is left above the reported
    sureness is not reported, and a label the supply does not name is not limited."""
    sure = _corner(100, 100, 80, 120, "8H", score=0.9)
    queen = _corner(400, 100, 80, 120, "8H", score=0.5, QH=0.8)
    assert [c.card for c in cards_from_corners([sure, queen])] == ["8H", "8H"]
    assert [c.card for c in cards_from_corners([sure, queen], supply={"8H": 2})] == ["8H", "8H"]
    first, second = cards_from_corners([queen, sure], supply={"8H": 1, "QH": 1})
    assert (first.card, second.card) == ("8H", "QH")
    assert first.confidence > second.confidence and second.alternative == "8H"
    assert [c.card for c in cards_from_corners([sure, queen], supply={"8H": 1, "QH": 0})] == [
        "8H"  # nothing else it is likely to be: not reported
    ]
    jokers = [_corner(100, 100, 80, 120, "JK"), _corner(400, 100, 80, 120, "JK")]
    assert [c.card for c in cards_from_corners(jokers, supply={"8H": 1})] == ["JK", "JK"]
    # A second 7 of hearts in Gin (no jokers) is its next likeliest card of the deck, never
    # the joker the game does not have (which the page would leave out as a printed joker).
    seven, other = _corner(100, 100, 80, 120, "7H"), _corner(400, 100, 80, 120, "7H", JK=0.9)
    other.labels[LABELS.index("7D")] = 0.5
    gin = dict.fromkeys(LABELS[:-1], 1)
    assert [c.card for c in cards_from_corners([seven, other], supply=gin)] == ["7H", "7D"]


def test_a_cards_two_corners_count_once_whatever_they_are_read_as():
    top_left = _corner(100, 100, 80, 120, "7H")
    bottom_right = _corner(260, 340, -80, -120, "7D")
    assert same_card(top_left, bottom_right)
    assert len(cards_from_corners([top_left, bottom_right])) == 1


def test_two_equal_cards_from_two_decks_stay_two():
    first = _corner(100, 100, 80, 120)
    second = _corner(400, 100, 80, 120)
    assert [c.card for c in cards_from_corners([first, second])] == ["7H", "7H"]


def test_cards_fanned_side_by_side_are_not_merged_though_their_centres_are_close():
    first = _corner(100, 100, 80, 120, "7H")
    second = _corner(130, 102, 80, 120, "8H")
    assert sorted(c.card for c in cards_from_corners([first, second])) == ["7H", "8H"]


def test_in_a_tight_fan_a_corner_read_alike_is_paired_before_a_nearer_one_read_differently():
    # The 3♣ and 2♥ of tests/fixtures/vision/real-hand.jpg, as the finder places them: the 3♣
    # points 0.16 card sizes from where the 2♥'s far corner points, nearer than the 2♥'s own
    # near corner does (0.18). Paired by distance alone, the 3♣ was lost and the 2♥ read twice.
    three = _corner(478.8, 111.4, 32.6, 68.5, "3C")
    two_near = _corner(504.6, 123.0, 27.7, 68.8, "2H")
    two_far = _corner(545.3, 262.4, -25.5, -74.8, "2H")
    assert same_card(three, two_far) and same_card(two_near, two_far)
    assert card_mismatch(three, two_far) < card_mismatch(two_near, two_far)
    assert sorted(c.card for c in cards_from_corners([three, two_near, two_far])) == ["2H", "3C"]


@pytest.mark.parametrize(
    ("other", "cards"),
    [("JK", ["JK"]), ("7H", ["7H", "JK"])],
    ids=["read-alike-one-card", "read-differently-two-cards"],
)
def test_corners_whose_vectors_fall_short_pair_only_when_read_alike(other, cards):
    # A joker's long word: each corner points straight at the other, but its vector reaches
    # only half way to the card's centre (mismatch about 1.9 card sizes).
    top = _corner(700, 380, 70, -46, "JK")
    bottom = _corner(940, 222, -82, 54, other)
    assert sorted(c.card for c in cards_from_corners([top, bottom])) == sorted(cards)


def test_read_alike_corners_a_little_apart_pair_but_far_apart_do_not():
    top_left = _corner(100, 100, 80, 120, "QS")  # points at (180, 220)
    # Opposite corners pointing at centres 0.8 and 1.2 card sizes away across the card (so
    # not at each other): one card when read alike and near; two when far or read apart.
    near = _corner(356, 276, -80, -120, "QS")
    far = _corner(404, 244, -80, -120, "QS")
    near_other = _corner(356, 276, -80, -120, "QD")
    assert len(cards_from_corners([top_left, near])) == 1
    assert len(cards_from_corners([top_left, far])) == 2
    assert len(cards_from_corners([top_left, near_other])) == 2


@pytest.mark.parametrize(
    ("score", "real", "reported"),
    [(0.9, 1.0, ["7H"]), (0.9, 0.25, ["7H"]), (0.9, 0.15, []), (0.1, 1.0, [])],
    ids=["sure", "a-quarter-sure", "hardly-an-index", "hardly-seen"],
)
def test_a_card_read_with_hardly_any_confidence_is_not_reported(score, real, reported):
    # Confidence: the label's probability (about 0.95 here) times the finder's certainty
    # (score / 0.6, at most 1) times the namers' that it is an index (`real`); under 0.2 the
    # card is left out and the panel's count shows the player it is missing.
    corner = replace(_corner(100, 100, 80, 120, "7H", score), real=real)
    assert [c.card for c in cards_from_corners([corner])] == reported


def _reading(card, confidence, alternative):
    return CardReading(card, confidence, (0, 0, 10, 10), alternative, 1 - confidence)


def test_the_unsure_cards_are_the_ones_read_with_low_confidence():
    sure, doubtful = _reading("6C", 0.97, "9C"), _reading("6C", 0.55, "9C")
    assert unsure([sure, doubtful]) == [doubtful]


@pytest.mark.parametrize(
    ("card", "alternative", "words"),
    [
        ("6C", "9C", "check: 6 of clubs, or 9?"),
        ("QH", "QD", "check: Queen of hearts, or diamonds?"),
        ("10S", "JK", "check: 10 of spades, or Joker?"),
        ("AS", "4C", "check: Ace of spades, or 4 of clubs?"),
    ],
)
def test_an_unsure_card_says_what_else_it_could_be(card, alternative, words):
    assert check_words(_reading(card, 0.5, alternative)) == words


def test_rebuilt_models_can_be_measured_in_place_of_the_committed_ones(tmp_path):
    from games.vision import reader

    finder, namer = tmp_path / "finder.onnx", tmp_path / "namer.onnx"
    finder.write_bytes(reader.MODEL_PATH.read_bytes())
    namer.write_bytes(reader.INDEX_MODEL_PATH.read_bytes())
    committed = dict(reader._sessions)
    try:
        reader.use_models(finder, [namer])
        assert reader._model() is not committed.get(reader.MODEL_PATH)
        assert reader._namers == (namer,)
        cards = read_cards((FIXTURES / "hand.jpg").read_bytes())
        assert Counter(c.card for c in cards) == Counter(HAND.split())
        assert namer in reader._sessions
    finally:
        reader._sessions.clear()
        reader._sessions.update(committed)
        reader._namers = reader.NAMERS


def test_each_index_is_named_by_both_committed_namers_from_five_crops(monkeypatch):
    from games.vision import reader

    calls = []
    real_model = reader._model

    def counting(path=reader.MODEL_PATH):
        session = real_model(path)
        if path == reader.MODEL_PATH:
            return session

        class Counting:
            def run(self, outputs, feeds):
                calls.append((path, len(feeds["crops"])))
                return session.run(outputs, feeds)

        return Counting()

    monkeypatch.setattr(reader, "_model", counting)
    cards = read_cards((FIXTURES / "hand.jpg").read_bytes())
    assert Counter(c.card for c in cards) == Counter(HAND.split())
    first = calls[:2]
    assert sorted(path for path, _ in first) == sorted(reader.NAMERS)  # they run at once
    # Every corner the finder kept is cropped five ways (at least one corner a card), and
    # both namers read the same crops.
    assert first[0][1] == first[1][1] and first[0][1] % len(reader.INDEX_LOOKS) == 0
    assert first[0][1] >= len(cards) * len(reader.INDEX_LOOKS)


def test_the_namers_answers_for_each_crop_are_averaged_corner_by_corner(monkeypatch):
    from games.vision import reader

    width = reader.NONE_RANK + 1 + len(reader.SUITS)

    class Namer:
        """Answers each crop with its place in the batch, times this namer's factor."""

        def __init__(self, factor):
            self.factor = factor

        def run(self, outputs, feeds):
            places = np.arange(len(feeds["crops"]), dtype=np.float32)[:, None]
            return [np.repeat(places * self.factor, width, axis=1)]

    namers = {Path("a.onnx"): Namer(1.0), Path("b.onnx"): Namer(3.0)}
    monkeypatch.setattr(reader, "_namers", tuple(namers))
    monkeypatch.setattr(reader, "_model", lambda path: namers[path])
    corners = [_corner(100 + 60 * i, 100, 80, 120, "QS") for i in range(3)]
    image = Image.new("RGB", (400, 300), "white")
    answers = reader._name(image, corners)
    looks = len(reader.INDEX_LOOKS)
    # The crops go look by look, each look corner by corner: corner c's crops sit at places
    # c, c + 3, c + 6, ...; the two namers' answers (x1 and x3) average to x2.
    for c in range(3):
        expected = 2.0 * np.mean([look * 3 + c for look in range(looks)])
        assert answers[c] == pytest.approx(np.full(width, expected))


def test_looks_run_at_once_on_the_cores_asked_for_unless_the_environment_says(monkeypatch):
    from games.vision import reader

    monkeypatch.setattr(reader, "AT_ONCE", 1)
    monkeypatch.delenv("SCOREKEEPER_VISION_AT_ONCE", raising=False)
    reader.run_at_once(3)
    assert reader.AT_ONCE == 3
    reader.run_at_once()
    assert 1 <= reader.AT_ONCE <= 4
    reader.run_at_once(3)
    monkeypatch.setenv("SCOREKEEPER_VISION_AT_ONCE", "1")  # read when the process started
    reader.run_at_once(2)
    assert reader.AT_ONCE == 3


def test_the_looks_run_at_once_on_two_cores_read_just_as_one_at_a_time(monkeypatch):
    from games.vision import reader

    data = (FIXTURES / "hand.jpg").read_bytes()
    monkeypatch.setattr(reader, "AT_ONCE", 1)
    one_at_a_time = read_cards(data)
    monkeypatch.setattr(reader, "AT_ONCE", 2)
    assert read_cards(data) == one_at_a_time
    assert Counter(c.card for c in one_at_a_time) == Counter(HAND.split())
