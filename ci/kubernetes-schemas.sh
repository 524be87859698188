#!/usr/bin/env bash
# Regenerates the Kubernetes object definitions embedded in charts/nim-llm/values.schema.json (its `$defs` named
# io.k8s.*) from the OpenAPI v3 documents of the oldest Kubernetes version the chart claims (ci/fetch-openapi.sh: the
# k8s.io/kubernetes pin of the lowest ci/control-plane/v<version>/kubernetes/go.mod). Exactly the definitions the hand-written part of the
# schema refers to (`"$ref": "#/$defs/io.k8s.api.core.v1.Affinity"`), transitively, are written.
# Run it after pointing a values key at a Kubernetes definition or after bumping that pin; then run
# ci/readme-parameters.sh. EmbeddedKubernetesSchemasTest fails while the embedded definitions are stale.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/ci/fetch-openapi.sh" "$root/chart-tools/target/openapi"
exec mvn -q -B -Dstyle.color=never -f "$root/pom.xml" -pl chart-tools -am generate-test-resources exec:exec@kubernetes-schemas
