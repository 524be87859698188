#!/usr/bin/env bash
# Builds (or finds cached) every program the test tiers run, at the versions this repository pins, and links them
# into one directory in the layout the harness reads with -Dnim.binaries.dir=DIR (dev.nimchart.cluster.BinaryAssets),
# for a project that uses the chart-tests library without this repository's ci/ directory:
#
#   DIR/control-plane/{etcd,kube-apiserver,kubectl}
#   DIR/<controller>/<controller>      kube-controller-manager, kube-scheduler, kwok, lws, mpi-operator, kueue
#                                      (with the data files of their versions: kwok stages, CRDs, webhooks)
#   DIR/<tool>/<tool>                  helm, kubeconform, kube-score, registry, ct
#   DIR/<python tool>/bin/<tool>       checkov, yamllint, yamale
#
#   ci/binaries.sh DIR
#
# Each entry is a symbolic link into the caches the build scripts fill (~/.cache/nim-llm-chart by default): moving
# DIR elsewhere keeps working; deleting the caches breaks it (run this again). Cold: the sum of the build scripts.
set -euo pipefail
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ $# -eq 1 ]] || { sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$1
mkdir -p "${dir}"
dir="$(cd "${dir}" && pwd)"

link() { # name target
  rm -rf "${dir:?}/$1"
  ln -s "$2" "${dir}/$1"
  echo "  $1 -> $2"
}

# The version's directory is the last line build-control-plane.sh --print-dir prints (its other lines go to stderr here).
cp_out="$(bash "${script_dir}/build-control-plane.sh" --print-dir)"
sed '$d' <<<"${cp_out}" >&2
cp_dir="$(sed -n '$p' <<<"${cp_out}")"
[[ -x "${cp_dir}/kube-apiserver" ]] || { echo "binaries: no kube-apiserver in ${cp_dir}" >&2; exit 1; }
echo "linking into ${dir}:"
link control-plane "${cp_dir}"
while read -r name path; do
  link "${name}" "${path}"
done < <(bash "${script_dir}/build-controllers.sh" --print-dirs)
while read -r bin; do
  link "$(basename "${bin}")" "$(dirname "${bin}")"
done < <(bash "${script_dir}/build-tools.sh" --print-path)
while read -r bin; do
  link "$(basename "${bin}")" "$(dirname "$(dirname "${bin}")")"
done < <(bash "${script_dir}/install-python-tools.sh" --print-path)
