"""A journal's time for people: local time with its offset from UTC, as `git log` shows
it (2026-12-03 01:26 -0500), or UTC itself (`--utc`). The journal and every JSON output
keep the UTC stamp. And a session's gap as people give it (2d, 90m)."""

from __future__ import annotations

import functools
import time

# Set by a command's --utc (cli/output.py), before anything is said.
utc = False


def shown(stamp: str) -> str:
    """`stamp` (the journal's YYYY-MM-DDTHH:MM:SS.sssZ) to the minute, in local time with
    its offset; a stamp that is no time is shown as written (`cwx check` names it)."""
    return _shown(stamp[:16], utc, time.tzname)


# Every event of a minute shows alike: a long journal is converted once a minute (and
# again if the time zone changes, as a test's TZ does).
@functools.lru_cache(maxsize=4096)
def _shown(minute: str, utc: bool, zone: object) -> str:
    import datetime  # 4M instructions: a git hook that shows no time spends none

    try:
        if len(minute) != 16 or minute[4] + minute[7] + minute[10] + minute[13] != "--T:":
            raise ValueError(minute)
        at = datetime.datetime(int(minute[:4]), int(minute[5:7]), int(minute[8:10]),
                               int(minute[11:13]), int(minute[14:]), tzinfo=datetime.UTC)
        return at.strftime("%Y-%m-%d %H:%M +0000") if utc else \
            at.astimezone().strftime("%Y-%m-%d %H:%M %z")
    except (ValueError, OverflowError, OSError):
        return minute.replace("T", " ")


MAX_GAP = 366 * 86400  # a year: a longer gap is no session any table plays


def gap_given(text: str) -> int:
    """A session's gap as --gap and campaign.toml's recap_gap give it (90m, 4h, 2d, 1d12h),
    in seconds."""
    import re

    from cwx.base.errors import BadValue

    given = text.strip().lower()
    parts = re.fullmatch(r"(?:(\d{1,6})d)?(?:(\d{1,6})h)?(?:(\d{1,6})m)?", given)
    if not given or parts is None:
        raise BadValue(f"--gap {text}: give a duration in days, hours or minutes, like 2d, "
                       "4h, 90m or 1d12h")
    days, hours, minutes = (int(part or 0) for part in parts.groups())
    seconds = days * 86400 + hours * 3600 + minutes * 60
    if not 60 <= seconds <= MAX_GAP:
        raise BadValue(f"--gap {text}: a session's gap is from 1 minute to 366 days")
    return seconds
