#!/usr/bin/python3
"""A stand-in for a Hugging Face model hub over HTTPS, for the start-up tier's proxy check: the two requests a
Hugging Face download makes (huggingface_hub's snapshot_download, which NIM's download-to-cache uses for hf:// sources):
GET /api/models/<repo>/revision/<rev> (the repository's commit and files) and GET /<repo>/resolve/<rev>/<file> (one
file, with its ETag and X-Repo-Commit), answered from the files of a directory (one repository), with a certificate
the test signed with its own CA. Every request is logged (method, path, whether it carried a bearer token) to the log.

Usage: model-hub.py --listen IP --port N --cert PEM --key PEM --repo ORG/NAME --files DIR --log FILE
"""
import argparse
import hashlib
import http.server
import json
import os
import ssl
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--listen", required=True)
    p.add_argument("--port", type=int, default=443)
    p.add_argument("--cert", required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--repo", required=True)
    p.add_argument("--files", required=True)
    p.add_argument("--log", required=True)
    a = p.parse_args()
    names = sorted(f for f in os.listdir(a.files) if os.path.isfile(os.path.join(a.files, f)))
    commit = hashlib.sha1("\n".join(names).encode()).hexdigest()

    def etag(name):
        with open(os.path.join(a.files, name), "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()

    class Hub(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):
            pass

        def record(self, status):
            with open(a.log, "a") as log:
                log.write("%s %s %d token=%s\n" % (self.command, self.path, status,
                                                     "yes" if self.headers.get("Authorization", "").startswith("Bearer ") else "no"))

        def answer(self, status, body, headers=None, head=False):
            self.record(status)
            self.send_response(status)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if not head:
                self.wfile.write(body)

        def route(self, head):
            api = "/api/models/%s/revision/" % a.repo
            resolve = "/%s/resolve/" % a.repo
            if self.path.startswith(api):
                info = {"id": a.repo, "sha": commit, "siblings": [{"rfilename": n} for n in names]}
                return self.answer(200, json.dumps(info).encode(), {"Content-Type": "application/json"}, head)
            if self.path.startswith(resolve):
                rest = self.path[len(resolve):]
                _, _, name = rest.partition("/")
                if name in names:
                    with open(os.path.join(a.files, name), "rb") as f:
                        body = f.read()
                    return self.answer(200, body, {"ETag": '"%s"' % etag(name), "X-Repo-Commit": commit,
                                                   "Content-Type": "application/octet-stream"}, head)
            return self.answer(404, b'{"error":"Repository Not Found"}', {"Content-Type": "application/json"}, head)

        def do_GET(self):
            self.route(False)

        def do_HEAD(self):
            self.route(True)

    server = http.server.ThreadingHTTPServer((a.listen, a.port), Hub)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(a.cert, a.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print("model-hub: serving %s (%d files, commit %s) on https://%s:%d" % (a.repo, len(names), commit, a.listen, a.port), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
