// Pinned Go modules used by CI and the chart tests: the single place of
// version truth for tooling that comes from the Go module proxy.
//
// The CRD modules below are not imported by any Go code here: ci/fetch-crds.sh
// reads their versions from this file and copies CRD YAML files out of the
// module cache (see the table in that script for the files taken). Keep them
// as explicit `require` lines; `go mod tidy` would drop them while no Go
// package imports them, so do not tidy this file without checking that they
// survive.
module nimchart.local/ci

go 1.26.0

// CRD sources (ci/fetch-crds.sh):
//   LeaderWorkerSet leaderworkerset.x-k8s.io/v1 -> config/crd/bases/leaderworkerset.x-k8s.io_leaderworkersets.yaml
//   MPIJob kubeflow.org/v2beta1                 -> manifests/base/kubeflow.org_mpijobs.yaml
//   ServiceMonitor monitoring.coreos.com/v1     -> example/prometheus-operator-crd-full/monitoring.coreos.com_servicemonitors.yaml
//   InferencePool inference.networking.k8s.io/v1 -> config/crd/bases/ of sigs.k8s.io/gateway-api-inference-extension
//                                               (v1.6.0; its lightweight endpoint picker cmd/lwepp: ci/build-epp.sh lwepp)
//   InferenceObjective inference.networking.x-k8s.io/v1alpha2 -> the same directory of GAIE v1.5.0, pinned in
//                                               ci/epp/go.mod with the full picker cmd/epp (v1.6.0 has neither)
//   HTTPRoute gateway.networking.k8s.io/v1      -> config/crd/standard/gateway.networking.k8s.io_httproutes.yaml
//   ScaledObject keda.sh/v1alpha1               -> config/crd/bases/keda.sh_scaledobjects.yaml
//
// Controllers of the controller tier (ci/build-controllers.sh builds them at
// these same versions, so each controller runs against the CRD of its release):
//   sigs.k8s.io/lws (LeaderWorkerSet controller and webhooks), mpi-operator, and
//   sigs.k8s.io/kwok (fake GPU nodes; no CRD taken from it), and
//   sigs.k8s.io/kueue (gang admission and topology-aware scheduling; its CRDs and
//   webhook manifests are copied beside its binary, not fetched by fetch-crds.sh).
//
// chart-testing's yamllint rules (etc/lintconf.yaml, what `ct lint` applies to values files), read from the module
// cache by ci/chart-testing-lintconf.sh for ExampleYamlLintTest.
require (
	github.com/helm/chart-testing/v3 v3.14.0
	github.com/kedacore/keda/v2 v2.18.0
	github.com/kubeflow/mpi-operator v0.8.0
	github.com/prometheus-operator/prometheus-operator v0.85.0
	sigs.k8s.io/gateway-api v1.4.0
	sigs.k8s.io/gateway-api-inference-extension v1.6.0
	sigs.k8s.io/kueue v0.15.0
	sigs.k8s.io/kwok v0.8.0
	sigs.k8s.io/lws v0.9.0
)
