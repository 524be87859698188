{{/* ---------------------------------------------------------------------------
Preflight rules of LLM-aware autoscaling (autoscaling.nimMetrics, autoscaling.keda): metric names NIM exports (also
those the endpoint picker reads), a target per metric, KEDA triggers as KEDA's webhook takes them.
Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

{{/* Metric names the autoscaler and the endpoint picker read are names NIM exports. */}}
{{- define "nim-llm.preflight.nimMetricNames" -}}
{{- $V := .Values -}}
{{- $known := include "nim-llm.nimMetricNames" . | fromYamlArray -}}
{{- $used := list -}}
{{- if $V.autoscaling.enabled -}}
{{- range $i, $m := $V.autoscaling.nimMetrics | default list -}}
{{- $used = append $used (list (printf "autoscaling.nimMetrics[%d].name" $i) $m.name) -}}
{{- end -}}
{{- if and $V.autoscaling.keda.enabled $V.autoscaling.keda.prometheus.enabled (not $V.autoscaling.keda.prometheus.query) -}}
{{- $used = append $used (list "autoscaling.keda.prometheus.metricName" (include "nim-llm.defaultMetricName" (list $ $V.autoscaling.keda.prometheus.metricName))) -}}
{{- end -}}
{{- end -}}
{{- if and (include "nim-llm.epp.enabled" .) (include "nim-llm.epp.readsConfig" .) (not $V.inferencePool.epp.config) -}}
{{- range $k := list "queuedRequests" "runningRequests" "kvCacheUsage" -}}
{{- $used = append $used (list (printf "inferencePool.epp.engineMetrics.%s" $k) (include "nim-llm.defaultMetricName" (list $ (index $V.inferencePool.epp.engineMetrics $k)))) -}}
{{- end -}}
{{- end -}}
{{- $tag := toString ($V.image.tag | default $.Chart.AppVersion) -}}
{{- $major := include "nim-llm.nimMajorVersion" $ -}}
{{- $nim := ternary (printf "NIM %s.x, image.tag %s" $major $tag) (printf "image.tag %s: NIM 1.x names or vLLM's" $tag) (ne $major "") -}}
{{- $equivalents := include "nim-llm.vllmMetricEquivalents" $ | fromYaml -}}
{{- range $used -}}
{{- $name := toString (index . 1) -}}
{{- if not (has $name $known) -}}
{{- $hint := "" -}}
{{- if and $major (ge (atoi $major) 2) (hasKey $equivalents $name) -}}
{{- $hint = printf " NIM 2.x and later pass the vLLM backend's metrics through unchanged: write %q." (index $equivalents $name) -}}
{{- else if and $major (ge (atoi $major) 2) (eq $name "vllm:gpu_cache_usage_perc") -}}
{{- $hint = " vLLM renamed it vllm:kv_cache_usage_perc in 0.9.2 and no longer exports the old name after 0.11: write \"vllm:kv_cache_usage_perc\"." -}}
{{- else if and $major (lt (atoi $major) 2) (hasPrefix "vllm:" $name) -}}
{{- $hint = " NIM 1.x exports its own names, without the vllm: prefix of the names NIM 2.x and later pass through from vLLM." -}}
{{- range $k, $v := $equivalents -}}{{- if eq $v $name -}}{{- $hint = printf "%s Write %q." $hint $k -}}{{- end -}}{{- end -}}
{{- end -}}
{{- $message := print
  "%s is %q, a metric NIM does not export at /v1/metrics (%s): the autoscaler or the endpoint picker would never see "
  "a value.%s Use one of its names (%s), or, when your NIM exports this name, list it in "
  "metrics.additionalExportedNames." -}}
{{- include "nim-llm.fail" (printf $message (index . 0) $name $nim $hint (join ", " $known)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Each autoscaling.nimMetrics entry has the one target its type takes. */}}
{{- define "nim-llm.preflight.nimMetricTargets" -}}
{{- range $i, $m := .Values.autoscaling.nimMetrics | default list -}}
{{- $key := printf "autoscaling.nimMetrics[%d]" $i -}}
{{- if eq (len (pick $m "averageValue" "value")) 2 -}}
{{- $message := print
  "%s sets both averageValue and value: a metric has one target. Keep one of them." -}}
{{- include "nim-llm.fail" (printf $message $key) -}}
{{- else if eq (len (pick $m "averageValue" "value")) 0 -}}
{{- $message := print
  "%s has no target: set averageValue (the target per serving pod)%s." -}}
{{- include "nim-llm.fail" (printf $message $key (ternary "" " or value" (eq $m.type "Pods"))) -}}
{{- else if and (eq $m.type "Pods") (hasKey $m "value") -}}
{{- $message := print
  "%s is a Pods metric with a value target: a Pods metric is averaged over the serving pods, so its target is "
  "averageValue. Write averageValue instead of value." -}}
{{- include "nim-llm.fail" (printf $message $key) -}}
{{- end -}}
{{- if and (hasKey $m "selector") (ne $m.type "External") -}}
{{- $message := print
  "%s sets a selector, which only an External metric takes (a %s metric is read from the %s). Remove the selector, "
  "or set type: External." -}}
{{- include "nim-llm.fail" (printf $message $key $m.type
  (ternary "serving pods" "inference Service" (eq $m.type "Pods"))) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* KEDA: a mode of autoscaling, with a trigger, and scale to zero only with a trigger that can wake the release. */}}
{{- define "nim-llm.preflight.keda" -}}
{{- $V := .Values -}}
{{- $K := $V.autoscaling.keda -}}
{{- if $K.enabled -}}
{{- if not $V.autoscaling.enabled -}}
{{- $message := print
  "autoscaling.keda.enabled is true but autoscaling.enabled is false: the KEDA ScaledObject is the autoscaler's "
  "form, created only with autoscaling.enabled: true (with autoscaling.minReplicas and maxReplicas). Set "
  "autoscaling.enabled: true, or autoscaling.keda.enabled: false." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- if and $K.prometheus.enabled (not $K.prometheus.serverAddress) -}}
{{- $message := print
  "autoscaling.keda.prometheus.enabled is true but autoscaling.keda.prometheus.serverAddress is empty: KEDA has no "
  "Prometheus to query. Set it (such as http://prometheus-operated.monitoring.svc:9090), or set "
  "autoscaling.keda.prometheus.enabled: false and give autoscaling.keda.triggers." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- if and (not $K.prometheus.enabled) (not $K.triggers) -}}
{{- $message := print
  "autoscaling.keda has no trigger: autoscaling.keda.prometheus.enabled is false and autoscaling.keda.triggers is "
  "empty, and a ScaledObject scales on its triggers only. Enable the Prometheus trigger or add triggers." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- if not (kindIs "invalid" $K.idleReplicaCount) -}}
{{- if ge (int $K.idleReplicaCount) (int $V.autoscaling.minReplicas) -}}
{{- $message := print
  "autoscaling.keda.idleReplicaCount (%d) is not below autoscaling.minReplicas (%d): KEDA refuses such a "
  "ScaledObject. Set autoscaling.keda.idleReplicaCount: 0 (scale to zero) or null." -}}
{{- include "nim-llm.fail" (printf $message (int $K.idleReplicaCount) (int $V.autoscaling.minReplicas)) -}}
{{- end -}}
{{- if and (eq (int $K.idleReplicaCount) 0) (not $K.triggers) -}}
{{- $message := print
  "autoscaling.keda.idleReplicaCount is 0 but autoscaling.keda.triggers is empty: at zero replicas no serving pod "
  "exports the metrics the chart's Prometheus trigger reads, so nothing would ever wake the release. Add a trigger "
  "that is active while requests wait with no pod (the gateway's or the endpoint picker's request metric, a cron), "
  "or set autoscaling.keda.idleReplicaCount: null." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Name of the chart's Prometheus trigger in the ScaledObject (from its metric name). */}}
{{- define "nim-llm.keda.prometheusTriggerName" -}}
{{- include "nim-llm.defaultMetricName" (list . .Values.autoscaling.keda.prometheus.metricName) | replace ":" "-" | replace "_" "-" -}}
{{- end -}}

{{/* KEDA v2.18's admission webhook (apis/keda/v1alpha1 ValidateTriggers, verifyCPUMemoryScalers) on the triggers the
chart renders: names unique within the ScaledObject (the chart's Prometheus trigger's included), useCachedMetrics not
on cpu, memory or cron, and a cpu or memory trigger only on a workload whose containers request that resource. */}}
{{- define "nim-llm.preflight.kedaTriggers" -}}
{{- $V := .Values -}}
{{- $K := $V.autoscaling.keda -}}
{{- if and $V.autoscaling.enabled $K.enabled -}}
{{- $names := dict -}}
{{- if $K.prometheus.enabled -}}
{{- $_ := set $names (include "nim-llm.keda.prometheusTriggerName" .)
  "autoscaling.keda.prometheus (the chart's Prometheus trigger, named after autoscaling.keda.prometheus.metricName)" -}}
{{- end -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- range $i, $t := $K.triggers | default list -}}
{{- $key := printf "autoscaling.keda.triggers[%d]" $i -}}
{{- $type := toString $t.type -}}
{{- if and $t.useCachedMetrics (has $type (list "cpu" "memory" "cron")) -}}
{{- $message := print
  "%s sets useCachedMetrics: true on a %s trigger: KEDA's admission webhook refuses it (property "
  "\"useCachedMetrics\" is not supported for %q scaler). Remove useCachedMetrics from %s." -}}
{{- include "nim-llm.fail" (printf $message $key $type $type $key) -}}
{{- end -}}
{{- $name := toString ($t.name | default "") -}}
{{- if $name -}}
{{- if hasKey $names $name -}}
{{- $message := print
  "%s.name is %q, the name of %s too: KEDA's admission webhook refuses a ScaledObject whose triggers share a name "
  "(triggerName %q is defined multiple times). Give %s.name a name of its own." -}}
{{- include "nim-llm.fail" (printf $message $key $name (index $names $name) $name $key) -}}
{{- end -}}
{{- $_ := set $names $name $key -}}
{{- end -}}
{{- if and (has $type (list "cpu" "memory")) (has $mode (list "statefulset" "deployment")) -}}
{{- $r := $V.resources | default dict -}}
{{- $set := false -}}
{{- range $part := list "requests" "limits" -}}
{{- $q := index ((index $r $part) | default dict) $type -}}
{{- if and $q (ne (toString $q) "0") -}}{{- $set = true -}}{{- end -}}
{{- end -}}
{{- if not $set -}}
{{- $message := print
  "%s is a %s trigger but resources sets no %s request or limit for the NIM container: the install is refused by "
  "KEDA's admission webhook, which reads the workload (not on a dry run): the scaledobject has a %s trigger but the "
  "container doesn't have the %s request defined. Set resources.requests.%s, or use another trigger type." -}}
{{- include "nim-llm.fail" (printf $message $key $type $type $type $type $type) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* With KEDA the ScaledObject's triggers are the autoscaler's only metrics: autoscaling.nimMetrics and
autoscaling.metrics (HorizontalPodAutoscaler metrics) would be dropped without a word. */}}
{{- define "nim-llm.preflight.kedaDropsHpaMetrics" -}}
{{- $A := .Values.autoscaling -}}
{{- if and $A.enabled $A.keda.enabled -}}
{{- range $key := list "nimMetrics" "metrics" -}}
{{- if index $A $key -}}
{{- $message := print
  "autoscaling.%s is set but autoscaling.keda.enabled is true: KEDA's ScaledObject scales on autoscaling.keda's "
  "triggers only, so these metrics would be ignored. Write each as a trigger in autoscaling.keda.triggers (a "
  "prometheus trigger with its query and threshold), or set autoscaling.keda.enabled: false to use a "
  "HorizontalPodAutoscaler with autoscaling.%s." -}}
{{- include "nim-llm.fail" (printf $message $key $key) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
