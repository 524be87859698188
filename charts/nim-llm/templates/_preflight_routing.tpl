{{/* ---------------------------------------------------------------------------
Preflight rules of Inference Gateway routing: the InferencePool (inferencePool.*), its target port and selector, and
the HTTPRoute. The endpoint picker's rules are in _preflight_picker.tpl. Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

{{/* The routing objects need the pool: an HTTPRoute or InferenceObjective without inferencePool.enabled is not rendered. */}}
{{- define "nim-llm.preflight.routingNeedsPool" -}}
{{- $P := .Values.inferencePool -}}
{{- if not $P.enabled -}}
{{- range $key := list "httpRoute" "objective" -}}
{{- if (index $P $key).enabled -}}
{{- $message := print
  "inferencePool.%s.enabled is true but inferencePool.enabled is false: the %s refers to the release's "
  "InferencePool, which is only created with inferencePool.enabled: true. Set inferencePool.enabled: true, or "
  "inferencePool.%s.enabled: false." -}}
{{- include "nim-llm.fail" (printf $message $key (ternary "HTTPRoute" "InferenceObjective" (eq $key "httpRoute")) $key) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The pool's target port is the port the serving pods serve NIM's API (and /v1/metrics) on. */}}
{{- define "nim-llm.preflight.poolTargetPort" -}}
{{- $V := .Values -}}
{{- if $V.inferencePool.enabled -}}
{{- $port := include "nim-llm.inferencePool.targetPort" . | int -}}
{{- $role := get (dict "leaderworkerset" "leader" "mpijob" "mpi-worker") (include "nim-llm.mode" .) | default "server" -}}
{{- $ports := include "nim-llm.ports" (dict "root" . "role" $role) | fromYamlArray -}}
{{- $found := dict -}}
{{- range $ports -}}{{- if eq (int .containerPort) $port -}}{{- $found = . -}}{{- end -}}{{- end -}}
{{- if not $found -}}
{{- $message := print
  "inferencePool.targetPort (%d) is not a container port of the serving pods (they declare %s): the gateway would "
  "send every request to a closed port. Set inferencePool.targetPort to %d (model.openaiPort), or 0 for "
  "model.openaiPort." -}}
{{- include "nim-llm.fail" (printf $message $port (include "nim-llm.routing.portList" $ports)
  (int $V.model.openaiPort)) -}}
{{- else if ne $found.name "http-openai" -}}
{{- $message := print
  "inferencePool.targetPort (%d) is the serving pods' %s port, not the port NIM serves its API and /v1/metrics on. "
  "Set inferencePool.targetPort to %d (model.openaiPort), or 0 for model.openaiPort." -}}
{{- include "nim-llm.fail" (printf $message $port $found.name (int $V.model.openaiPort)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.routing.portList" -}}
{{- $out := list -}}
{{- range . -}}{{- $out = append $out (printf "%d (%s)" (int .containerPort) .name) -}}{{- end -}}
{{- join ", " $out -}}
{{- end -}}

{{/* The pool selects exactly the serving pods: its extra labels are labels every serving pod carries (model.labels),
never one that picks workers (LWS worker-index, the chart's component, the MPI replica labels). */}}
{{- define "nim-llm.preflight.poolSelectsServingPods" -}}
{{- $V := .Values -}}
{{- if $V.inferencePool.enabled -}}
{{- $modelLabels := $V.model.labels | default dict -}}
{{- $workerKeys := list "app.kubernetes.io/component" "leaderworkerset.sigs.k8s.io/worker-index"
  "training.kubeflow.org/replica-index" "training.kubeflow.org/replica-type" "training.kubeflow.org/job-role"
  "app.kubernetes.io/name" "app.kubernetes.io/instance" -}}
{{- range $k, $v := $V.inferencePool.matchLabels | default dict -}}
{{- if has $k $workerKeys -}}
{{- $message := print
  "inferencePool.matchLabels sets %s: %q, a label that decides which of the release's pods serve: the pool must "
  "select exactly the serving pods (single-node pods, LeaderWorkerSet leaders, MPIJob worker 0), never workers, and "
  "the chart selects them itself. Remove %s from inferencePool.matchLabels." -}}
{{- include "nim-llm.fail" (printf $message $k (toString $v) $k) -}}
{{- else if ne (toString (index $modelLabels $k | default "")) (toString $v) -}}
{{- $message := print
  "inferencePool.matchLabels sets %s: %q, which the serving pods do not carry (model.labels gives the pods their "
  "extra labels): the pool would select no pod of this release, or another release's. Remove it, or add the same "
  "label to model.labels." -}}
{{- include "nim-llm.fail" (printf $message $k (toString $v)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* An HTTPRoute attaches to at least one Gateway: without a parent it routes nothing. */}}
{{- define "nim-llm.preflight.httpRouteParents" -}}
{{- $R := .Values.inferencePool.httpRoute -}}
{{- if and .Values.inferencePool.enabled $R.enabled (not $R.parentRefs) -}}
{{- $message := print
  "inferencePool.httpRoute.enabled is true but inferencePool.httpRoute.parentRefs is empty: a route without a parent "
  "Gateway receives no traffic. Add the Gateway, such as parentRefs: [{name: inference-gateway}], or set "
  "inferencePool.httpRoute.enabled: false." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}
