"""A player's rights over their account: closing it, and taking their data away.

Above every app that keeps something of a player (rooms, tournaments, the bot API,
notifications, puzzles, practice): closing resolves and empties each of them, and
the archive gathers from each.  What is kept, and why: docs/ACCOUNTS.md.
"""
