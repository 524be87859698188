# Where GPU inference engines write their caches when they start, resolved from the process's own environment the way
# each engine resolves it (checked in each one's source), and one write to each, as the engine's first cache write at
# start would be. Used by the start-up tier's stand-ins for NIM's server (nim-standin.py, nim-serve-ray.py): a pod whose
# caches land on a read-only path (or a full emptyDir) exits at start with the path in its log, as a real engine does.
import getpass, os, re, sys, tempfile


def _home():
    # Python's own rule, as every engine below uses it: HOME, else the passwd entry of the uid ("~" when it has none).
    return os.path.expanduser("~")


def _xdg_cache(env):
    return env.get("XDG_CACHE_HOME") or os.path.join(_home(), ".cache")


def _inductor(env):
    # PyTorch Inductor: TORCHINDUCTOR_CACHE_DIR, else <tmp>/torchinductor_<user>, the user from getpass (LOGNAME, USER,
    # LNAME, USERNAME, else the passwd entry: a uid without one raises here, as it does in PyTorch).
    inductor = env.get("TORCHINDUCTOR_CACHE_DIR")
    if inductor:
        return inductor
    try:
        user = getpass.getuser()
    except (KeyError, OSError) as e:
        raise OSError("PyTorch Inductor cannot name its cache directory: getpass.getuser() failed (%s: %s); set "
                      "TORCHINDUCTOR_CACHE_DIR or give the uid a passwd entry" % (type(e).__name__, e))
    return os.path.join(tempfile.gettempdir(), "torchinductor_" + re.sub(r'[\\/:*?"<>|]', "_", user))


def cache_dirs(env):
    """(engine, directory) for every cache the engines write at start, in the order a vLLM start reaches them (each
    directory is resolved only when reached, so the first failure is the one the engine would meet)."""
    # Triton 3: TRITON_CACHE_DIR, else <TRITON_HOME or ~>/.triton/cache (JIT-compiled kernels).
    yield "triton", env.get("TRITON_CACHE_DIR") or os.path.join(env.get("TRITON_HOME") or _home(), ".triton", "cache")
    # PyTorch Inductor (torch.compile's code generator).
    yield "torchinductor", _inductor(env)
    # vLLM: VLLM_CACHE_ROOT, else <XDG_CACHE_HOME or ~/.cache>/vllm (torch.compile artifacts).
    yield "vllm", env.get("VLLM_CACHE_ROOT") or os.path.join(_xdg_cache(env), "vllm")
    # PyTorch hub: TORCH_HOME, else <XDG_CACHE_HOME or ~/.cache>/torch.
    yield "torch", env.get("TORCH_HOME") or os.path.join(_xdg_cache(env), "torch")
    # FlashInfer's JIT: <FLASHINFER_WORKSPACE_BASE or ~>/.cache/flashinfer.
    yield "flashinfer", os.path.join(env.get("FLASHINFER_WORKSPACE_BASE") or _home(), ".cache", "flashinfer")
    # CUDA's PTX JIT cache: CUDA_CACHE_PATH, else ~/.nv/ComputeCache.
    yield "cuda", env.get("CUDA_CACHE_PATH") or os.path.join(_home(), ".nv", "ComputeCache")


def write_all(env, tag, size=64 * 1024):
    """Writes one file of `size` bytes into each cache directory; returns the paths written. On the first failure prints
    the engine, the path and the error, and exits 1 (the server never starts)."""
    written = []
    dirs = cache_dirs(env)
    while True:
        try:
            engine, directory = next(dirs)
        except StopIteration:
            break
        except OSError as e:
            print("nim-standin: %s" % e, flush=True)
            sys.exit(1)
        path = os.path.join(directory, "nim-standin-" + tag)
        try:
            os.makedirs(directory, exist_ok=True)
            with open(path, "wb") as f:
                f.write(b"\0" * size)
            written.append(path)
        except OSError as e:
            print("nim-standin: the %s cache cannot be written at start: %s" % (engine, e), flush=True)
            sys.exit(1)
    return written
