{{/* ---------------------------------------------------------------------------
Preflight rules of placement: GPUs by DRA (dra), NVLink ComputeDomains
(multiNode.computeDomain), keeping a group in one domain (multiNode.topology),
LeaderWorkerSet policies (multiNode.leaderWorkerSet) and Kueue (kueue). One
define per rule; "nim-llm.preflight.placement" runs them all and is called from
the preflight entry point (_preflight.tpl). docs/placement.md explains them.
--------------------------------------------------------------------------- */}}
{{- define "nim-llm.preflight.placement" -}}
{{- include "nim-llm.preflight.placement.draGpuCount" . -}}
{{- include "nim-llm.preflight.placement.draOwnTemplate" . -}}
{{- include "nim-llm.preflight.placement.draSelectorsCompile" . -}}
{{- include "nim-llm.preflight.placement.claimNames" . -}}
{{- include "nim-llm.preflight.placement.computeDomainMultiNode" . -}}
{{- include "nim-llm.preflight.placement.computeDomainScope" . -}}
{{- include "nim-llm.preflight.placement.computeDomainExisting" . -}}
{{- include "nim-llm.preflight.placement.topologyMultiNode" . -}}
{{- include "nim-llm.preflight.placement.topologyBackend" . -}}
{{- include "nim-llm.preflight.placement.topologyOnce" . -}}
{{- include "nim-llm.preflight.placement.subGroupPolicy" . -}}
{{- include "nim-llm.preflight.placement.lwsRolloutProgress" . -}}
{{- include "nim-llm.preflight.placement.lwsObjectMetadata" . -}}
{{- include "nim-llm.preflight.placement.kueueTopology" . -}}
{{- include "nim-llm.preflight.placement.kueueGroupLabel" . -}}
{{- end -}}

{{- /* DRA GPUs: the claim asks for resources.limits.nvidia.com/gpu devices, so that count must be there. */ -}}
{{- define "nim-llm.preflight.placement.draGpuCount" -}}
{{- if and .Values.dra.enabled (lt (include "nim-llm.gpuLimit" . | int) 1) -}}
{{- $message := print
  "dra.enabled is true but resources.limits.nvidia.com/gpu is not set: the chart's GPU claim asks for that many "
  "devices (and leaves nvidia.com/gpu out of the container's limits, so GPUs are never requested both ways): set "
  "resources.limits.nvidia.com/gpu to the GPUs of each pod, or dra.enabled: false." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}

{{- /* An existing GPU claim template: the chart renders none, so its own template's settings would be ignored. */ -}}
{{- define "nim-llm.preflight.placement.draOwnTemplate" -}}
{{- $dra := .Values.dra -}}
{{- if and $dra.resourceClaimTemplateName (or $dra.selectors $dra.matchAttribute) -}}
{{- $message := print
  "dra.resourceClaimTemplateName is %q, an existing ResourceClaimTemplate, so the chart renders no GPU claim "
  "template and dra.selectors / dra.matchAttribute would be ignored: put them in %s, and set dra.selectors: [] and "
  "dra.matchAttribute: \"\" (or clear dra.resourceClaimTemplateName to let the chart render the template)." -}}
{{- include "nim-llm.fail" (printf $message $dra.resourceClaimTemplateName $dra.resourceClaimTemplateName) -}}
{{- end -}}
{{- if and $dra.resourceClaimTemplateName (not $dra.enabled) -}}
{{- $message := print
  "dra.resourceClaimTemplateName is %q but dra.enabled is false, so no pod would claim it: set dra.enabled: true "
  "(GPUs by DRA instead of nvidia.com/gpu), or clear dra.resourceClaimTemplateName." -}}
{{- include "nim-llm.fail" (printf $message $dra.resourceClaimTemplateName) -}}
{{- end -}}
{{- end -}}

{{- /* Claim names of a pod are unique, and the chart's own are reserved. */ -}}
{{- define "nim-llm.preflight.placement.claimNames" -}}
{{- $seen := dict "gpus" "the chart's GPU claim (dra.enabled)" "compute-domain-channel" "the chart's ComputeDomain channel claim (multiNode.computeDomain)" -}}
{{- range $i, $c := .Values.dra.extraClaims | default list -}}
{{- if hasKey $seen $c.name -}}
{{- $message := print
  "dra.extraClaims[%d].name is %q, already the name of %v: a pod's claims need unique names: choose another name." -}}
{{- include "nim-llm.fail" (printf $message $i $c.name (get $seen $c.name)) -}}
{{- end -}}
{{- $_ := set $seen $c.name (printf "dra.extraClaims[%d]" $i) -}}
{{- end -}}
{{- end -}}

{{- /* A ComputeDomain joins the nodes of a multi-node group; one pod has nothing to share over multi-node NVLink. */ -}}
{{- define "nim-llm.preflight.placement.computeDomainMultiNode" -}}
{{- if and .Values.multiNode.computeDomain.enabled (not .Values.multiNode.enabled) -}}
{{- $message := print
  "multiNode.computeDomain.enabled is true but multiNode.enabled is false: a ComputeDomain shares GPU memory between "
  "the nodes of a multi-node group, and a single-node pod gets no channel claim: set multiNode.enabled: true, or "
  "multiNode.computeDomain.enabled: false." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}

{{- /* One ComputeDomain per group needs one pod template per group: MPIJob has one per group, LWS one for all. */ -}}
{{- define "nim-llm.preflight.placement.computeDomainScope" -}}
{{- $cd := .Values.multiNode.computeDomain -}}
{{- if and $cd.enabled (eq $cd.scope "group") -}}
{{- if eq (include "nim-llm.mode" .) "leaderworkerset" -}}
{{- $message := print
  "multiNode.computeDomain.scope is group, but LeaderWorkerSet groups share one pod template, so every group claims "
  "the same ComputeDomain's channel: set multiNode.computeDomain.scope: release (NVIDIA's driver runs one IMEX "
  "domain per NVLink clique; keep each group inside one clique with multiNode.topology.key: nvidia.com/gpu.clique), "
  "or use MPIJob (multiNode.leaderWorkerSet.enabled: false), which has one MPIJob per group." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- $longest := printf "%s-%d" ($cd.name | default (include "nim-llm.fullname" .)) (sub (max (int .Values.replicaCount) 1) 1) -}}
{{- if gt (len $longest) 63 -}}
{{- $message := print
  "multiNode.computeDomain.scope is group, so the ComputeDomains are named <name>-<group>, and %q is longer than 63 "
  "characters: set a shorter multiNode.computeDomain.name." -}}
{{- include "nim-llm.fail" (printf $message $longest) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* An existing ComputeDomain: the chart must be told its channel template's name. */ -}}
{{- define "nim-llm.preflight.placement.computeDomainExisting" -}}
{{- $cd := .Values.multiNode.computeDomain -}}
{{- if and $cd.enabled (not $cd.create) -}}
{{- if not $cd.resourceClaimTemplateName -}}
{{- $message := print
  "multiNode.computeDomain.create is false (an existing ComputeDomain) but "
  "multiNode.computeDomain.resourceClaimTemplateName is empty: set it to the channel template named in that "
  "ComputeDomain's spec.channel.resourceClaimTemplate.name." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- if eq $cd.scope "group" -}}
{{- $message := print
  "multiNode.computeDomain.create is false with multiNode.computeDomain.scope: group, but one existing ComputeDomain "
  "cannot serve each group on its own: set multiNode.computeDomain.scope: release, or create: true." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}
{{- if and $cd.resourceClaimTemplateName (eq $cd.scope "group") -}}
{{- $message := print
  "multiNode.computeDomain.resourceClaimTemplateName is set with multiNode.computeDomain.scope: group, but each "
  "group's ComputeDomain names its own channel template (<name>-<group>-channel): clear "
  "multiNode.computeDomain.resourceClaimTemplateName." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}

{{- /* Topology keeps the pods of a multi-node group together; a single-node pod is one pod. */ -}}
{{- define "nim-llm.preflight.placement.topologyMultiNode" -}}
{{- if and .Values.multiNode.topology.key (not .Values.multiNode.enabled) -}}
{{- $message := print
  "multiNode.topology.key is %q but multiNode.enabled is false: it keeps the pods of a multi-node group inside one "
  "domain, and a single-node deployment has no group: clear multiNode.topology.key (Kueue places single-node pods "
  "with kueue.requiredTopology)." -}}
{{- include "nim-llm.fail" (printf $message .Values.multiNode.topology.key) -}}
{{- end -}}
{{- end -}}

{{- /* exclusive and subgroup are LeaderWorkerSet features; subgroup needs subgroups. */ -}}
{{- define "nim-llm.preflight.placement.topologyBackend" -}}
{{- $T := .Values.multiNode.topology -}}
{{- if and $T.key .Values.multiNode.enabled -}}
{{- if and (eq (include "nim-llm.mode" .) "mpijob") (ne $T.mode "affinity") -}}
{{- $message := print
  "multiNode.topology.mode is %s, a LeaderWorkerSet feature, but the group is an MPIJob "
  "(multiNode.leaderWorkerSet.enabled: false): set multiNode.topology.mode: affinity (every pod of an MPIJob in one "
  "%s domain)." -}}
{{- include "nim-llm.fail" (printf $message $T.mode $T.key) -}}
{{- end -}}
{{- if and (eq $T.mode "subgroup") (not (int .Values.multiNode.leaderWorkerSet.subGroupSize)) -}}
{{- $message := print
  "multiNode.topology.mode is subgroup but multiNode.leaderWorkerSet.subGroupSize is 0: set subGroupSize to the pods "
  "that fit in one domain (a divisor of multiNode.workers), or use mode exclusive when a whole group fits in one "
  "domain." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The older exclusiveTopology key and multiNode.topology say the same thing: one of them. */ -}}
{{- define "nim-llm.preflight.placement.topologyOnce" -}}
{{- if and .Values.multiNode.topology.key .Values.multiNode.leaderWorkerSet.exclusiveTopology -}}
{{- $message := print
  "multiNode.leaderWorkerSet.exclusiveTopology (%q) and multiNode.topology.key (%q) are both set, and a group has "
  "one placement: keep multiNode.topology (key and mode) and set multiNode.leaderWorkerSet.exclusiveTopology: "
  "\"\"." -}}
{{- include "nim-llm.fail" (printf $message .Values.multiNode.leaderWorkerSet.exclusiveTopology
  .Values.multiNode.topology.key) -}}
{{- end -}}
{{- end -}}

{{- /* subGroupPolicyType describes subgroups: without subGroupSize there are none. */ -}}
{{- define "nim-llm.preflight.placement.subGroupPolicy" -}}
{{- $lws := .Values.multiNode.leaderWorkerSet -}}
{{- if and $lws.subGroupPolicyType (not (int $lws.subGroupSize)) -}}
{{- $message := print
  "multiNode.leaderWorkerSet.subGroupPolicyType is %s but multiNode.leaderWorkerSet.subGroupSize is 0, so there are "
  "no subgroups for it to shape: set subGroupSize (a divisor of multiNode.workers), or subGroupPolicyType: \"\"." -}}
{{- include "nim-llm.fail" (printf $message $lws.subGroupPolicyType) -}}
{{- end -}}
{{- end -}}

{{- /* Labels and annotations of the LWS object must not redefine what the chart sets there from other keys. */ -}}
{{- define "nim-llm.preflight.placement.lwsObjectMetadata" -}}
{{- $lws := .Values.multiNode.leaderWorkerSet -}}
{{- range $key := keys ($lws.labels | default dict) | sortAlpha -}}
{{- if or (hasPrefix "app.kubernetes.io/" $key) (hasPrefix "helm.sh/" $key) -}}
{{- $message := print
  "multiNode.leaderWorkerSet.labels sets %s, a label the chart manages: remove it, or use your own prefix such as "
  "example.com/%s." -}}
{{- include "nim-llm.fail" (printf $message $key (splitList "/" $key | last)) -}}
{{- end -}}
{{- if eq $key "kueue.x-k8s.io/queue-name" -}}
{{- $message := print
  "multiNode.leaderWorkerSet.labels sets kueue.x-k8s.io/queue-name: set kueue.queueName instead (it labels the "
  "workload object of every backend and enables the Kueue pod annotations)." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}
{{- range $key := keys ($lws.annotations | default dict) | sortAlpha -}}
{{- if has $key (list "leaderworkerset.sigs.k8s.io/exclusive-topology" "leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology") -}}
{{- $message := print
  "multiNode.leaderWorkerSet.annotations sets %s, which the chart derives from multiNode.topology: remove the "
  "annotation and set multiNode.topology.key (with mode exclusive or subgroup)." -}}
{{- include "nim-llm.fail" (printf $message $key) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Kueue topology: one of required or preferred, and only for a workload that joins a queue. */ -}}
{{- define "nim-llm.preflight.placement.kueueTopology" -}}
{{- $K := .Values.kueue -}}
{{- if and $K.requiredTopology $K.preferredTopology -}}
{{- $message := print
  "kueue.requiredTopology (%q) and kueue.preferredTopology (%q) are both set, and Kueue takes one per pod set: keep "
  "one of them and set the other to \"\"." -}}
{{- include "nim-llm.fail" (printf $message $K.requiredTopology $K.preferredTopology) -}}
{{- end -}}
{{- if and (or $K.requiredTopology $K.preferredTopology) (not $K.queueName) -}}
{{- $message := print
  "kueue.requiredTopology or kueue.preferredTopology is set but kueue.queueName is empty, so Kueue would never see "
  "the workload and the topology would be ignored: set kueue.queueName to a LocalQueue of the namespace (whose "
  "ClusterQueue has a ResourceFlavor with a Topology), or clear the topology." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}

{{- /* Kueue labels every pod of a group kueue.x-k8s.io/pod-group-name: <its Workload's name>, which Kueue v0.15.0 makes
"leaderworkerset-<LeaderWorkerSet>-<group index>-<5-character hash>" for a LeaderWorkerSet group and
"statefulset-<StatefulSet>-<hash>" for a StatefulSet. A label value has at most 63 characters: a longer one and the
pods are refused by the API server as Kueue's controller or webhook labels them, so no pod of the group ever runs
(found by the controller tier with a real Kueue: the LeaderWorkerSet was admitted and stayed without pods). */ -}}
{{- define "nim-llm.preflight.placement.kueueGroupLabel" -}}
{{- if .Values.kueue.queueName -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $workload := "" -}}
{{- $value := "" -}}
{{- if eq $mode "leaderworkerset" -}}
{{- /* Every group index the LeaderWorkerSet may use, surge groups of a rolling update included (_surge.tpl). */ -}}
{{- $groups := include "nim-llm.lwsGroupSlots" . | int -}}
{{- $workload = printf "LeaderWorkerSet %s" (include "nim-llm.lwsName" .) -}}
{{- $value = printf "leaderworkerset-%s-%d-xxxxx" (include "nim-llm.lwsName" .) (sub (max $groups 1) 1) -}}
{{- else if eq $mode "statefulset" -}}
{{- $workload = printf "StatefulSet %s" (include "nim-llm.fullname" .) -}}
{{- $value = printf "statefulset-%s-xxxxx" (include "nim-llm.fullname" .) -}}
{{- end -}}
{{- if gt (len $value) 63 -}}
{{- $message := print
  "kueue.queueName is set, and Kueue labels every pod of the %s kueue.x-k8s.io/pod-group-name: %s (%d characters, "
  "xxxxx standing for Kueue's hash), over the 63 characters of a label value, so no pod of it would ever be created: "
  "shorten fullnameOverride (or the release name and nameOverride) by %d characters." -}}
{{- include "nim-llm.fail" (printf $message $workload $value (len $value) (sub (len $value) 63)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The LeaderWorkerSet webhook (lws v0.9.0, generalValidate) refuses a rollout that could never replace a group: maxSurge
and maxUnavailable both 0 once scaled to spec.replicas (maxUnavailable's percentage rounded down, maxSurge's up), unless
replicas is 0. The chart's spec.replicas is replicaCount, or the CRD default 1 with the autoscaler; the autoscaler's
smallest count is checked too, as the webhook checks every update the autoscaler makes. */ -}}
{{- define "nim-llm.preflight.placement.lwsRolloutProgress" -}}
{{- if eq (include "nim-llm.mode" .) "leaderworkerset" -}}
{{- $lws := .Values.multiNode.leaderWorkerSet -}}
{{- $counts := list (include "nim-llm.lwsCreateReplicas" . | int) -}}
{{- if .Values.autoscaling.enabled -}}{{- $counts = append $counts (int .Values.autoscaling.minReplicas) -}}{{- end -}}
{{- range $replicas := $counts -}}
{{- if gt $replicas 0 -}}
{{- $unavailable := include "nim-llm.scaledIntOrPercent" (dict "value" $lws.maxUnavailable "total" $replicas "roundUp" false) | int -}}
{{- $surge := include "nim-llm.scaledIntOrPercent" (dict "value" $lws.maxSurge "total" $replicas "roundUp" true) | int -}}
{{- if and (eq $unavailable 0) (eq $surge 0) -}}
{{- $message := print
  "multiNode.leaderWorkerSet.maxUnavailable (%v) and multiNode.leaderWorkerSet.maxSurge (%v) are both 0 for %d "
  "group(s) (a percentage of maxUnavailable is rounded down), so a rolling update could never replace a group and "
  "the LeaderWorkerSet controller's webhook refuses it: set multiNode.leaderWorkerSet.maxUnavailable: 1 (groups "
  "replaced in place, no extra GPUs), or maxSurge: 1 if the cluster has GPUs free for an extra group." -}}
{{- include "nim-llm.fail" (printf $message (include "nim-llm.intOrString" $lws.maxUnavailable | trimAll "\"") (include "nim-llm.intOrString" $lws.maxSurge | trimAll "\"") $replicas) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The API server compiles every CEL selector of a ResourceClaimTemplate (resource.k8s.io validateCELSelector) and
refuses the template when one does not compile; the chart cannot run CEL, but it refuses what can never compile: an
unterminated string, brackets that do not pair, and a name other than the one variable a selector has, device (its
fields after a dot, functions before "(", true, false, null, in and the variables of all/exists/exists_one/map/filter
macros are not names of that kind). Type errors (device.driver == 1) and selectors that are not a boolean are left to
the API server: ChartValidatorAgreementIT shows which of those reach it. */ -}}
{{- define "nim-llm.preflight.placement.draSelectorsCompile" -}}
{{- $dra := .Values.dra -}}
{{- if and $dra.enabled (not $dra.resourceClaimTemplateName) -}}
{{- range $i, $expr := $dra.selectors | default list -}}
{{- $problem := "" -}}
{{- /* String literals (double or single quoted, with escapes, raw r"..." and bytes b"..." too) become "" so that nothing
inside them counts. */ -}}
{{- $bare := regexReplaceAll `(^|[^A-Za-z0-9_])[rRbB]{0,2}("(\\.|[^"\\\n])*"|'(\\.|[^'\\\n])*')` (toString $expr) `${1}""` -}}
{{- if regexMatch `["']` (regexReplaceAll `""` $bare "") -}}
{{- $problem = "a string literal is not terminated (a quote without its closing quote)" -}}
{{- end -}}
{{- if not $problem -}}
{{- $stack := list -}}
{{- range $c := splitList "" $bare -}}
{{- if has $c (list "(" "[" "{") -}}
{{- $stack = append $stack $c -}}
{{- else if has $c (list ")" "]" "}") -}}
{{- $open := get (dict ")" "(" "]" "[" "}" "{") $c -}}
{{- if and (not $problem) (or (not $stack) (ne (last $stack) $open)) -}}
{{- $problem = printf "a %q closes nothing that is open" $c -}}
{{- end -}}
{{- if $stack -}}{{- $stack = initial $stack -}}{{- end -}}
{{- end -}}
{{- end -}}
{{- if and (not $problem) $stack -}}
{{- $problem = printf "a %q is never closed" (last $stack) -}}
{{- end -}}
{{- end -}}
{{- if not $problem -}}
{{- $macroVars := list -}}
{{- range $m := regexFindAll `\.\s*(all|exists|exists_one|map|filter)\s*\(\s*[A-Za-z_][A-Za-z0-9_]*` $bare -1 -}}
{{- $macroVars = append $macroVars (regexFind `[A-Za-z_][A-Za-z0-9_]*$` $m) -}}
{{- end -}}
{{- /* Numbers, fields after a dot and calls go; what is left are the names the expression refers to. */ -}}
{{- $names := regexReplaceAll `\b[0-9][0-9A-Za-z_]*(\.[0-9][0-9A-Za-z_]*)?` $bare " " -}}
{{- $names = regexReplaceAll `\.\s*[A-Za-z_][A-Za-z0-9_]*` $names " " -}}
{{- $names = regexReplaceAll `[A-Za-z_][A-Za-z0-9_]*\s*\(` $names "(" -}}
{{- range $name := regexFindAll `[A-Za-z_][A-Za-z0-9_]*` $names -1 -}}
{{- if and (not $problem) (not (has $name (concat (list "device" "true" "false" "null" "in") $macroVars))) -}}
{{- $problem = printf "it refers to %s, and the only variable a selector has is device" $name -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if $problem -}}
{{- $message := print
  "dra.selectors[%d] is %q, which the API server cannot compile as CEL (%s), so it would refuse the chart's "
  "ResourceClaimTemplate: write a CEL expression over device that is true for the GPUs to take, e.g. "
  "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA GB200\" (device.driver, "
  "device.attributes[\"<domain>\"].<name>, device.capacity[\"<domain>\"].<name>), or remove it." -}}
{{- include "nim-llm.fail" (printf $message $i (toString $expr) $problem) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
