from __future__ import annotations

from django.contrib import admin

from .models import Block, ChatMute, FairPlayDecision, FairPlayMark


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    """Staff mute a player's chat here too: ``by`` is whoever saves it."""

    list_display = ("user", "until", "reason", "by", "created_at")
    list_select_related = ("user", "by")
    search_fields = ("user__username", "reason")
    autocomplete_fields = ("user",)
    readonly_fields = ("by", "created_at")
    fields = ("user", "until", "reason", "by", "created_at")

    def save_model(self, request, obj, form, change) -> None:
        if not change:
            obj.by = request.user
        super().save_model(request, obj, form, change)


@admin.register(FairPlayDecision)
class FairPlayDecisionAdmin(admin.ModelAdmin):
    """The log of decisions: read only (decisions are made on the fair-play pages)."""

    list_display = ("created_at", "user", "action", "by", "reason")
    list_filter = ("action",)
    list_select_related = ("user", "by")
    search_fields = ("user__username", "reason")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(FairPlayMark)
class FairPlayMarkAdmin(admin.ModelAdmin):
    list_display = ("user", "since", "decision")
    list_select_related = ("user", "decision")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    list_display = ("blocker", "blocked", "created_at")
    list_select_related = ("blocker", "blocked")
    search_fields = ("blocker__username", "blocked__username")
    readonly_fields = ("blocker", "blocked", "created_at")
