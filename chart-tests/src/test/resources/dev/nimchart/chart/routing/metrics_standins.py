"""Stand-ins for the serving pods' NIM servers, as the endpoint picker sees them: for each pod IP given, an HTTP
server on IP:PORT (inside the network namespace it is started in) answering

    GET /v1/metrics          the Prometheus text in DIR/<ip>.prom, read at each request (the test rewrites it)
    GET /v1/health/ready     200

and 404 to anything else. Prints "ready" once every address is bound.

    python3 metrics_standins.py DIR PORT IP...
"""
import http.server
import os
import sys
import threading


def handler_for(directory, ip):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            if self.path.split("?")[0] == "/v1/metrics":
                try:
                    with open(os.path.join(directory, ip + ".prom"), "rb") as f:
                        body = f.read()
                    self.answer(200, body, "text/plain; version=0.0.4; charset=utf-8")
                except FileNotFoundError:
                    self.answer(503, b"no metrics yet\n", "text/plain")
                with open(os.path.join(directory, ip + ".scrapes"), "a") as f:
                    f.write("x")
            elif self.path == "/v1/health/ready":
                self.answer(200, b'{"object":"health.response","message":"Service is ready."}', "application/json")
            else:
                self.answer(404, b"not found\n", "text/plain")

        def answer(self, code, body, kind):
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    return Handler


def main():
    directory, port, ips = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    servers = [http.server.ThreadingHTTPServer((ip, port), handler_for(directory, ip)) for ip in ips]
    for s in servers:
        threading.Thread(target=s.serve_forever, daemon=True).start()
    print("ready", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
