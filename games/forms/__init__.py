"""Every form of the app, a room by area: accounts (signing up, passwords, the group and its
people, a guest's phone), games (a new game), hands (a hand's entry), history (looking back).
Everything is importable from `games.forms` as before."""

from .accounts import (
    ChangePasswordForm,
    DeviceForm,
    GroupNameForm,
    InvitationForm,
    PlayerForm,
    SignupForm,
)
from .games import FIRST_GAME, NewGameForm, option_field
from .hands import HandForm, extra_field
from .history import ImportForm, LeaderboardFilter, NightForm, NightSearch, TimeZoneForm

__all__ = [
    "FIRST_GAME",
    "ChangePasswordForm",
    "DeviceForm",
    "GroupNameForm",
    "HandForm",
    "ImportForm",
    "InvitationForm",
    "LeaderboardFilter",
    "NewGameForm",
    "NightForm",
    "NightSearch",
    "PlayerForm",
    "SignupForm",
    "TimeZoneForm",
    "extra_field",
    "option_field",
]
