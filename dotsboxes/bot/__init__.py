"""``python -m dotsboxes.bot``: run an engine as a bot on the site, through the bot API.

Standard library only (no Django): it runs on a bot owner's machine.  See
docs/API.md for the API and :mod:`dotsboxes.bot.bridge` for how it plays.
"""
