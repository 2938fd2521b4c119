"""The client's floor for Benchmarks/server_vs_google.py: a gRPC server that answers from memory.

It listens on --port and forwards every `google.firestore.v1.Firestore` call to --upstream (an
emulator), recording the response messages of each request. After SIGUSR1 it stops forwarding
the calls it has recorded and answers them at once with the recorded bytes: the same request gets
the same responses; a request it has not seen (a create of a new document, say) gets the last
responses recorded for that method. `Listen` and `Write` are always forwarded.

What the official client measures against it in replay mode is its own cost per call plus this
minimal server's (Python grpcio, in its own process): the latency no server can go below when
driven by this client on this machine. Started and stopped by server_vs_google.py.
"""

import argparse
import signal
import threading
from concurrent import futures

import grpc

SERVICE = "/google.firestore.v1.Firestore/"
SERVER_STREAMING = {"BatchGetDocuments", "RunQuery", "RunAggregationQuery", "ExecutePipeline"}
BIDIRECTIONAL = {"Listen", "Write"}
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

    def service(self, handler_call_details):
        method = handler_call_details.method
        if not method.startswith(SERVICE):
            return None
        name = method[len(SERVICE):]
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
