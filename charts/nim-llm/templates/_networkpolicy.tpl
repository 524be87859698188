{{/* ---------------------------------------------------------------------------
Pod selectors of the NetworkPolicies (networkpolicy.yaml, epp-networkpolicy.yaml), by the labels the pods carry.
--------------------------------------------------------------------------- */}}

{{/* The model's own pods (single-node, LWS leaders and workers, MPIJob launcher and workers): the chart's selector
labels and a model component; never the helm test pod (which has the selector labels too), the pre-fill Job's pod or
the endpoint picker's (LabelSelector). */}}
{{- define "nim-llm.networkPolicy.modelPodSelector" -}}
matchLabels:
  {{- include "nim-llm.selectorLabels" . | nindent 2 }}
matchExpressions:
  - key: app.kubernetes.io/component
    operator: In
    values: [inference, leader, worker, launcher]
{{- end -}}
