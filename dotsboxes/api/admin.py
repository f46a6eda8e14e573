"""Staff views of bots, their tokens (digests only: the site never has the token) and challenges."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from .models import ApiToken, BotAccount, Challenge


@admin.register(BotAccount)
class BotAccountAdmin(admin.ModelAdmin):
    list_display = ("user", "created_at", "profile_link")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "created_at", "profile_link")

    @admin.display(description="On the site")
    def profile_link(self, obj: BotAccount) -> str:
        url = reverse("accounts:profile", args=[obj.user.username])
        return format_html('<a href="{}">{}</a>', url, url)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "prefix", "name", "created_at", "last_used_at", "revoked_at")
    list_select_related = ("user",)
    list_filter = ("revoked_at",)
    search_fields = ("user__username", "prefix")
    # Staff may revoke (set revoked_at) but never see or change what identifies a token.
    readonly_fields = ("user", "prefix", "digest", "scope", "created_at", "last_used_at")


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("created_at", "challenger", "target", "width", "height", "rated", "status")
    list_select_related = ("challenger", "target")
    list_filter = ("status",)
    readonly_fields = ("challenger", "target", "game", "created_at", "answered_at")
