"""Starting a game: the game, its players and its options, each option's field made from the
engine's rules metadata."""

import re
from dataclasses import dataclass

from django import forms
from django.utils import timezone

from games import engine
from games.engine.cards import CardError

from ..models import GAME_KINDS, NAME_LENGTH, Game, normalise_name

# A new group's first game: the registry lists the games in the order they are offered.
FIRST_GAME = next(iter(engine.KINDS))


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
            for field, opt in fields:
                # Only relevant with another option's choice (a pool limit with pool play): the
                # page shows it then (static/js/app.js), every field without JavaScript.
                if opt.shown_if:
                    other, value = opt.shown_if
                    field.shown_if = (kind.form_prefix + other, _choice_key(value))
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
