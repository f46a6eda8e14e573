"""English date formats as the site has always written them: "2 Dec 2026", "2 Dec 2026, 14:05"."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
