"""The pages a person uses: bot status, API tokens, challenging a bot."""

from django.urls import path

from . import web

app_name = "bots"
urlpatterns = [
    path("api/", web.api_docs, name="api_docs"),
    path("become-bot", web.become_bot, name="become_bot"),
    path("tokens/new", web.token_new, name="token_new"),
    path("tokens/<int:token_id>/revoke", web.token_revoke, name="token_revoke"),
    path("challenge/<str:username>", web.challenge_bot, name="challenge_bot"),
    path("challenges/<int:challenge_id>/", web.challenge_page, name="challenge_page"),
    path("challenges/<int:challenge_id>/cancel", web.challenge_cancel, name="challenge_cancel"),
]
