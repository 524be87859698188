#!/usr/bin/python3
# Stand-in for the `nim-serve-ray` action of a NIM 2.x/3.x image (NIM's CLI: `nim-serve-ray --head --port P` on the
# leader, `nim-serve-ray --head-address HOST:P` on a worker), installed by the start-up tier on the image's PATH with
# the Ray virtual environment's python in its first line. It runs the REAL Ray of that environment:
# - the leader starts a Ray head on its pod's address and port P with its pod's GPUs (one per NVIDIA_VISIBLE_DEVICES
#   entry), then serves NIM's health API on NIM_SERVER_PORT: /v1/health/live at once, /v1/health/ready with 200 only
#   while Ray itself reports NIM_NUM_COMPUTE_NODES alive nodes holding at least NIM_TENSOR_PARALLEL_SIZE x
#   NIM_PIPELINE_PARALLEL_SIZE GPUs (what vLLM's Ray executor needs before it loads the model), 503 before;
# - a worker waits (at most CLUSTER_START_TIMEOUT) until the head's address answers, then joins it as a Ray worker
#   with its pod's GPUs and stays in the foreground; it exits non-zero when it cannot join.
# Ray runs with `--block` as this process's child, so every Ray process of the pod descends from the pod's main
# process (the tier stops a pod by its process tree; `ray stop` would stop every Ray process of the machine).
# The pod's address is passed as --node-ip-address: Ray would find it through the pod's default route, and the tier's
# network namespaces have no route out. Like nim-standin.py it records how it was started (argv, environment, host
# name) in <NIM_CACHE_PATH>/.nim-standin/<group>/.
import fcntl, http.server, json, os, socket, struct, subprocess, sys, threading, time

sys.path.insert(0, "/opt/nim/standin")  # the stand-in image's own modules (engine_caches.py, nim_api.py)
import engine_caches
import nim_api

env = dict(os.environ)
argv = sys.argv[1:]
head = "--head" in argv


def option(name, default=None):
    return argv[argv.index(name) + 1] if name in argv and argv.index(name) + 1 < len(argv) else default


def pod_ip():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        return socket.inet_ntoa(fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", b"eth0"))[20:24])  # SIOCGIFADDR


def log(text):
    print("nim-serve-ray: " + text, flush=True)


ip = pod_ip()
devices = [d for d in env.get("NVIDIA_VISIBLE_DEVICES", "").split(",") if d]
ray = os.path.join(os.path.dirname(sys.executable), "ray")
common = ["--node-ip-address", ip, "--num-gpus", str(len(devices)), "--num-cpus", "1", "--disable-usage-stats",
          "--object-store-memory", str(80 * 1024 * 1024), "--block"]
group = env.get("LWS_LEADER_ADDRESS") or "group"
records = os.path.join(env.get("NIM_CACHE_PATH") or "/tmp", ".nim-standin", "".join(c if c.isalnum() or c in "-." else "_" for c in group))
os.makedirs(records, exist_ok=True)
rank = int(env.get("NIM_NODE_RANK") or 0)
# vLLM compiles on every node of the Ray cluster: each pod writes the engine caches where engines write them by default.
caches = engine_caches.write_all(env, "%s-%d" % (socket.gethostname(), rank))


def record(extra):
    rec = {"group": group, "argv": ["nim-serve-ray"] + argv, "executable": sys.argv[0], "env": env, "hostname": socket.gethostname(),
           "rank": rank, "size": int(env.get("NIM_NUM_COMPUTE_NODES") or 1), "serving": head, "mpi": False, "ray": True, "ip": ip, "caches": caches}
    rec.update(extra)
    tmp = os.path.join(records, ".%s-%d.tmp" % (socket.gethostname(), rank))
    with open(tmp, "w") as f:
        json.dump(rec, f)
    os.rename(tmp, os.path.join(records, "%s-%d.json" % (socket.gethostname(), rank)))


if not head:
    address = option("--head-address", "")
    host, _, port = address.rpartition(":")
    deadline = time.time() + int(env.get("CLUSTER_START_TIMEOUT") or 300)
    reached = False
    while time.time() < deadline:
        try:
            socket.create_connection((host, int(port)), timeout=2).close()
            reached = True
            break
        except (OSError, ValueError):
            time.sleep(0.5)
    record({"leaderReached": reached})
    if not reached:
        log("the Ray head %s did not answer within CLUSTER_START_TIMEOUT=%ss; giving up" % (address, env.get("CLUSTER_START_TIMEOUT")))
        sys.exit(1)
    log("joining the Ray head at %s as %s with %d GPUs" % (address, ip, len(devices)))
    sys.exit(subprocess.call([ray, "start", "--address", address] + common))

port = int(option("--port", "6379"))
record({"leaderReached": None})
log("starting the Ray head on %s:%d with %d GPUs" % (ip, port, len(devices)))
ray_head = subprocess.Popen([ray, "start", "--head", "--port", str(port), "--include-dashboard=false"] + common)
nodes_wanted = int(env.get("NIM_NUM_COMPUTE_NODES") or 1)
gpus_wanted = int(env.get("NIM_TENSOR_PARALLEL_SIZE") or 1) * int(env.get("NIM_PIPELINE_PARALLEL_SIZE") or 1)
cluster = {"nodes": 0, "gpus": 0, "at": 0.0}
state = {"global": None}
lock = threading.Lock()


def ray_cluster():
    """Alive nodes and their GPUs as Ray's GCS reports them (asked at most once a second)."""
    with lock:
        if time.time() - cluster["at"] < 1:
            return cluster
        try:
            if state["global"] is None:
                from ray._private.internal_api import get_state_from_address
                state["global"] = get_state_from_address("%s:%d" % (ip, port))
            alive = [n for n in state["global"].node_table() if n["Alive"]]
            cluster.update(nodes=len(alive), gpus=int(sum(n["Resources"].get("GPU", 0) for n in alive)))
        except Exception as e:  # the head is not up yet, or just went away
            state["global"] = None
            cluster.update(nodes=0, gpus=0, error=str(e)[:200])
        cluster["at"] = time.time()
        return cluster


class Handler(nim_api.JsonReplies):
    def do_GET(self):
        c = ray_cluster()
        ready = c["nodes"] >= nodes_wanted and c["gpus"] >= gpus_wanted
        code = {"/v1/health/live": 200, "/v1/health/ready": 200 if ready else 503}.get(self.path, 404)
        self.reply(code, {"rayNodes": c["nodes"], "rayGpus": c["gpus"], "nodesWanted": nodes_wanted, "gpusWanted": gpus_wanted})


server = http.server.ThreadingHTTPServer(("0.0.0.0", int(env.get("NIM_SERVER_PORT") or 8000)), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
code = ray_head.wait()
log("the Ray head exited with %d" % code)
sys.exit(code or 1)
