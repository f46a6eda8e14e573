"""Forms for starting and importing games; every bad value gets a message beside its field."""

from __future__ import annotations

from django import forms

from dotsboxes.engine import players
from dotsboxes.rules import Board, RulesError

from .models import Game, Side

TIMES = "\N{MULTIPLICATION SIGN}"
PRESETS = [(f"{w}x{h}", f"{w} {TIMES} {h}") for w, h in ((2, 2), (3, 3), (4, 4), (5, 4), (5, 5))]
MODES = [
    (Game.Mode.COMPUTER.value, "Against the computer"),
    (Game.Mode.LOCAL.value, "Two players on this device"),
]
SIDES = [
    (Side.BLUE.value, "Blue: you draw the first edge"),
    (Side.RED.value, "Red: the computer opens"),
]


def level_choices() -> list[tuple[str, str]]:
    """The computer's levels, straight from the engine, weakest first."""
    return [(level, level.capitalize()) for level in players.LEVELS]


class NewGameForm(forms.Form):
    mode = forms.ChoiceField(choices=MODES, initial=Game.Mode.COMPUTER, widget=forms.RadioSelect)
    # Not required by the field: a game from a set position takes its size from the
    # position, and its form has no size buttons at all (clean() asks for one otherwise).
    size = forms.ChoiceField(
        choices=[*PRESETS, ("custom", "Other size")],
        initial="5x5",
        widget=forms.RadioSelect,
        required=False,
    )
    width = forms.IntegerField(
        min_value=1, max_value=9, required=False, label="Width in boxes", initial=6
    )
    height = forms.IntegerField(
        min_value=1, max_value=9, required=False, label="Height in boxes", initial=6
    )
    side = forms.ChoiceField(
        choices=SIDES,
        initial=Side.BLUE,
        widget=forms.RadioSelect,
        label="Your side",
        required=False,
    )
    level = forms.ChoiceField(choices=(), label="Computer level", required=False)
    blue_name = forms.CharField(max_length=40, required=False, label="Blue player's name")
    red_name = forms.CharField(max_length=40, required=False, label="Red player's name")
    position = forms.CharField(required=False, widget=forms.HiddenInput, max_length=120)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["level"].choices = level_choices()
        self.fields["level"].initial = players.DEFAULT_LEVEL
        for name in ("width", "height"):
            self.fields[name].widget.attrs.update(inputmode="numeric")
        self.start_board: Board | None = None

    def name_sides_for(self, board: Board) -> None:
        """Say who draws next from a set position (Red may be the one to move there)."""
        you, computer = "you draw the next edge", "the computer draws the next edge"
        blue_moves = board.turn.name == "BLUE"
        self.fields["side"].choices = [
            (Side.BLUE.value, f"Blue: {you if blue_moves else computer}"),
            (Side.RED.value, f"Red: {computer if blue_moves else you}"),
        ]

    def clean_position(self) -> str:
        key = self.cleaned_data.get("position", "").strip()
        if not key:
            return ""
        try:
            board = Board.from_key(key)
        except RulesError:
            raise forms.ValidationError(
                "That starting position is not a valid position key."
            ) from None
        if board.is_over():
            raise forms.ValidationError("That starting position has no edge left to draw.")
        self.start_board = board
        return board.key()

    def clean(self) -> dict:
        data = super().clean()
        # Only games against the computer use these; a blank one takes the default.
        data["side"] = data.get("side") or Side.BLUE
        data["level"] = data.get("level") or players.DEFAULT_LEVEL
        if self.start_board is not None:
            data["width"], data["height"] = self.start_board.width, self.start_board.height
            return data
        size = data.get("size")
        if not size and "size" not in self.errors:
            self.add_error("size", "Choose a board size.")
        elif size == "custom":
            for name in ("width", "height"):
                if data.get(name) is None and name not in self.errors:
                    self.add_error(name, f"Give the {name} in boxes, from 1 to 9.")
        elif size:
            w, h = size.split("x")
            data["width"], data["height"] = int(w), int(h)
        return data


class ImportForm(forms.Form):
    record = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        label="Game record",
        max_length=20000,
    )
    mode = forms.ChoiceField(
        choices=[
            ("replay", "Replay it"),
            (Game.Mode.LOCAL.value, "Continue on this device"),
            (Game.Mode.COMPUTER.value, "Continue against the computer"),
        ],
        initial="replay",
        widget=forms.RadioSelect,
        label="Then",
    )
    side = forms.ChoiceField(
        choices=[(Side.BLUE.value, "Blue"), (Side.RED.value, "Red")],
        initial=Side.BLUE,
        widget=forms.RadioSelect,
        label="Your side against the computer",
        required=False,
    )
    level = forms.ChoiceField(choices=(), label="Computer level", required=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["level"].choices = level_choices()
        self.fields["level"].initial = players.DEFAULT_LEVEL

    def clean(self) -> dict:
        data = super().clean()
        data["side"] = data.get("side") or Side.BLUE
        data["level"] = data.get("level") or players.DEFAULT_LEVEL
        return data
