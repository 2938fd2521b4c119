"""Interop: many streams on one connection of the official clients' transport (grpc-core).

The SDKs multiplex all of an app's traffic on one HTTP/2 connection, and grpc-core sends
bandwidth-probe pings and resets (RST_STREAM) the streams of cancelled calls. On one grpc.aio
channel (the transport of the official Python client):
  - 1,000 Listen streams are current and each is told of a change;
  - 400 Listen streams cancelled by the client (each reset) leave the connection and 50 other
    open streams alone (before: swift-nio-http2 closed the connection with GOAWAY
    ENHANCE_YOUR_CALM after 200 resets in 30 s, failing every call in flight);
  - 2,000 concurrent GetDocument calls all answer.

scripts/test-interop runs it against Hearth and, where installed, against Google's emulator.
"""

import asyncio
import os
import sys

import grpc
from google.cloud.firestore_v1.types import document as document_pb
from google.cloud.firestore_v1.types import firestore as firestore_pb
from google.cloud.firestore_v1.types import write as write_pb

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from harness import PROJECT, RUN, check, run_checks  # noqa: E402

DATABASE = f"projects/{PROJECT}/databases/(default)"
METADATA = (("authorization", "Bearer owner"), ("google-cloud-resource-prefix", DATABASE))


def name(path):
    return f"{DATABASE}/documents/streams-{RUN}/{path}"


class Connection:
    """One grpc.aio channel (one HTTP/2 connection) and the calls the checks need."""

    def __init__(self):
        self.channel = grpc.aio.insecure_channel(os.environ["FIRESTORE_EMULATOR_HOST"])
        self.listen = self.channel.stream_stream(
            "/google.firestore.v1.Firestore/Listen", request_serializer=firestore_pb.ListenRequest.serialize,
            response_deserializer=firestore_pb.ListenResponse.deserialize)
        self.commit = self.channel.unary_unary(
            "/google.firestore.v1.Firestore/Commit", request_serializer=firestore_pb.CommitRequest.serialize,
            response_deserializer=firestore_pb.CommitResponse.deserialize)
        self.get = self.channel.unary_unary(
            "/google.firestore.v1.Firestore/GetDocument",
            request_serializer=firestore_pb.GetDocumentRequest.serialize,
            response_deserializer=document_pb.Document.deserialize)

    async def set(self, path, value):
        write = write_pb.Write(update={"name": name(path), "fields": {"n": {"integer_value": value}}})
        await self.commit(firestore_pb.CommitRequest(database=DATABASE, writes=[write]), metadata=METADATA)

    async def open_listener(self, path):
        """A Listen stream on one document, once it is current."""
        call = self.listen(metadata=METADATA)
        target = firestore_pb.Target(target_id=1, documents={"documents": [name(path)]})
        await call.write(firestore_pb.ListenRequest(database=DATABASE, add_target=target))
        while True:
            response = await call.read()
            assert response is not grpc.aio.EOF, "the stream ended before it was current"
            if firestore_pb.ListenResponse.pb(response).WhichOneof("response_type") == "target_change" \
                    and response.target_change.target_change_type == 3:  # CURRENT
                return call

    @staticmethod
    async def changed_to(call, value):
        """Whether the stream tells of the document's change to `value` within 60 s."""
        async def read():
            while True:
                response = await call.read()
                if response is grpc.aio.EOF:
                    return False
                if firestore_pb.ListenResponse.pb(response).WhichOneof("response_type") == "document_change" \
                        and response.document_change.document.fields["n"].integer_value == value:
                    return True
        try:
            return await asyncio.wait_for(read(), timeout=60)
        except (grpc.aio.AioRpcError, asyncio.TimeoutError):
            return False


def run(coroutine):
    return asyncio.run(coroutine)


@check("1,000 Listen streams on one connection are current and each is told of a change")
def thousand_listeners():
    async def body():
        connection = Connection()
        await connection.set("shared", 1)
        calls = await asyncio.gather(*(connection.open_listener("shared") for _ in range(1000)))
        await connection.set("shared", 2)
        changed = await asyncio.gather(*(Connection.changed_to(call, 2) for call in calls))
        for call in calls:
            call.cancel()
        await connection.channel.close()
        assert sum(changed) == 1000, f"{sum(changed)} of 1000 streams told of the change"
    run(body())


@check("400 Listen streams cancelled by the client leave the connection and its other streams alone")
def cancelled_listeners():
    async def body():
        connection = Connection()
        await connection.set("kept", 1)
        kept = [await connection.open_listener("kept") for _ in range(50)]
        for index in range(400):
            (await connection.open_listener(f"churn{index}")).cancel()
        await asyncio.sleep(0.5)
        await connection.set("kept", 2)
        changed = await asyncio.gather(*(Connection.changed_to(call, 2) for call in kept))
        for call in kept:
            call.cancel()
        await connection.channel.close()
        assert sum(changed) == 50, f"{sum(changed)} of 50 open streams survived 400 cancelled ones"
    run(body())


@check("2,000 concurrent GetDocument calls on one connection all answer")
def concurrent_calls():
    async def body():
        connection = Connection()
        await connection.set("read", 7)
        request = firestore_pb.GetDocumentRequest(name=name("read"))
        documents = await asyncio.gather(*(connection.get(request, metadata=METADATA) for _ in range(2000)))
        await connection.channel.close()
        assert all(document.fields["n"].integer_value == 7 for document in documents)
    run(body())


if __name__ == "__main__":
    run_checks("Many streams on one connection")
