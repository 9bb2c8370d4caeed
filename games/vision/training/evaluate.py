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
    reader.use_models(finder, namers)
    right = reported = labelled = exact = 0
    for photo, corners in photos:
        found = Counter(card.card for card in reader.read_pixels(photo))
        truth = truth_of(corners)
        r, n, t = score(found, truth)
        right, reported, labelled = right + r, reported + n, labelled + t
        exact += found == truth
    return {
        f"{name}_photos": len(photos),
        f"{name}_recall": round(right / max(1, labelled), 4),
        f"{name}_precision": round(right / max(1, reported), 4),
        f"{name}_exact": f"{exact}/{len(photos)}",
    }


def real_validation(finder, namers, folder, name="real_validation"):
    """The models' figures on the real validation photos (real.VALIDATION: cut from the
    training originals, never trained on; models are chosen on it, never on the held-out)."""
    from games.vision.training import real

    reader.use_models(finder, namers)
    right = reported = labelled = exact = 0
    names = real.read_list(real.VALIDATION)
    for photo, corners in real.load(folder, names):
        found = Counter(card.card for card in reader.read_pixels(photo))
        truth = real.cards_in([real.Index(c[:4], _card(c[4], c[5])) for c in corners])
        r, n, t = score(found, truth)
        right, reported, labelled = right + r, reported + n, labelled + t
        exact += found == truth
    return {
        f"{name}_photos": len(names),
        f"{name}_recall": round(right / max(1, labelled), 4),
        f"{name}_precision": round(right / max(1, reported), 4),
        f"{name}_exact": f"{exact}/{len(names)}",
    }


def _card(rank, suit):
    return "JK" if RANKS[rank] == "JK" else RANKS[rank] + SUITS[suit]
