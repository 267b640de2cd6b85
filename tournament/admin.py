from django.contrib import admin

from .models import Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "venue", "profile")
    search_fields = ("name", "venue", "slug")
    prepopulated_fields = {"slug": ("name",)}
    date_hierarchy = "date"
