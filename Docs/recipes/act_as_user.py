#!/usr/bin/env python3
"""Act as a signed-in user from the official Python client, so security rules apply.

The client always sends `Authorization: Bearer owner` to an emulator, which bypasses the rules.
`user_client(uid)` makes a client that sends an unsigned ID token for `uid` instead, as the
Firebase SDKs' `mockUserToken` does. Against `hearth start` with rules/firestore.rules:

    FIRESTORE_EMULATOR_HOST=127.0.0.1:8080 python Docs/recipes/act_as_user.py
"""

import base64
import json
import os

from google.api_core.exceptions import PermissionDenied
from google.auth.credentials import AnonymousCredentials
from google.cloud import firestore

PROJECT = os.environ.get("GCLOUD_PROJECT", "demo-hearth")


def unsigned_jwt(claims):
    """A JWT with `alg: none` and an empty signature: the emulators read it without checking."""
    def part(value):
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
    return part({"alg": "none", "typ": "JWT"}) + "." + part(claims) + "."


def user_client(uid, project=PROJECT, **claims):
    """A client whose requests carry `Authorization: Bearer <unsigned JWT for uid>`."""
    token = unsigned_jwt({"sub": uid, "user_id": uid, **claims})

    class UserClient(firestore.Client):
        @property
        def _rpc_metadata(self):
            metadata = [item for item in super()._rpc_metadata if item[0] != "authorization"]
            return metadata + [("authorization", f"Bearer {token}")]

    return UserClient(project=project, credentials=AnonymousCredentials())


if __name__ == "__main__":
    owner = firestore.Client(project=PROJECT)          # Bearer owner: rules never apply
    for uid in ("alice", "bob"):
        owner.document("settings", uid).set({"name": uid.title(), "timezone": "Europe/Paris"})

    alice = user_client("alice", email="alice@example.com")
    print("alice reads settings/alice:", alice.document("settings", "alice").get().to_dict())
    try:
        alice.document("settings", "bob").get()
        raise SystemExit("alice read settings/bob: the rules did not apply")
    except PermissionDenied as error:
        print("alice reads settings/bob: PERMISSION_DENIED", error.message.strip())
