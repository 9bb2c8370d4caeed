from django.contrib.auth import views as auth_views
from django.urls import path

from . import pwa, views

urlpatterns = [
    path("", views.home, name="home"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("players/", views.players, name="players"),
    path("games/new/", views.new_game, name="new_game"),
    path("games/<int:game_id>/", views.game, name="game"),
    path("games/<int:game_id>/finish/", views.finish_game, name="finish_game"),
    path("games/<int:game_id>/reopen/", views.reopen_game, name="reopen_game"),
    path("games/<int:game_id>/rounds/<int:number>/", views.round_page, name="round"),
    path("games/<int:game_id>/rounds/<int:number>/undo/", views.undo_save, name="undo_save"),
    path(
        "games/<int:game_id>/rounds/<int:number>/seats/<int:seat_id>/",
        views.hand_entry,
        name="hand_entry",
    ),
    path("nights/", views.nights_page, name="nights"),
    path("nights/<int:night_id>/", views.night, name="night"),
    path("nights/<int:night_id>/export.<str:file_format>", views.export_data, name="export_night"),
    path("players/<int:player_id>/", views.player_page, name="player"),
    path("group/", views.leaderboard_page, name="leaderboard"),
    path("group/time-zone/", views.group_time_zone, name="group_time_zone"),
    path("group/export.<str:file_format>", views.export_data, name="export_group"),
    path("group/import/", views.import_data, name="import"),
]
