#!/usr/bin/env bash
# The GPU check: a single-node values file's serving pod on an NVIDIA GPU, run the way the kubelet and runc run it (the
# pod's user and groups, its read-only root filesystem, its emptyDirs as tmpfs of their sizeLimit, HOME from the image's
# passwd entry, every capability dropped, no_new_privs, exactly its environment), with a real GPU engine in the NIM
# image's place (chart-tests/src/main/resources/dev/nimchart/startup/gpu-engine.py: PyTorch loads a model with random
# weights from the cache onto the GPU, JIT-compiles a Triton kernel and a torch.compile'd forward pass); then the chart's
# startup, readiness and liveness probes as the kubelet runs them, its `helm test` command and an OpenAI chat completion.
# Prints the GPU, time to Ready, tokens per second and every directory the pod wrote (also as DIR/result.json).
#
#   ci/gpu-check.sh --bundle DIR [VALUES_FILE]   where Java 17 and Maven are: render the pod into the bundle DIR (a few
#                                                MiB). Carry DIR to the GPU host and run `DIR/run` as root there: it needs
#                                                only bash, python3 and util-linux, uses the host's own PyTorch, Triton and
#                                                transformers wherever they live (/opt included), never installs anything
#                                                and never reaches a network.
#   ci/gpu-check.sh [VALUES_FILE]                on a GPU machine that also has Java and Maven: both steps here.
#
# VALUES_FILE defaults to values-examples/single-node-minimal.yaml. Without an NVIDIA GPU the second form says so and
# exits 3 (mvn verify runs the bundle with the start-up tier's stand-in in the engine's place: ServingPodIT). The engine's
# Python: NIM_GPU_PYTHON, else the first of python3 on PATH, /usr/bin, /usr/local/bin, /opt/conda, /opt/*/bin,
# /opt/*/.venv/bin with torch >= 2.6, triton >= 3.2 and transformers >= 4.50 that sees the GPU.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bundle=""
bundle_only=""
if [[ "${1:-}" == --bundle ]]; then
  bundle_only=1
  [[ -n "${2:-}" ]] || { echo "gpu-check: --bundle needs a directory" >&2; exit 2; }
  mkdir -p "$2"
  bundle=$(cd "$2" && pwd)
  shift 2
fi
values=${1:-$root/values-examples/single-node-minimal.yaml}
[[ -f "$values" ]] || { echo "gpu-check: no values file $values" >&2; exit 2; }
values=$(cd "$(dirname "$values")" && pwd)/$(basename "$values")

if [[ -z "$bundle" ]]; then
  if ! command -v nvidia-smi >/dev/null 2>&1 || ! gpus=$(nvidia-smi -L 2>&1) || ! grep -q '^GPU ' <<< "$gpus"; then
    echo "gpu-check: no NVIDIA GPU on this machine (nvidia-smi: ${gpus:-not found}): the GPU check needs one, and does not run without it." >&2
    echo "gpu-check: make the bundle here with --bundle DIR and run DIR/run on a GPU host; mvn verify runs the same bundle with the start-up tier's stand-in (ServingPodIT)." >&2
    exit 3
  fi
  [[ "$(id -u)" == 0 ]] || { echo "gpu-check: needs root (it makes network and mount namespaces, as a container runtime does)" >&2; exit 2; }
  bundle=$root/chart-tests/target/gpu-check/bundle
fi
mvn -B -q -Dstyle.color=never -f "$root/chart-tests/pom.xml" compile exec:exec@gpu-check "-Dnim.gpu.values=$values" "-Dnim.gpu.bundle=$bundle"
[[ -n "$bundle_only" ]] && exit 0
exec "$bundle/run"
