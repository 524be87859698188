#!/usr/bin/env bash
# The GPU check: runs a single-node values file's serving pod on this machine's NVIDIA GPU the way the kubelet and runc
# run it (the pod's user and groups, its read-only root filesystem, its emptyDirs as tmpfs of their sizeLimit, HOME from
# the image's passwd entry, every capability dropped, no_new_privs, exactly its environment), with a real GPU engine in
# the NIM image's place (chart-tests/src/main/resources/dev/nimchart/startup/gpu-engine.py: PyTorch loads a model with
# random weights from the cache onto the GPU, JIT-compiles a Triton kernel and a torch.compile'd forward pass); then the
# chart's startup, readiness and liveness probes as the kubelet runs them, its `helm test` command, and an OpenAI chat
# completion. Prints time to Ready, tokens per second and every directory the pod wrote. Nothing is downloaded but the
# pinned PyPI packages below, and only when the machine's own are missing or too old.
# Without an NVIDIA GPU it says so and exits 3; it never runs the check without one (mvn verify runs everything but the
# engine, with the start-up tier's stand-in in its place: ServingPodIT).
# Needs: root (network and mount namespaces), Java 17 and Maven, Linux with an NVIDIA driver (nvidia-smi).
# Usage: ci/gpu-check.sh [VALUES_FILE]   (default values-examples/single-node-minimal.yaml)
# Environment: NIM_GPU_PYTHON   a Python with torch, triton and transformers to use instead of looking for one.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
values=${1:-$root/values-examples/single-node-minimal.yaml}
[[ -f "$values" ]] || { echo "gpu-check: no values file $values" >&2; exit 2; }
values=$(cd "$(dirname "$values")" && pwd)/$(basename "$values")
# Pinned versions installed when the machine has none recent enough (PyPI, November 2026); triton comes with torch.
TORCH_VERSION=2.15.0
TRANSFORMERS_VERSION=5.23.0
engine_dir=/usr/local/lib/nim-llm-chart/gpu-engine

if ! command -v nvidia-smi >/dev/null 2>&1 || ! gpus=$(nvidia-smi -L 2>&1) || ! grep -q '^GPU ' <<< "$gpus"; then
  echo "gpu-check: no NVIDIA GPU on this machine (nvidia-smi: ${gpus:-not found}): the GPU check needs one, and does not run without it." >&2
  echo "gpu-check: mvn verify runs the same pod, probes, helm test and chat completion with the start-up tier's stand-in (ServingPodIT)." >&2
  exit 3
fi
[[ "$(id -u)" == 0 ]] || { echo "gpu-check: needs root (it makes network and mount namespaces, as a container runtime does)" >&2; exit 2; }
echo "gpu-check: $(head -1 <<< "$gpus")"

# A Python the pod's user (uid 1000, no access to /root) can run, with a GPU-capable PyTorch, Triton and transformers.
# The pod's sandbox replaces /opt, /home and /tmp with the pod's own, so a Python (or its real path) there cannot run in it.
usable() {
  case "$(readlink -f "$1")" in /opt/*|/home/*|/tmp/*|/root/*) return 1 ;; esac
  setpriv --reuid=1000 --regid=1000 --clear-groups -- "$1" - <<'PY' 2>/dev/null
import torch, triton, transformers
def v(s): return tuple(int(p) for p in s.split("+")[0].split(".")[:2])
assert v(torch.__version__) >= (2, 6) and v(triton.__version__) >= (3, 2) and v(transformers.__version__) >= (4, 50)
assert torch.cuda.is_available()
print("torch %s, triton %s, transformers %s" % (torch.__version__, triton.__version__, transformers.__version__))
PY
}
python=""
for candidate in ${NIM_GPU_PYTHON:-} "$engine_dir/bin/python3" /usr/bin/python3 /usr/local/bin/python3; do
  if [[ -x "$candidate" ]] && found=$(usable "$candidate"); then python=$candidate; break; fi
done
if [[ -z "$python" ]]; then
  # shellcheck source=lib/steps.sh
  source "$root/ci/lib/steps.sh"
  hold_lock "${TMPDIR:-/tmp}/nim-llm-chart-install.lock"
  if [[ -x "$engine_dir/bin/python3" ]] && found=$(usable "$engine_dir/bin/python3"); then
    python=$engine_dir/bin/python3
  else
    echo "gpu-check: no Python here has PyTorch >= 2.6, Triton >= 3.2 and transformers >= 4.50 with CUDA; installing torch $TORCH_VERSION and transformers $TRANSFORMERS_VERSION into $engine_dir" >&2
    /usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null || { echo "gpu-check: /usr/bin/python3 cannot make a virtual environment (ensurepip missing): apt-get install python3-venv" >&2; exit 2; }
    rm -rf "$engine_dir.partial"
    /usr/bin/python3 -m venv "$engine_dir.partial"
    "$engine_dir.partial/bin/pip" install --quiet --disable-pip-version-check --no-input "torch==$TORCH_VERSION" "transformers==$TRANSFORMERS_VERSION"
    chmod -R a+rX "$engine_dir.partial"
    rm -rf "$engine_dir" && mv "$engine_dir.partial" "$engine_dir"
    found=$(usable "$engine_dir/bin/python3") || { echo "gpu-check: the installed PyTorch sees no CUDA device (driver too old for torch $TORCH_VERSION?)" >&2; exit 2; }
    python=$engine_dir/bin/python3
  fi
fi
echo "gpu-check: engine Python $python ($found)"
exec mvn -B -q -Dstyle.color=never -f "$root/chart-tests/pom.xml" compile exec:exec@gpu-check \
  "-Dnim.gpu.values=$values" "-Dnim.gpu.python=$python" "-Dnim.gpu.results=$root/chart-tests/target/gpu-check"
