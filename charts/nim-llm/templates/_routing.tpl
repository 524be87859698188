{{/* ---------------------------------------------------------------------------
Inference Gateway routing (Gateway API Inference Extension): the InferencePool's target port and selector, the
InferenceObjective's apiVersion. Templates: inferencepool.yaml, httproute.yaml, inferenceobjective.yaml. The endpoint
picker: _picker.tpl. Rules: _preflight_routing.tpl.
--------------------------------------------------------------------------- */}}

{{/* The InferenceObjective's apiVersion: inferencePool.objective.apiVersion, else <the picker's group>/v1alpha2. */}}
{{- define "nim-llm.objective.apiVersion" -}}
{{- .Values.inferencePool.objective.apiVersion | default (printf "%s/v1alpha2" (include "nim-llm.epp.objectiveGroup" .)) -}}
{{- end -}}

{{/* The port of the serving pods the pool targets: inferencePool.targetPort, or model.openaiPort when 0. */}}
{{- define "nim-llm.inferencePool.targetPort" -}}
{{- $port := .Values.inferencePool.targetPort | default 0 | int -}}
{{- if eq $port 0 -}}{{- $port = .Values.model.openaiPort | int -}}{{- end -}}
{{- $port -}}
{{- end -}}

{{/* Labels the InferencePool selects on: the serving pods' selector (single-node pods, LWS leaders, MPIJob worker 0)
and inferencePool.matchLabels. */}}
{{- define "nim-llm.inferencePool.selector" -}}
{{- $selector := include "nim-llm.servingPodSelector" . | fromYaml -}}
{{- range $k, $v := .Values.inferencePool.matchLabels | default dict -}}
{{- $_ := set $selector $k $v -}}
{{- end -}}
{{- toYaml $selector -}}
{{- end -}}
