# NIM's HTTP API as the start-up tier's stand-in (nim-standin.py) and the GPU check's engine (gpu-engine.py) serve it:
# /v1/health/live at once, /v1/health/ready once the server is ready, /v1/models with the image's own model name
# (the served model as NIM names it, then the LoRA adapters of NIM_PEFT_SOURCE), and OpenAI chat completions for those. What answers a completion is the caller's `generate`.
import http.server, json, os, threading, time


def served_model(env=os.environ):
    """The served name: NIM_SERVED_MODEL_NAME, else (model-free NIM) NIM_MODEL_PATH without its scheme and trailing
    :<version>, as NIM derives it, else the image's own model (/opt/nim/standin/served-model), else nim-standin/model."""
    name = env.get("NIM_SERVED_MODEL_NAME")
    if name:
        return name
    path = env.get("NIM_MODEL_PATH", "")
    if path:
        name = path.split("://", 1)[-1]
        return name.rsplit(":", 1)[0].replace(":", "-")
    try:
        with open("/opt/nim/standin/served-model") as f:
            return f.read().strip()
    except OSError:
        return "nim-standin/model"


def adapters(env=os.environ):
    """LoRA adapters as NIM finds them: every directory of NIM_PEFT_SOURCE holding an adapter_config.json, looked at on
    each request (NIM rescans every NIM_PEFT_REFRESH_INTERVAL seconds)."""
    source = env.get("NIM_PEFT_SOURCE")
    if not source or not os.path.isdir(source):
        return []
    return sorted(n for n in os.listdir(source) if os.path.isfile(os.path.join(source, n, "adapter_config.json")))


def models(env=os.environ):
    """/v1/models as NIM lists it: the served model, then each LoRA adapter with the base as its parent."""
    base = served_model(env)
    data = [{"id": base, "object": "model", "owned_by": "system", "root": base, "parent": None}]
    data += [{"id": a, "object": "model", "owned_by": "system", "root": os.path.join(env["NIM_PEFT_SOURCE"], a), "parent": base}
             for a in adapters(env)]
    return {"object": "list", "data": data}


class JsonReplies(http.server.BaseHTTPRequestHandler):
    """A handler of the stand-ins' HTTP servers: replies in JSON (no body for None), logs no request."""

    def reply(self, code, payload):
        body = b"" if payload is None else json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def openai_handler(ready, generate, owner):
    """The handler both servers share: JSON replies, OpenAI chat completions for the models of /v1/models once ready()
    (the completion from generate, its id naming owner)."""

    class OpenAi(JsonReplies):
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
            model = request.get("model")
            if model not in [m["id"] for m in models()["data"]]:
                self.reply(404, {"error": {"message": "The model %r does not exist." % model, "type": "NotFoundError"}})
                return
            prompt = " ".join(str(m.get("content", "")) for m in request.get("messages", []))
            text, tokens = generate(prompt, max(1, min(int(request.get("max_tokens") or 16), 256)))
            self.reply(200, {"id": "chatcmpl-" + owner, "object": "chat.completion", "created": int(time.time()), "model": model,
                             "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "length"}],
                             "usage": {"prompt_tokens": len(prompt.encode()), "completion_tokens": tokens,
                                       "total_tokens": len(prompt.encode()) + tokens}})

    return OpenAi


def serve(port, ready, status, generate, owner, flavour="nim"):
    """Serves the API on port in a background thread. ready() -> bool; status() -> dict for the health answers;
    generate(prompt, max_tokens) -> (text, completion tokens); owner names the server in completion ids. With
    NIM_HEALTH_PORT set to another port, /v1/health/* move there (NIM 2.x): the API port answers them 404.
    flavour "dynamo": the Dynamo frontend of NIM 3.0's Dynamo mode, which bypasses NIM's server: /live and /health
    (Dynamo's health-check reference; /health lists the discovered worker endpoints, 503 before any), no /v1/health/*,
    and the worker's system server (/live, /health) on NIM_HEALTH_PORT, 9090 when unset (NIM 3.0 troubleshooting).
    flavour "vllm": plain vLLM, as Dynamo mode falls back to without the Dynamo package: /health (200, no body)."""
    if flavour != "nim":
        return serve_engine(port, ready, status, generate, owner, flavour)
    health_port = int(os.environ.get("NIM_HEALTH_PORT") or port)

    class Handler(openai_handler(ready, generate, owner)):
        def do_GET(self):
            health_here = self.server.server_address[1] == health_port
            if self.path.startswith("/v1/health/") and not health_here:
                self.reply(404, {"error": "health is served on NIM_HEALTH_PORT %d" % health_port})
            elif health_here and health_port != port and not self.path.startswith("/v1/health/"):
                self.reply(404, {"error": "the health port serves /v1/health/* only"})
            elif self.path == "/v1/health/live":
                self.reply(200, status())
            elif self.path == "/v1/health/ready":
                self.reply(200 if ready() else 503, status())
            elif self.path == "/v1/models" and ready():
                self.reply(200, models())
            else:
                self.reply(404 if ready() else 503, {"error": "not served"})

    server = http.server.ThreadingHTTPServer(("0.0.0.0", port), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    if health_port != port:
        health = http.server.ThreadingHTTPServer(("0.0.0.0", health_port), Handler)
        threading.Thread(target=health.serve_forever, daemon=True).start()
    return server


def serve_engine(port, ready, status, generate, owner, flavour):
    """The Dynamo frontend (and its worker's system server) or plain vLLM on port: see serve."""
    endpoints = ["dyn://dynamo.backend.generate"]

    class Handler(openai_handler(ready, generate, owner)):
        def do_GET(self):
            if flavour == "dynamo" and self.path == "/live":
                self.reply(200, {"message": "Service is live", "status": "live"})
            elif flavour == "dynamo" and self.path == "/health":
                if ready():
                    self.reply(200, {"status": "healthy", "endpoints": endpoints, "instances": [{"endpoint": "generate"}]})
                else:
                    self.reply(503, {"status": "unhealthy", "message": "No endpoints available", "endpoints": [], "instances": []})
            elif flavour == "vllm" and self.path == "/health":
                self.reply(200 if ready() else 503, None)
            elif self.path == "/v1/models" and ready():
                self.reply(200, models())
            else:
                self.reply(404 if ready() else 503, {"error": "not served"})

    class System(JsonReplies):
        """The Dynamo worker's system server: /live, /health."""
        def do_GET(self):
            code = 200 if self.path == "/live" or (self.path == "/health" and ready()) else (503 if self.path == "/health" else 404)
            self.reply(code, {"status": "ready" if code == 200 else "notready"})

    server = http.server.ThreadingHTTPServer(("0.0.0.0", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    if flavour == "dynamo":
        system_port = int(os.environ.get("NIM_HEALTH_PORT") or 9090)
        system = http.server.ThreadingHTTPServer(("0.0.0.0", system_port), System)
        threading.Thread(target=system.serve_forever, daemon=True).start()
    return server
