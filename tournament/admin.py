"""The Django admin covers every model for the site administrator."""

from django.contrib import admin

from .models import (
    AuditEntry,
    GameEntry,
    Match,
    Participant,
    Scoresheet,
    Seat,
    StaffRole,
    Substitution,
    Table,
    Tournament,
)


class StaffRoleInline(admin.TabularInline):
    model = StaffRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "venue", "profile", "status")
    list_filter = ("status", "profile")
    search_fields = ("name", "venue", "slug")
    prepopulated_fields = {"slug": ("name",)}
    date_hierarchy = "date"
    inlines = [StaffRoleInline]


@admin.register(StaffRole)
class StaffRoleAdmin(admin.ModelAdmin):
    list_display = ("user", "role", "tournament")
    list_filter = ("role", "tournament")
    search_fields = ("user__username", "tournament__name")


class SubstitutionInline(admin.TabularInline):
    model = Substitution
    extra = 0
    exclude = ("created_by",)


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ("number", "name", "club", "birth_date", "status", "tournament")
    list_filter = ("status", "tournament")
    search_fields = ("name", "club", "=number")
    inlines = [SubstitutionInline]


@admin.register(Substitution)
class SubstitutionAdmin(admin.ModelAdmin):
    list_display = ("name", "participant", "from_match", "from_game")
    search_fields = ("name", "participant__name")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "seed", "drawn_at")
    list_filter = ("tournament",)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("participant",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("match", "number", "scorekeeper")
    list_filter = ("match__tournament",)
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "position", "participant", "match")
    list_filter = ("match__tournament",)
    raw_id_fields = ("participant", "table", "match")


class GameEntryInline(admin.TabularInline):
    model = GameEntry
    extra = 0
    fields = (
        "number",
        "kind",
        "contract",
        "suit",
        "declarer",
        "partner",
        "result",
        "points_1",
        "points_2",
        "points_3",
        "points_4",
        "struck",
    )
    readonly_fields = ("points_1", "points_2", "points_3", "points_4", "struck")


@admin.register(Scoresheet)
class ScoresheetAdmin(admin.ModelAdmin):
    list_display = ("match", "table", "status", "version")
    list_filter = ("status", "match__tournament")
    inlines = [GameEntryInline]


@admin.register(GameEntry)
class GameEntryAdmin(admin.ModelAdmin):
    list_display = ("scoresheet", "number", "kind", "contract", "declarer", "struck")
    list_filter = ("kind", "contract", "struck")


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("created", "tournament", "user", "action")
    list_filter = ("action", "tournament")
    readonly_fields = ("tournament", "user", "action", "detail", "created")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
