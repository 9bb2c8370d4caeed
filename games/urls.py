from django.contrib.auth import views as auth_views
from django.urls import path, register_converter, reverse_lazy

from .forms import ChangePasswordForm
from .views import (
    accounts,
    games,
    groups,
    guests,
    history,
    live,
    looking_back,
    pwa,
    rounds,
    table_photo,
)


class IdConverter:
    """A row's id as a URL says it: digits that fit the database's 64-bit ids. Anything else
    (too long, signed, not a number) is no such page (404), read nowhere."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(value)


class NumberConverter(IdConverter):
    """A round's number: it fits the database's small integers."""

    regex = "[0-9]{1,4}"


class TokenConverter:
    """A link's secret, as secrets.token_urlsafe writes it."""

    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value) -> str:
        return str(value)


register_converter(IdConverter, "id")
register_converter(TokenConverter, "token")
register_converter(NumberConverter, "number")

urlpatterns = [
    # What every phone of a table asks most, first: Django tries the patterns in order, and
    # no other pattern matches these paths (each ends where its route ends).
    path("games/<id:game_id>/rounds/<number:number>/live/", live.round_live, name="round_live"),
    path(
        "games/<id:game_id>/rounds/<number:number>/seats/<id:seat_id>/",
        rounds.hand_entry,
        name="hand_entry",
    ),
    path("games/<id:game_id>/live/", live.game_live, name="game_live"),
    path("nights/<id:night_id>/live/", live.night_live, name="night_live"),
    path("", games.home, name="home"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("signup/", accounts.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "account/password/",
        auth_views.PasswordChangeView.as_view(
            form_class=ChangePasswordForm, success_url=reverse_lazy("password_change_done")
        ),
        name="password_change",
    ),
    path(
        "account/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("players/", groups.players, name="players"),
    path("games/new/", games.new_game, name="new_game"),
    path("games/<id:game_id>/", games.game, name="game"),
    path("games/<id:game_id>/stream/", live.game_stream, name="game_stream"),
    path("games/<id:game_id>/finish/", games.finish_game, name="finish_game"),
    path("games/<id:game_id>/reopen/", games.reopen_game, name="reopen_game"),
    path("games/<id:game_id>/rounds/<number:number>/", rounds.round_page, name="round"),
    path("games/<id:game_id>/rounds/<number:number>/undo/", rounds.undo_save, name="undo_save"),
    path(
        "games/<id:game_id>/rounds/<number:number>/table-photo/",
        table_photo.table_photo,
        name="table_photo",
    ),
    path(
        "games/<id:game_id>/rounds/<number:number>/table-photo/move/",
        table_photo.table_move,
        name="table_move",
    ),
    path(
        "games/<id:game_id>/rounds/<number:number>/seats/<id:seat_id>/photo/",
        rounds.hand_photo,
        name="hand_photo",
    ),
    path("games/<id:game_id>/guests/", guests.new_guest_pass, name="new_guest_pass"),
    path("games/<id:game_id>/guests/<id:pass_id>/", guests.guest_pass, name="guest_pass"),
    path("games/<id:game_id>/guest/<token:token>/", guests.guest_join, name="guest_join"),
    path(
        "games/<id:game_id>/guest/<token:token>/picture.png",
        looking_back.guest_picture,
        name="guest_picture",
    ),
    path("nights/", history.nights_page, name="nights"),
    path("nights/<id:night_id>/", history.night, name="night"),
    path("nights/<id:night_id>/share/", looking_back.night_share, name="night_share"),
    path("nights/<id:night_id>/picture.png", looking_back.night_picture, name="night_picture"),
    path("nights/<id:night_id>/share/link/", looking_back.night_link, name="night_link"),
    path("shared/<token:token>/", looking_back.shared_night, name="shared_night"),
    path("shared/<token:token>/picture.png", looking_back.shared_picture, name="shared_picture"),
    path("nights/<id:night_id>/stream/", live.night_stream, name="night_stream"),
    path("nights/<id:night_id>/export.<str:file_format>", history.export_data, name="export_night"),
    path("players/<id:player_id>/", history.player_page, name="player"),
    path("group/", groups.leaderboard_page, name="leaderboard"),
    path("group/records/", looking_back.records_page, name="records"),
    path("group/year/", looking_back.year_page, name="year_latest"),
    path("group/year/<number:year>/", looking_back.year_page, name="year"),
    path("group/time-zone/", groups.group_time_zone, name="group_time_zone"),
    path("group/export.<str:file_format>", history.export_data, name="export_group"),
    path("group/import/", history.import_data, name="import"),
    path("group/members/", groups.members, name="members"),
    path("group/switch/", groups.switch, name="switch_group"),
    path("group/rename/", groups.rename, name="rename_group"),
    path("group/leave/", groups.leave, name="leave_group"),
    path("group/invitations/new/", groups.new_invitation, name="new_invitation"),
    path(
        "group/invitations/<id:invitation_id>/",
        groups.share_invitation,
        name="share_invitation",
    ),
    path(
        "group/invitations/<id:invitation_id>/revoke/",
        groups.revoke_invitation,
        name="revoke_invitation",
    ),
    path("invite/<token:token>/", groups.invitation, name="invitation"),
    path("group/members/<id:membership_id>/owner/", groups.make_owner, name="make_owner"),
    path("group/members/<id:membership_id>/remove/", groups.remove_member, name="remove_member"),
]
