// The Gateway API Inference Extension (GAIE) release whose FULL endpoint picker (cmd/epp, metrics-aware scorers and
// InferenceObjective priorities) and InferenceObjective CRD the tests use. GAIE v1.6.0 (ci/go.mod: its InferencePool
// CRD and its lightweight picker cmd/lwepp) no longer has either: both moved to llm-d-router (group llm-d.ai), whose
// module the Go module proxy does not serve here. One go.mod cannot require two versions of one module, so this pin
// has a file of its own. Read by ci/build-epp.sh (cmd/epp) and ci/fetch-crds.sh (the InferenceObjective CRD); no Go
// code imports it, so do not `go mod tidy` this file.
module nimchart.local/ci/epp

go 1.26.0

require sigs.k8s.io/gateway-api-inference-extension v1.5.0
