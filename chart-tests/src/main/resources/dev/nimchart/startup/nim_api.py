# NIM's HTTP API as the start-up tier's stand-in (nim-standin.py) and the GPU check's engine (gpu-engine.py) serve it:
# /v1/health/live at once, /v1/health/ready once the server is ready, /v1/models with the image's own model name
# (/opt/nim/standin/served-model: a model-specific NIM image has its model built in; the chart's model.name must match
# it), and OpenAI chat completions for that model. What answers a completion is the caller's `generate`.
import http.server, json, threading, time


def served_model():
    try:
        with open("/opt/nim/standin/served-model") as f:
            return f.read().strip()
    except OSError:
        return "model"


def serve(port, ready, status, generate, owner):
    """Serves the API on port in a background thread. ready() -> bool; status() -> dict for the health answers;
    generate(prompt, max_tokens) -> (text, completion tokens); owner names the server in /v1/models."""
    model = served_model()

    class Handler(http.server.BaseHTTPRequestHandler):
        def reply(self, code, payload):
            body = json.dumps(payload).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if self.path == "/v1/health/live":
                self.reply(200, status())
            elif self.path == "/v1/health/ready":
                self.reply(200 if ready() else 503, status())
            elif self.path == "/v1/models" and ready():
                self.reply(200, {"object": "list", "data": [{"id": model, "object": "model", "owned_by": owner}]})
            else:
                self.reply(404 if ready() else 503, {"error": "not served"})

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            try:
                request = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self.reply(400, {"error": "not JSON"})
                return
            if self.path != "/v1/chat/completions" or not ready():
                self.reply(404 if ready() else 503, {"error": "not served"})
                return
            if request.get("model") != model:
                self.reply(404, {"error": {"message": "The model %r does not exist." % request.get("model"), "type": "NotFoundError"}})
                return
            prompt = " ".join(str(m.get("content", "")) for m in request.get("messages", []))
            text, tokens = generate(prompt, max(1, min(int(request.get("max_tokens") or 16), 256)))
            self.reply(200, {"id": "chatcmpl-" + owner, "object": "chat.completion", "created": int(time.time()), "model": model,
                             "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "length"}],
                             "usage": {"prompt_tokens": len(prompt.encode()), "completion_tokens": tokens,
                                       "total_tokens": len(prompt.encode()) + tokens}})

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("0.0.0.0", port), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server
