#!/usr/bin/env python3
# The start-up tier's one executor of a pod's runtime plan: what the kubelet and runc do with a pod once the Java side
# (startup/PodGroupRun) has written its plan into POD_DIR (plan.json: the user, groups, host name, address, command line
# and probes with their ports resolved; beside it the files pod-sandbox.sh reads: mounts, env, read-only-root,
# bounding-set, no-new-privs, image-homes, etc-upper, opt). It runs as root with the Python standard library and
# util-linux only (unshare, setpriv, nsenter, mount): no Java, no network, no iproute2. The start-up tier runs every
# pod's start and every probe through it; the GPU check's bundle (ci/gpu-check.sh --bundle) runs its `check` on a GPU
# host, and ServingPodIT runs the same `check` here with the stand-in.
#
#   pod-run.py volumes POD_DIR               mount the pod's emptyDirs (POD_DIR/empty-dirs) as tmpfs under
#                                            POD_DIR/empty-dir, in this mount namespace, once per pod (the kubelet's
#                                            emptyDir set-up, before the pod's first container; idempotent)
#   pod-run.py start POD_DIR                 exec the pod's processes (init containers, then the main container)
#   pod-run.py restart POD_DIR               exec the main container alone (the kubelet's restart of it)
#   pod-run.py probe POD_DIR KIND [--pid P]  one run of the nim container's probe (startupProbe, readinessProbe,
#                                            livenessProbe): exit 0 passed, 1 failed
#   pod-run.py exec POD_DIR --pid P [--timeout S] -- COMMAND...
#                                            COMMAND in the pod as an exec probe runs (its user, namespaces, environment);
#                                            its exit code, 124 after S seconds (20 by default)
#   pod-run.py startup POD_DIR --pid P       the startup probe on the kubelet's schedule; prints the outcome as JSON
#   pod-run.py check BUNDLE [--standin] [--ready-timeout S]
#                                            the serving check: start the pod, its probes as the kubelet runs them, the
#                                            chart's helm test, a chat completion, the directories the pod wrote;
#                                            writes BUNDLE/result.json, exit 0 passed, 1 failed, 3 a GPU without a
#                                            usable engine Python
import fcntl, glob, http.client, json, os, shutil, signal, socket, stat, struct, subprocess, sys, tempfile, time
import urllib.request

PROBE_AGENT = "kube-probe/1.34"
# Where a container image's own files live but the pod sandbox lays the pod's own over them (pod-sandbox.sh): an
# engine's Python there is carried in read-only at its own path, as an image's files are.
COVERED = ("/opt/", "/home/", "/tmp/")


def load_plan(pod_dir):
    with open(os.path.join(pod_dir, "plan.json")) as f:
        return json.load(f)


def pod_env(pod_dir):
    with open(os.path.join(pod_dir, "env"), "rb") as f:
        return [kv.decode() for kv in f.read().split(b"\0") if kv]


def alive(pid):
    if not pid:
        return True
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# ---- the pod's emptyDirs, as the kubelet's emptyDir plugin sets them up ----

def mount_empty_dirs(pod_dir):
    """Each emptyDir of the pod (POD_DIR/empty-dirs: name, size in bytes (0: no limit), mode and group a line) as a tmpfs
    at POD_DIR/empty-dir/NAME, in this process's mount namespace: made once for the pod before its first container, as the
    kubelet's emptyDir SetUpAt does (kubernetes pkg/volume/emptydir), and left as it is when already mounted, so every
    container of the pod binds the same one and a restarted container finds its files. Who mounts them unmounts them
    when the pod goes (the tier's Java side; the GPU check's mount namespace ends with it)."""
    listing = os.path.join(pod_dir, "empty-dirs")
    if not os.path.exists(listing):
        return
    with open(listing) as f:
        volumes = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    for name, size, mode, gid in volumes:
        target = os.path.join(pod_dir, "empty-dir", name)
        os.makedirs(target, exist_ok=True)
        if os.path.ismount(target):
            continue
        options = "mode=%s,gid=%s" % (mode, gid) + (",size=%s" % size if size != "0" else "")
        subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", target], check=True)


# ---- probes, as the kubelet runs them ----

def exec_in_pod(pod_dir, plan, pid, command, timeout, output=False):
    """A command in the pod's namespaces (those of its process pid), as its user and groups, with its environment only:
    how the kubelet runs an exec probe (and kubectl exec a command). Its exit code, -1 once timeout seconds passed; with
    output, its standard output and error go to ours."""
    groups = ["--clear-groups"] if plan["groups"] == "-" else ["--groups=" + plan["groups"]]
    cmd = ["nsenter", "-t", str(pid), "-m", "-n", "-u", "--", "setpriv", "--reuid=%d" % plan["uid"],
           "--regid=%d" % plan["gid"]] + groups + ["--", "env", "-i"] + pod_env(pod_dir) + command
    sink = None if output else subprocess.DEVNULL
    try:
        return subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=sink, stderr=sink, timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        return -1


def probe_once(pod_dir, plan, kind, pid):
    """One run of the nim container's probe of this kind; a container without it passes while its process runs."""
    p = plan["probes"].get(kind)
    if p is None:
        return alive(pid)
    timeout = p.get("timeoutSeconds") or 1
    if "exec" in p:
        return exec_in_pod(pod_dir, plan, pid, list(p["exec"]["command"]), timeout) == 0
    if "httpGet" in p:
        g = p["httpGet"]
        host = g.get("host") or plan["ip"]
        headers = {"User-Agent": PROBE_AGENT, "Accept": "*/*"}
        for h in g.get("httpHeaders") or []:
            headers[h["name"]] = h["value"]
        conn = http.client.HTTPConnection(host, int(g["port"]), timeout=timeout)
        try:
            conn.request("GET", g.get("path") or "/", headers=headers)
            status = conn.getresponse().status
            return 200 <= status < 400
        except (OSError, http.client.HTTPException):
            return False
        finally:
            conn.close()
    if "tcpSocket" in p:
        try:
            socket.create_connection((p["tcpSocket"].get("host") or plan["ip"], int(p["tcpSocket"]["port"])), timeout).close()
            return True
        except OSError:
            return False
    raise SystemExit("pod-run: the %s of %s is of a kind this executor does not run: %s" % (kind, plan["pod"], sorted(p)))


def startup(pod_dir, plan, pid, t0=None):
    """The startup probe on the kubelet's schedule: after initialDelaySeconds one run every periodSeconds; started at
    the first pass; restarted after failureThreshold failures in a row or once the process exits."""
    t0 = t0 or time.monotonic()
    p = plan["probes"].get("startupProbe")
    if p is None:
        return {"started": alive(pid), "runs": 0, "seconds": 0.0}
    period, threshold = p.get("periodSeconds") or 10, p.get("failureThreshold") or 3
    first = t0 + (p.get("initialDelaySeconds") or 0)
    while time.monotonic() < first and alive(pid):
        time.sleep(min(0.2, max(0.001, first - time.monotonic())))
    runs = failures = 0
    while True:
        if not alive(pid):
            return {"started": False, "runs": runs, "seconds": time.monotonic() - t0, "why": "exited"}
        start = time.monotonic()
        runs += 1
        if probe_once(pod_dir, plan, "startupProbe", pid):
            return {"started": True, "runs": runs, "seconds": time.monotonic() - t0}
        failures += 1
        if failures >= threshold:
            return {"started": False, "runs": runs, "seconds": time.monotonic() - t0, "why": "threshold"}
        wait = period - (time.monotonic() - start)
        if wait > 0:
            time.sleep(wait)


# ---- the serving check (the GPU check's bundle, and ServingPodIT) ----

def ioctl_ifreq(sock, request, name, payload=b""):
    return fcntl.ioctl(sock.fileno(), request, struct.pack("16s", name.encode()) + payload.ljust(16, b"\0"))


def network(ip):
    """The pod's network without iproute2: loopback up and the pod's address on it (a /32 alias), in the network
    namespace this process was started in (unshare --net: no other interface, no route out)."""
    siocgifflags, siocsifflags, siocsifaddr, siocsifnetmask = 0x8913, 0x8914, 0x8916, 0x891C
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        flags = struct.unpack("16sH", ioctl_ifreq(s, siocgifflags, "lo")[:18])[1]
        ioctl_ifreq(s, siocsifflags, "lo", struct.pack("H", flags | 0x1 | 0x40))
        addr = struct.pack("HH4s", socket.AF_INET, 0, socket.inet_aton(ip))
        ioctl_ifreq(s, siocsifaddr, "lo:1", addr)
        ioctl_ifreq(s, siocsifnetmask, "lo:1", struct.pack("HH4s", socket.AF_INET, 0, socket.inet_aton("255.255.255.255")))
        flags = struct.unpack("16sH", ioctl_ifreq(s, siocgifflags, "lo:1")[:18])[1]
        ioctl_ifreq(s, siocsifflags, "lo:1", struct.pack("H", flags | 0x1 | 0x40))
    finally:
        s.close()


def routes():
    """The routes of this network namespace other than the local ones (/proc/net/route: destination, interface)."""
    out = []
    with open("/proc/net/route") as f:
        for line in f.readlines()[1:]:
            w = line.split()
            out.append({"interface": w[0], "destination": socket.inet_ntoa(struct.pack("<I", int(w[1], 16)))})
    return out


ENGINE_CHECK = r"""
import sys, torch, triton, transformers
def v(s): return tuple(int(p) for p in s.split("+")[0].split(".")[:2])
assert v(torch.__version__) >= (2, 6) and v(triton.__version__) >= (3, 2) and v(transformers.__version__) >= (4, 50)
assert torch.cuda.is_available()
roots = {sys.prefix, sys.base_prefix, sys.exec_prefix}
for m in (torch, triton, transformers):
    roots.add(m.__file__)
with open("/proc/self/maps") as f:
    for line in f:
        w = line.split()
        if len(w) >= 6 and w[5].startswith("/"):
            roots.add(w[5])
print("torch %s, triton %s, transformers %s; %s" % (torch.__version__, triton.__version__, transformers.__version__,
      torch.cuda.get_device_name(0)))
print("\n".join(sorted(roots)))
"""
INTERPRETER_ROOTS = r"""
import sys
print(sys.version.split()[0])
print("\n".join(sorted({sys.prefix, sys.base_prefix, sys.exec_prefix})))
"""


def as_user(plan, argv, timeout=300, library_dir=None):
    cmd = ["setpriv", "--reuid=%d" % plan["uid"], "--regid=%d" % plan["gid"], "--clear-groups", "--"] + argv
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/"}
    if library_dir:
        env["LD_LIBRARY_PATH"] = library_dir
    return subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout, env=env)


DRIVER_LIBRARY = "libcuda.so.1"


def ldconfig_path():
    """The host's ldconfig (often in /sbin, which a plain PATH may lack), or None."""
    return shutil.which("ldconfig") or shutil.which("ldconfig", path="/sbin:/usr/sbin")


def driver_library_dir():
    """Where the host keeps the NVIDIA driver's user-space library, when the dynamic loader's cache does not name it (a
    host that finds it through LD_LIBRARY_PATH, such as /usr/local/nvidia/lib64 on many clouds' GPU images); None when
    the cache finds it, or no driver library is here."""
    ldconfig = ldconfig_path()
    if ldconfig:
        r = subprocess.run([ldconfig, "-p"], capture_output=True, text=True)
        if r.returncode == 0 and DRIVER_LIBRARY + " " in r.stdout:
            return None
    dirs = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d] + [
        "/usr/local/nvidia/lib64", "/usr/local/nvidia/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib/aarch64-linux-gnu",
        "/usr/local/cuda/compat", "/usr/lib/wsl/lib"]
    for d in dirs:
        if os.path.exists(os.path.join(d, DRIVER_LIBRARY)):
            return d
    return None


def inject_driver_libraries(pod_dir, library_dir):
    """What the NVIDIA container runtime does for a GPU container (its CDI spec's update-ldcache hook): the driver's
    library directory in the container's dynamic loader cache, so a process with the pod's own environment (no
    LD_LIBRARY_PATH) finds libcuda. Written into the pod's /etc overlay (etc-upper): ld.so.conf.d/ and ld.so.cache."""
    upper = os.path.join(pod_dir, "etc-upper")
    os.makedirs(os.path.join(upper, "ld.so.conf.d"), exist_ok=True)
    with open(os.path.join(upper, "ld.so.conf.d", "000-nvidia-driver.conf"), "w") as f:
        f.write(library_dir + "\n")
    conf = os.path.join(pod_dir, "ld.so.conf")
    with open(conf, "w") as f:
        if os.path.exists("/etc/ld.so.conf"):
            with open("/etc/ld.so.conf") as host:
                f.write(host.read() + "\n")
        f.write(library_dir + "\n")
    ldconfig = ldconfig_path()
    if not ldconfig:
        return "no ldconfig on this host: the pod's loader cannot be told where %s is" % DRIVER_LIBRARY
    r = subprocess.run([ldconfig, "-X", "-f", conf, "-C", os.path.join(upper, "ld.so.cache")], capture_output=True, text=True)
    return None if r.returncode == 0 else "ldconfig failed: " + (r.stderr.strip() or "exit %d" % r.returncode)


def gpu_name():
    """The host's NVIDIA GPU, or None."""
    smi = shutil.which("nvidia-smi")
    if smi:
        r = subprocess.run([smi, "-L"], capture_output=True, text=True)
        lines = [l for l in r.stdout.splitlines() if l.startswith("GPU ")]
        if r.returncode == 0 and lines:
            return lines[0]
    names = glob.glob("/proc/driver/nvidia/gpus/*/information")
    return "NVIDIA GPU (" + names[0].split("/")[-2] + ")" if names else None


def gpu_driver():
    """The NVIDIA driver's version, or None."""
    smi = shutil.which("nvidia-smi")
    if smi:
        r = subprocess.run([smi, "--query-gpu=driver_version", "--format=csv,noheader"], capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.strip():
            return r.stdout.splitlines()[0].strip()
    try:
        with open("/proc/driver/nvidia/version") as f:
            return f.readline().strip()
    except OSError:
        return None


def engine_candidates():
    seen = []
    for c in [os.environ.get("NIM_GPU_PYTHON"), shutil.which("python3"), "/usr/bin/python3", "/usr/local/bin/python3",
              "/opt/conda/bin/python3"] + sorted(glob.glob("/opt/*/bin/python3") + glob.glob("/opt/*/.venv/bin/python3")
                                                  + glob.glob("/opt/*/*/bin/python3")):
        if c and os.access(c, os.X_OK) and c not in seen:
            seen.append(c)
    return seen


def image_roots(paths):
    """The smallest set of directories under the sandbox's covered paths that holds every path given: bound read-only
    at their own paths inside the pod, as an image's files are."""
    dirs = set()
    for p in paths:
        p = p.strip()
        if not p.startswith("/"):
            continue
        for path in (p, os.path.realpath(p)):
            if any(path.startswith(c) for c in COVERED):
                dirs.add(path if os.path.isdir(path) else os.path.dirname(path))
    roots = []
    for d in sorted(dirs):
        if not any(d == r or d.startswith(r + "/") for r in roots):
            roots.append(d)
    return roots


def choose_server(bundle, pod_dir, plan, force_standin):
    """The program the image runs as NIM's server: the GPU engine with a host Python that has PyTorch, Triton and
    transformers and sees the GPU, or the stand-in (no GPU, or --standin). Never installs anything."""
    gpu = None if force_standin else gpu_name()
    tried = []
    if gpu:
        library_dir = driver_library_dir()
        for python in engine_candidates():
            r = as_user(plan, [python, "-c", ENGINE_CHECK], library_dir=library_dir)
            if r.returncode == 0:
                lines = r.stdout.splitlines()
                return {"mode": "engine", "gpu": gpu, "driver": gpu_driver(), "python": python, "versions": lines[0],
                        "driverLibraries": library_dir,
                        "program": "gpu-engine.py", "binds": image_roots([python] + lines[1:] + ([library_dir] if library_dir else []))}
            tried.append("%s: %s" % (python, (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]))
        return {"mode": "none", "gpu": gpu, "tried": tried}
    python = os.environ.get("NIM_STANDIN_PYTHON") or "/usr/bin/python3"
    r = as_user(plan, [python, "-c", INTERPRETER_ROOTS], timeout=60)
    if r.returncode != 0:
        return {"mode": "none", "gpu": None, "tried": ["%s (stand-in): %s" % (python, r.stderr.strip())]}
    lines = r.stdout.splitlines()
    return {"mode": "standin", "gpu": None, "python": python, "versions": "Python " + lines[0], "program": "nim-standin.py",
            "binds": image_roots([python] + lines[1:])}


def install_server(bundle, pod_dir, server):
    """The chosen program at the image's server paths, its interpreter in its first line; its Python's directories in
    POD_DIR/image-binds for the sandbox."""
    with open(os.path.join(bundle, server["program"])) as f:
        text = f.read()
    text = "#!" + server["python"] + "\n" + text.split("\n", 1)[1]
    for rel in ["nim/start_server.sh", "nim/start-mpi-cluster.sh", "nim/llm/.venv/bin/python3"]:
        target = os.path.join(pod_dir, "opt", rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w") as f:
            f.write(text)
        os.chmod(target, 0o755)
    with open(os.path.join(pod_dir, "image-binds"), "w") as f:
        f.write("".join(d + "\n" for d in server["binds"]))


def relocate(bundle, check):
    """A bundle made elsewhere: every path the Java side wrote names the directory it was made in."""
    old = check["root"].rstrip("/")
    new = os.path.realpath(bundle)
    if old == new:
        return
    for dirpath, dirnames, filenames in os.walk(new):
        for name in filenames + dirnames:
            path = os.path.join(dirpath, name)
            if os.path.islink(path) and os.readlink(path).startswith(old + "/"):
                target = new + os.readlink(path)[len(old):]
                os.unlink(path)
                os.symlink(target, path)
            elif name in ("plan.json", "check.json", "mounts", "shm", "argv") and os.path.isfile(path):
                with open(path, "rb") as f:
                    data = f.read()
                with open(path, "wb") as f:
                    f.write(data.replace(old.encode(), new.encode()))
    check["root"] = new


CURL_SHIM = r"""#!PYTHON
# The helm test image's curl, for a host without one: GET of the one URL, with -f, -s, -S and --retry N as curl does
# them (the chart's test command uses nothing else); no proxy, as the test pod's environment sets none.
import sys, time, urllib.request, urllib.error
args, url, retries, fail = sys.argv[1:], None, 0, False
i = 0
while i < len(args):
    a = args[i]
    if a == "--retry":
        retries = int(args[i + 1]); i += 1
    elif a.startswith("--"):
        pass
    elif a.startswith("-"):
        fail = fail or "f" in a
    else:
        url = a
    i += 1
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
for attempt in range(retries + 1):
    try:
        sys.stdout.buffer.write(opener.open(url, timeout=30).read()); sys.exit(0)
    except urllib.error.HTTPError as e:
        err = e
        if not fail:
            sys.stdout.buffer.write(e.read()); sys.exit(0)
    except OSError as e:
        err = e
    if attempt < retries:
        time.sleep(min(2 ** attempt, 10))
sys.stderr.write("curl: %s\n" % err)
sys.exit(22 if isinstance(err, urllib.error.HTTPError) else 7)
"""


def helm_test(check, shim_dir):
    t = check["helmTest"]
    path = "/usr/local/bin:/usr/bin:/bin"
    note = "the host's curl"
    if not shutil.which("curl", path=path):
        with open(os.path.join(shim_dir, "curl"), "w") as f:
            f.write(CURL_SHIM.replace("PYTHON", sys.executable, 1))
        os.chmod(os.path.join(shim_dir, "curl"), 0o755)
        path = shim_dir + ":" + path
        note = "the bundle's standard-library curl: the host has none"
    env = dict(t["env"])
    env["PATH"] = path
    try:
        r = subprocess.run(t["command"], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
        return r.returncode == 0, (r.stdout + r.stderr), note
    except subprocess.TimeoutExpired:
        return False, "helm test did not end within 120 s", note


def chat(ip, port, model):
    body = json.dumps({"model": model, "max_tokens": 32, "messages": [{"role": "user", "content": "Say hello to the cluster."}]})
    req = urllib.request.Request("http://%s:%d/v1/chat/completions" % (ip, port), data=body.encode(),
                                 headers={"Content-Type": "application/json"})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    t0 = time.monotonic()
    try:
        answer = json.loads(opener.open(req, timeout=300).read())
        seconds = time.monotonic() - t0
        content = str(answer["choices"][0]["message"]["content"])
        tokens = int(answer["usage"]["completion_tokens"])
        return {"ok": bool(content.strip()) and tokens > 0, "reply": content, "tokens": tokens, "seconds": seconds}
    except Exception as e:  # any failure of the request or of the answer's shape is the check's failure
        return {"ok": False, "reply": "%s: %s" % (type(e).__name__, e), "tokens": 0, "seconds": time.monotonic() - t0}


def written(pid, mounts):
    """The files in the pod's writable mounts, by directory, as the process sees them (its mount namespace through
    /proc/PID/root; not crossing into another file system): {directory: [files, bytes]}."""
    out = {}
    root = "/proc/%d/root" % pid
    for mount in mounts:
        top = root + mount
        try:
            dev = os.lstat(top).st_dev
        except OSError:
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if os.lstat(os.path.join(dirpath, d)).st_dev == dev]
            for name in filenames:
                try:
                    st = os.lstat(os.path.join(dirpath, name))
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    d = out.setdefault(dirpath[len(root):] or "/", [0, 0])
                    d[0] += 1
                    d[1] += st.st_size
    return dict(sorted(out.items()))


def exit_code(proc):
    """The exit code of a server seen exited (a zombie in /proc may not be reaped yet: wait for it a moment)."""
    try:
        return proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        return "an unknown code"


def stop(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.wait()


def check(bundle, force_standin, ready_limit):
    t_run = time.monotonic()
    bundle = os.path.realpath(bundle)
    with open(os.path.join(bundle, "check.json")) as f:
        check = json.load(f)
    relocate(bundle, check)
    pod_dir = os.path.join(bundle, "pod", check["pod"])
    plan = load_plan(pod_dir)
    result = {"pod": plan["pod"], "values": check.get("values"), "home": check["home"], "passed": False, "startedAt": t_run}
    server = choose_server(bundle, pod_dir, plan, force_standin)
    result.update({"mode": server["mode"], "gpu": server.get("gpu") or "no GPU: the stand-in", "driver": server.get("driver"),
                   "python": server.get("python"),
                   "versions": server.get("versions")})
    if server["mode"] == "none":
        result["failure"] = ("no Python here can run the GPU engine as uid %d (PyTorch >= 2.6, Triton >= 3.2, transformers >= 4.50, "
                             "CUDA visible); nothing is installed: set NIM_GPU_PYTHON. Tried: %s" % (plan["uid"], "; ".join(server["tried"])))
        return finish(bundle, result, 3)
    install_server(bundle, pod_dir, server)
    if server.get("driverLibraries"):
        result["driverLibraries"] = server["driverLibraries"]
        why = inject_driver_libraries(pod_dir, server["driverLibraries"])
        if why:
            result["failure"] = why
            return finish(bundle, result, 2)
    mount_empty_dirs(pod_dir)  # in the bundle's own mount namespace (run: unshare --mount), which ends with this run
    if check.get("standalone"):
        network(plan["ip"])
    result["routes"] = routes()
    log_path = os.path.join(pod_dir, "main.log")
    t0 = time.monotonic()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(plan["argv"], stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
    shim_dir = tempfile.mkdtemp(prefix="pod-run-")
    try:
        s = startup(pod_dir, plan, proc.pid, t0)
        result["startup"] = s
        if not s["started"]:
            result["failure"] = ("the server exited with %s before its startup probe passed" % exit_code(proc) if s.get("why") == "exited"
                                 else "the startup probe failed %d times: the kubelet restarts the container" % s["runs"])
            return finish(bundle, result, 1, proc, log_path, check)
        deadline = t0 + ready_limit
        ready = None
        while time.monotonic() < deadline and alive(proc.pid):
            if probe_once(pod_dir, plan, "readinessProbe", proc.pid):
                ready = time.monotonic() - t0
                break
            time.sleep(0.5)
        result["timeToReadySeconds"] = ready
        if ready is None:
            result["failure"] = ("not Ready within %d s" % ready_limit if alive(proc.pid)
                                 else "the server exited with %s before it was Ready" % exit_code(proc))
            return finish(bundle, result, 1, proc, log_path, check)
        result["live"] = probe_once(pod_dir, plan, "livenessProbe", proc.pid)
        ok, output, note = helm_test(check, shim_dir)
        result.update({"helmTest": ok, "helmTestOutput": output, "helmTestCurl": note})
        c = chat(plan["ip"], check["chatPort"], check["model"])
        result["chat"] = c
        result["tokensPerSecond"] = c["tokens"] / c["seconds"] if c["ok"] and c["seconds"] > 0 else 0
        result["written"] = written(proc.pid, check["writableMounts"])
        result["failure"] = ("the liveness probe failed" if not result["live"] else "helm test failed: " + output.strip() if not ok
                             else "the chat completion failed: " + c["reply"] if not c["ok"] else None)
        result["passed"] = result["failure"] is None
        return finish(bundle, result, 0 if result["passed"] else 1, proc, log_path, check)
    finally:
        shutil.rmtree(shim_dir, ignore_errors=True)
        if proc.poll() is None:
            stop(proc)


def finish(bundle, result, code, proc=None, log_path=None, check=None):
    if proc is not None and "written" not in result and alive(proc.pid):
        result["written"] = written(proc.pid, check["writableMounts"])
    if proc is not None:
        stop(proc)
    if log_path:
        with open(log_path, "rb") as f:
            result["log"] = f.read().decode(errors="replace")[-20000:]
        result["engineTimings"] = engine_timings(result["log"])
    result["runSeconds"] = round(time.monotonic() - result.pop("startedAt"), 2)
    with open(os.path.join(bundle, "result.json"), "w") as f:
        json.dump(result, f, indent=1)
    print(report(result), flush=True)
    return code


def engine_timings(log):
    """The GPU engine's own start, as it logs it once Ready (`gpu-engine: [ ...] ready: {JSON}`): seconds to import, write,
    load, JIT and compile; None for the stand-in or an engine that never got there."""
    for line in reversed(log.splitlines()):
        if line.startswith("gpu-engine: [") and "] ready: {" in line:
            try:
                return json.loads(line.split("] ready: ", 1)[1])
            except ValueError:
                return None
    return None


def report(r):
    lines = ["pod %s (HOME %s)" % (r["pod"], r["home"]),
             "  GPU: %s%s" % (r["gpu"], ", driver %s" % r["driver"] if r.get("driver") else ""),
             "  server: %s%s" % ({"engine": "the GPU engine", "standin": "the start-up tier's stand-in (no GPU engine)"}
                                 .get(r["mode"], "none"), " on %s (%s)" % (r["python"], r["versions"]) if r.get("python") else "")]
    if r.get("driverLibraries"):
        lines.append("  driver libraries: %s, in the pod's loader cache as the NVIDIA runtime puts them" % r["driverLibraries"])
    if "startup" in r:
        lines.append("  startup probe: %s" % ("passed" if r["startup"]["started"] else "FAILED"))
        t = r.get("timeToReadySeconds")
        lines.append("  time to Ready: %s" % ("never Ready" if t is None else "%.1f s" % t))
        if r.get("engineTimings"):
            lines.append("  the engine's own start (s): %s" % ", ".join("%s %s" % (k[:-2] if k.endswith("_s") else k, v)
                                                                          for k, v in r["engineTimings"].items()))
    if "live" in r:
        lines.append("  liveness probe: %s" % ("passed" if r["live"] else "FAILED"))
        lines.append("  helm test: %s (%s)" % ("passed" if r["helmTest"] else "FAILED " + r["helmTestOutput"].strip(), r["helmTestCurl"]))
        c = r["chat"]
        lines.append("  chat completion: " + ("passed (%d tokens in %.2f s, %.1f tokens/s): %s" % (
            c["tokens"], c["seconds"], r["tokensPerSecond"], c["reply"].strip()) if c["ok"] else "FAILED " + c["reply"].strip()))
    if "written" in r:
        lines.append("  written by the pod (directory: files, bytes):")
        lines += ["    %s: %d files, %d bytes" % (d, n, b) for d, (n, b) in r["written"].items()] or ["    (nothing)"]
    if "routes" in r:
        lines.append("  routes of the pod's network: %s" % (", ".join("%s via %s" % (x["destination"], x["interface"])
                                                                       for x in r["routes"]) or "none (no route out)"))
    if r.get("failure"):
        lines.append("FAILED: " + r["failure"])
        if r.get("log"):
            lines.append("--- the server's log (last 4000 characters)\n" + r["log"][-4000:])
    lines.append("  the whole run: %.1f s" % r["runSeconds"])
    lines.append("gpu-check: PASSED" if r["passed"] else "gpu-check: FAILED")
    return "\n".join(lines)


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__ or "usage: pod-run.py volumes|start|restart|probe|exec|startup|check ...")
    cmd, target, rest = argv[0], argv[1], argv[2:]
    opts = {}
    if "--" in rest:
        opts["command"] = rest[rest.index("--") + 1:]
        rest = rest[:rest.index("--")]
    i = 0
    while i < len(rest):
        if rest[i] in ("--pid", "--ready-timeout", "--timeout"):
            opts[rest[i]] = int(rest[i + 1])
            i += 2
        elif rest[i] == "--standin":
            opts["--standin"] = True
            i += 1
        else:
            opts.setdefault("args", []).append(rest[i])
            i += 1
    if cmd in ("start", "restart"):
        # restart: the kubelet's restart of the main container, without the init containers (a plan of an older
        # revision without containerArgv starts as at first)
        plan = load_plan(target)
        argv = plan.get("containerArgv") or plan["argv"] if cmd == "restart" else plan["argv"]
        os.execvp(argv[0], argv)
    if cmd == "volumes":
        mount_empty_dirs(target)
        return 0
    if cmd == "probe":
        return 0 if probe_once(target, load_plan(target), opts["args"][0], opts.get("--pid")) else 1
    if cmd == "exec":
        code = exec_in_pod(target, load_plan(target), opts["--pid"], opts.get("command") or [], opts.get("--timeout", 20), output=True)
        return 124 if code == -1 else code
    if cmd == "startup":
        print(json.dumps(startup(target, load_plan(target), opts["--pid"])))
        return 0
    if cmd == "check":
        return check(target, opts.get("--standin", False), opts.get("--ready-timeout", 900))
    raise SystemExit("pod-run: unknown command %s" % cmd)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
