"""The small photos the tests read, composed from svg-cards' art (LGPL-2.1, as they are):

    uv run --group vision-train python -m games.vision.training.fixtures

`hand.jpg`: seven cards of two decks, a fan and a spread, one card upside down, two equal
seven of hearts and a joker, on a green cloth. `backs.jpg`: only the backs of cards.
"""

from pathlib import Path

from PIL import Image

from games.vision.training import build

FIXTURES = Path(__file__).resolve().parents[3] / "tests/fixtures/vision"
HAND = [  # (svg-cards name, centre x, centre y, degrees anticlockwise)
    ("heart_7", 150, 230, 12),
    ("spade_queen", 235, 215, 4),
    ("diamond_10", 320, 215, -4),
    ("club_1", 405, 230, -12),
    ("heart_7", 650, 420, 180),
    ("joker_black", 820, 300, 95),
    ("spade_5", 560, 180, 30),
]
HAND_CARDS = "7H QS 10D AC 7H JK 5S"
BACKS = [("back", 250, 300, 10), ("back", 380, 320, -5), ("back-red", 700, 330, 60)]


def compose(art_folder: Path, cards):
    photo = Image.new("RGBA", (960, 640), (40, 110, 60, 255))
    for name, x, y, angle in cards:
        card = Image.open(art_folder / f"{name}.png").convert("RGBA")
        card = card.resize((int(card.width * 0.6), int(card.height * 0.6)), Image.LANCZOS)
        card = card.rotate(angle, Image.BICUBIC, expand=True)
        photo.alpha_composite(card, (x - card.width // 2, y - card.height // 2))
    return photo.convert("RGB")


def main():
    art_folder = build.install_art()
    FIXTURES.mkdir(parents=True, exist_ok=True)
    compose(art_folder, HAND).save(FIXTURES / "hand.jpg", quality=85)
    compose(art_folder, BACKS).save(FIXTURES / "backs.jpg", quality=80)
    print("wrote", *sorted(p.name for p in FIXTURES.iterdir()))


if __name__ == "__main__":
    main()
