#!/usr/bin/python3
# The smallest honest GPU inference engine, run by the GPU check (ci/gpu-check.sh) as the NIM image's server in the
# chart's own pod: what vLLM (NIM 2.x's engine) does at every start, in small.
#   1. writes a small Llama model with random weights into the model cache (NIM_CACHE_PATH), as a download would;
#   2. loads it from the cache onto the GPU with PyTorch;
#   3. JIT-compiles and runs a Triton kernel;
#   4. torch.compile's the forward pass (PyTorch Inductor generates and compiles Triton kernels);
#   then serves NIM's API on NIM_SERVER_PORT: /v1/health/live at once, /v1/health/ready once 1-4 are done, /v1/models
#   (the image's own model name, /opt/nim/standin/served-model), and /v1/chat/completions (greedy decoding).
# Every cache goes where the engines put it by default, resolved from this process's environment (HOME, XDG_CACHE_HOME,
# TRITON_CACHE_DIR, TORCHINDUCTOR_CACHE_DIR, ...): on a read-only path it fails here, as a real engine fails.
# The interpreter (first line) is the Python with PyTorch, Triton and transformers that ci/gpu-check.sh chose.
# GPU_ENGINE_DEVICE=cpu runs steps 1, 2 and 4 on the CPU and skips the Triton kernel: to check this script on a machine
# without a GPU; the GPU check itself never sets it.
import json, os, sys, threading, time

t_start = time.time()


def log(text):
    print("gpu-engine: [%6.1f s] %s" % (time.time() - t_start, text), flush=True)


env = os.environ
port = int(env.get("NIM_SERVER_PORT") or 8000)
cache = env.get("NIM_CACHE_PATH") or "/tmp"
state = {"ready": False}
timings = {}
sys.path.insert(0, "/opt/nim/standin")  # the image's module of NIM's API (nim_api.py)
import nim_api  # noqa: E402

nim_api.serve(port, lambda: state["ready"], lambda: {"ready": state["ready"], "timings": timings},
              lambda prompt, tokens: generate(prompt, tokens), "gpu-engine")
log("listening on port %d (live; ready once the model is on the GPU and compiled)" % port)

import torch  # noqa: E402

device = env.get("GPU_ENGINE_DEVICE") or "cuda"
if device == "cuda" and not torch.cuda.is_available():
    log("no CUDA device is visible to PyTorch %s (torch.cuda.is_available() is False): the GPU engine cannot start" % torch.__version__)
    sys.exit(1)
import transformers  # noqa: E402

timings["import_s"] = round(time.time() - t_start, 2)
log("PyTorch %s, transformers %s, device %s%s" % (torch.__version__, transformers.__version__, device,
                                                  " (" + torch.cuda.get_device_name(0) + ")" if device == "cuda" else ""))

# 1. The model, written into the cache as a download would leave it (random weights: nothing is downloaded).
t = time.time()
model_dir = os.path.join(cache, "gpu-check-model")
config = transformers.LlamaConfig(vocab_size=512, hidden_size=768, intermediate_size=2048, num_hidden_layers=6,
                                  num_attention_heads=12, num_key_value_heads=4, max_position_embeddings=512)
torch.manual_seed(0)
transformers.LlamaForCausalLM(config).to(torch.bfloat16).save_pretrained(model_dir)
timings["model_write_s"] = round(time.time() - t, 2)
log("wrote a %d-layer Llama with random weights to %s" % (config.num_hidden_layers, model_dir))

# 2. Loaded from the cache onto the device.
t = time.time()
# transformers 4.56 renamed from_pretrained's torch_dtype to dtype (5.x warns on the old name).
dtype_arg = "dtype" if tuple(int(p) for p in transformers.__version__.split(".")[:2]) >= (4, 56) else "torch_dtype"
model = transformers.LlamaForCausalLM.from_pretrained(model_dir, **{dtype_arg: torch.bfloat16}).to(device).eval()
timings["load_s"] = round(time.time() - t, 2)
log("loaded the model onto %s" % device)

# 3. A Triton kernel, JIT-compiled (into TRITON_CACHE_DIR, else <TRITON_HOME or HOME>/.triton/cache) and run.
if device == "cuda":
    import triton  # noqa: E402
    import triton.language as tl  # noqa: E402

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)

    t = time.time()
    x = torch.rand(4096, device=device)
    y = torch.rand(4096, device=device)
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(4096, 1024),)](x, y, out, 4096, BLOCK=1024)
    torch.cuda.synchronize()
    if not torch.allclose(out, x + y):
        log("the Triton kernel computed a wrong sum")
        sys.exit(1)
    timings["triton_jit_s"] = round(time.time() - t, 2)
    log("Triton %s kernel compiled and run" % triton.__version__)
else:
    log("no Triton kernel on the CPU (GPU_ENGINE_DEVICE=cpu)")

# 4. The forward pass through torch.compile, on one fixed window (one compiled shape).
WINDOW = 64
t = time.time()
forward = torch.compile(model)
with torch.no_grad():
    forward(input_ids=torch.zeros((1, WINDOW), dtype=torch.long, device=device))
if device == "cuda":
    torch.cuda.synchronize()
timings["compile_s"] = round(time.time() - t, 2)
log("torch.compile'd forward pass ready")
lock = threading.Lock()


def generate(prompt, count):
    """Greedy decoding over a fixed window of byte tokens; the text is the tokens as printable characters."""
    ids = [b % config.vocab_size for b in prompt.encode()][-WINDOW:]
    out = []
    with lock, torch.no_grad():
        for _ in range(count):
            window = ([0] * WINDOW + ids)[-WINDOW:]
            logits = forward(input_ids=torch.tensor([window], dtype=torch.long, device=device)).logits
            token = int(torch.argmax(logits[0, -1]).item())
            ids.append(token)
            out.append(token)
    return "".join(chr(32 + t % 95) for t in out), len(out)


state["ready"] = True
timings["ready_s"] = round(time.time() - t_start, 2)
log("ready: %s" % json.dumps(timings))
while True:
    time.sleep(3600)
