"""Phones without an account at one game: a member shows a QR code, the phone names itself."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ..access import TableRequest, let_guest_in, member_required, removed_since
from ..forms import DeviceForm
from ..history.shared import guest_preview
from ..lookups import guest_landing
from ..models import Game, GuestPass
from ..qr import qr_svg
from .secret_links import not_indexed


@member_required
@require_POST
def new_guest_pass(request: TableRequest, game_id):
    game = get_object_or_404(Game, pk=game_id, group=request.group)
    if game.finished_at:
        messages.error(request, "This game is finished: reopen it to let guests in.")
        return redirect(game)
    guest_pass = GuestPass.objects.create(game=game, created_by=request.user)
    return redirect("guest_pass", game.pk, guest_pass.pk)


@member_required
@require_safe
def guest_pass(request: TableRequest, game_id, pass_id):
    guest_pass = get_object_or_404(
        GuestPass.objects.select_related("game"),
        pk=pass_id,
        game_id=game_id,
        game__group=request.group,
    )
    link = request.build_absolute_uri(guest_pass.get_absolute_url())
    context = {
        "guest_pass": guest_pass,
        "game": guest_pass.game,
        "link": link,
        "problem": guest_pass.problem(),
        "qr": qr_svg(link, f"Enter hands in this game: {link}"),
    }
    return render(request, "games/guest_pass.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@not_indexed
def guest_join(request: TableRequest, game_id, token):
    """The page a guest link opens: the phone names itself, then enters hands in this game."""
    guest_pass = (
        GuestPass.objects.select_related("game").filter(game_id=game_id, token=token).first()
    )
    if guest_pass is None:
        context = {"problem": "This guest link is not known: check it was copied whole."}
        return render(request, "games/guest_join.html", context, status=404)
    problem = guest_pass.problem()
    if problem:
        return render(request, "games/guest_join.html", {"problem": problem}, status=410)
    removed = removed_since(request.user, guest_pass.game.group_id, guest_pass.created_at)
    if removed:
        return render(request, "games/guest_join.html", {"problem": removed}, status=403)
    form = DeviceForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        let_guest_in(request, guest_pass, form.cleaned_data["device"])
        messages.success(request, "You're in: pick whose hand you enter, then tap the cards.")
        return redirect(guest_landing(guest_pass.night_games()))
    game = guest_pass.game
    players = [seat.player.name for seat in game.seats.select_related("player")]
    context = {"form": form, "game": game, "kind": game.kind_def, "players": players}
    context["preview"] = guest_preview(request, guest_pass)
    return render(request, "games/guest_join.html", context, status=422 if form.errors else 200)
