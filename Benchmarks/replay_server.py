"""The client's floor for Benchmarks/server_vs_google.py: a gRPC server that answers from memory.

It listens on --port and forwards every `google.firestore.v1.Firestore` call to --upstream (an
emulator), recording the response messages of each request. After SIGUSR1 it stops forwarding
the calls it has recorded and answers them at once with the recorded bytes: the same request gets
the same responses; a request it has not seen (a create of a new document, say) gets the last
responses recorded for that method. `Write` is always forwarded; `Listen` is forwarded until
SIGUSR1, then served from memory: each `Commit` answered in replay mode also pushes its documents
to the open `Listen` streams at once (`DocumentChange`, then `NO_CHANGE` with a read time), the
least watch protocol the client needs to raise a snapshot.

What the official client measures against it in replay mode is its own cost per call plus this
minimal server's (Python grpcio, in its own process): the latency no server can go below when
driven by this client on this machine. Started and stopped by server_vs_google.py.
"""

import argparse
import queue
import signal
import threading
from concurrent import futures

import grpc
from google.cloud.firestore_v1.types import firestore as firestore_pb
from google.protobuf import timestamp_pb2

SERVICE = "/google.firestore.v1.Firestore/"
SERVER_STREAMING = {"BatchGetDocuments", "RunQuery", "RunAggregationQuery", "ExecutePipeline"}
BIDIRECTIONAL = {"Listen", "Write"}
COMMIT = SERVICE + "Commit"
CommitRequest = firestore_pb.CommitRequest.pb()
ListenRequest = firestore_pb.ListenRequest.pb()
ListenResponse = firestore_pb.ListenResponse.pb()
FORWARDED_METADATA = {"authorization", "google-cloud-resource-prefix", "x-goog-request-params"}


def identity(message):
    return message


class ReplayHandler(grpc.GenericRpcHandler):
    """Forwards and records every call; after `replay.set()`, answers recorded calls from memory."""

    def __init__(self, upstream):
        self.channel = grpc.insecure_channel(upstream)
        self.replay = threading.Event()
        self.recorded = {}
        self.last = {}
        self.lock = threading.Lock()
        self.listeners = []        # the queues of the Listen streams served from memory
        self.documents = {}        # name -> the fields last committed in replay mode

    def service(self, handler_call_details):
        method = handler_call_details.method
        if not method.startswith(SERVICE):
            return None
        name = method[len(SERVICE):]
        if name == "Listen":
            return grpc.stream_stream_rpc_method_handler(
                lambda requests, context: (self._listen(requests, context) if self.replay.is_set()
                                           else self._forward_bidirectional(method, requests, context)),
                request_deserializer=identity, response_serializer=identity)
        if name in BIDIRECTIONAL:
            return grpc.stream_stream_rpc_method_handler(
                lambda requests, context: self._forward_bidirectional(method, requests, context),
                request_deserializer=identity, response_serializer=identity)
        if name in SERVER_STREAMING:
            return grpc.unary_stream_rpc_method_handler(
                lambda request, context: iter(self._answer(method, request, context, streaming=True)),
                request_deserializer=identity, response_serializer=identity)
        return grpc.unary_unary_rpc_method_handler(
            lambda request, context: self._answer(method, request, context, streaming=False)[0],
            request_deserializer=identity, response_serializer=identity)

    def _answer(self, method, request, context, streaming):
        if self.replay.is_set():
            with self.lock:
                responses = self.recorded.get((method, request)) or self.last.get(method)
            if responses is not None:
                if method == COMMIT:
                    self._remember(request)
                return responses
        metadata = [(key, value) for key, value in context.invocation_metadata() if key in FORWARDED_METADATA]
        try:
            if streaming:
                call = self.channel.unary_stream(method, request_serializer=identity, response_deserializer=identity)
                responses = list(call(request, metadata=metadata))
            else:
                call = self.channel.unary_unary(method, request_serializer=identity, response_deserializer=identity)
                responses = [call(request, metadata=metadata)]
        except grpc.RpcError as error:
            context.abort(error.code(), error.details())
        with self.lock:
            self.recorded[(method, request)] = responses
            self.last[method] = responses
        return responses

    def _forward_bidirectional(self, method, requests, context):
        metadata = [(key, value) for key, value in context.invocation_metadata() if key in FORWARDED_METADATA]
        call = self.channel.stream_stream(method, request_serializer=identity, response_deserializer=identity)
        responses = call(requests, metadata=metadata)
        context.add_callback(responses.cancel)
        yield from responses


    def _remember(self, request):
        """Keeps the documents a commit answered from memory sets, and pushes them to the Listen
        streams served from memory, followed by a consistent point."""
        commit = CommitRequest.FromString(request)
        now = timestamp_pb2.Timestamp()
        now.GetCurrentTime()
        names = []
        for write in commit.writes:
            if write.update.name:
                self.documents[write.update.name] = write.update.fields
                names.append(write.update.name)
        with self.lock:
            listeners = list(self.listeners)
        for target_id, pushed in listeners:
            for name in names:
                pushed.put(self._document_change(name, target_id, now))
            pushed.put(self._target_change(ListenResponse().target_change.NO_CHANGE, None, now))

    def _document_change(self, name, target_id, now):
        response = ListenResponse()
        document = response.document_change.document
        document.name = name
        for key, value in self.documents[name].items():
            document.fields[key].CopyFrom(value)
        document.create_time.CopyFrom(now)
        document.update_time.CopyFrom(now)
        response.document_change.target_ids.append(target_id)
        return response.SerializeToString()

    @staticmethod
    def _target_change(kind, target_id, now=None, resume_token=None):
        response = ListenResponse()
        response.target_change.target_change_type = kind
        if target_id is not None:
            response.target_change.target_ids.append(target_id)
        if now is not None:
            response.target_change.read_time.CopyFrom(now)
        if resume_token is not None:
            response.target_change.resume_token = resume_token
        return response.SerializeToString()

    def _listen(self, requests, context):
        """A Listen stream served from memory: one documents target, its current documents, then
        what `_remember` pushes."""
        first = ListenRequest.FromString(next(requests))
        target_id = first.add_target.target_id or 1
        kinds = ListenResponse().target_change
        now = timestamp_pb2.Timestamp()
        now.GetCurrentTime()
        yield self._target_change(kinds.ADD, target_id)
        for name in first.add_target.documents.documents:
            if name in self.documents:
                yield self._document_change(name, target_id, now)
        yield self._target_change(kinds.CURRENT, target_id, resume_token=b"1")
        yield self._target_change(kinds.NO_CHANGE, None, now)
        pushed = queue.SimpleQueue()
        entry = (target_id, pushed)
        with self.lock:
            self.listeners.append(entry)
        try:
            while context.is_active():  # the client's later requests are not needed
                try:
                    yield pushed.get(timeout=0.1)
                except queue.Empty:
                    continue
        finally:
            with self.lock:
                self.listeners.remove(entry)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--upstream", required=True, help="HOST:PORT of the emulator to record from")
    arguments = parser.parse_args()
    handler = ReplayHandler(arguments.upstream)
    signal.signal(signal.SIGUSR1, lambda *_: handler.replay.set())
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(f"127.0.0.1:{arguments.port}")
    server.start()
    print("ready", flush=True)
    server.wait_for_termination()


if __name__ == "__main__":
    main()
