from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .models import Puzzle, PuzzleAttempt, PuzzleRating


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "size",
        "theme_list",
        "rating_shown",
        "attempts",
        "solved",
        "success",
        "source",
        "hidden",
    )
    list_filter = ("hidden", "source", "width")
    list_select_related = ("game",)
    readonly_fields = (
        "position_key",
        "moves",
        "line",
        "themes",
        "source",
        "seed",
        "game",
        "ply",
        "attempts",
        "solved",
        "site_link",
        "source_link",
        "version",
        "created_at",
    )
    exclude = ("wrong",)
    actions = ("hide", "unhide")
    search_fields = ("position_key",)

    @admin.display(description=_("size"))
    def size(self, obj: Puzzle) -> str:
        return f"{obj.width} x {obj.height}"

    @admin.display(description=_("themes"))
    def theme_list(self, obj: Puzzle) -> str:
        return ", ".join(obj.themes)

    @admin.display(description=_("rating"), ordering="rating")
    def rating_shown(self, obj: Puzzle) -> str:
        return f"{obj.rating:.0f} ± {obj.deviation:.0f}"

    @admin.display(description=_("success"))
    def success(self, obj: Puzzle) -> str:
        rate = obj.success_rate
        return "-" if rate is None else f"{rate} %"

    @admin.display(description=_("on the site"))
    def site_link(self, obj: Puzzle) -> str:
        return format_html('<a href="{}">{}</a>', obj.get_absolute_url(), obj.get_absolute_url())

    @admin.display(description=_("source game"))
    def source_link(self, obj: Puzzle) -> str:
        if obj.game_id is None:
            label = _("self-play seed %(seed)s, after %(ply)s edges") % {
                "seed": obj.seed,
                "ply": obj.ply,
            }
        else:
            label = _("game %(game)s, after %(ply)s edges") % {
                "game": obj.game.public_id,
                "ply": obj.ply,
            }
        return format_html('<a href="{}">{}</a>', obj.source_url, label)

    @admin.action(description=_("Hide the selected puzzles"))
    def hide(self, request, queryset) -> None:
        queryset.update(hidden=True)

    @admin.action(description=_("Show the selected puzzles again"))
    def unhide(self, request, queryset) -> None:
        queryset.update(hidden=False)


@admin.register(PuzzleAttempt)
class PuzzleAttemptAdmin(admin.ModelAdmin):
    list_display = ("puzzle", "user", "solved", "rating_before", "rating_after", "created_at")
    list_select_related = ("puzzle", "user")
    readonly_fields = [f.name for f in PuzzleAttempt._meta.fields]


@admin.register(PuzzleRating)
class PuzzleRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "rating", "deviation", "best_streak")
    list_select_related = ("user",)
