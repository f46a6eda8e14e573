"""Forms for starting and importing games; every bad value gets a message beside its field."""

from __future__ import annotations

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from dotsboxes.engine import players
from dotsboxes.rules import Board, RulesError
from dotsboxes.text import reject_control_characters

from .models import Game, Side
from .wording import level_name

TIMES = "\N{MULTIPLICATION SIGN}"
PRESETS = [(f"{w}x{h}", f"{w} {TIMES} {h}") for w, h in ((2, 2), (3, 3), (4, 4), (5, 4), (5, 5))]
MODES = [
    (Game.Mode.COMPUTER.value, _("Against the computer")),
    (Game.Mode.LOCAL.value, _("Two players on this device")),
]
SIDES = [
    (Side.BLUE.value, _("Blue: you draw the first edge")),
    (Side.RED.value, _("Red: the computer opens")),
]


def level_choices() -> list[tuple[str, str]]:
    """The computer's levels, straight from the engine, weakest first."""
    return [(level, capfirst(level_name(level))) for level in players.LEVELS]


def _choice_messages(text: str) -> dict[str, str]:
    return {"required": text, "invalid_choice": text}


SIZE_MESSAGES = {
    "width": _("Give the width in boxes, a whole number from 1 to 9."),
    "height": _("Give the height in boxes, a whole number from 1 to 9."),
}


def _size_messages(name: str) -> dict[str, str]:
    text = SIZE_MESSAGES[name]
    return {"invalid": text, "min_value": text, "max_value": text}


NAME_MESSAGES = {"max_length": _("Keep the name to 40 characters or fewer.")}
LEVEL_MESSAGES = _choice_messages(_("Choose one of the computer's levels from the list."))


class NewGameForm(forms.Form):
    mode = forms.ChoiceField(
        choices=MODES,
        initial=Game.Mode.COMPUTER,
        widget=forms.RadioSelect,
        error_messages=_choice_messages(
            _("Choose whom to play: the computer, or a second player on this device.")
        ),
    )
    # Not required by the field: a game from a set position takes its size from the
    # position, and its form has no size buttons at all (clean() asks for one otherwise).
    size = forms.ChoiceField(
        choices=[*PRESETS, ("custom", _("Other size"))],
        initial="5x5",
        widget=forms.RadioSelect,
        required=False,
        error_messages=_choice_messages(_("Choose one of the sizes, or Other size.")),
    )
    width = forms.IntegerField(
        min_value=1,
        max_value=9,
        required=False,
        label=_("Width in boxes"),
        initial=6,
        error_messages=_size_messages("width"),
    )
    height = forms.IntegerField(
        min_value=1,
        max_value=9,
        required=False,
        label=_("Height in boxes"),
        initial=6,
        error_messages=_size_messages("height"),
    )
    side = forms.ChoiceField(
        choices=SIDES,
        initial=Side.BLUE,
        widget=forms.RadioSelect,
        label=_("Your side"),
        required=False,
        error_messages=_choice_messages(_("Choose Blue (you start) or Red (the computer starts).")),
    )
    level = forms.ChoiceField(
        choices=(), label=_("Computer level"), required=False, error_messages=LEVEL_MESSAGES
    )
    blue_name = forms.CharField(
        max_length=40,
        required=False,
        label=_("Blue player's name"),
        error_messages=NAME_MESSAGES,
        validators=[reject_control_characters],
    )
    red_name = forms.CharField(
        max_length=40,
        required=False,
        label=_("Red player's name"),
        error_messages=NAME_MESSAGES,
        validators=[reject_control_characters],
    )
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
        if board.turn.name == "BLUE":
            blue, red = (
                _("Blue: you draw the next edge"),
                _("Red: the computer draws the next edge"),
            )
        else:
            blue, red = (
                _("Blue: the computer draws the next edge"),
                _("Red: you draw the next edge"),
            )
        self.fields["side"].choices = [(Side.BLUE.value, blue), (Side.RED.value, red)]

    def clean_position(self) -> str:
        key = self.cleaned_data.get("position", "").strip()
        if not key:
            return ""
        try:
            board = Board.from_key(key)
        except RulesError:
            raise forms.ValidationError(
                _("That starting position is not a valid position key.")
            ) from None
        if board.is_over():
            raise forms.ValidationError(_("That starting position has no edge left to draw."))
        self.start_board = board
        return board.key()

    #: Fields the page shows only for one mode (CSS hides the others' fieldset).
    MODE_FIELDS = {
        Game.Mode.COMPUTER.value: ("side", "level"),
        Game.Mode.LOCAL.value: ("blue_name", "red_name"),
    }

    def clean(self) -> dict:
        data = super().clean()
        mode = data.get("mode")
        # A value left in the other mode's hidden fieldset is not part of this game:
        # ignore it rather than refuse the form with a message nobody can see.
        for other, names in self.MODE_FIELDS.items():
            if mode and mode != other:
                for name in names:
                    self.errors.pop(name, None)
                    data[name] = ""
        # Only games against the computer use these; a blank one takes the default.
        data["side"] = data.get("side") or Side.BLUE
        data["level"] = data.get("level") or players.DEFAULT_LEVEL
        size = data.get("size")
        if size != "custom" or self.start_board is not None:
            # The width and height boxes are hidden unless Other size is chosen: a
            # leftover bad value there must not block a preset (its message would be unseen).
            for name in ("width", "height"):
                self.errors.pop(name, None)
        if self.start_board is not None:
            data["width"], data["height"] = self.start_board.width, self.start_board.height
            return data
        if not size and "size" not in self.errors:
            self.add_error("size", _("Choose a board size."))
        elif size == "custom":
            for name in ("width", "height"):
                if data.get(name) is None and name not in self.errors:
                    self.add_error(name, _size_messages(name)["invalid"])
        elif size:
            w, h = size.split("x")
            data["width"], data["height"] = int(w), int(h)
        return data


class ImportForm(forms.Form):
    record = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        label=_("Game record"),
        max_length=20000,
        validators=[reject_control_characters],
        error_messages={
            "required": _("Paste a game record here first."),
            "max_length": _("That is far longer than any game record (at most 20,000 characters)."),
        },
    )
    mode = forms.ChoiceField(
        choices=[
            ("replay", _("Replay it")),
            (Game.Mode.LOCAL.value, _("Continue on this device")),
            (Game.Mode.COMPUTER.value, _("Continue against the computer")),
        ],
        initial="replay",
        widget=forms.RadioSelect,
        label=_("Then"),
        error_messages=_choice_messages(
            _("Choose what to do with it: replay it, or continue it here or against the computer.")
        ),
    )
    side = forms.ChoiceField(
        choices=[(Side.BLUE.value, _("Blue")), (Side.RED.value, _("Red"))],
        initial=Side.BLUE,
        widget=forms.RadioSelect,
        label=_("Your side against the computer"),
        required=False,
        error_messages=_choice_messages(_("Choose Blue or Red.")),
    )
    level = forms.ChoiceField(
        choices=(), label=_("Computer level"), required=False, error_messages=LEVEL_MESSAGES
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["level"].choices = level_choices()
        self.fields["level"].initial = players.DEFAULT_LEVEL

    def clean(self) -> dict:
        data = super().clean()
        data["side"] = data.get("side") or Side.BLUE
        data["level"] = data.get("level") or players.DEFAULT_LEVEL
        return data
