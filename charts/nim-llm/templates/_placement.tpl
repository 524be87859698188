{{/* ---------------------------------------------------------------------------
Placement: what the one pod template (_pod.tpl) adds to a pod for GPUs by DRA,
NVLink ComputeDomains, keeping a group inside one domain, and Kueue. Each helper
takes (dict "root" $ "role" <role> "group" <MPIJob index or "">). Rules that
refuse inconsistent values are in _preflight_placement.tpl; docs/placement.md
says what each needs in the cluster.
--------------------------------------------------------------------------- */}}

{{/* Name of the chart's GPU ResourceClaimTemplate (dra.enabled without dra.resourceClaimTemplateName). */}}
{{- define "nim-llm.draGpuTemplateName" -}}
{{- printf "%s-gpus" (include "nim-llm.fullname" .) -}}
{{- end -}}

{{/* Names of the release's ComputeDomains (list): one, or one per MPIJob with scope group. */}}
{{- define "nim-llm.computeDomainNames" -}}
{{- $cd := .Values.multiNode.computeDomain -}}
{{- $base := $cd.name | default (include "nim-llm.fullname" .) -}}
{{- $names := list -}}
{{- if eq $cd.scope "group" -}}
{{- range $i := until (int .Values.replicaCount) -}}
{{- $names = append $names (printf "%s-%d" $base $i) -}}
{{- end -}}
{{- else -}}
{{- $names = list $base -}}
{{- end -}}
{{- toYaml $names -}}
{{- end -}}

{{/* Channel ResourceClaimTemplate of ComputeDomain .name (dict "root" $ "name" <ComputeDomain name>). */}}
{{- define "nim-llm.computeDomainChannelTemplate" -}}
{{- $cd := .root.Values.multiNode.computeDomain -}}
{{- if and $cd.resourceClaimTemplateName (ne $cd.scope "group") -}}
{{- $cd.resourceClaimTemplateName -}}
{{- else -}}
{{- printf "%s-channel" .name -}}
{{- end -}}
{{- end -}}

{{/* "true" when a role's pods get GPUs (every role but the MPI launcher). */}}
{{- define "nim-llm.placement.gpuPod" -}}
{{- if ne .role "launcher" -}}true{{- end -}}
{{- end -}}

{{/* Pod resourceClaims of a role (list): the GPUs (dra), the ComputeDomain channel (multi-node), dra.extraClaims. */}}
{{- define "nim-llm.placement.podClaims" -}}
{{- $V := .root.Values -}}
{{- $claims := list -}}
{{- if include "nim-llm.placement.gpuPod" . -}}
{{- if $V.dra.enabled -}}
{{- $claims = append $claims (dict "name" "gpus" "resourceClaimTemplateName" ($V.dra.resourceClaimTemplateName | default (include "nim-llm.draGpuTemplateName" .root))) -}}
{{- end -}}
{{- if and $V.multiNode.computeDomain.enabled (include "nim-llm.isMultiNode" .root) -}}
{{- $names := include "nim-llm.computeDomainNames" .root | fromYamlArray -}}
{{- $name := first $names -}}
{{- if and (eq $V.multiNode.computeDomain.scope "group") (hasKey . "group") -}}
{{- $name = index $names (int .group) -}}
{{- end -}}
{{- $claims = append $claims (dict "name" "compute-domain-channel" "resourceClaimTemplateName" (include "nim-llm.computeDomainChannelTemplate" (dict "root" .root "name" $name))) -}}
{{- end -}}
{{- range $c := $V.dra.extraClaims | default list -}}
{{- $claims = append $claims (dict "name" $c.name "resourceClaimTemplateName" $c.resourceClaimTemplateName) -}}
{{- end -}}
{{- end -}}
{{- toYaml $claims -}}
{{- end -}}

{{/* Container resources of a GPU role with DRA applied (dict "root" "role" "group" "resources"): with dra.enabled the
GPUs come from the claim, so nvidia.com/gpu leaves limits and requests (never both); every pod claim is listed in
resources.claims. */}}
{{- define "nim-llm.placement.resources" -}}
{{- $res := deepCopy .resources -}}
{{- if .root.Values.dra.enabled -}}
{{- range $section := list "limits" "requests" -}}
{{- if hasKey $res $section -}}
{{- $values := omit (index $res $section | default dict) "nvidia.com/gpu" -}}
{{- if $values -}}{{- $_ := set $res $section $values -}}{{- else -}}{{- $_ := unset $res $section -}}{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $claims := list -}}
{{- range $c := include "nim-llm.placement.podClaims" . | fromYamlArray -}}
{{- $claims = append $claims (dict "name" $c.name) -}}
{{- end -}}
{{- if $claims -}}{{- $_ := set $res "claims" $claims -}}{{- end -}}
{{- toYaml $res -}}
{{- end -}}

{{/* The label every pod of one group carries with a value of its own (LWS group-key; the MPIJob's job-name). */}}
{{- define "nim-llm.placement.groupLabelKey" -}}
{{- if eq (include "nim-llm.mode" .) "mpijob" -}}training.kubeflow.org/job-name{{- else -}}leaderworkerset.sigs.k8s.io/group-key{{- end -}}
{{- end -}}

{{/* A pod affinity term matching the GPU pods of the pod's own group, in domains of .key (dict "root" "key"). */}}
{{- define "nim-llm.placement.groupTerm" -}}
labelSelector:
  matchLabels:
    {{- include "nim-llm.selectorLabels" .root | nindent 4 }}
  matchExpressions:
    - key: app.kubernetes.io/component
      operator: In
      values: [leader, worker]
matchLabelKeys:
  - {{ include "nim-llm.placement.groupLabelKey" .root }}
topologyKey: {{ .key | quote }}
{{- end -}}

{{/* Pod affinity: the user's (affinity), plus for multi-node GPU pods the group's domain (multiNode.topology.mode
affinity) and its GPU model (multiNode.topology.sameGpuProduct). The first pod of a group matches its own terms, so it
schedules anywhere; the others follow it. */}}
{{- define "nim-llm.placement.affinity" -}}
{{- $V := .root.Values -}}
{{- $affinity := deepCopy ($V.affinity | default dict) -}}
{{- if and (include "nim-llm.placement.gpuPod" .) (include "nim-llm.isMultiNode" .root) -}}
{{- $T := $V.multiNode.topology -}}
{{- $required := list -}}
{{- $preferred := list -}}
{{- if and $T.key (eq $T.mode "affinity") -}}
{{- $required = append $required (include "nim-llm.placement.groupTerm" (dict "root" .root "key" $T.key) | fromYaml) -}}
{{- end -}}
{{- $product := include "nim-llm.placement.groupTerm" (dict "root" .root "key" "nvidia.com/gpu.product") | fromYaml -}}
{{- if eq $T.sameGpuProduct "required" -}}
{{- $required = append $required $product -}}
{{- else if eq $T.sameGpuProduct "preferred" -}}
{{- $preferred = append $preferred (dict "weight" 100 "podAffinityTerm" $product) -}}
{{- end -}}
{{- if or $required $preferred -}}
{{- $pod := $affinity.podAffinity | default dict -}}
{{- if $required -}}
{{- $_ := set $pod "requiredDuringSchedulingIgnoredDuringExecution" (concat ($pod.requiredDuringSchedulingIgnoredDuringExecution | default list) $required) -}}
{{- end -}}
{{- if $preferred -}}
{{- $_ := set $pod "preferredDuringSchedulingIgnoredDuringExecution" (concat ($pod.preferredDuringSchedulingIgnoredDuringExecution | default list) $preferred) -}}
{{- end -}}
{{- $_ := set $affinity "podAffinity" $pod -}}
{{- end -}}
{{- end -}}
{{- toYaml $affinity -}}
{{- end -}}

{{/* Pod annotations for Kueue's topology-aware scheduling (GPU pods, with kueue.queueName): the required or preferred
level, and on LWS leaders and workers one podset group name, so Kueue places a leader and its workers in one domain
(without it the two templates are placed apart). */}}
{{- define "nim-llm.placement.podAnnotations" -}}
{{- $K := .root.Values.kueue -}}
{{- $out := dict -}}
{{- if and $K.queueName (include "nim-llm.placement.gpuPod" .) (or $K.requiredTopology $K.preferredTopology) -}}
{{- if $K.requiredTopology -}}
{{- $_ := set $out "kueue.x-k8s.io/podset-required-topology" $K.requiredTopology -}}
{{- else -}}
{{- $_ := set $out "kueue.x-k8s.io/podset-preferred-topology" $K.preferredTopology -}}
{{- end -}}
{{- if has .role (list "leader" "worker") -}}
{{- $_ := set $out "kueue.x-k8s.io/podset-group-name" "group" -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* Kueue's queue label for the workload object (LeaderWorkerSet, StatefulSet, Deployment, MPIJob); empty without kueue.queueName. */}}
{{- define "nim-llm.placement.queueLabel" -}}
{{- with .Values.kueue.queueName -}}
kueue.x-k8s.io/queue-name: {{ . | quote }}
{{- end -}}
{{- end -}}
