{{/* ---------------------------------------------------------------------------
The endpoint picker of Inference Gateway routing (inferencePool.epp.*): names, labels, the picker kinds, the image,
the EndpointPickerConfig, the command line and leader election. Templates: epp-*.yaml. Rules: _preflight_picker.tpl.
--------------------------------------------------------------------------- */}}

{{/* Name of the endpoint picker's objects (Deployment, Service, ServiceAccount, Role, RoleBinding, ConfigMap). */}}
{{- define "nim-llm.epp.name" -}}
{{- printf "%s-epp" (include "nim-llm.fullname" .) -}}
{{- end -}}

{{/* Labels of the endpoint picker's pods, and its Deployment's and Service's selector. Its app.kubernetes.io/name is
not the chart's: the StatefulSet, Deployment and PodDisruptionBudget of the model select on the chart's name and
instance, and must never count the picker's pod among the model's: the name is cut to 59 characters before -epp is
added, so the suffix is never cut off (preflight.selectorsDisjoint refuses the one name that would still match). */}}
{{- define "nim-llm.epp.selectorLabels" -}}
app.kubernetes.io/name: {{ printf "%s-epp" (include "nim-llm.name" . | trunc 59 | trimSuffix "-") | quote }}
app.kubernetes.io/instance: {{ .Release.Name | quote }}
app.kubernetes.io/component: endpoint-picker
{{- end -}}

{{/* The Lease of the endpoint picker's leader election (several replicas), as the picker names it from its pool
(gateway-api-inference-extension pkg/epp/server/controller_manager.go, v1.5.0). */}}
{{- define "nim-llm.epp.leaseName" -}}
{{- printf "epp-%s-%s.gateway-api-inference-extension.sigs.k8s.io" .Release.Namespace (include "nim-llm.fullname" .) -}}
{{- end -}}

{{/* Name of the ClusterRole (and its binding) that lets the endpoint picker authenticate and authorize its metrics
callers (TokenReview, SubjectAccessReview): cluster-wide objects, so the namespace is part of the name. */}}
{{- define "nim-llm.epp.metricsAuthName" -}}
{{- printf "%s-%s-epp-metrics-auth" .Release.Namespace (include "nim-llm.fullname" .) -}}
{{- end -}}

{{/* Whether the release runs an endpoint picker of its own ("true" or ""): inferencePool.enabled and
inferencePool.epp.enabled. Without one the InferencePool has no endpointPickerRef (optional since GAIE v1.6.0, for a
gateway that balances the pool itself) and no picker object is rendered. */}}
{{- define "nim-llm.epp.enabled" -}}
{{- if and .Values.inferencePool.enabled .Values.inferencePool.epp.enabled -}}true{{- end -}}
{{- end -}}

{{/* What each endpoint picker the chart knows reads (inferencePool.epp.picker), from their sources:
  epp           GAIE v1.5.0 cmd/epp: an EndpointPickerConfig file, the pods' metrics, InferenceObjectives of
                inference.networking.x-k8s.io (pkg/epp/server/options.go, config/charts/epplib); leader election.
  lwepp         GAIE v1.6.0 cmd/lwepp: round robin over the pool's Ready pods; no config file, no metrics, no objectives,
                no leader election (pkg/lwepp/server/options.go, handlers/server.go).
  llm-d-router  llm-d-router (GAIE's full picker since May 2026): as epp, with InferenceObjectives of llm-d.ai; not run
                here (its module is not served by the Go module proxy).
objectiveGroup is "" for a picker that reads no InferenceObjective. */}}
{{- define "nim-llm.epp.pickers" -}}
epp:
  objectiveGroup: inference.networking.x-k8s.io
  config: true
  leaderElection: true
  repository: registry.k8s.io/gateway-api-inference-extension/epp
lwepp:
  objectiveGroup: ""
  config: false
  leaderElection: false
  repository: registry.k8s.io/gateway-api-inference-extension/lwepp
llm-d-router:
  objectiveGroup: llm-d.ai
  config: true
  leaderElection: true
  repository: ""
{{- end -}}

{{/* The entry of "nim-llm.epp.pickers" for inferencePool.epp.picker (a dict). */}}
{{- define "nim-llm.epp.picker" -}}
{{- toYaml (index (include "nim-llm.epp.pickers" . | fromYaml) (.Values.inferencePool.epp.picker | default "epp")) -}}
{{- end -}}

{{/* The API group whose InferenceObjectives the picker reads (RBAC, and the objective's apiVersion):
inferencePool.epp.objectiveGroup, else the picker's own; "" for a picker that reads none. */}}
{{- define "nim-llm.epp.objectiveGroup" -}}
{{- .Values.inferencePool.epp.objectiveGroup | default (include "nim-llm.epp.picker" . | fromYaml).objectiveGroup -}}
{{- end -}}

{{/* Whether the picker reads the chart's EndpointPickerConfig (the ConfigMap, its volume, the --config-file argument)
and scrapes the serving pods' metrics ("true" or ""). */}}
{{- define "nim-llm.epp.readsConfig" -}}
{{- if (include "nim-llm.epp.picker" . | fromYaml).config -}}true{{- end -}}
{{- end -}}

{{/* Whether the chart's arguments turn leader election on ("true" or ""): more than one replica of a picker that has it
(what the picker then does is "nim-llm.epp.leaderElection", read from its arguments). GAIE
v1.6.0's lightweight picker has none: each replica answers on its own (round robin needs no leader). */}}
{{- define "nim-llm.epp.pickerLeaderElection" -}}
{{- if and (gt (int .Values.inferencePool.epp.replicas) 1) (include "nim-llm.epp.picker" . | fromYaml).leaderElection -}}true{{- end -}}
{{- end -}}

{{/* The endpoint picker's image: <repository>:<tag>, <repository>@<digest> or both. */}}
{{- define "nim-llm.epp.image" -}}
{{- $image := .Values.inferencePool.epp.image -}}
{{- $ref := $image.repository -}}
{{- with toString ($image.tag | default "") -}}{{- $ref = printf "%s:%s" $ref . -}}{{- end -}}
{{- with toString ($image.digest | default "") -}}{{- $ref = printf "%s@%s" $ref . -}}{{- end -}}
{{- $ref -}}
{{- end -}}

{{/* The endpoint picker's EndpointPickerConfig: inferencePool.epp.config, else GAIE v1.5's default scorers (queue,
KV-cache utilization, prefix cache) reading NIM's metrics from inferencePool.epp.modelServerMetricsPath through an
engine config named nim, the default engine of every pod. */}}
{{- define "nim-llm.epp.config" -}}
{{- $epp := .Values.inferencePool.epp -}}
{{- if $epp.config -}}
{{- toYaml $epp.config -}}
{{- else -}}
apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
  - type: queue-scorer
  - type: kv-cache-utilization-scorer
  - type: prefix-cache-scorer
  - type: metrics-data-source
    parameters:
      scheme: http
      path: {{ $epp.modelServerMetricsPath | quote }}
  - type: core-metrics-extractor
    parameters:
      defaultEngine: nim
      engineConfigs:
        - name: nim
          queuedRequestsSpec: {{ include "nim-llm.defaultMetricName" (list . $epp.engineMetrics.queuedRequests) | quote }}
          runningRequestsSpec: {{ include "nim-llm.defaultMetricName" (list . $epp.engineMetrics.runningRequests) | quote }}
          kvUsageSpec: {{ include "nim-llm.defaultMetricName" (list . $epp.engineMetrics.kvCacheUsage) | quote }}
          loraSpec: ""
          cacheInfoSpec: ""
schedulingProfiles:
  - name: default
    plugins:
      - pluginRef: queue-scorer
        weight: 2
      - pluginRef: kv-cache-utilization-scorer
        weight: 2
      - pluginRef: prefix-cache-scorer
        weight: 3
{{- end -}}
{{- end -}}

{{/* File name of the config in the ConfigMap, and where the picker reads it. */}}
{{- define "nim-llm.epp.configFile" -}}
/config/endpoint-picker.yaml
{{- end -}}

{{/* The endpoint picker's arguments (list): inferencePool.epp.args when set, else the pool it serves, its config,
its ports and NIM's metrics path, then inferencePool.epp.extraArgs. Metrics callers are authenticated and authorized
(TokenReview, SubjectAccessReview: epp-clusterrole.yaml) unless inferencePool.epp.metricsAuth is false, and tracing is
off (it would export to an OTLP collector on localhost). GAIE v1.6.0's lightweight picker (lwepp) takes only the pool,
the ports and zap's flags: it has no config file, metrics-auth, tracing or leader-election flag, and exits on a flag it
does not know. */}}
{{- define "nim-llm.epp.args" -}}
{{- $epp := .Values.inferencePool.epp -}}
{{- $args := list -}}
{{- if $epp.args -}}
{{- $args = $epp.args -}}
{{- else -}}
{{- $args = list "--pool-name" (include "nim-llm.fullname" .) "--pool-namespace" .Release.Namespace "--pool-group" $epp.poolGroup -}}
{{- if include "nim-llm.epp.readsConfig" . -}}
{{- $args = concat $args (list "--config-file" (include "nim-llm.epp.configFile" .)) -}}
{{- end -}}
{{- $args = concat $args (list "--grpc-port" "9002" "--grpc-health-port" "9003" "--metrics-port" "9090") -}}
{{- if include "nim-llm.epp.readsConfig" . -}}
{{- $args = concat $args (list (printf "--metrics-endpoint-auth=%t" (and $epp.metricsAuth true)) "--tracing=false") -}}
{{- end -}}
{{- $args = concat $args (list "--zap-encoder" "json") -}}
{{- if include "nim-llm.epp.pickerLeaderElection" . -}}
{{- $args = append $args "--ha-enable-leader-election" -}}
{{- end -}}
{{- end -}}
{{- toYaml (concat $args ($epp.extraArgs | default list)) -}}
{{- end -}}

{{/* The endpoint picker's command line as GAIE v1.5.0's pflag parser reads it (pkg/epp/server/options.go): a list of
{flag, value, key} in order, where flag is the long name without dashes, value the text after '=' or the next argument
(a boolean flag takes no next argument: "true" unless written --flag=false), and key the values key the argument came
from (inferencePool.epp.args[i] or inferencePool.epp.extraArgs[i]; "the chart's arguments" for the chart's own). An
argument that is not a long flag is kept with an empty flag. */}}
{{- define "nim-llm.epp.parsedArgs" -}}
{{- $epp := .Values.inferencePool.epp -}}
{{- $booleans := list "ha-enable-leader-election" "disable-endpoint-subset-filter" "model-server-metrics-https-insecure-skip-verify"
  "tracing" "health-checking" "enable-pprof" "enable-cert-reload" "secure-serving" "metrics-endpoint-auth" "zap-devel" "help" -}}
{{- $sources := list -}}
{{- if $epp.args -}}
{{- range $i, $a := $epp.args -}}{{- $sources = append $sources (list (toString $a) (printf "inferencePool.epp.args[%d]" $i)) -}}{{- end -}}
{{- else -}}
{{- $chart := include "nim-llm.epp.args" . | fromYamlArray -}}
{{- $chart = slice $chart 0 (sub (len $chart) (len ($epp.extraArgs | default list))) -}}
{{- range $chart -}}{{- $sources = append $sources (list (toString .) "the chart's arguments") -}}{{- end -}}
{{- end -}}
{{- range $i, $a := $epp.extraArgs | default list -}}{{- $sources = append $sources (list (toString $a) (printf "inferencePool.epp.extraArgs[%d]" $i)) -}}{{- end -}}
{{- $out := list -}}
{{- $skip := false -}}
{{- range $i, $s := $sources -}}
{{- if $skip -}}
{{- $skip = false -}}
{{- else -}}
{{- $a := index $s 0 -}}
{{- if and (hasPrefix "--" $a) (gt (len $a) 2) -}}
{{- $parts := splitn "=" 2 (trimPrefix "--" $a) -}}
{{- $name := $parts._0 -}}
{{- $value := "" -}}
{{- if contains "=" $a -}}
{{- $value = $parts._1 -}}
{{- else if has $name $booleans -}}
{{- $value = "true" -}}
{{- else if lt (add1 $i) (len $sources) -}}
{{- $value = index (index $sources (add1 $i)) 0 -}}
{{- $skip = true -}}
{{- end -}}
{{- $out = append $out (dict "flag" $name "value" $value "key" (index $s 1)) -}}
{{- else if and (hasPrefix "-" $a) (gt (len $a) 1) -}}
{{- /* A one-dash argument is a shorthand for pflag: the picker's only one is -v (a number, next or after '='). */ -}}
{{- $parts := splitn "=" 2 (trimPrefix "-" $a) -}}
{{- $value := "" -}}
{{- if contains "=" $a -}}
{{- $value = $parts._1 -}}
{{- else if and (eq $parts._0 "v") (lt (add1 $i) (len $sources)) -}}
{{- $value = index (index $sources (add1 $i)) 0 -}}
{{- $skip = true -}}
{{- end -}}
{{- $out = append $out (dict "flag" (ternary "v" (printf "-%s" $parts._0) (eq $parts._0 "v")) "value" $value "key" (index $s 1)) -}}
{{- else -}}
{{- $out = append $out (dict "flag" "" "value" $a "key" (index $s 1)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* Whether the endpoint picker runs with leader election ("true" or ""): the last --ha-enable-leader-election of its
command line (the chart's when inferencePool.epp.replicas > 1). Its probes and its Role follow it: under leader
election GAIE v1.5.0's health server answers the services "liveness" and "readiness" (cmd/epp/runner/health.go) and
the picker needs leases. */}}
{{- define "nim-llm.epp.leaderElection" -}}
{{- $on := false -}}
{{- range include "nim-llm.epp.parsedArgs" . | fromYamlArray -}}
{{- if eq .flag "ha-enable-leader-election" -}}{{- $on = eq (lower (toString .value)) "true" -}}{{- end -}}
{{- end -}}
{{- if $on -}}true{{- end -}}
{{- end -}}
