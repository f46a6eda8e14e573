from __future__ import annotations

from django.contrib import admin

from .models import ExerciseProgress


@admin.register(ExerciseProgress)
class ExerciseProgressAdmin(admin.ModelAdmin):
    list_display = ("user", "exercise", "attempts", "solved", "first_try", "updated_at")
    list_filter = ("solved", "first_try")
    list_select_related = ("user",)
    search_fields = ("user__username", "exercise")
    readonly_fields = ("updated_at",)
