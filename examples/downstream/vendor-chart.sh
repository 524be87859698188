#!/usr/bin/env bash
# Copies a chart and gives the copy another name in Chart.yaml, as a team that vendors the chart would.
#   vendor-chart.sh SOURCE_DIR TARGET_DIR NAME
set -euo pipefail
src=$1 dest=$2 name=$3
[[ -f "$src/Chart.yaml" ]] || { echo "vendor-chart: $src has no Chart.yaml" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
cp -R "$src" "$dest"
sed -i "s/^name: .*/name: $name/" "$dest/Chart.yaml"
grep -q "^name: $name\$" "$dest/Chart.yaml" || { echo "vendor-chart: could not rename $dest/Chart.yaml" >&2; exit 1; }
