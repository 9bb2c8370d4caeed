import re

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils import timezone

from games.engine.cards import RANK_LABELS, CardError
from games.engine.rummy13 import RummyRules
from games.engine.three_thirteen import ThreeThirteenRules, default_decks

from .models import GAME_KINDS, THREE_THIRTEEN, Hand, Player

MAX_PLAYERS = 8


class SignupForm(UserCreationForm):
    pass


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=40, label="Name")

    def __init__(self, *args, group=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.group = group

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if Player.objects.filter(group=self.group, name__iexact=name).exists():
            raise forms.ValidationError(f"{name} is already one of your players.")
        return name


YES_NO = [("yes", "Yes"), ("no", "No")]


class NewGameForm(forms.Form):
    kind = forms.ChoiceField(choices=GAME_KINDS, widget=forms.RadioSelect, label="Game")
    players = forms.CharField(
        max_length=400,
        label="Players, starting with the first dealer and going left",
        help_text="Names separated by commas. New names are added to your players.",
    )
    date = forms.DateField(label="Game night", widget=forms.DateInput(attrs={"type": "date"}))

    # Three Thirteen options (RULES.md defaults).
    tt_decks = forms.IntegerField(
        required=False, min_value=1, max_value=12, label="Decks",
        help_text="Leave empty for 1 with two players, 2 with three or four, "
        "one more per two more.",
    )  # fmt: skip
    tt_aces = forms.ChoiceField(
        choices=[("low", "Low only; an ace left over costs 1"),
                 ("high_or_low", "High or low; an ace left over costs 15")],
        initial="low", label="Aces", widget=forms.RadioSelect,
    )  # fmt: skip
    tt_faces = forms.ChoiceField(
        choices=[("ten", "J, Q, K cost 10"), ("rank", "J, Q, K cost 11, 12, 13")],
        initial="ten", label="Face cards", widget=forms.RadioSelect,
    )  # fmt: skip
    tt_jokers = forms.IntegerField(
        min_value=0, max_value=24, initial=0, label="Printed jokers in play"
    )
    tt_all_wild_melds = forms.ChoiceField(
        choices=YES_NO, initial="yes", widget=forms.RadioSelect,
        label="Melds of wild cards only allowed",
    )  # fmt: skip

    # 13-card Rummy options.
    r_decks = forms.IntegerField(min_value=1, max_value=12, initial=2, label="Decks")
    r_jokers = forms.IntegerField(min_value=0, max_value=24, initial=2, label="Printed jokers")
    r_wild_rank = forms.ChoiceField(
        choices=[("", "None")] + [(label, label) for label in RANK_LABELS],
        required=False, initial="", label="Wild joker rank",
    )  # fmt: skip
    r_all_joker_melds = forms.ChoiceField(
        choices=YES_NO, initial="yes", widget=forms.RadioSelect,
        label="Melds of jokers only allowed",
    )  # fmt: skip
    r_max_count = forms.IntegerField(
        required=False, min_value=1, max_value=1000, label="Maximum count per deal",
        help_text="Leave empty for no maximum (80 is common).",
    )  # fmt: skip
    r_format = forms.ChoiceField(
        choices=[("open", "Open: play until you stop, lowest total wins"),
                 ("pool", "Pool: reach the limit and you are out")],
        initial="open", widget=forms.RadioSelect, label="Format",
    )  # fmt: skip
    r_pool_limit = forms.TypedChoiceField(
        choices=[(101, "101"), (201, "201")], coerce=int, initial=101, label="Pool limit"
    )
    r_first_drop = forms.IntegerField(min_value=0, max_value=1000, initial=20, label="Drop")
    r_middle_drop = forms.IntegerField(min_value=0, max_value=1000, initial=40, label="Middle drop")
    r_wrong_declaration = forms.IntegerField(
        min_value=0, max_value=1000, initial=80, label="Wrong declaration"
    )

    def __init__(self, *args, group=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.group = group
        self.fields["date"].initial = timezone.localdate()

    def option_groups(self):
        """Each game's options, as the form shows them."""
        prefixes = [(THREE_THIRTEEN, "Three Thirteen options", "tt_"),
                    ("rummy13", "13-card Rummy options", "r_")]  # fmt: skip
        return [
            (kind, title, [self[name] for name in self.fields if name.startswith(prefix)])
            for kind, title, prefix in prefixes
        ]

    def clean_players(self):
        names = [
            " ".join(name.split()) for name in re.split(r"[,\n]", self.cleaned_data["players"])
        ]
        names = [name for name in names if name]
        if len(names) < 2:
            raise forms.ValidationError("A game needs at least two players.")
        if len(names) > MAX_PLAYERS:
            raise forms.ValidationError(f"At most {MAX_PLAYERS} players fit one game.")
        seen = set()
        for name in names:
            if len(name) > 40:
                raise forms.ValidationError(f"“{name[:40]}…” is too long for a name.")
            if name.lower() in seen:
                raise forms.ValidationError(f"{name} is listed twice.")
            seen.add(name.lower())
        return names

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            if data["kind"] == THREE_THIRTEEN:
                decks = data.get("tt_decks") or default_decks(len(data["players"]))
                rules = ThreeThirteenRules(
                    decks=decks,
                    aces=data["tt_aces"],
                    faces=data["tt_faces"],
                    jokers=data["tt_jokers"],
                    all_wild_melds=data["tt_all_wild_melds"] == "yes",
                )
            else:
                rules = RummyRules(
                    decks=data["r_decks"],
                    jokers=data["r_jokers"],
                    wild_rank=data["r_wild_rank"] or None,
                    all_joker_melds=data["r_all_joker_melds"] == "yes",
                    max_count=data.get("r_max_count"),
                    format=data["r_format"],
                    pool_limit=data["r_pool_limit"],
                    first_drop=data["r_first_drop"],
                    middle_drop=data["r_middle_drop"],
                    wrong_declaration=data["r_wrong_declaration"],
                )
        except CardError as error:
            raise forms.ValidationError(str(error)) from error
        data["rules"] = rules.to_dict()
        return data


class HandForm(forms.Form):
    outcome = forms.ChoiceField(choices=Hand.OUTCOMES, initial=Hand.CARDS)
    cards = forms.CharField(required=False, max_length=400, label="Cards")
    points = forms.IntegerField(required=False, min_value=0, max_value=10000, label="Points")
    version = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)

    def __init__(self, *args, outcomes=None, **kwargs):
        super().__init__(*args, **kwargs)
        if outcomes:
            self.fields["outcome"].choices = outcomes


class NightForm(forms.Form):
    date = forms.DateField(label="Date", widget=forms.DateInput(attrs={"type": "date"}))


KIND_FILTER = [("", "Both games")] + GAME_KINDS


class LeaderboardFilter(forms.Form):
    kind = forms.ChoiceField(choices=KIND_FILTER, required=False, label="Game")
    start = forms.DateField(required=False, label="From",
                            widget=forms.DateInput(attrs={"type": "date"}))  # fmt: skip
    end = forms.DateField(required=False, label="To",
                          widget=forms.DateInput(attrs={"type": "date"}))  # fmt: skip

    def clean(self):
        data = super().clean()
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            raise forms.ValidationError("The start date is after the end date.")
        return data


class NightSearch(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.none(), required=False,
                                    empty_label="Anyone", label="Player")  # fmt: skip
    kind = forms.ChoiceField(choices=KIND_FILTER, required=False, label="Game")

    def __init__(self, *args, group=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(group=group)


class ImportForm(forms.Form):
    file = forms.FileField(label="Export file (JSON)")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 20 * 1024 * 1024:
            raise forms.ValidationError("The file is larger than 20 MB.")
        return upload
