#!/usr/bin/env python3
"""Independent expansion of recurrence cases for test/unit/recurrence-dateutil.test.ts.

Reads JSON cases on stdin and prints, per case, the UTC start instants (Unix seconds) of its
occurrences, expanded by python-dateutil's rrule (not the service's library) on wall-clock times,
placed in the zone by the standard library's zoneinfo: fold=0 gives RFC 5545's rule for times in a
DST gap (moved forward by the gap) and for ambiguous times (the earlier instant). The contract's
additions (API.md section 20.1) are applied here on their own: DTSTART is always the first
occurrence and counts toward COUNT; UNTIL and the horizon are instants; RDATE adds, EXDATE removes.
"""
import json
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr


def instant(naive, zone):
    return int(naive.replace(tzinfo=zone, fold=0).timestamp())


def expand(case):
    zone = ZoneInfo(case["zone"])
    dtstart = datetime.fromisoformat(case["dtstart"])
    horizon = case["horizon"]
    until = case.get("until")
    count = case.get("count")
    rule = rrulestr(case["rule"], dtstart=dtstart)
    starts = []
    first = True
    for wall in rule:
        if first and wall != dtstart:
            starts.append(instant(dtstart, zone))
        first = False
        at = instant(wall, zone)
        if wall == dtstart:
            starts.append(at)
            continue
        # The floating timeline is ordered like the real one within an hour: stop a day past both bounds.
        if at > horizon + 86400 or (until is not None and at > until + 86400):
            break
        starts.append(at)
    if first:
        starts.append(instant(dtstart, zone))
    if count is not None:
        starts = starts[:count]
    dt0 = instant(dtstart, zone)
    starts = [s for s in starts if s == dt0 or until is None or s <= until]
    starts += [instant(datetime.fromisoformat(r), zone) for r in case.get("rdates", [])]
    excluded = {instant(datetime.fromisoformat(x), zone) for x in case.get("exdates", [])}
    return sorted({s for s in starts if s <= horizon and s not in excluded})


def main():
    cases = json.load(sys.stdin)
    json.dump([expand(case) for case in cases], sys.stdout)


if __name__ == "__main__":
    main()
