"""Report a chat line (signed-in players), and the staff's side of it: the report
with the lines around it, resolving it, muting the author's chat."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from dotsboxes import throttle
from dotsboxes.moderation import services as moderation
from dotsboxes.moderation.models import ChatMute
from dotsboxes.rooms.models import Message

from .access import staff_required
from .forms import ChatReportForm, MuteForm, ResolveForm
from .models import ChatReport
from .views import resolve_open

CONTEXT_LINES = 5  # chat lines kept before and after the reported one


def _author_id(message: Message) -> int | None:
    key = message.author_key
    return int(key[2:]) if key.startswith("u:") and key[2:].isdigit() else None


def _context(message: Message) -> list[dict]:
    lines = Message.objects.filter(room=message.room_id, kind=Message.Kind.CHAT)
    earlier = lines.filter(created_at__lte=message.created_at, pk__lt=message.pk)
    before = list(earlier.order_by("-created_at", "-id")[:CONTEXT_LINES])[::-1]
    after = list(
        lines.filter(created_at__gte=message.created_at, pk__gt=message.pk)[:CONTEXT_LINES]
    )
    return [
        {
            "name": line.name,
            "text": line.text,
            "at": line.created_at.isoformat(),
            "reported": line.pk == message.pk,
        }
        for line in [*before, message, *after]
    ]


@require_http_methods(["GET", "POST"])
@login_required
def new(request: HttpRequest, message_id: int) -> HttpResponse:
    message = get_object_or_404(
        Message.objects.select_related("room__game"), pk=message_id, kind=Message.Kind.CHAT
    )
    game = message.room.game
    form = ChatReportForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        wait = throttle.hit("report", *throttle.request_keys(request))
        if wait:
            return throttle.too_many(request, wait)
        author_id = _author_id(message)
        try:
            with transaction.atomic():
                ChatReport.objects.create(
                    message=message,
                    game=game,
                    author=get_user_model().objects.filter(pk=author_id).first()
                    if author_id
                    else None,
                    author_name=message.name,
                    text=message.text,
                    context=_context(message),
                    reason=form.cleaned_data["reason"].strip(),
                    reporter=request.user,
                )
        except IntegrityError:
            pass  # reported before by the same player: the first report stands
        messages.success(
            request, gettext("Thank you: staff will read this line and what was said around it.")
        )
        return redirect(message.room)
    context = {"message": message, "game": game, "form": form}
    return render(request, "reports/chat_new.html", context)


def _mutes(user_id: int | None) -> list[ChatMute]:
    if not user_id:
        return []
    return list(ChatMute.objects.filter(user_id=user_id).select_related("by")[:10])


@require_GET
@staff_required
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    report = get_object_or_404(
        ChatReport.objects.select_related("author", "reporter", "resolved_by", "game"), pk=pk
    )
    context = {
        "report": report,
        "room_url": report.game.room.get_absolute_url()
        if report.game and hasattr(report.game, "room")
        else "",
        "mute": moderation.active_mute(report.author_id),
        "mutes": _mutes(report.author_id),
        "mute_form": MuteForm(),
        "form": ResolveForm(initial={"note": report.resolution_note}),
    }
    return render(request, "reports/chat_detail.html", context)


@require_POST
@staff_required
def resolve(request: HttpRequest, pk: int) -> HttpResponse:
    return resolve_open(
        request,
        get_object_or_404(ChatReport, pk=pk),
        resolved=gettext("Chat report %(pk)s is resolved.") % {"pk": pk},
        already=gettext("Chat report %(pk)s is already resolved.") % {"pk": pk},
    )


@require_POST
@staff_required
@throttle.limit("moderation")
def mute(request: HttpRequest, username: str) -> HttpResponse:
    """Mute a player's chat for a while, the reason kept (from a chat report, or any
    staff page that posts here with ``next``)."""
    player = get_object_or_404(get_user_model(), username=username)
    form = MuteForm(request.POST)
    back = request.POST.get("next") or reverse("reports:queue")
    if not back.startswith("/") or back.startswith("//"):
        back = reverse("reports:queue")
    if not form.is_valid():
        messages.error(request, gettext("Choose how long and say why."))
        return redirect(back)
    try:
        mute = moderation.mute_create(
            user=player,
            by=request.user,
            hours=form.cleaned_data["hours"],
            reason=form.cleaned_data["reason"],
        )
    except moderation.ModerationError as exc:
        messages.error(request, str(exc))
        return redirect(back)
    messages.success(
        request,
        gettext("%(name)s's chat is muted until %(until)s.")
        % {"name": player.username, "until": moderation.until_text(mute.until)},
    )
    return redirect(back)


@require_POST
@staff_required
@throttle.limit("moderation")
def unmute(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(get_user_model(), username=username)
    back = request.POST.get("next") or reverse("reports:queue")
    if not back.startswith("/") or back.startswith("//"):
        back = reverse("reports:queue")
    if moderation.mute_lift(user=player, by=request.user):
        messages.success(request, gettext("%(name)s may chat again.") % {"name": player.username})
    else:
        messages.info(request, gettext("%(name)s was not muted.") % {"name": player.username})
    return redirect(back)
