"""Workload: datetime arithmetic, formatting, parsing, UTC and zoneinfo."""
import calendar
import sys
import time
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo, available_timezones

NAME = "datetime_tz"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


d = datetime(2024, 2, 28, 23, 30, 15, 123456)
check(d + timedelta(days=1) == datetime(2024, 2, 29, 23, 30, 15, 123456), "leap day")
check((date(2025, 1, 1) - date(2024, 1, 1)).days == 366, "leap year length")
check(d.strftime("%Y-%m-%d %H:%M:%S.%f %j %a %b") == "2024-02-28 23:30:15.123456 059 Wed Feb", "strftime")
check(datetime.strptime("15/03/2023 07:05", "%d/%m/%Y %H:%M") == datetime(2023, 3, 15, 7, 5), "strptime")
check(d.isoformat() == "2024-02-28T23:30:15.123456", "isoformat")
check(datetime.fromisoformat("2024-06-01T12:00:00+02:00").utcoffset() == timedelta(hours=2), "fromisoformat")
check(date(2024, 12, 30).isocalendar()[:2] == (2025, 1), "ISO week")
check(timedelta(hours=36, seconds=61).total_seconds() == 129661.0, "timedelta")
check(str(timedelta(days=-1, seconds=5)) == "-1 day, 0:00:05", "timedelta str")
check(calendar.monthrange(2024, 2) == (3, 29) and calendar.isleap(2000), "calendar")

epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
t = datetime(2000, 1, 1, tzinfo=timezone.utc)
check(t.timestamp() == 946684800.0 and (t - epoch).total_seconds() == 946684800, "UTC timestamp")
check(datetime.fromtimestamp(946684800, tz=timezone.utc) == t, "fromtimestamp UTC")
check(calendar.timegm(time.gmtime(946684800)) == 946684800, "gmtime/timegm")
now = datetime.now(timezone.utc)
check(now.year >= 2024 and now.tzinfo is timezone.utc, "now(utc)")
check(timezone(timedelta(hours=5, minutes=30)).tzname(None) == "UTC+05:30", "fixed offset name")

paris = ZoneInfo("Europe/Paris")
winter = datetime(2024, 1, 15, 12, 0, tzinfo=paris)
summer = datetime(2024, 7, 15, 12, 0, tzinfo=paris)
check(winter.utcoffset() == timedelta(hours=1) and winter.tzname() == "CET", "Paris winter")
check(summer.utcoffset() == timedelta(hours=2) and summer.tzname() == "CEST", "Paris summer")
# 2024-03-31 01:59:59 UTC+1 -> one second later is 03:00:00 CEST
before = datetime(2024, 3, 31, 0, 59, 59, tzinfo=timezone.utc).astimezone(paris)
after = (before.astimezone(timezone.utc) + timedelta(seconds=1)).astimezone(paris)
check((before.hour, after.hour, after.tzname()) == (1, 3, "CEST"), "DST transition")
check(summer.astimezone(ZoneInfo("UTC")).hour == 10, "to UTC")
ny = datetime(2024, 11, 3, 1, 30, fold=1, tzinfo=ZoneInfo("America/New_York"))
check(ny.utcoffset() == timedelta(hours=-5), "fold=1 in the repeated hour")
tokyo = ZoneInfo("Asia/Tokyo")
check(datetime(2024, 1, 1, tzinfo=timezone.utc).astimezone(tokyo).hour == 9, "Tokyo")
zones = available_timezones()
check("Europe/Paris" in zones and len(zones) > 300, f"available_timezones: {len(zones)}")

print(f"ok {NAME}")
