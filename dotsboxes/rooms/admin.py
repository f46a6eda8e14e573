from django.contrib import admin

from .models import Connection, Message, Room, VacationDay


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("__str__", "host_side", "is_public", "timer_seconds", "created_at")
    list_select_related = ("game",)
    list_filter = ("is_public", "timer_seconds")
    readonly_fields = ("game", "created_at")


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("room", "kind", "name", "text", "created_at")
    list_filter = ("kind",)
    search_fields = ("text", "name")
    readonly_fields = ("room", "created_at")


@admin.register(Connection)
class ConnectionAdmin(admin.ModelAdmin):
    list_display = ("room", "side", "name", "server", "created_at")
    readonly_fields = ("room", "channel_name", "created_at")


@admin.register(VacationDay)
class VacationDayAdmin(admin.ModelAdmin):
    # Staff can see who spent which days, and give one back by deleting its row.
    list_display = ("user", "day")
    list_filter = ("day",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
