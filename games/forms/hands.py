"""One hand as a phone sends it."""

import copy
from contextlib import suppress
from functools import lru_cache

from django import forms

from games import engine
from games.engine.cards import CardError, format_cards, parse_hand

from ..models import Entry, Hand


def extra_field(name: str) -> str:
    """The hand form's field for what more a game's entry says (`engine.Extra.name`)."""
    return f"extra_{name}"


class HandForm(forms.Form):
    """One hand as a phone sends it: how it ended, the cards (after a tap on the picker, a
    tap on a chosen card, or Clear), the points if entered as a number, the version seen."""

    outcome = forms.ChoiceField(choices=Hand.OUTCOMES, initial=engine.CARDS)
    cards = forms.CharField(required=False, max_length=200, label="Cards", strip=True)
    points = forms.IntegerField(
        required=False, min_value=0, max_value=engine.MAX_POINTS, label="Points"
    )
    version = forms.IntegerField(required=False, min_value=0, max_value=2**31 - 1)
    # The phone's own key for this entry, kept with its draft until the server has it.
    save_key = forms.RegexField(
        regex=r"^[A-Za-z0-9_-]*$",
        required=False,
        max_length=64,
        label="Save key",
        error_messages={"invalid": "this page did not make that key: reload the page"},
    )
    tap = forms.CharField(required=False, max_length=8)
    untap = forms.CharField(required=False, max_length=8)
    clear = forms.CharField(required=False, max_length=8)
    save = forms.CharField(required=False, max_length=8)
    # The answer to the question a hand that melds completely meets before it is saved as
    # counted cards: it went out after all, or it is saved as it was entered.
    answer = forms.ChoiceField(
        required=False, choices=[("", ""), (engine.WENT_OUT, "yes"), (engine.CARDS, "no")]
    )

    def __init__(self, *args, game=None, **kwargs):
        kind, rules = game.kind_def, game.engine_rules
        # What more the game asks with an outcome (Oklahoma's upcard).
        self.extras = kind.extras(rules)
        labels = tuple((extra.name, extra.label or extra.name) for extra in self.extras)
        self.base_fields = _fields_for(tuple(kind.outcomes(rules)), labels)
        super().__init__(*args, **kwargs)

    def clean_cards(self):
        text = self.cleaned_data["cards"]
        if self.data.get("clear"):
            return ""
        try:
            cards = parse_hand(text)
        except CardError:
            return text  # kept as typed; the panel says what is wrong with it
        if self.data.get("tap"):
            with suppress(CardError, IndexError):
                cards.append(parse_hand(self.data["tap"])[0])
        if self.data.get("untap"):
            with suppress(CardError, IndexError, ValueError):
                cards.remove(parse_hand(self.data["untap"])[0])
        return format_cards(cards)

    @property
    def saving(self) -> bool:
        """A save (an answer to the question a save met is one too)."""
        return self.saves(self.data)

    @staticmethod
    def saves(data) -> bool:
        """Whether the posted `data` are a save, before a form is made of them."""
        return bool(data.get("save") or data.get("answer"))

    @property
    def answered(self) -> bool:
        """The phone answered the question a hand that melds completely is asked."""
        return bool(getattr(self, "cleaned_data", {}).get("answer"))

    def entry(self) -> Entry:
        """The entry as far as it could be read: a field that failed keeps its default (a
        "yes" to the question asked makes it the hand that went out)."""
        data = getattr(self, "cleaned_data", {})
        outcome = data.get("outcome") or self.data.get("outcome") or engine.CARDS
        if data.get("answer") == engine.WENT_OUT and outcome == engine.CARDS:
            outcome = engine.WENT_OUT
        if outcome not in dict(self.fields["outcome"].choices):
            outcome = engine.CARDS
        cards = data.get("cards")
        if cards is None:
            cards = str(self.data.get("cards", ""))[:200]
        extra = {}
        for field in self.extras:
            value = data.get(extra_field(field.name))
            if value is None:
                value = str(self.data.get(extra_field(field.name), ""))[:8].strip()
            if value and field.outcome == outcome:
                extra[field.name] = value.upper()
        return Entry(
            outcome,
            cards,
            data.get("points"),
            data.get("version") or 0,
            extra,
            data.get("save_key") or "",
        )

    def problem(self) -> str | None:
        """The first field error in words for the panel, if any."""
        for name, errors in self.errors.items():
            label = self.fields[name].label if name in self.fields else name
            return f"{label}: {errors[0]}"
        return None


class _SharedFields(dict):
    """A game's hand fields, which no form changes: each form takes the fields themselves (a
    dict of its own) where Django deep-copies every field, its widget and its choices for
    every form (63 copies, about a tenth of a scoring request's interpreter work)."""

    def __deepcopy__(self, memo):
        return dict(self)


@lru_cache(maxsize=64)
def _fields_for(outcomes: tuple, extras: tuple) -> _SharedFields:
    """HandForm's fields for a game whose hands end in `outcomes` and that asks `extras`
    (name, label) more: made once for each such game, shared by its forms."""
    fields = copy.deepcopy(HandForm.declared_fields)
    fields["outcome"].choices = list(outcomes)
    for name, label in extras:
        fields[extra_field(name)] = forms.CharField(
            required=False, max_length=8, strip=True, label=label
        )
    return _SharedFields(fields)
