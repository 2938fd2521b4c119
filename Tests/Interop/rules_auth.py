"""Security rules through the official client, as a signed-in user with an unsigned ID token.

The client always sends `Authorization: Bearer owner` to an emulator (its `_rpc_metadata`; the
credentials' `id_token` only goes to a channel option the server never sees), so a user client
here replaces that header with `Bearer <JWT>`. The script loads its own rules for its own
project through `PUT /emulator/v1/projects/{p}:securityRules`, so it runs the same against
Hearth and Google's emulator.
"""

import base64
import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from harness import RUN, check, run_checks  # noqa: E402

from google.api_core import exceptions  # noqa: E402
from google.auth.credentials import AnonymousCredentials  # noqa: E402
from google.cloud import firestore  # noqa: E402

HOST = os.environ["FIRESTORE_EMULATOR_HOST"]
PROJECT = "demo-interop-rules"
RULES = """rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /users/{uid} {
      allow get: if request.auth != null && request.auth.uid == uid;
      allow create: if request.auth != null && request.auth.uid == uid
                    && request.resource.data.owner == uid;
      allow update, delete: if false;
    }
    match /notes/{note} {
      allow read: if request.auth != null && resource.data.owner == request.auth.uid;
      allow create, update: if request.auth != null
                            && request.resource.data.owner == request.auth.uid;
    }
  }
}
"""


def unsigned_jwt(claims):
    def part(value):
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
    return part({"alg": "none", "typ": "JWT"}) + "." + part(claims) + "."


class UserClient(firestore.Client):
    """A client whose requests carry `Authorization: Bearer <token>`, or none with `None`."""

    def __init__(self, token):
        self._token = token
        super().__init__(project=PROJECT, credentials=AnonymousCredentials())

    @property
    def _rpc_metadata(self):
        metadata = [item for item in super()._rpc_metadata if item[0] != "authorization"]
        if self._token is not None:
            metadata.append(("authorization", f"Bearer {self._token}"))
        return metadata


ALICE = f"alice-{RUN}"
BOB = f"bob-{RUN}"
owner = firestore.Client(project=PROJECT)
alice = UserClient(unsigned_jwt({"sub": ALICE, "email": "alice@example.com"}))
anonymous = UserClient(None)


def load_rules():
    body = json.dumps({"rules": {"files": [{"name": "firestore.rules", "content": RULES}]}}).encode()
    request = urllib.request.Request(
        f"http://{HOST}/emulator/v1/projects/{PROJECT}:securityRules", data=body, method="PUT",
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        assert response.status == 200, response.status


def denied(action):
    """Runs `action`, which must fail with PERMISSION_DENIED; returns the message."""
    try:
        action()
    except exceptions.PermissionDenied as error:
        return error.message
    raise AssertionError("expected PERMISSION_DENIED")


load_rules()
owner.document("users", BOB).set({"owner": BOB})
owner.document("notes", f"bob-note-{RUN}").set({"owner": BOB, "text": "bob's"})


@check("a user reads and creates her own document; the rules name the lines that deny")
def own_document():
    alice.document("users", ALICE).create({"owner": ALICE})
    assert alice.document("users", ALICE).get().to_dict() == {"owner": ALICE}
    message = denied(lambda: alice.document("users", BOB).get())
    assert "false for 'get' @ L5" in message, message
    message = denied(lambda: alice.document("users", ALICE).update({"owner": ALICE, "x": 1}))
    assert "for 'update' @ L8" in message, message


@check("unauthenticated requests see request.auth == null")
def unauthenticated():
    denied(lambda: anonymous.document("users", ALICE).get())
    denied(lambda: anonymous.document("notes", "n").set({"owner": ALICE}))


@check("the owner bypasses rules")
def owner_bypasses():
    assert owner.document("users", BOB).get().to_dict() == {"owner": BOB}
    owner.document("users", BOB).update({"seen": True})


@check("queries are judged by their constraints: rules are not filters")
def queries():
    alice.document("notes", f"alice-note-{RUN}").set({"owner": ALICE, "text": "mine"})
    mine = alice.collection("notes").where(filter=firestore.FieldFilter("owner", "==", ALICE)).get()
    assert [snapshot.get("text") for snapshot in mine] == ["mine"]
    count = alice.collection("notes").where(filter=firestore.FieldFilter("owner", "==", ALICE)).count().get()
    assert count[0][0].value == 1
    denied(lambda: alice.collection("notes").get())
    denied(lambda: alice.collection("notes").count().get())


@check("a batch with one denied write writes nothing")
def batches():
    batch = alice.batch()
    batch.set(alice.document("notes", f"ok-{RUN}"), {"owner": ALICE})
    batch.set(alice.document("notes", f"stolen-{RUN}"), {"owner": BOB})
    denied(batch.commit)
    assert not owner.document("notes", f"ok-{RUN}").get().exists


@check("transactions: allowed reads and writes commit, a denied read or write fails")
def transactions():
    note = alice.document("notes", f"counter-{RUN}")
    note.set({"owner": ALICE, "n": 0})

    @firestore.transactional
    def increment(transaction):
        snapshot = note.get(transaction=transaction)
        transaction.update(note, {"n": snapshot.get("n") + 1})

    increment(alice.transaction())
    assert owner.document("notes", f"counter-{RUN}").get().get("n") == 1

    @firestore.transactional
    def read_bobs(transaction):
        alice.document("users", BOB).get(transaction=transaction)

    denied(lambda: read_bobs(alice.transaction()))

    @firestore.transactional
    def steal(transaction):
        note.get(transaction=transaction)
        transaction.set(alice.document("notes", f"bob-note-{RUN}"), {"owner": BOB, "text": "changed"})

    denied(lambda: steal(alice.transaction()))
    assert owner.document("notes", f"bob-note-{RUN}").get().get("text") == "bob's"


@check("a malformed token is INVALID_ARGUMENT 'invalid jwt', never UNAUTHENTICATED")
def malformed_token():
    broken = UserClient("not.a-jwt")
    try:
        broken.document("users", ALICE).get()
    except exceptions.InvalidArgument as error:
        assert "invalid jwt" in error.message, error.message
    else:
        raise AssertionError("expected INVALID_ARGUMENT")


run_checks("rules_auth")
