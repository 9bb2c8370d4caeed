import re
from contextlib import suppress
from dataclasses import dataclass

from django import forms
from django.contrib.auth.forms import PasswordChangeForm, UserCreationForm
from django.core.validators import MaxLengthValidator
from django.utils import timezone

from games import engine
from games.engine.cards import CardError, format_cards, parse_hand

from .import_schema import MAX_FILE_BYTES
from .models import GAME_KINDS, NAME_LENGTH, Entry, Game, Group, Hand, Player, normalise_name
from .time_zones import known_time_zones

# A new group's first game: the registry lists the games in the order they are offered.
FIRST_GAME = next(iter(engine.KINDS))

PASSWORD_LENGTH = 128


class BoundedPasswords:
    """A password is hashed, not stored, but hashing a huge one is work for nothing."""

    password_fields: tuple[str, ...] = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.password_fields:
            field = self.fields[name]
            field.max_length = PASSWORD_LENGTH
            field.validators.append(MaxLengthValidator(PASSWORD_LENGTH))
            field.widget.attrs["maxlength"] = str(PASSWORD_LENGTH)


class SignupForm(BoundedPasswords, UserCreationForm):
    password_fields = ("password1", "password2")


class ChangePasswordForm(BoundedPasswords, PasswordChangeForm):
    password_fields = ("old_password", "new_password1", "new_password2")


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=NAME_LENGTH, label="Name")

    def __init__(self, *args, group=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.group = group

    def clean_name(self):
        name = normalise_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError("Write a name.")
        if Player.objects.filter(group=self.group, name__iexact=name).exists():
            raise forms.ValidationError(f"{name} is already one of your players.")
        return name


def _choice_key(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def option_field(opt, default) -> forms.Field:
    """A form field for one rule, from the rule's metadata in the engine."""
    common = {"label": opt.label, "help_text": opt.help}
    if opt.choices:
        choices = [(_choice_key(value), label) for value, label in opt.choices]
        lookup = {_choice_key(value): value for value, _ in opt.choices}
        if opt.blank is not None:
            choices = [("", opt.blank.capitalize())] + choices
            lookup[""] = None
        radio = len(choices) <= 3
        return forms.TypedChoiceField(
            choices=choices,
            coerce=lookup.__getitem__,
            empty_value=None,
            required=opt.blank is None,
            initial=_choice_key(default),
            widget=forms.RadioSelect if radio else forms.Select,
            **common,
        )
    return forms.IntegerField(
        min_value=opt.low,
        max_value=opt.high,
        required=not (opt.blank is not None or opt.from_players),
        initial=None if opt.from_players else default,
        **common,
    )


@dataclass
class OptionGroup:
    """One game's options on the new-game page: those kept in view, the rest behind "More
    options" (opened when one of them is refused); only the chosen game's group is shown."""

    kind: str
    title: str
    in_view: list
    more: list
    shown: bool

    @property
    def more_open(self) -> bool:
        return any(field.errors for field in self.more)


class NewGameForm(forms.Form):
    kind = forms.ChoiceField(choices=GAME_KINDS, widget=forms.RadioSelect, label="Game")
    players = forms.CharField(
        max_length=400,
        label="Players, starting with the first dealer and going left",
        help_text="Names separated by commas. New names are added to your players.",
    )
    date = forms.DateField(
        label="Game night",
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Games started the same evening share one game night.",
    )

    def __init__(self, *args, group=None, initial_game=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.group = group
        self.fields["date"].initial = timezone.localdate()
        # Each game's options, named by the game's prefix: tt_decks, r_format, fc_decks ...
        for kind in engine.KINDS.values():
            for name, opt, default in kind.options():
                self.fields[kind.form_prefix + name] = option_field(opt, default)
        if initial_game is not None:
            self._start_from(initial_game)
        elif not self.is_bound:
            # The game the group played last, the likeliest next one.
            games = Game.objects.filter(group=group) if group else Game.objects.none()
            last = games.values_list("kind", flat=True).first()
            self.initial["kind"] = last if last in engine.KINDS else FIRST_GAME

    def _start_from(self, game):
        """A rematch: the same players and options, the next player dealing first."""
        kind = game.kind_def
        names = [seat.player.name for seat in game.rematch_seats()]
        self.initial.update({"kind": kind.slug, "players": ", ".join(names)})
        for name, _, _ in kind.options():
            self.initial[kind.form_prefix + name] = _choice_key(getattr(game.engine_rules, name))

    def option_groups(self) -> list[OptionGroup]:
        """Each game's options, as the form shows them: every game's when none is chosen."""
        chosen = self["kind"].value()
        groups = []
        for kind in engine.KINDS.values():
            fields = [(self[kind.form_prefix + name], opt) for name, opt, _ in kind.options()]
            groups.append(
                OptionGroup(
                    kind=kind.slug,
                    title=f"{kind.name} options",
                    in_view=[field for field, opt in fields if opt.in_view],
                    more=[field for field, opt in fields if not opt.in_view],
                    shown=chosen not in engine.KINDS or chosen == kind.slug,
                )
            )
        return groups

    def clean_players(self):
        names = [normalise_name(name) for name in re.split(r"[,\n]", self.cleaned_data["players"])]
        names = [name for name in names if name]
        if len(names) < 2:
            raise forms.ValidationError("A game needs at least two players.")
        if len(names) > engine.MOST_PLAYERS:
            raise forms.ValidationError(f"At most {engine.MOST_PLAYERS} players fit one game.")
        seen = set()
        for name in names:
            if len(name) > NAME_LENGTH:
                raise forms.ValidationError(f"“{name[:NAME_LENGTH]}…” is too long for a name.")
            if name.lower() in seen:
                raise forms.ValidationError(f"{name} is listed twice.")
            seen.add(name.lower())
        return names

    def _other_games_fields(self, chosen) -> set[str]:
        return {
            kind.form_prefix + name
            for kind in engine.KINDS.values()
            if kind.slug != chosen
            for name, _, _ in kind.options()
        }

    def full_clean(self):
        super().full_clean()
        if self.is_bound and hasattr(self, "cleaned_data"):
            # Only the chosen game's options count; the others' fields may hold anything.
            for name in self._other_games_fields(self.cleaned_data.get("kind")):
                self._errors.pop(name, None)

    def clean(self):
        data = super().clean()
        ignored = self._other_games_fields(data.get("kind"))
        if any(name not in ignored for name in self.errors) or "kind" not in data:
            return data
        kind = engine.KINDS[data["kind"]]
        fewest, most = kind.players
        count = len(data["players"])
        if not fewest <= count <= most:
            wanted = str(fewest) if fewest == most else f"{fewest} to {most}"
            self.add_error("players", f"{kind.name} is played by {wanted} players, not {count}.")
            return data
        values = {}
        for name, opt, _ in kind.options():
            value = data.get(kind.form_prefix + name)
            if value is None and opt.from_players:
                value = getattr(kind.default_rules(len(data["players"])), name)
            values[name] = value
        try:
            rules = kind.rules_class(**values)
        except CardError as error:
            raise forms.ValidationError(str(error)) from error
        data["rules"] = rules.to_dict()
        return data

    def start(self, user):
        """Start the game the form describes."""
        data = self.cleaned_data
        return Game.objects.start(
            group=self.group,
            kind=data["kind"],
            players=data["players"],
            rules=data["rules"],
            date=data["date"],
            user=user,
        )


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

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        kind, rules = game.kind_def, game.engine_rules
        self.fields["outcome"].choices = kind.outcomes(rules)
        # What more the game asks with an outcome (Oklahoma's upcard).
        self.extras = kind.extras(rules)
        for extra in self.extras:
            self.fields[extra_field(extra.name)] = forms.CharField(
                required=False, max_length=8, strip=True, label=extra.label or extra.name
            )

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
        return bool(self.data.get("save"))

    def entry(self) -> Entry:
        """The entry as far as it could be read: a field that failed keeps its default."""
        data = getattr(self, "cleaned_data", {})
        outcome = data.get("outcome") or self.data.get("outcome") or engine.CARDS
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


class NightForm(forms.Form):
    date = forms.DateField(label="Date", widget=forms.DateInput(attrs={"type": "date"}))


KIND_FILTER = [("", "Every game")] + GAME_KINDS


class LeaderboardFilter(forms.Form):
    kind = forms.ChoiceField(choices=KIND_FILTER, required=False, label="Game")
    start = forms.DateField(
        required=False, label="From", widget=forms.DateInput(attrs={"type": "date"})
    )
    end = forms.DateField(
        required=False, label="To", widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self):
        data = super().clean()
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            raise forms.ValidationError("The start date is after the end date.")
        return data


class TimeZoneForm(forms.Form):
    time_zone = forms.ChoiceField(required=False, label="Show times in")

    def __init__(self, *args, phone_zone="", **kwargs):
        super().__init__(*args, **kwargs)
        own = f"Each phone's own{f' (this one: {phone_zone})' if phone_zone else ''}"
        zones = sorted(z for z in known_time_zones() if "/" in z or z == "UTC")
        self.fields["time_zone"].choices = [("", own)] + [(z, z.replace("_", " ")) for z in zones]
        self.fields[
            "time_zone"
        ].help_text = (
            "Every time shown (the changes of a round, saves from another phone) is in this zone."
        )


class NightSearch(forms.Form):
    player = forms.ModelChoiceField(
        queryset=Player.objects.none(), required=False, empty_label="Anyone", label="Player"
    )
    kind = forms.ChoiceField(choices=KIND_FILTER, required=False, label="Game")

    def __init__(self, *args, group=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(group=group)


class ImportForm(forms.Form):
    file = forms.FileField(label="Export file (JSON)")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(f"The file is larger than {MAX_FILE_BYTES // 2**20} MB.")
        return upload


class GroupNameForm(forms.ModelForm):
    class Meta:
        model = Group
        fields = ["name"]
        labels = {"name": "Group name"}
        error_messages = {"name": {"required": "Give the group a name."}}

    def clean_name(self):
        name = normalise_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError("Give the group a name.")
        return name


class InvitationForm(forms.Form):
    days = forms.IntegerField(label="Valid for (days)", min_value=1, max_value=30, initial=7)
    max_uses = forms.IntegerField(
        label="How many people may use it",
        min_value=1,
        max_value=500,
        required=False,
        help_text="Leave empty for no limit.",
    )


DEVICE_LENGTH = 40


class DeviceForm(forms.Form):
    """A guest's phone names itself: its saves are recorded as "guest on" that name."""

    device = forms.CharField(
        label="Name this phone",
        max_length=DEVICE_LENGTH,
        help_text="Hands you save are recorded as 'guest on' this name, e.g. Bob's phone.",
        error_messages={"required": "Type a name for this phone, e.g. Bob's phone."},
    )

    def clean_device(self):
        device = normalise_name(self.cleaned_data["device"])
        if not device:
            raise forms.ValidationError("Type a name for this phone, e.g. Bob's phone.")
        return device
