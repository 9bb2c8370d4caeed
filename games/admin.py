from django.contrib import admin

from .models import Game, GameNight, Group, Hand, HandChange, Membership, Player, Round, Seat


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "group"]
    list_select_related = ["user", "group"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "group", "created_at"]
    list_filter = ["group"]
    search_fields = ["name"]


@admin.register(GameNight)
class GameNightAdmin(admin.ModelAdmin):
    list_display = ["date", "group"]
    list_filter = ["group"]
    date_hierarchy = "date"


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "kind", "group", "created_at", "finished_at"]
    list_filter = ["kind", "group"]
    list_select_related = ["night", "group"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["player", "game", "position"]
    list_select_related = ["player", "game__night"]


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    fields = ["seat", "outcome", "cards", "entered_points", "points", "version"]
    readonly_fields = ["points", "version"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["number", "game", "dealer", "completed_at"]
    list_select_related = ["game__night", "dealer__player"]
    inlines = [HandInline]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["seat", "round", "outcome", "cards", "points", "updated_at"]
    list_filter = ["outcome"]
    list_select_related = ["seat__player", "round__game__night"]


@admin.register(HandChange)
class HandChangeAdmin(admin.ModelAdmin):
    list_display = ["__str__", "changed_by", "changed_at", "old_summary", "new_summary"]
    list_select_related = ["seat__player", "round", "changed_by"]
