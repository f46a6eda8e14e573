from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from dotsboxes.text import reject_control_characters

from .models import Report


class ReportForm(forms.ModelForm):
    # Declared here so the radio list has no empty "------" choice.
    category = forms.ChoiceField(
        label=_("What kind of problem?"), choices=Report.Category.choices, widget=forms.RadioSelect
    )

    class Meta:
        model = Report
        fields = ("category", "text")
        widgets = {
            "text": forms.Textarea(attrs={"rows": 5, "maxlength": 2000}),
        }
        labels = {"text": _("What happened?")}
        help_texts = {"text": _("Say what you expected and what the site did instead.")}

    def clean_text(self) -> str:
        text = self.cleaned_data["text"].strip()
        reject_control_characters(text)
        if len(text) < 5:
            raise forms.ValidationError(_("Please describe the problem in a few words."))
        return text


class StudyReportForm(ReportForm):
    """A study's report: it is offensive or misleading, or something else."""

    category = forms.ChoiceField(
        label=_("What kind of problem?"),
        choices=[(c.value, c.label) for c in (Report.Category.STUDY, Report.Category.OTHER)],
        widget=forms.RadioSelect,
    )


class ResolveForm(forms.Form):
    note = forms.CharField(
        label=_("Resolution note"),
        max_length=2000,
        validators=[reject_control_characters],
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("What you found and what was done. The reporter does not see this."),
    )


class ChatReportForm(forms.Form):
    reason = forms.CharField(
        label=_("What is wrong with this line? (optional)"),
        max_length=1000,
        required=False,
        validators=[reject_control_characters],
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": 1000}),
    )


class MuteForm(forms.Form):
    HOURS = (
        (1, _("1 hour")),
        (24, _("1 day")),
        (72, _("3 days")),
        (168, _("1 week")),
        (720, _("30 days")),
    )
    hours = forms.TypedChoiceField(label=_("Mute chat for"), choices=HOURS, coerce=int)
    reason = forms.CharField(
        label=_("Reason (kept for staff)"),
        max_length=1000,
        validators=[reject_control_characters],
        widget=forms.Textarea(attrs={"rows": 2}),
    )
