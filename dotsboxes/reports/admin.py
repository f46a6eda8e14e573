from __future__ import annotations

from django.contrib import admin
from django.utils import timezone
from django.utils.html import format_html

from .models import ChatReport, Report


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("id", "created_at", "category", "status", "board", "reporter", "review_link")
    list_filter = ("status", "category", "created_at")
    list_select_related = ("game", "study", "reporter", "resolved_by")
    search_fields = (
        "text",
        "game__public_id",
        "study__title",
        "reporter__username",
        "position_key",
    )
    date_hierarchy = "created_at"
    readonly_fields = (
        "game",
        "study",
        "width",
        "height",
        "ply",
        "position_key",
        "category",
        "text",
        "reporter",
        "created_at",
        "resolved_by",
        "resolved_at",
        "review_link",
    )
    fields = (*readonly_fields[:-1], "review_link", "status", "resolution_note")

    def has_add_permission(self, request) -> bool:
        return False  # reports come from players, through the site

    @admin.display(description="Board", ordering="width")
    def board(self, obj: Report) -> str:
        if obj.study_id:
            return f"study, chapter {obj.ply}"
        return f"{obj.width} x {obj.height} boxes, edge {obj.ply}"

    @admin.display(description="On the site")
    def review_link(self, obj: Report) -> str:
        return format_html('<a href="{}">review beside the replay</a>', obj.get_absolute_url())

    def save_model(self, request, obj: Report, form, change: bool) -> None:
        # Keep who resolved it and when in step with the status, as the site's own form does.
        if obj.status == Report.Status.RESOLVED and not obj.resolved_at:
            obj.resolved_by, obj.resolved_at = request.user, timezone.now()
        elif obj.status == Report.Status.OPEN:
            obj.resolved_by, obj.resolved_at = None, None
        super().save_model(request, obj, form, change)


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ("id", "created_at", "author_name", "text", "status", "reporter")
    list_filter = ("status", "created_at")
    list_select_related = ("reporter", "author")
    search_fields = ("text", "author_name", "reporter__username")
    readonly_fields = (
        "message",
        "game",
        "author",
        "author_name",
        "text",
        "context",
        "reason",
        "reporter",
        "created_at",
        "resolved_by",
        "resolved_at",
    )
