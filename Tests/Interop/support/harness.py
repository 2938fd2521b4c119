"""Shared harness of the interop scripts in Tests/Interop: the client, unique collection names
per run, and a registry of named checks run in order.

A script imports it after putting this folder on sys.path:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
    from harness import check, client, collection, run_checks
"""

import os
import sys
import traceback
import uuid

from google.cloud import firestore

PROJECT = os.environ.get("GCLOUD_PROJECT", "demo-interop")
RUN = uuid.uuid4().hex[:8]
client = firestore.Client(project=PROJECT)
_checks = []


# Set by scripts/test-interop when the emulator under test is not Hearth (Google's, say).
TESTING_HEARTH = os.environ.get("INTEROP_TARGET") != "other"


def check(name, hearth_gap=None):
    """Registers a check; a failed assert or an exception fails it.

    `hearth_gap` names a known Hearth gap, listed in the README's status list, that makes the
    check fail against Hearth: there it must fail (it is reported, not counted), and once it
    passes the check fails until the marker is removed. Other emulators run it as usual.
    """
    def register(function):
        _checks.append((name, function, hearth_gap if TESTING_HEARTH else None))
        return function
    return register


def collection(name):
    """A top-level collection of this run only, so runs never see each other's data."""
    return client.collection(f"{name}-{RUN}")


def run_checks(suite):
    """Runs every registered check, prints one line each and a summary, and exits 1 if any failed."""
    failures = gaps = 0
    for name, function, gap in _checks:
        try:
            function()
        except Exception:  # noqa: BLE001 - report every failure and go on
            if gap:
                gaps += 1
                print(f"gap   {name} (known Hearth gap: {gap})")
                continue
            failures += 1
            print(f"FAIL  {name}")
            traceback.print_exc(file=sys.stdout)
            continue
        if gap:
            failures += 1
            print(f"FAIL  {name}: passes although marked as a known Hearth gap ({gap}); remove the marker")
        else:
            print(f"ok    {name}")
    passed = len(_checks) - failures - gaps
    print(f"{suite}: {passed} passed, {failures} failed" + (f", {gaps} known Hearth gaps" if gaps else ""))
    sys.exit(1 if failures else 0)
