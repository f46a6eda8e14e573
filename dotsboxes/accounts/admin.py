from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from .models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "shown", "deviation", "volatility", "games", "wins", "losses", "draws")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "games", "wins", "losses", "draws", "updated_at", "profile_link")

    @admin.display(description="Rating", ordering="rating")
    def shown(self, obj: Rating) -> str:
        return obj.display

    @admin.display(description="On the site")
    def profile_link(self, obj: Rating) -> str:
        url = reverse("accounts:profile", args=[obj.user.username])
        return format_html('<a href="{}">{}</a>', url, url)


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "opponent", "score", "before", "after", "game")
    list_select_related = ("user", "opponent", "game")
    search_fields = ("user__username", "game__public_id")
    readonly_fields = [f.name for f in RatingChange._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False  # changes are written by rated games only

    @admin.display(description="Before", ordering="rating_before")
    def before(self, obj: RatingChange) -> str:
        return f"{obj.rating_before:.0f}"

    @admin.display(description="After", ordering="rating_after")
    def after(self, obj: RatingChange) -> str:
        return f"{obj.rating_after:.0f}"
