"""Synthetic validation: the reader's figures on photos composed like the training ones
(not the measure that counts; that is bench/bench_vision.py on real photos)."""

from collections import Counter

from games.vision import reader
from games.vision.labels import RANKS, SUITS
from games.vision.training import scenes


def truth_of(corners):
    """The cards that show in a synthetic photo: each card with a visible index, once."""
    cards = {}
    for c in corners:
        if c.visible >= scenes.VISIBLE:
            cards[c.card] = "JK" if RANKS[c.rank] == "JK" else RANKS[c.rank] + SUITS[c.suit]
    return Counter(cards.values())


def score(found: Counter, truth: Counter):
    right = sum((found & truth).values())
    return right, sum(found.values()), sum(truth.values())


def synthetic(finder, namers, photos, name="synthetic"):
    """The exported models' figures on `photos`, read as the app reads them."""
    return _figures(finder, namers, [(photo, truth_of(corners)) for photo, corners in photos], name)


def real_validation(finder, namers, folder, name="real_validation"):
    """The models' figures on the real validation photos (real.VALIDATION: cut from the
    training originals, never trained on; models are chosen on it, never on the held-out)."""
    from games.vision.training import real

    photos = [
        (photo, real.cards_in([real.Index(c[:4], _card(c[4], c[5])) for c in corners]))
        for photo, corners in real.load(folder, real.read_list(real.VALIDATION))
    ]
    return _figures(finder, namers, photos, name)


def _figures(finder, namers, photos, name):
    """Recall, precision and photos read exactly of the models on (photo, its cards) pairs."""
    reader.use_models(finder, namers)
    right = reported = labelled = exact = 0
    for photo, truth in photos:
        found = Counter(card.card for card in reader.read_pixels(photo))
        r, n, t = score(found, truth)
        right, reported, labelled = right + r, reported + n, labelled + t
        exact += found == truth
    return {
        f"{name}_photos": len(photos),
        f"{name}_recall": round(right / max(1, labelled), 4),
        f"{name}_precision": round(right / max(1, reported), 4),
        f"{name}_exact": f"{exact}/{len(photos)}",
    }


def _card(rank, suit):
    return "JK" if RANKS[rank] == "JK" else RANKS[rank] + SUITS[suit]
