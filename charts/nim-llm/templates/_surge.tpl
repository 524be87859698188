{{/* ---------------------------------------------------------------------------
Group counts of a LeaderWorkerSet during a rolling update. With
multiNode.leaderWorkerSet.maxSurge above 0 the LWS controller adds surge groups
while it updates, numbered after the others (replicas .. replicas + surge - 1),
so everything the chart makes per group index (the group NetworkPolicies, the
names and labels it checks) must count them too.
--------------------------------------------------------------------------- */}}

{{/* An intOrString count or percentage scaled to a total as Kubernetes' intstr.GetScaledValueFromIntOrPercent does:
an integer as it is, "N%" of the total rounded up (roundUp) or down.
Usage: include "nim-llm.scaledIntOrPercent" (dict "value" $v "total" $n "roundUp" true) */}}
{{- define "nim-llm.scaledIntOrPercent" -}}
{{- $total := int64 .total -}}
{{- if not (kindIs "string" .value) -}}
{{- int64 .value -}}
{{- else -}}
{{- $v := .value -}}
{{- if hasSuffix "%" $v -}}
{{- $p := trimSuffix "%" $v | atoi | int64 -}}
{{- if .roundUp -}}
{{- div (add (mul $p $total) 99) 100 -}}
{{- else -}}
{{- div (mul $p $total) 100 -}}
{{- end -}}
{{- else -}}
{{- atoi $v -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The LeaderWorkerSet's replicas as its webhook sees them on create: replicaCount, or the CRD's default 1 when the
autoscaler owns the count (the chart leaves spec.replicas out). */}}
{{- define "nim-llm.lwsCreateReplicas" -}}
{{- ternary 1 (int .Values.replicaCount) .Values.autoscaling.enabled -}}
{{- end -}}

{{/* How many group indexes a LeaderWorkerSet may use: its most groups (replicaCount, or autoscaling.maxReplicas when
the autoscaler owns the count) plus the surge groups of a rolling update (maxSurge of that count, a percentage rounded
up, at most that count, as the LWS controller scales it). */}}
{{- define "nim-llm.lwsGroupSlots" -}}
{{- $groups := ternary (int .Values.autoscaling.maxReplicas) (int .Values.replicaCount) .Values.autoscaling.enabled -}}
{{- $surge := include "nim-llm.scaledIntOrPercent" (dict "value" .Values.multiNode.leaderWorkerSet.maxSurge "total" $groups "roundUp" true) | int -}}
{{- /* The controller never surges by more groups than it has (lws v0.9.0: maxSurge capped at replicas). */ -}}
{{- add $groups (min $surge $groups) -}}
{{- end -}}
