"""The Django admin shows every model to the site administrator, read only: every write goes
through the services (the organiser's, referee's and supervisor's pages and the commands),
which check permissions, keep standings and versions right and write the log. Users and their
passwords are managed here (django.contrib.auth)."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import (
    Approval,
    ApprovalCall,
    Correction,
    GameEntry,
    Job,
    LogEntry,
    LotDraw,
    Match,
    OldSlug,
    Organisation,
    OrganisationLogEntry,
    OrganisationMember,
    OrganisationRequest,
    Participant,
    Person,
    PhoneReceipt,
    PrizeDeclaration,
    PrizeLine,
    Scoresheet,
    Seal,
    Seat,
    Series,
    SeriesNumber,
    Signature,
    StaffRole,
    Substitution,
    Table,
    Team,
    TeamLotDraw,
    Tournament,
)
from .tournaments.organisations import ORGANISATION_ACTIONS


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class StaffRoleInline(ReadOnlyInline):
    model = StaffRole
    fields = ("user", "role")


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "organisation", "date", "venue", "profile", "status")
    list_filter = ("organisation", "status", "profile")
    search_fields = ("name", "venue", "slug")
    date_hierarchy = "date"
    inlines = [StaffRoleInline]


@admin.register(StaffRole)
class StaffRoleAdmin(ReadOnlyAdmin):
    list_display = ("user", "role", "tournament")
    list_filter = ("role", "tournament")
    search_fields = ("user__username", "tournament__name")


class SubstitutionInline(ReadOnlyInline):
    model = Substitution
    fields = ("name", "club", "from_match", "from_game")


@admin.register(Participant)
class ParticipantAdmin(ReadOnlyAdmin):
    list_display = ("number", "name", "club", "birth_date", "status", "tournament")
    list_filter = ("status", "tournament")
    search_fields = ("name", "club", "=number")
    inlines = [SubstitutionInline]


@admin.register(Substitution)
class SubstitutionAdmin(ReadOnlyAdmin):
    list_display = ("name", "participant", "from_match", "from_game")
    search_fields = ("name", "participant__name")


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "seed", "drawn_at")
    list_filter = ("tournament",)


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "participant", "points")


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("match", "number", "size", "scorekeeper")
    list_filter = ("match__tournament",)
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("table", "position", "participant", "match", "points")
    list_filter = ("match__tournament",)


class GameEntryInline(ReadOnlyInline):
    model = GameEntry
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
        "points_5",
        "struck",
    )


@admin.register(Scoresheet)
class ScoresheetAdmin(ReadOnlyAdmin):
    list_display = ("match", "table", "status", "version")
    list_filter = ("status", "match__tournament")
    inlines = [GameEntryInline]


@admin.register(GameEntry)
class GameEntryAdmin(ReadOnlyAdmin):
    list_display = ("scoresheet", "number", "kind", "contract", "declarer", "struck")
    list_filter = ("kind", "contract", "struck")


@admin.register(Approval)
class ApprovalAdmin(ReadOnlyAdmin):
    list_display = ("scoresheet", "number", "contract", "approved_by_name", "created")


@admin.register(Signature)
class SignatureAdmin(ReadOnlyAdmin):
    list_display = ("scoresheet", "position", "name", "method", "signed_at")
    exclude = ("image",)


@admin.register(Seal)
class SealAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "sequence", "match", "draw", "table", "kind", "at")
    list_filter = ("tournament",)


@admin.register(Correction)
class CorrectionAdmin(ReadOnlyAdmin):
    list_display = ("created", "scoresheet", "game", "user_name")


@admin.register(LogEntry)
class LogEntryAdmin(ReadOnlyAdmin):
    list_display = ("created", "tournament", "scoresheet", "game", "action_label", "user_name")
    list_filter = ("action", "tournament")

    @admin.display(description=_("action"))
    def action_label(self, entry):
        return entry.label


@admin.register(OldSlug)
class OldSlugAdmin(ReadOnlyAdmin):
    list_display = ("slug", "tournament")


@admin.register(LotDraw)
class LotDrawAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "match", "seed", "created")


@admin.register(Job)
class JobAdmin(ReadOnlyAdmin):
    list_display = ("created", "tournament", "label", "status", "done", "total")
    list_filter = ("status", "kind")


@admin.register(ApprovalCall)
class ApprovalCallAdmin(ReadOnlyAdmin):
    list_display = ("created", "scoresheet", "number", "contract", "status", "answered_by_name")
    list_filter = ("status",)


@admin.register(PhoneReceipt)
class PhoneReceiptAdmin(ReadOnlyAdmin):
    list_display = ("created", "scoresheet", "key")


@admin.register(Team)
class TeamAdmin(ReadOnlyAdmin):
    list_display = ("name", "tournament")


@admin.register(TeamLotDraw)
class TeamLotDrawAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "seed", "created")


@admin.register(PrizeDeclaration)
class PrizeDeclarationAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "entry_fee", "charity_per_entry", "payout_percent")


@admin.register(PrizeLine)
class PrizeLineAdmin(ReadOnlyAdmin):
    list_display = ("declaration", "order", "places", "first", "last", "kind")


@admin.register(Person)
class PersonAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "organisation", "created")
    list_filter = ("organisation",)


@admin.register(Series)
class SeriesAdmin(ReadOnlyAdmin):
    list_display = ("name", "organisation", "season", "counting", "best_of", "min_attendances")
    list_filter = ("organisation",)


class MemberInline(ReadOnlyInline):
    model = OrganisationMember
    fields = ("user", "is_admin", "created")
    readonly_fields = fields


# Issue 29: organisations are created on /verein/new/ and requests answered on /verein/requests/
# (their services write the organisations' log); here they are shown.
@admin.register(Organisation)
class OrganisationAdmin(ReadOnlyAdmin):
    list_display = ("name", "slug", "created")
    inlines = [MemberInline]


@admin.register(OrganisationMember)
class OrganisationMemberAdmin(ReadOnlyAdmin):
    list_display = ("organisation", "user", "is_admin", "created")
    list_filter = ("organisation", "is_admin")


@admin.register(OrganisationRequest)
class OrganisationRequestAdmin(ReadOnlyAdmin):
    list_display = ("name", "user", "status", "created", "decided_by", "decided")
    list_filter = ("status",)


class OrganisationActionFilter(admin.SimpleListFilter):
    """The organisation log's actions by their names, not their codes."""

    title = _("action")
    parameter_name = "action"

    def lookups(self, request, model_admin):
        return [(code, label) for code, label in ORGANISATION_ACTIONS.items()]

    def queryset(self, request, queryset):
        return queryset.filter(action=self.value()) if self.value() else queryset


@admin.register(OrganisationLogEntry)
class OrganisationLogEntryAdmin(ReadOnlyAdmin):
    list_display = ("created", "organisation", "action_label", "about", "user_name")
    list_filter = (OrganisationActionFilter,)

    @admin.display(description=_("action"))
    def action_label(self, entry):
        return entry.label

    @admin.display(description=_("details"))
    def about(self, entry):
        return entry.summary


@admin.register(SeriesNumber)
class SeriesNumberAdmin(ReadOnlyAdmin):
    list_display = ("series", "number", "person")
