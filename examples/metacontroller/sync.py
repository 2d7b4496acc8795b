#!/usr/bin/env python3
"""A Metacontroller sync hook for PodService (seed 003), the webhook loopscope calls for real.

    python3 examples/metacontroller/sync.py [PORT]      # serves POST /sync on 127.0.0.1 (PORT 0: any free port)

It answers the CompositeController sync request (parent, children) with the desired children —
one Pod, one Service, one Ingress — and the parent's status, as the seed's sync.py does.
"""
import json
import sys
import traceback
from http.server import BaseHTTPRequestHandler, HTTPServer


def sync(parent, children):
    name = parent["metadata"]["name"]
    spec = parent["spec"]
    labels = {"app": name}
    cpu = spec.get("resources", {}).get("requests", {}).get("cpu", "100m")
    host = spec.get("host", name + ".local")
    pod = children.get("Pod.v1", {}).get(name)
    ready = bool(pod and pod.get("status", {}).get("ready"))
    return {
        "status": {"phase": "Running" if ready else "Pending"},
        "children": [
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": labels},
             "spec": {"containers": [{"name": "app", "image": spec["image"],
                                      "ports": [{"containerPort": spec["port"]}],
                                      "resources": {"requests": {"cpu": cpu}}}]}},
            {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name, "labels": labels},
             "spec": {"selector": labels, "ports": [{"port": spec["port"]}]}},
            {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": name, "labels": labels},
             "spec": {"host": host, "service": name, "port": spec["port"]}},
        ],
    }


class Hook(BaseHTTPRequestHandler):
    def do_POST(self):
        try:
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            body, status = json.dumps(sync(request["parent"], request["children"])).encode(), 200
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
