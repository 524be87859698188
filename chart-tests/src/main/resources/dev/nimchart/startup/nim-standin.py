#!/usr/bin/python3
# Stand-in for a NIM image's server, installed by the start-up tier at the paths the NIM start-up contract runs
# (/opt/nim/start_server.sh, /opt/nim/start-mpi-cluster.sh, /opt/nim/llm/.venv/bin/python3). It records how it was
# started (argv, environment, host name, which of /opt/nim, /etc and /tmp it could write, the engine caches it wrote where
# engines write them by default: engine_caches.py; it exits when one cannot be written) in <NIM_CACHE_PATH>/.nim-standin/ (the model cache every pod of a group
# shares, one directory per group), and the rank that serves (MPI rank 0, or the native leader) answers /v1/health/live at once and
# /v1/health/ready with 200 only once every rank of the group has recorded itself (503 before). With
# STANDIN_HOLD_READY=1 it also answers 503 until the test writes <NIM_CACHE_PATH>/.nim-standin/release, so a test can
# look at the pods while every rank runs and the server listens but is not ready yet. Once ready, /v1/models lists the
# served model and the LoRA adapters of NIM_PEFT_SOURCE as NIM lists them (each adapter with the base as its parent).
# With NIM_DYNAMO_SINGLE=1 (NIM 3.0's Dynamo single-container mode) it starts as NIM's entrypoint does: it logs
# "Starting Dynamo worker: python -m dynamo.vllm", serves the Dynamo frontend's API on DYN_HTTP_PORT (/live, /health
# listing the worker endpoints it discovered, dyn://...) and the worker's system server on NIM_HEALTH_PORT (9090 when
# unset); with STANDIN_DYNAMO_ABSENT=1 it plays an image without the Dynamo package, which falls back to plain vLLM:
# it logs "Launching vLLM: vllm serve" and serves vLLM's API (/health with an empty body, no /live) on the same port.
# NIM_PASSTHROUGH_ARGS is split as a shell would (shlex) and logged as a JSON list.
import json, os, shlex, socket, sys, time, urllib.request

# The stand-in image's own modules (engine_caches.py, nim_api.py): beside this script, or in the image's /opt/nim/standin.
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)), "/opt/nim/standin"]
import engine_caches, nim_api

print("nim-standin: interpreter %s" % sys.executable, flush=True)

env = dict(os.environ)
mpi_rank = env.get("OMPI_COMM_WORLD_RANK")
if mpi_rank is not None:
    rank, size, serving = int(mpi_rank), int(env["OMPI_COMM_WORLD_SIZE"]), mpi_rank == "0"
else:
    rank = int(env.get("NIM_NODE_RANK") or 0)
    size = int(env.get("NIM_NUM_COMPUTE_NODES") or 1)
    serving = env.get("NIM_LEADER_ROLE", "1" if rank == 0 else "0") == "1"
port = int(env.get("NIM_SERVER_PORT") or 8000)
dynamo = env.get("NIM_DYNAMO_SINGLE") == "1"
flavour = "nim"
if dynamo:
    port = int(env.get("DYN_HTTP_PORT") or 8000)
    if env.get("STANDIN_DYNAMO_ABSENT") == "1":
        flavour = "vllm"
        print("Launching vLLM: vllm serve", flush=True)
    else:
        flavour = "dynamo"
        print("Starting Dynamo worker: python -m dynamo.vllm", flush=True)
if env.get("NIM_PASSTHROUGH_ARGS") is not None:
    print("nim-standin: engine arguments %s" % json.dumps(shlex.split(env["NIM_PASSTHROUGH_ARGS"])), flush=True)
# A group's ranks share one directory (several groups may share the cache): the LeaderWorkerSet leader address of the
# group, else the MPI job's PMIx namespace.
group = env.get("LWS_LEADER_ADDRESS") or env.get("PMIX_NAMESPACE") or env.get("OMPI_MCA_ess_base_jobid") or "group"
records = os.path.join(env.get("NIM_CACHE_PATH") or "/tmp", ".nim-standin", "".join(c if c.isalnum() or c in "-." else "_" for c in group))
os.makedirs(records, exist_ok=True)

leader_reached = None
if mpi_rank is None and not serving:
    # A native worker joins its leader over the network, by the address its environment gives.
    leader = env.get("NIM_LEADER_IP_ADDRESS", "")
    leader_reached = False
    deadline = time.time() + int(env.get("CLUSTER_START_TIMEOUT") or 60)
    while time.time() < deadline and leader:
        try:
            urllib.request.urlopen("http://%s:%d/v1/health/live" % (leader, port), timeout=2).read()
            leader_reached = True
            break
        except Exception:
            time.sleep(0.5)

def writable(directory):
    """Whether this process can create a file in a directory (the image's files, /etc, /tmp)."""
    probe = os.path.join(directory, ".nim-standin-probe-%d" % os.getpid())
    try:
        open(probe, "w").close()
        os.remove(probe)
        return True
    except OSError:
        return False

writes = {d: writable(d) for d in ("/opt/nim", "/etc", "/tmp")}
# The engine's caches, written where it writes them by default (exits with the path when one cannot be written).
caches = engine_caches.write_all(env, "%s-%d" % (socket.gethostname(), rank))

record = {"group": group, "writable": writes, "caches": caches, "argv": sys.argv, "executable": sys.argv[0], "env": env, "hostname": socket.gethostname(), "rank": rank,
          "size": size, "serving": serving, "mpi": mpi_rank is not None, "leaderReached": leader_reached}
tmp = os.path.join(records, ".%s-%d.tmp" % (socket.gethostname(), rank))
with open(tmp, "w") as f:
    json.dump(record, f)
os.rename(tmp, os.path.join(records, "%s-%d.json" % (socket.gethostname(), rank)))
print("nim-standin: rank %d of %d on %s joined%s" % (rank, size, socket.gethostname(), " (serving)" if serving else ""), flush=True)

if not serving:
    while True:
        time.sleep(3600)

def joined():
    return len([n for n in os.listdir(records) if n.endswith(".json")])

held = env.get("STANDIN_HOLD_READY") == "1"
release = os.path.join(os.path.dirname(records), "release")

def ready():
    return joined() >= size and (not held or os.path.exists(release))

# NIM's API (nim_api.py); a chat completion gets a fixed reply: the stand-in runs no model, so what a client and the
# chart's checks see of NIM's API is served, not a measure of any engine.
def generate(prompt, max_tokens):
    words = ["stand-in"] * min(max_tokens, 16)
    return " ".join(words), len(words)


nim_api.serve(port, ready, lambda: {"joined": joined(), "size": size}, generate, "nim-standin", flavour)
while True:
    time.sleep(3600)
