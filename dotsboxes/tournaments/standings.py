"""Standings of a tournament, worked out from its recorded pairings (pure scoring in
:mod:`.pairing`); and the Swiss players as the pairing needs them."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import pgettext

from . import pairing
from .models import Entry, Pairing, Tournament


@dataclass(frozen=True)
class Row:
    """One line of the standings."""

    rank: int
    entry: Entry
    score: int
    played: int
    buchholz: int | None = None  # Swiss only
    sonneborn_berger: float | None = None
    streak: int = 0  # arena: current wins in a row
    results: str = ""  # "WDL…" in order (Swiss: by round, "+" for a bye)

    @property
    def on_fire(self) -> bool:
        """Arena: the next win counts double."""
        return self.streak >= 2

    @property
    def results_shown(self) -> str:
        """:attr:`results` in the active language (W, D and L are English initials)."""
        letters = {
            "W": pgettext("tournament result, one letter", "W"),
            "D": pgettext("tournament result, one letter", "D"),
            "L": pgettext("tournament result, one letter", "L"),
        }
        return "".join(letters.get(x, x) for x in self.results)

    @property
    def name(self) -> str:
        return self.entry.user.get_username()


def _letter(points: int) -> str:
    return {pairing.WIN: "W", pairing.DRAW: "D"}.get(points, "L")


def _recorded(tournament: Tournament) -> list[Pairing]:
    return list(tournament.pairings.filter(recorded=True).order_by("finished_at", "round", "id"))


def standings(tournament: Tournament) -> list[Row]:
    """Ranked rows: Swiss by score, Buchholz, Sonneborn-Berger; arena by points."""
    entries = {e.pk: e for e in tournament.entries.select_related("user")}
    done = _recorded(tournament)
    if tournament.kind == Tournament.Kind.SWISS:
        return _swiss(entries, done)
    return _arena(entries, done)


def _swiss(entries: dict[int, Entry], done: list[Pairing]) -> list[Row]:
    games = [pairing.Game(p.blue_id, p.red_id, p.blue_points, p.red_points) for p in done]
    seeds = {pk: e.seed for pk, e in entries.items()}
    letters: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for p in done:
        if p.red_id is None:
            letters[p.blue_id].append((p.round, "+"))
            continue
        letters[p.blue_id].append((p.round, _letter(p.blue_points)))
        letters[p.red_id].append((p.round, _letter(p.red_points)))
    return [
        Row(
            rank=s.rank,
            entry=entries[s.id],
            score=s.score,
            played=s.played,
            buchholz=s.buchholz,
            sonneborn_berger=s.sonneborn_berger,
            results="".join(x for _r, x in sorted(letters[s.id])),
        )
        for s in pairing.swiss_standings(list(entries), games, seeds)
    ]


def _arena(entries: dict[int, Entry], done: list[Pairing]) -> list[Row]:
    results: dict[int, list[str]] = defaultdict(list)
    names = {pairing.WIN: "win", pairing.DRAW: "draw"}
    for p in done:  # in the order the games finished: streaks depend on it
        if p.red_id is None or (p.blue_points == p.red_points == 0):
            continue  # an aborted game counts for nobody
        results[p.blue_id].append(names.get(p.blue_points, "loss"))
        results[p.red_id].append(names.get(p.red_points, "loss"))
    rows = []
    for pk, entry in entries.items():
        points, streak = pairing.arena_points(results[pk])
        letters = "".join(r[0].upper() for r in results[pk])
        rows.append((points, entry.seed, entry, streak, letters, len(results[pk])))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2].pk))
    return [
        Row(rank=n, entry=e, score=pts, played=played, streak=streak, results=letters)
        for n, (pts, _seed, e, streak, letters, played) in enumerate(rows, 1)
    ]


def swiss_players(tournament: Tournament, active: list[Entry]) -> list[pairing.SwissPlayer]:
    """The active entries with their scores, opponents, colours and byes so far."""
    players = {e.pk: pairing.SwissPlayer(id=e.pk, seed=e.seed) for e in active}
    every = tournament.pairings.order_by("round", "id")
    scores = pairing.swiss_scores(
        [e.pk for e in active],
        [
            pairing.Game(p.blue_id, p.red_id, p.blue_points, p.red_points)
            for p in every
            if p.recorded
        ],
    )
    for pk, player in players.items():
        player.score = scores.get(pk, 0)
    for p in every:
        blue, red = players.get(p.blue_id), players.get(p.red_id) if p.red_id else None
        if p.red_id is None:
            if blue is not None:
                blue.had_bye = True
            continue
        if blue is not None:
            blue.opponents.add(p.red_id)
            blue.colours.append(pairing.BLUE)
        if red is not None:
            red.opponents.add(p.blue_id)
            red.colours.append(pairing.RED)
    return list(players.values())
