#!/usr/bin/env python3
"""A Metacontroller DecoratorController hook (seed 003's log-shipper sidecar), the webhook loopscope calls for real.

    python3 examples/metacontroller/decorator_sync.py [PORT]   # serves POST /sync on 127.0.0.1 (PORT 0: any free port)

Request and response as metacontroller.github.io/metacontroller/api/decoratorcontroller.html:
the request has `object` (the target), `attachments` ({"ConfigMap.v1": {name: object}}),
`related` and `finalizing`; the answer has `labels`, `annotations` (null removes one),
`attachments` and, from the finalize hook, `finalized`. It marks the target and attaches its
log-shipper ConfigMap; when finalizing it asks for no attachments and says finalized once none is left.
The same handler serves the sync and the finalize hook (the docs' "use the same handler for both").
"""
import json
import sys
import traceback
from http.server import BaseHTTPRequestHandler, HTTPServer


def sync(request):
    target = request["object"]
    name = target["metadata"]["name"]
    attached = request["attachments"]["ConfigMap.v1"]
    if request["finalizing"]:
        return {"labels": {"sidecar.example.com/decorated": None}, "annotations": {}, "attachments": [],
                "finalized": len(attached) == 0}
    return {
        "labels": {"sidecar.example.com/decorated": "true"},
        "annotations": {"sidecar.example.com/log-shipper": "fluent-bit:3.1"},
        "attachments": [
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name + "-log-shipper"},
             "data": {"input": "/var/log/pods/" + name, "output": "loki:3100"}},
        ],
    }


class Hook(BaseHTTPRequestHandler):
    def do_POST(self):
        try:
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            body, status = json.dumps(sync(request)).encode(), 200
        except Exception:  # as a web framework would: the error becomes a 500 with the traceback
            body, status = traceback.format_exc().encode(), 500
        self.send_response(status)
        self.send_header("Content-Type", "application/json" if status == 200 else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    server = HTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 8080), Hook)
    print(server.server_address[1], flush=True)
    server.serve_forever()
