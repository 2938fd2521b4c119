"""Interop: the bulk writer, recursive delete and listing through the official
google-cloud-firestore client, against a Firestore emulator (Hearth, or Google's).

Recursive delete is the client's own algorithm: a query over every collection of the database
(`all_descendants`, empty collection id) ordered by `__name__` and bounded by
`start_at(<collection>/__id-9223372036854775808__)` and `end_at(<collection>\\0/__id-...__)`
(numeric ids `__id<int64>__` sort before every string id), whose documents it deletes with a
bulk writer. The tree below holds ids that probe those bounds: numeric ids, ids sorting before
`_` in bytes (digits, upper case), documents that do not exist but have subcollections, and
collections whose names share the deleted collection's name as a prefix.

Run by scripts/test-interop under `hearth exec`; exits 1 if any check fails.
"""

import os
import sys

from google.api_core import exceptions
from google.cloud.firestore_v1.bulk_writer import BulkWriterOptions, SendMode

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from harness import RUN, check, client, collection, run_checks  # noqa: E402


def paths(snapshots):
    return sorted(s.reference.path for s in snapshots)


def write_tree(root):
    """Writes a tree of documents under `root` and returns their paths."""
    written = [
        "a", "A", "0", "9z", "zz", "__id7__", "__id-3__",
        "a/sub/x", "a/sub/x/deeper/y", "A/Sub/1",
        "ghost/kids/k",  # `ghost` itself does not exist
    ]
    for path in written:
        client.document(root.id, *path.split("/")).set({"path": path})
    return [f"{root.id}/{path}" for path in written]


@check("recursive delete of a collection")
def recursive_delete_collection():
    root = collection("tree")
    written = write_tree(root)
    # Neighbours that must survive: a collection whose name starts with the deleted one's, and a
    # same-named collection below another document.
    sibling = client.collection(f"{root.id}-sibling").document("s")
    sibling.set({"keep": True})
    nested = collection("holder").document("h").collection(root.id).document("n")
    nested.set({"keep": True})
    found = paths(root.recursive().stream())
    assert found == sorted(written), found
    deleted = client.recursive_delete(root)
    assert deleted == len(written), deleted
    assert list(root.recursive().stream()) == []
    assert list(root.list_documents()) == []
    assert sibling.get().exists and nested.get().exists


@check("recursive delete of a document and its subcollections")
def recursive_delete_document():
    root = collection("doctree")
    write_tree(root)
    deleted = client.recursive_delete(root.document("a"))
    assert deleted == 3, deleted  # a, a/sub/x, a/sub/x/deeper/y
    remaining = paths(root.recursive().stream())
    assert f"{root.id}/a" not in remaining and f"{root.id}/A" in remaining, remaining
    assert not any(path.startswith(f"{root.id}/a/") for path in remaining), remaining
    deleted = client.recursive_delete(root.document("ghost"))  # exists only through its children
    assert deleted == 2, deleted  # ghost/kids/k, and the (no-op) delete of ghost itself
    assert not root.document("ghost").collection("kids").document("k").get().exists


@check("numeric document ids sort before string ids")
def numeric_ids():
    root = collection("numeric")
    for name in ["__id-5__", "__id12__", "__id3__", "A", "a", "0"]:
        root.document(name).set({"v": 1})
    assert [d.id for d in root.stream()] == ["__id-5__", "__id3__", "__id12__", "0", "A", "a"]


@check("bulk writer: every operation, retries and errors")
def bulk_writer():
    col = collection("bulkops")
    col.document("existing").set({"v": 0})
    failures = []

    def on_error(error, writer):
        failures.append(error.operation.reference.id if hasattr(error.operation, "reference") else error)
        return False  # do not retry

    writer = client.bulk_writer(options=BulkWriterOptions(mode=SendMode.parallel))
    writer.on_write_error(on_error)
    for i in range(120):  # more than one batch of 20
        writer.create(col.document(f"c{i:03}"), {"i": i})
    writer.set(col.document("existing"), {"w": 1}, merge=True)
    writer.update(col.document("c000"), {"updated": True})
    writer.delete(col.document("c001"))
    writer.create(col.document("existing"), {"again": True})  # ALREADY_EXISTS
    writer.update(col.document("nowhere"), {"x": 1})  # NOT_FOUND
    writer.close()
    assert sorted(failures) == ["existing", "nowhere"], failures
    assert col.document("existing").get().to_dict() == {"v": 0, "w": 1}
    assert col.document("c000").get().to_dict() == {"i": 0, "updated": True}
    assert not col.document("c001").get().exists
    assert len(list(col.list_documents())) == 120  # c000..c119 less c001, plus existing


@check("listing collections")
def list_collections():
    top = collection("cols")
    doc = top.document("d")
    doc.set({"x": 1})
    for name in ["b", "a", "A", "_x"]:
        doc.collection(name).document("child").set({"x": 1})
    top.document("missing").collection("only").document("c").set({"x": 1})
    assert [c.id for c in doc.collections()] == ["A", "_x", "a", "b"]
    assert [c.id for c in top.document("missing").collections()] == ["only"]
    assert [c.id for c in top.document("nothing").collections()] == []
    assert top.id in [c.id for c in client.collections()]
    assert [c.id for c in doc.collections(page_size=1)] == ["A", "_x", "a", "b"]


@check("listing documents, missing ones included")
def list_documents():
    col = collection("docs")
    for name in ["b", "a", "c"]:
        col.document(name).set({"x": 1})
    col.document("hollow").collection("sub").document("s").set({"x": 1})
    assert [d.id for d in col.list_documents()] == ["a", "b", "c", "hollow"]
    assert [d.id for d in col.list_documents(page_size=2)] == ["a", "b", "c", "hollow"]
    assert [d.id for d in col.stream()] == ["a", "b", "c"]  # a query skips missing documents


@check("bad requests fail with the right status")
def errors():
    try:
        client.collection("c").document("__reserved__").get()
        raise AssertionError("reserved id accepted")
    except exceptions.InvalidArgument:
        pass


run_checks("interop-recursive-delete")
