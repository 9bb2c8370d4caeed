"""A night as it is told and shared: its story and its picture, from the games a viewer may
see (the caller chooses them: a member's whole night, a guest link's own games)."""

from dataclasses import dataclass

from django.urls import reverse

from ..access.shares import link_preview_games
from ..engine.cards import cards_as_printed
from ..models import GuestPass, Player
from ..recent import Recent
from . import picture
from .story import Moment, game_names, margin, night_story
from .tales import Tale, tales_of

PICTURES_KEPT = 64
_PICTURES = Recent(PICTURES_KEPT)  # what a picture shows -> its PNG


@dataclass
class NightTold:
    tales: list[Tale]
    players: dict[int, Player]
    story: list[Moment]

    @property
    def names(self) -> dict[int, str]:
        return {pk: player.name for pk, player in self.players.items()}

    @property
    def short_names(self) -> dict[int, str]:
        """First names, told apart where two players share one (`picture.short_names`)."""
        return picture.short_names(self.names)

    @property
    def game_names(self) -> dict[int, str]:
        return game_names(self.tales)

    @property
    def finished(self) -> list[Tale]:
        return [tale for tale in self.tales if tale.finished]

    def headline(self) -> str:
        """Who won, in one line: the winners of the finished games, or who leads."""
        return "; ".join(self.headlines())

    def headlines(self) -> list[str]:
        """Who won (or leads) each game played, a line a game; one line saying so while no
        round is played."""
        parts = []
        names, called = self.short_names, self.game_names
        for tale in self.tales:
            if not tale.rounds:
                continue
            firsts = [names.get(p, "?") for p in tale.winners]
            verb = ("won" if tale.finished else "leads") if len(firsts) == 1 else "shared"
            if len(firsts) > 1 and not tale.finished:
                verb = "lead"
            by = f" by {margin(tale)}" if len(firsts) == 1 and margin(tale) else ""
            parts.append(f"{' and '.join(firsts)} {verb} {called[tale.game_id]}{by}")
        return parts or ["No rounds played yet"]

    def described(self) -> str:
        """What the picture shows, in words (its alternative text and preview description):
        the headline, then each game's standings by first name."""
        names, called = self.short_names, self.game_names
        games = [
            f"{called[tale.game_id]}: "
            + ", ".join(f"{place}. {names.get(who, '?')} {pts}" for place, who, pts in tale.places)
            for tale in self.tales
            if tale.rounds
        ]
        return ". ".join([self.headline(), *games]) + "."


def told(games) -> NightTold:
    """The games of a queryset told: in the order they were started, with their story."""
    tales = sorted(tales_of(games).values(), key=lambda tale: tale.order)
    ids = {player for tale in tales for player in tale.players}
    players = Player.objects.in_bulk(ids)
    names = {pk: player.name for pk, player in players.items()}
    return NightTold(tales, players, night_story(tales, names))


def picture_of(night, night_told: NightTold, theme: str) -> bytes:
    """The night's picture, kept per process for what it shows (games, versions, names)."""
    key = (
        night.pk,
        night.date,
        theme,
        tuple((tale.game_id, len(tale.rounds), tuple(tale.places)) for tale in night_told.tales),
        tuple(sorted(night_told.names.items())),
        tuple(moment.text for moment in night_told.story),
    )
    found = _PICTURES.get(key)
    if found is not None:
        return found
    names, called = night_told.short_names, night_told.game_names
    games = [
        picture.GameShown(
            tale.kind_def.name,
            tuple(
                picture.Standing(place, names.get(p, "?"), points, night_told.players[p].colour)
                for place, p, points in tale.places
            ),
            bool(tale.finished),
            called[tale.game_id].removeprefix(tale.kind_def.name),
        )
        for tale in night_told.tales
        if tale.rounds
    ]
    # The picture's story lines name players by their first names too.
    short = night_story(night_told.tales, names)
    # A night of several games names the game a line is of ("Gin Rummy: Best hand: …").
    several = len({m.game_id for m in short}) > 1
    lines = [
        cards_as_printed(f"{m.game_name}: {m.text}" if several and m.game_name else m.text, True)
        for m in short
        if m.topic in ("best", "comeback", "decider")
    ][:3]
    title = f"Game night · {night.date:%A %-d %B %Y}"
    png = picture.draw_night(
        title, night_told.headline(), games, lines, theme, description=night_told.described()
    )
    _PICTURES.put(key, png)
    return png


def forget() -> None:
    _PICTURES.clear()


def preview(request, night, night_told, url: str) -> dict:
    """A link's preview (Open Graph) of the night's picture at `url`."""
    return {
        "title": f"Game night {night.date:%-d %B %Y}",
        "description": night_told.described(),
        "url": request.build_absolute_uri(url),
    }


def guest_preview(request, guest_pass: GuestPass) -> dict | None:
    """A guest link's preview: the picture of the games the link lets its guest into
    (`access.shares`), or None where it may show nothing."""
    games = link_preview_games(request, guest_pass)
    if games is None:
        return None
    url = reverse("guest_picture", args=[guest_pass.game_id, guest_pass.token])
    return preview(request, guest_pass.game.night, told(games), url)
