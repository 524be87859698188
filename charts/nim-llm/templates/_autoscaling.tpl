{{/* ---------------------------------------------------------------------------
LLM-aware autoscaling: the metric names NIM exports, the autoscaler's target and autoscaling.nimMetrics as
MetricSpecs. Templates: horizontalpodautoscaler.yaml, scaledobject.yaml. Rules: _preflight_autoscaling.tpl.
--------------------------------------------------------------------------- */}}

{{/* Metric names NIM for LLMs exports at /v1/metrics, by the NIM version of image.tag: NIM 1.x its own names as NVIDIA
documents them (Observability for NVIDIA NIM for LLMs); NIM 2.x and later pass the vLLM backend's metrics through
unchanged (NIM LLM 2.x "Logging and Observability"), so vLLM V1's names; both when the tag is not a version (latest, a
digest); plus metrics.additionalExportedNames (list). */}}
{{- define "nim-llm.nimMetricNames" -}}
{{- $nim1 := list "gpu_cache_usage_perc" "num_requests_running" "num_requests_waiting" "num_request_max"
  "prompt_tokens_total" "generation_tokens_total" "request_success_total" "request_failure_total"
  "time_to_first_token_seconds" "time_per_output_token_seconds" "e2e_request_latency_seconds"
  "request_prompt_tokens" "request_generation_tokens" -}}
{{- $vllm := list "vllm:num_requests_running" "vllm:num_requests_waiting" "vllm:kv_cache_usage_perc"
  "vllm:prefix_cache_queries_total" "vllm:prefix_cache_hits_total" "vllm:num_preemptions_total"
  "vllm:prompt_tokens_total" "vllm:generation_tokens_total" "vllm:request_success_total"
  "vllm:time_to_first_token_seconds" "vllm:inter_token_latency_seconds" "vllm:e2e_request_latency_seconds"
  "vllm:request_queue_time_seconds" "vllm:request_prompt_tokens" "vllm:request_generation_tokens" -}}
{{- $major := include "nim-llm.nimMajorVersion" . -}}
{{- $names := concat $nim1 $vllm -}}
{{- if $major -}}{{- $names = ternary $vllm $nim1 (ge (atoi $major) 2) -}}{{- end -}}
{{- toYaml (concat $names (.Values.metrics.additionalExportedNames | default list)) -}}
{{- end -}}

{{/* NIM 1.x's metric names and the vLLM V1 names of the same signals (map). */}}
{{- define "nim-llm.vllmMetricEquivalents" -}}
num_requests_waiting: "vllm:num_requests_waiting"
num_requests_running: "vllm:num_requests_running"
gpu_cache_usage_perc: "vllm:kv_cache_usage_perc"
prompt_tokens_total: "vllm:prompt_tokens_total"
generation_tokens_total: "vllm:generation_tokens_total"
request_success_total: "vllm:request_success_total"
time_to_first_token_seconds: "vllm:time_to_first_token_seconds"
time_per_output_token_seconds: "vllm:inter_token_latency_seconds"
e2e_request_latency_seconds: "vllm:e2e_request_latency_seconds"
request_prompt_tokens: "vllm:request_prompt_tokens"
request_generation_tokens: "vllm:request_generation_tokens"
{{- end -}}

{{/* A chart default written as NIM 1.x's metric name (list: root context, name), as the NIM of image.tag exports it:
vLLM's equivalent with NIM 2.x and later, else the name unchanged. For the defaults of inferencePool.epp.engineMetrics
and autoscaling.keda.prometheus.metricName only; names the user lists in autoscaling.nimMetrics are never rewritten. */}}
{{- define "nim-llm.defaultMetricName" -}}
{{- $root := index . 0 -}}
{{- $name := toString (index . 1) -}}
{{- $equivalents := include "nim-llm.vllmMetricEquivalents" $root | fromYaml -}}
{{- if and (ge (include "nim-llm.nimMajorVersion" $root | default "0" | atoi) 2) (hasKey $equivalents $name) -}}
{{- index $equivalents $name -}}
{{- else -}}
{{- $name -}}
{{- end -}}
{{- end -}}

{{/* scaleTargetRef of the autoscaler (HorizontalPodAutoscaler or KEDA ScaledObject): the LeaderWorkerSet (its scale
subresource; its status.hpaPodSelector selects the leaders), the Deployment or the StatefulSet. */}}
{{- define "nim-llm.scaleTargetRef" -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- if eq $mode "leaderworkerset" -}}
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
{{- else if eq $mode "deployment" -}}
apiVersion: apps/v1
kind: Deployment
{{- else -}}
apiVersion: apps/v1
kind: StatefulSet
{{- end }}
name: {{ include "nim-llm.workloadName" . | quote }}
{{- end -}}

{{/* autoscaling.nimMetrics as autoscaling/v2 MetricSpecs (list). */}}
{{- define "nim-llm.nimMetricSpecs" -}}
{{- $root := . -}}
{{- $specs := list -}}
{{- range $m := .Values.autoscaling.nimMetrics | default list -}}
{{- $target := dict -}}
{{- if hasKey $m "averageValue" -}}
{{- $target = dict "type" "AverageValue" "averageValue" (toString $m.averageValue) -}}
{{- else -}}
{{- $target = dict "type" "Value" "value" (toString $m.value) -}}
{{- end -}}
{{- if eq $m.type "Pods" -}}
{{- $specs = append $specs (dict "type" "Pods" "pods" (dict "metric" (dict "name" $m.name) "target" $target)) -}}
{{- else if eq $m.type "Object" -}}
{{- $described := dict "apiVersion" "v1" "kind" "Service" "name" (include "nim-llm.serviceName" $root) -}}
{{- $specs = append $specs (dict "type" "Object" "object" (dict "describedObject" $described "metric" (dict "name" $m.name) "target" $target)) -}}
{{- else -}}
{{- $metric := dict "name" $m.name -}}
{{- with $m.selector -}}{{- $_ := set $metric "selector" (dict "matchLabels" .) -}}{{- end -}}
{{- $specs = append $specs (dict "type" "External" "external" (dict "metric" $metric "target" $target)) -}}
{{- end -}}
{{- end -}}
{{- toYaml $specs -}}
{{- end -}}
