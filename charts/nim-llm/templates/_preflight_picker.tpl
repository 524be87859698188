{{/* ---------------------------------------------------------------------------
Preflight rules of the endpoint picker (inferencePool.epp.*): a pinned image, the image of the picker it names, a
config only for a picker that reads one, its flags, and InferenceObjectives in the group the picker reads.
Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

{{/* The endpoint picker's image is pinned: a moving image would change the picker under a running release. */}}
{{- define "nim-llm.preflight.eppImagePinned" -}}
{{- $image := .Values.inferencePool.epp.image -}}
{{- if and (include "nim-llm.epp.enabled" .) (not (toString ($image.tag | default ""))) (not (toString ($image.digest | default ""))) -}}
{{- $message := print
  "inferencePool.epp.image has neither a tag nor a digest (repository %s): the endpoint picker would run whatever "
  "the registry's default tag points to at each pod start. Set inferencePool.epp.image.tag (such as v1.5.0) or "
  "inferencePool.epp.image.digest (sha256:...)." -}}
{{- include "nim-llm.fail" (printf $message $image.repository) -}}
{{- end -}}
{{- end -}}

{{/* GAIE's own picker images are the picker inferencePool.epp.picker names: the arguments, config and RBAC follow the
picker, and each picker exits on the other's flags (lwepp knows no --config-file). Only GAIE's published repositories
are recognised; a mirror of them is not checked. */}}
{{- define "nim-llm.preflight.pickerImage" -}}
{{- $E := .Values.inferencePool.epp -}}
{{- if include "nim-llm.epp.enabled" . -}}
{{- $pickers := include "nim-llm.epp.pickers" . | fromYaml -}}
{{- range $name, $p := $pickers -}}
{{- if and $p.repository (eq (toString $E.image.repository) $p.repository) (ne $name $E.picker) -}}
{{- $want := (index $pickers $E.picker).repository -}}
{{- $fix := "set inferencePool.epp.image.repository to llm-d-router's image" -}}
{{- if $want -}}
{{- $fix = printf "set inferencePool.epp.image.repository: %s and its tag (such as %s)"
  $want (ternary "v1.6.0" "v1.5.0" (eq $E.picker "lwepp")) -}}
{{- end -}}
{{- $message := print
  "inferencePool.epp.image.repository is %s, the image of GAIE's %s picker, but inferencePool.epp.picker is %s: the "
  "chart would give that image the arguments, config and permissions of %s, and a picker exits on a flag it does not "
  "know. Set inferencePool.epp.picker: %s, or %s." -}}
{{- include "nim-llm.fail" (printf $message $p.repository $name $E.picker $E.picker $name $fix) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* An EndpointPickerConfig only for a picker that reads one: GAIE v1.6.0's lightweight picker has no config file. */}}
{{- define "nim-llm.preflight.pickerConfig" -}}
{{- $E := .Values.inferencePool.epp -}}
{{- if and (include "nim-llm.epp.enabled" .) $E.config (not (include "nim-llm.epp.readsConfig" .)) -}}
{{- $message := print
  "inferencePool.epp.config is set but inferencePool.epp.picker is %s, which reads no EndpointPickerConfig (GAIE "
  "v1.6.0's lightweight picker picks round robin and has no --config-file): the config would change nothing. Remove "
  "inferencePool.epp.config, or set inferencePool.epp.picker: epp (GAIE v1.5.0) or llm-d-router." -}}
{{- include "nim-llm.fail" (printf $message $E.picker) -}}
{{- end -}}
{{- end -}}

{{/* An InferenceObjective is rendered only for a picker of the release that reads it, in the API group it reads:
GAIE v1.5.0's picker (epp) reads inference.networking.x-k8s.io, llm-d-router reads llm-d.ai, GAIE v1.6.0's
lightweight picker (lwepp) reads none. inferencePool.epp.objectiveGroup (RBAC) likewise names the picker's group. */}}
{{- define "nim-llm.preflight.objectiveForPicker" -}}
{{- $P := .Values.inferencePool -}}
{{- if $P.enabled -}}
{{- $reads := (include "nim-llm.epp.picker" . | fromYaml).objectiveGroup -}}
{{- $readers := print "inferencePool.epp.picker: epp (GAIE v1.5.0, reads inference.networking.x-k8s.io) "
  "or llm-d-router (reads llm-d.ai)" -}}
{{- if and $P.objective.enabled (not $P.epp.enabled) -}}
{{- $message := print
  "inferencePool.objective.enabled is true but inferencePool.epp.enabled is false: no endpoint picker of this "
  "release reads the InferenceObjective, so its priority would change nothing. Set inferencePool.objective.enabled: "
  "false, or inferencePool.epp.enabled: true with %s." -}}
{{- include "nim-llm.fail" (printf $message $readers) -}}
{{- else if and $P.objective.enabled (not $reads) -}}
{{- $message := print
  "inferencePool.objective.enabled is true but inferencePool.epp.picker is %s, which reads no InferenceObjective "
  "(GAIE v1.6.0's lightweight picker picks round robin): its priority would change nothing. Set "
  "inferencePool.objective.enabled: false, or %s." -}}
{{- include "nim-llm.fail" (printf $message $P.epp.picker $readers) -}}
{{- else if and $P.objective.enabled $P.objective.apiVersion (ne (first (splitList "/" $P.objective.apiVersion)) $reads) -}}
{{- $message := print
  "inferencePool.objective.apiVersion is %s but inferencePool.epp.picker is %s, which reads InferenceObjectives of "
  "%s only: the picker would never see this one. Set inferencePool.objective.apiVersion: %s/v1alpha2 or leave it "
  "empty (the picker's group), or set %s." -}}
{{- include "nim-llm.fail" (printf $message $P.objective.apiVersion $P.epp.picker $reads $reads $readers) -}}
{{- end -}}
{{- if and $P.epp.enabled $P.epp.objectiveGroup (ne $P.epp.objectiveGroup $reads) -}}
{{- $fix := "Leave it empty" -}}
{{- $what := "no InferenceObjective" -}}
{{- if $reads -}}
{{- $fix = printf "Set it to %s or leave it empty (the picker's group)" $reads -}}
{{- $what = printf "InferenceObjectives of %s" $reads -}}
{{- end -}}
{{- $message := print
  "inferencePool.epp.objectiveGroup is %s but inferencePool.epp.picker is %s, which reads %s: the chart's Role would "
  "let the picker read objectives it never reads. %s, or set %s." -}}
{{- include "nim-llm.fail" (printf $message $P.epp.objectiveGroup $P.epp.picker $what $fix $readers) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The endpoint picker's command line, as GAIE v1.5.0 reads it (pkg/epp/server/options.go Validate; a repeated flag:
the last wins): no metric flag it exits on, no flag that repeats one the chart derives from a key, ports that are the
ones its Service, containerPorts and probes use, a pool, and one config source. */}}
{{- define "nim-llm.preflight.eppArgs" -}}
{{- $epp := .Values.inferencePool.epp -}}
{{- if .Values.inferencePool.enabled -}}
{{- $fullname := include "nim-llm.fullname" . -}}
{{- $deprecated := dict
  "total-queued-requests-metric" "inferencePool.epp.engineMetrics.queuedRequests"
  "total-running-requests-metric" "inferencePool.epp.engineMetrics.runningRequests"
  "kv-cache-usage-percentage-metric" "inferencePool.epp.engineMetrics.kvCacheUsage"
  "lora-info-metric" "inferencePool.epp.config (loraSpec of an engineConfigs entry)"
  "cache-info-metric" "inferencePool.epp.config (cacheInfoSpec of an engineConfigs entry)" -}}
{{- $owners := dict
  "pool-name" (printf "the release's InferencePool, %s (the release name, or fullnameOverride)" $fullname)
  "pool-namespace" (printf "the release namespace, %s" .Release.Namespace)
  "pool-group" "inferencePool.epp.poolGroup"
  "config-file" "inferencePool.epp.config"
  "grpc-port" "the chart (9002: the picker's Service and containerPort grpc-ext-proc)"
  "grpc-health-port" "the chart (9003: the containerPort grpc-health its probes ask)"
  "metrics-port" "the chart (9090: the containerPort http-metrics)"
  "ha-enable-leader-election" "inferencePool.epp.replicas (leader election with more than 1)"
  "metrics-endpoint-auth" "the chart (false: the check needs a ClusterRole)"
  "tracing" "the chart (false)" "zap-encoder" "the chart (json)" -}}
{{- $expected := dict "pool-name" $fullname "pool-namespace" .Release.Namespace "pool-group" (toString $epp.poolGroup)
  "config-file" (include "nim-llm.epp.configFile" .) "grpc-port" "9002" "grpc-health-port" "9003" "metrics-port" "9090" -}}
{{- $seen := dict -}}
{{- $gaie := contains "gateway-api-inference-extension" (toString $epp.image.repository) -}}
{{- range include "nim-llm.epp.parsedArgs" . | fromYamlArray -}}
{{- $flag := .flag -}}
{{- if and $flag $gaie -}}
{{- include "nim-llm.preflight.eppFlagKnown" . -}}
{{- end -}}
{{- if $flag -}}
{{- if hasKey $deprecated $flag -}}
{{- $message := print
  "%s is --%s, a flag GAIE v1.5's endpoint picker exits on at start (flag %q is deprecated and cannot be used; "
  "configure metrics via engineConfigs in EndpointPickerConfig instead). Remove it and set %s." -}}
{{- include "nim-llm.fail" (printf $message .key $flag $flag (index $deprecated $flag)) -}}
{{- end -}}
{{- if hasKey $seen $flag -}}
{{- $owner := "" -}}
{{- $fix := "" -}}
{{- if hasKey $owners $flag -}}
{{- $owner = printf ", which %s owns" (index $owners $flag) -}}
{{- if hasPrefix "inferencePool" (index $owners $flag) -}}
{{- $fix = printf ", and set %s instead" (index $owners $flag) -}}
{{- end -}}
{{- end -}}
{{- $message := print
  "%s repeats --%s, already given by %s%s: the endpoint picker keeps only the last, so one of them is silently lost. "
  "Remove it from %s%s." -}}
{{- include "nim-llm.fail" (printf $message .key $flag (index $seen $flag) $owner .key $fix) -}}
{{- end -}}
{{- $_ := set $seen $flag .key -}}
{{- if and (hasKey $expected $flag) (ne (toString .value) (index $expected $flag)) -}}
{{- $would := "watch an InferencePool or read a config file the release does not have" -}}
{{- if hasSuffix "port" $flag -}}
{{- $would = "serve on another port than the one its Service, containerPort and probes use" -}}
{{- end -}}
{{- $message := print
  "%s sets --%s %s, but %s is %s: the endpoint picker would %s. Write --%s=%s, or leave the flag out "
  "(inferencePool.epp.args empty gives the chart's arguments)." -}}
{{- include "nim-llm.fail" (printf $message .key $flag (toString .value) (index $owners $flag) (index $expected $flag)
  $would $flag (index $expected $flag)) -}}
{{- end -}}
{{- if and (eq $flag "model-server-metrics-scheme") (not (has (toString .value) (list "http" "https"))) -}}
{{- $message := print
  "%s sets --model-server-metrics-scheme %s: the endpoint picker exits at start on any scheme but http or https. "
  "Write http or https." -}}
{{- include "nim-llm.fail" (printf $message .key (toString .value)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if and (hasKey $seen "endpoint-selector") (hasKey $seen "pool-name") -}}
{{- $message := print
  "%s sets --endpoint-selector, and %s --pool-name: the endpoint picker exits at start (either pool-name or "
  "endpoint-selector must be set), and the release's InferencePool is what it serves. Remove --endpoint-selector." -}}
{{- include "nim-llm.fail" (printf $message (index $seen "endpoint-selector") (index $seen "pool-name")) -}}
{{- end -}}
{{- if not (hasKey $seen "pool-name") -}}
{{- $message := print
  "inferencePool.epp.args has no --pool-name: the endpoint picker exits at start (either pool-name or "
  "endpoint-selector must be set). Add --pool-name=%s, or leave inferencePool.epp.args empty for the chart's "
  "arguments." -}}
{{- include "nim-llm.fail" (printf $message $fullname) -}}
{{- end -}}
{{- if and (hasKey $seen "config-text") (hasKey $seen "config-file") -}}
{{- $message := print
  "%s sets --config-text, and %s --config-file: the endpoint picker exits at start (both can not be set at the same "
  "time). Put the configuration in inferencePool.epp.config and remove --config-text." -}}
{{- include "nim-llm.fail" (printf $message (index $seen "config-text") (index $seen "config-file")) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The InferenceObjective is of the API group the endpoint picker reads, and its Role may read it: GAIE v1.x's picker
reads inference.networking.x-k8s.io/v1alpha2 only (pkg/epp/server/controller_config.go); llm-d-router's llm-d.ai. */}}
{{- define "nim-llm.preflight.objectiveGroup" -}}
{{- $P := .Values.inferencePool -}}
{{- if $P.enabled -}}
{{- $gaie := contains "gateway-api-inference-extension" (toString $P.epp.image.repository) -}}
{{- $og := include "nim-llm.epp.objectiveGroup" . -}}
{{- if and $gaie $og (ne $og "inference.networking.x-k8s.io") -}}
{{- $message := print
  "inferencePool.epp.objectiveGroup is %q, but the endpoint picker image %s (GAIE v1.x) reads InferenceObjectives of "
  "inference.networking.x-k8s.io only: its Role would not let it read them (its watch of InferenceObjectives is "
  "forbidden), so no objective would ever be applied. Set inferencePool.epp.objectiveGroup: "
  "inference.networking.x-k8s.io, or use llm-d-router's picker image." -}}
{{- include "nim-llm.fail" (printf $message $og (toString $P.epp.image.repository)) -}}
{{- end -}}
{{- if and $P.objective.enabled $og -}}
{{- $group := first (splitList "/" (include "nim-llm.objective.apiVersion" .)) -}}
{{- if ne $group $og -}}
{{- $message := print
  "inferencePool.objective.apiVersion is %s, but the endpoint picker reads InferenceObjectives of %s "
  "(inferencePool.epp.objectiveGroup): the objective would be created and never applied. Set "
  "inferencePool.objective.apiVersion to %s/v1alpha2, or inferencePool.epp.objectiveGroup to %s with a picker image "
  "that reads that group." -}}
{{- include "nim-llm.fail" (printf $message (include "nim-llm.objective.apiVersion" .) $og $og $group) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* One flag of GAIE v1.5.0's endpoint picker ({flag, value, key} of nim-llm.epp.parsedArgs): a flag it defines
(pkg/epp/server/options.go, its logging options and controller-runtime's zap flags), with a value its type parses:
pflag exits at start on an unknown flag or a value it cannot parse, and --help prints the usage and exits. */}}
{{- define "nim-llm.preflight.eppFlagKnown" -}}
{{- $types := dict
  "grpc-port" "int" "grpc-health-port" "int" "metrics-port" "int" "model-server-metrics-port" "int" "v" "int"
  "endpoint-target-ports" "ints" "refresh-metrics-interval" "duration" "refresh-prometheus-metrics-interval" "duration"
  "metrics-staleness-threshold" "duration" "ha-enable-leader-election" "bool" "disable-endpoint-subset-filter" "bool"
  "model-server-metrics-https-insecure-skip-verify" "bool" "tracing" "bool" "health-checking" "bool" "enable-pprof" "bool"
  "enable-cert-reload" "bool" "secure-serving" "bool" "metrics-endpoint-auth" "bool" "zap-devel" "bool"
  "pool-group" "text" "pool-namespace" "text" "pool-name" "text" "endpoint-selector" "text"
  "model-server-metrics-scheme" "text" "model-server-metrics-path" "text" "total-queued-requests-metric" "text"
  "total-running-requests-metric" "text" "kv-cache-usage-percentage-metric" "text" "lora-info-metric" "text"
  "cache-info-metric" "text" "cert-path" "text" "config-file" "text" "config-text" "text"
  "zap-encoder" "json|console" "zap-log-level" "debug|info|error|panic" "zap-stacktrace-level" "info|error|panic"
  "zap-time-encoding" "epoch|millis|nano|iso8601|rfc3339|rfc3339nano" -}}
{{- $flag := .flag -}}
{{- $value := toString .value -}}
{{- $shown := printf "--%s" $flag -}}
{{- if eq $flag "v" -}}{{- $shown = "-v" -}}{{- else if hasPrefix "-" $flag -}}{{- $shown = $flag -}}{{- end -}}
{{- if or (eq $flag "help") (eq $flag "-h") -}}
{{- $message := print
  "%s is %s: the endpoint picker prints its usage and exits. Remove it." -}}
{{- include "nim-llm.fail" (printf $message .key $shown) -}}
{{- else if not (hasKey $types $flag) -}}
{{- $message := print
  "%s is %s, a flag GAIE v1.5.0's endpoint picker does not have: it exits at start (unknown flag). Use one of its "
  "flags (%s), or another picker image." -}}
{{- include "nim-llm.fail" (printf $message .key $shown (keys $types | sortAlpha | join ", ")) -}}
{{- else -}}
{{- $type := index $types $flag -}}
{{- $ok := true -}}
{{- if eq $type "int" -}}{{- $ok = regexMatch "^[-+]?[0-9]+$" $value -}}
{{- else if eq $type "ints" -}}{{- $ok = regexMatch "^[-+]?[0-9]+(,[-+]?[0-9]+)*$" $value -}}
{{- else if eq $type "duration" -}}{{- $ok = regexMatch "^[-+]?(0|(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|ms|s|m|h))+)$" $value -}}
{{- else if eq $type "bool" -}}{{- $ok = has $value (list "1" "t" "T" "TRUE" "true" "True" "0" "f" "F" "FALSE" "false" "False") -}}
{{- else if ne $type "text" -}}{{- $ok = has (lower $value) (splitList "|" $type) -}}
{{- end -}}
{{- if not $ok -}}
{{- $want := get (dict "int" "a whole number" "ints" "whole numbers separated by commas" "duration" "a Go duration such as 100ms or 5s"
  "bool" "true or false") $type | default (printf "one of %s" (replace "|" ", " $type)) -}}
{{- $message := print
  "%s sets %s to %q, which the endpoint picker cannot parse: it exits at start (invalid argument). Write %s." -}}
{{- include "nim-llm.fail" (printf $message .key $shown $value $want) -}}
{{- end -}}
{{- end -}}
{{- end -}}
