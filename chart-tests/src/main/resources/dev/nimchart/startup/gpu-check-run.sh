#!/bin/bash
# The GPU check's bundle, run on the GPU host (made where Java is: ci/gpu-check.sh --bundle DIR VALUES_FILE). Runs the
# chart's serving pod as the kubelet and runc run it, with a real GPU engine (gpu-engine.py on the host's own PyTorch,
# Triton and transformers, bound read-only into the pod at its own path, /opt included), in a network namespace of its
# own with no route out: the startup, readiness and liveness probes on the kubelet's schedule, the chart's helm test,
# an OpenAI chat completion. Prints the GPU, time to Ready, tokens per second and every directory the pod wrote, and
# writes them to DIR/result.json. Never installs anything and never reaches a network.
# Needs: root; bash, python3 (any, standard library only, to run the executor) and util-linux (unshare, setpriv,
# nsenter, mount); for the engine a Python with torch >= 2.6, triton >= 3.2 and transformers >= 4.50 that sees the GPU
# (found on PATH, at /usr/bin, /usr/local/bin, /opt/conda, /opt/*/bin, /opt/*/.venv/bin; or set NIM_GPU_PYTHON).
# Without an NVIDIA GPU it runs the start-up tier's stand-in in the engine's place and says so (--standin forces that).
# Usage: DIR/run [--standin] [--ready-timeout SECONDS]   Exit: 0 passed, 1 a check failed, 2 not runnable here, 3 a GPU
# but no Python that can run the engine.
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ "$(id -u)" == 0 ]] || { echo "gpu-check: run it as root (it makes network and mount namespaces, as a container runtime does)" >&2; exit 2; }
missing=()
for tool in python3 unshare setpriv nsenter mount; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
(( ${#missing[@]} == 0 )) || { echo "gpu-check: this host lacks ${missing[*]} (python3 and util-linux are needed)" >&2; exit 2; }
python=$(command -v python3)
exec unshare --net --mount --propagation private "$python" "$dir/pod-run.py" check "$dir" "$@"
