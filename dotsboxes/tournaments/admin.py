from django.contrib import admin

from .models import Entry, Pairing, Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "status", "starts_at", "featured", "allow_bots")
    list_filter = ("kind", "status", "featured")
    list_select_related = ("created_by",)
    readonly_fields = ("version", "current_round", "finished_at")


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ("tournament", "round", "blue", "red", "recorded", "blue_points", "red_points")
    list_select_related = ("tournament", "blue__user", "red__user")
    raw_id_fields = ("game",)


admin.site.register(Entry)
