"""The group: its page (the leaderboard and the time zone it shows times in), its members
(switching between groups, renaming, owners, removing and leaving) and its invitations."""

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ..access import TableRequest, member_required, owner_required, removed_since, switch_group
from ..forms import GroupNameForm, InvitationForm, LeaderboardFilter, PlayerForm, TimeZoneForm
from ..history import leaderboard
from ..history.results import rating_tables
from ..live import announce as live
from ..models import Invitation, Membership, Player, Refused, Removal
from ..qr import qr_svg
from ..time_zones import phone_zone
from .secret_links import not_indexed


@member_required
@require_http_methods(["GET", "HEAD", "POST"])
def players(request: TableRequest):
    form = PlayerForm(request.POST or None, group=request.group)
    if request.method == "POST" and form.is_valid():
        Player.objects.create(group=request.group, name=form.cleaned_data["name"])
        messages.success(request, f"{form.cleaned_data['name']} added.")
        return redirect(f"{reverse('players')}?added=1")
    if request.GET.get("added") and not form.is_bound:
        form.fields["name"].widget.attrs["autofocus"] = True  # the next name, typed at once
    listed = Player.objects.filter(group=request.group)
    return render(request, "games/players.html", {"form": form, "players": listed})


@member_required
@require_safe
def leaderboard_page(request: TableRequest):
    return _leaderboard(request)


def _leaderboard(request: TableRequest, zone_form=None):
    form = LeaderboardFilter(request.GET or None)
    rows = None  # no board at all for a choice that makes no sense, only its error
    if form.is_valid() or not form.is_bound:
        data = form.cleaned_data if form.is_bound else {}
        rows = leaderboard(
            request.group, data.get("kind") or None, data.get("start"), data.get("end")
        )
    zone_form = zone_form or TimeZoneForm(
        initial={"time_zone": request.group.time_zone}, phone_zone=phone_zone(request)
    )
    context = {"form": form, "rows": rows, "zone_form": zone_form}
    if rows is not None:  # the boards by rating beside, for the game chosen (any date)
        chosen = form.cleaned_data.get("kind") if form.is_bound else None
        context["ratings"] = rating_tables(request.group, chosen or None)
    status = 422 if zone_form.errors else 200
    return render(request, "games/leaderboard.html", context, status=status)


@member_required
@require_POST
def group_time_zone(request: TableRequest):
    """The group's time zone, or none: then each phone shows times in its own."""
    form = TimeZoneForm(request.POST, phone_zone=phone_zone(request))
    if not form.is_valid():
        return _leaderboard(request, zone_form=form)
    group = request.group
    group.time_zone = form.cleaned_data["time_zone"]
    group.save(update_fields=["time_zone"])
    if group.time_zone:
        messages.success(request, f"Times are now shown in {group.time_zone.replace('_', ' ')}.")
    else:
        messages.success(request, "Times are now shown in each phone's own time zone.")
    return redirect("leaderboard")


def _members_context(request: TableRequest, rename_form=None):
    group = request.group
    return {
        "group": group,
        "me": request.membership,
        "memberships": group.memberships.select_related("user"),
        "rename_form": rename_form or GroupNameForm(instance=group),
        "invite_form": InvitationForm(),
        "invitations": Invitation.objects.open_for(group) if request.membership.is_owner else [],
    }


@member_required
@require_safe
def members(request: TableRequest):
    return render(request, "games/members.html", _members_context(request))


@member_required
@require_POST
def switch(request: TableRequest):
    """Choose the current group among the login's own groups; any other id is not found."""
    chosen = next(
        (m for m in request.memberships if str(m.group_id) == request.POST.get("group")), None
    )
    if chosen is None:
        messages.error(request, "You are not a member of that group.")
        return redirect("members")
    switch_group(request, chosen.group)
    messages.success(request, f"Now at {chosen.group.name}.")
    return redirect("home")


@owner_required
@require_POST
def rename(request: TableRequest):
    form = GroupNameForm(request.POST, instance=request.group)
    if not form.is_valid():
        return render(request, "games/members.html", _members_context(request, form), status=422)
    form.save()
    messages.success(request, f"The group is now called {request.group.name}.")
    return redirect("members")


def _membership_for(request: TableRequest, membership_id) -> Membership:
    return get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, group=request.group
    )


@owner_required
@require_POST
def make_owner(request: TableRequest, membership_id):
    membership = _membership_for(request, membership_id)
    membership.role = Membership.OWNER
    membership.save(update_fields=["role"])
    messages.success(request, f"{membership.user.username} is now an owner.")
    return redirect("members")


@owner_required
@require_POST
def remove_member(request: TableRequest, membership_id):
    with transaction.atomic():
        membership = _membership_for(request, membership_id)
        Membership.objects.select_for_update().filter(group=request.group).exists()
        if membership.is_last_owner():
            messages.error(
                request,
                "The group's last owner cannot be removed: make another member an owner first.",
            )
            return redirect("members")
        membership.delete()
        Removal.objects.create(user=membership.user, group=request.group)
        live.members_changed(request.group.pk)
    messages.success(
        request,
        f"{membership.user.username} is no longer in the group. The links made until now "
        "cannot bring them back: only a new invitation can.",
    )
    if membership.user_id == request.user.pk:
        return redirect("home")
    return redirect("members")


@member_required
@require_POST
def leave(request: TableRequest):
    with transaction.atomic():
        Membership.objects.select_for_update().filter(group=request.group).exists()
        if request.membership.is_last_owner():
            messages.error(
                request,
                "You are the group's last owner: make another member an owner before you leave.",
            )
            return redirect("members")
        request.membership.delete()
        live.members_changed(request.group.pk)
    messages.success(request, f"You left {request.group.name}.")
    return redirect("home")


@owner_required
@require_POST
def new_invitation(request: TableRequest):
    form = InvitationForm(request.POST)
    if not form.is_valid():
        context = _members_context(request)
        context["invite_form"] = form
        return render(request, "games/members.html", context, status=422)
    invitation = Invitation.objects.create(
        group=request.group,
        created_by=request.user,
        expires_at=timezone.now() + timedelta(days=form.cleaned_data["days"]),
        max_uses=form.cleaned_data["max_uses"],
    )
    return redirect("share_invitation", invitation.pk)


def _invitation_for(request: TableRequest, invitation_id) -> Invitation:
    return get_object_or_404(Invitation, pk=invitation_id, group=request.group)


@owner_required
@require_safe
def share_invitation(request: TableRequest, invitation_id):
    invitation = _invitation_for(request, invitation_id)
    link = request.build_absolute_uri(invitation.get_absolute_url())
    context = {
        "invitation": invitation,
        "link": link,
        "group": request.group,
        "qr": qr_svg(link, f"Join {request.group.name}: {link}"),
    }
    return render(request, "games/share_invitation.html", context)


@owner_required
@require_POST
def revoke_invitation(request: TableRequest, invitation_id):
    invitation = _invitation_for(request, invitation_id)
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    messages.success(request, "Invitation revoked: its link no longer lets anyone join.")
    return redirect("members")


@require_http_methods(["GET", "HEAD", "POST"])
@not_indexed
def invitation(request: TableRequest, token):
    """Anyone with the link sees which group invites them; a signed-in login joins by POST."""
    invitation = (
        Invitation.objects.select_related("group", "created_by").filter(token=token).first()
    )
    if invitation is None:
        context = {"problem": "This invitation link is not known: check it was copied whole."}
        return render(request, "games/invitation.html", context, status=404)
    membership = None
    if request.user.is_authenticated:
        membership = next(
            (m for m in request.memberships if m.group_id == invitation.group_id), None
        )
    problem = None if membership else invitation.problem()
    if problem is None and membership is None:
        problem = removed_since(request.user, invitation.group_id, invitation.created_at)
    if request.method == "POST" and problem is None:
        if not request.user.is_authenticated:
            return redirect_to_login(request.path)
        try:
            membership, joined = invitation.accept(request.user)
        except Refused as refusal:
            problem = str(refusal)
        else:
            switch_group(request, invitation.group)
            if joined:
                messages.success(request, f"Welcome to {invitation.group.name}!")
            else:
                messages.info(request, f"You are already a member of {invitation.group.name}.")
            return redirect("home")
    context = {"invitation": invitation, "problem": problem, "membership": membership}
    return render(request, "games/invitation.html", context, status=410 if problem else 200)
