from django.contrib import admin

from .models import Chapter, PositionCheck, Study


class ChapterInline(admin.StackedInline):
    model = Chapter
    extra = 0
    readonly_fields = ["version"]


@admin.register(Study)
class StudyAdmin(admin.ModelAdmin):
    list_display = ["title", "owner", "visibility", "unlisted_by_staff", "featured", "updated_at"]
    list_filter = ["visibility", "unlisted_by_staff", "featured"]
    list_select_related = ["owner"]
    search_fields = ["title", "owner__username", "slug"]
    readonly_fields = ["slug", "created_at", "updated_at", "copied_from"]
    inlines = [ChapterInline]

    @admin.display(description="on the site")
    def view_on_site(self, obj):
        return obj.get_absolute_url()


@admin.register(PositionCheck)
class PositionCheckAdmin(admin.ModelAdmin):
    list_display = ["key", "status", "seconds", "updated_at"]
    list_filter = ["status"]
    search_fields = ["key"]
    readonly_fields = ["key", "result", "seconds", "created_at", "updated_at"]
