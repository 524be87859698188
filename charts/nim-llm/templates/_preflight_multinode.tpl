{{/* ---------------------------------------------------------------------------
Preflight rules of multi-node: counts, optimized profiles, GPUs per node and parallelism, the shared model cache,
MPIJob-only and LeaderWorkerSet-only keys, start-up that can come up, subgroups, group counts, and names that fit
(MPIJob host names, LeaderWorkerSet StatefulSets). Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

{{- /* Host names of MPIJob pods are <fullname>-<replica>-<spec hash>-worker-<index> (and -launcher): a DNS label of at most 63. */ -}}
{{- define "nim-llm.preflight.mpiJobHostNames" -}}
{{- $V := .Values -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $fullname := include "nim-llm.fullname" . -}}
{{- if eq $mode "mpijob" -}}
{{- $longest := printf "%s-worker-%d"
  (include "nim-llm.mpiJobName" (list . (sub (max (int $V.replicaCount) 1) 1))) (sub (int $V.multiNode.workers) 1) -}}
{{- if gt (len $longest) 63 -}}
{{- $message := print
  "the MPIJob worker pod name %s has %d characters, more than the 63 of a pod host name "
  "(multiNode.workers %d, replicaCount %d): shorten fullnameOverride (or the release name and "
  "nameOverride) to at most %d characters, or use LeaderWorkerSet." -}}
{{- include "nim-llm.fail" (printf $message $longest (len $longest) (int $V.multiNode.workers) (int $V.replicaCount)
  (sub 63 (sub (len $longest) (len $fullname)))) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Also in values.schema.json; repeated here for installs run with --skip-schema-validation. */ -}}
{{- define "nim-llm.preflight.multiNodeCounts" -}}
{{- $M := .Values.multiNode -}}
{{- range $key := list "workers" "gpusPerNode" "clusterStartTimeout" -}}
{{- if lt (index $M $key | int) 1 -}}
{{- $message := print
  "multiNode.%s is %v but must be at least 1: set multiNode.%s to a positive number." -}}
{{- include "nim-llm.fail" (printf $message $key (index $M $key) $key) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* multi-node runs optimized (TensorRT-LLM) profiles only */ -}}
{{- define "nim-llm.preflight.multiNodeOptimized" -}}
{{- if not .Values.multiNode.optimized.enabled -}}
{{- $message := print
  "multiNode.optimized.enabled is false, but only optimized (TensorRT-LLM) profiles run multi-node: set "
  "multiNode.optimized.enabled: true." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}

{{- /* multiNode.gpusPerNode equals the GPU limit */ -}}
{{- define "nim-llm.preflight.multiNodeGpusPerNode" -}}
{{- $M := .Values.multiNode -}}
{{- $gpus := include "nim-llm.gpuLimit" . | int -}}
{{- if ne $gpus (int $M.gpusPerNode) -}}
{{- $message := print
  "multiNode.gpusPerNode is %d but resources.limits.nvidia.com/gpu is %d; each multi-node pod gets "
  "exactly gpusPerNode GPUs: set resources.limits.nvidia.com/gpu: %d (or multiNode.gpusPerNode: %d)." -}}
{{- include "nim-llm.fail" (printf $message (int $M.gpusPerNode) $gpus (int $M.gpusPerNode) $gpus) -}}
{{- end -}}
{{- end -}}

{{- /* Parallelism: TP x PP must use every GPU of a replica (user env or chart-derived). */ -}}
{{- define "nim-llm.preflight.multiNodeParallelism" -}}
{{- $V := .Values -}}
{{- $M := $V.multiNode -}}
{{- $par := dict "NIM_TENSOR_PARALLEL_SIZE" (int $M.gpusPerNode) "NIM_PIPELINE_PARALLEL_SIZE" (int $M.workers) -}}
{{- $source := dict "NIM_TENSOR_PARALLEL_SIZE" "derived from multiNode.gpusPerNode" "NIM_PIPELINE_PARALLEL_SIZE"
  "derived from multiNode.workers" -}}
{{- $checkable := true -}}
{{- range $i, $e := $V.env | default list -}}
{{- if hasKey $par $e.name -}}
{{- if hasKey $e "value" -}}
{{- if not (regexMatch "^[1-9][0-9]*$" (toString $e.value)) -}}
{{- $message := print
  "env[%d] (%s) is %q, which is not a positive whole number: set env[%d].value to a number such as "
  "\"%d\"." -}}
{{- include "nim-llm.fail" (printf $message $i $e.name (toString $e.value) $i (index $par $e.name)) -}}
{{- end -}}
{{- $_ := set $par $e.name (atoi (toString $e.value)) -}}
{{- $_ := set $source $e.name (printf "env[%d]" $i) -}}
{{- else -}}
{{- $checkable = false -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $tp := index $par "NIM_TENSOR_PARALLEL_SIZE" -}}
{{- $pp := index $par "NIM_PIPELINE_PARALLEL_SIZE" -}}
{{- $total := mul $M.workers $M.gpusPerNode -}}
{{- /* Each factor first: a product of two large numbers wraps around (2^60+1 x 16 would "equal" 16). */ -}}
{{- range $name := list "NIM_TENSOR_PARALLEL_SIZE" "NIM_PIPELINE_PARALLEL_SIZE" -}}
{{- if and $checkable (gt (index $par $name) $total) -}}
{{- $message := print
  "%s (%d, %s) is more than the %d GPUs of one replica (multiNode.workers x multiNode.gpusPerNode = %d "
  "x %d): make tensor parallel x pipeline parallel %d, e.g. tensor parallel %d and pipeline parallel "
  "%d." -}}
{{- include "nim-llm.fail" (printf $message $name (index $par $name) (index $source $name) $total (int $M.workers)
  (int $M.gpusPerNode) $total (int $M.gpusPerNode) (int $M.workers)) -}}
{{- end -}}
{{- end -}}
{{- if not $checkable -}}
{{- range $name := list "NIM_TENSOR_PARALLEL_SIZE" "NIM_PIPELINE_PARALLEL_SIZE" -}}
{{- $literal := index $par $name -}}
{{- if hasPrefix "env[" (index $source $name) -}}
{{- if or (gt $literal $total) (mod $total $literal) -}}
{{- $message := print
  "%s (%d, %s) does not divide the %d GPUs of one replica (multiNode.workers x multiNode.gpusPerNode = "
  "%d x %d), so no value of the other parallel size (set with valueFrom) can make the product %d: set "
  "%s to a divisor of %d." -}}
{{- include "nim-llm.fail" (printf $message $name $literal (index $source $name) $total (int $M.workers)
  (int $M.gpusPerNode) $total (index $source $name) $total) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if and $checkable (ne (mul $tp $pp) $total) -}}
{{- $message := print
  "NIM_TENSOR_PARALLEL_SIZE (%d, %s) x NIM_PIPELINE_PARALLEL_SIZE (%d, %s) = %d, but one replica has "
  "multiNode.workers x multiNode.gpusPerNode = %d x %d = %d GPUs: make the product %d, e.g. tensor "
  "parallel %d and pipeline parallel %d." -}}
{{- include "nim-llm.fail" (printf $message $tp (index $source "NIM_TENSOR_PARALLEL_SIZE") $pp
  (index $source "NIM_PIPELINE_PARALLEL_SIZE") (mul $tp $pp) (int $M.workers) (int $M.gpusPerNode) $total $total
  (int $M.gpusPerNode) (int $M.workers)) -}}
{{- end -}}
{{- end -}}

{{- /* The model cache must be reachable from every node of a group. */ -}}
{{- define "nim-llm.preflight.multiNodeSharedCache" -}}
{{- $V := .Values -}}
{{- $backend := include "nim-llm.cacheBackend" . -}}
{{- if and (eq $backend "pvc-shared") (has $V.persistence.accessMode (list "ReadWriteOnce" "ReadWriteOncePod")) -}}
{{- $message := print
  "persistence.accessMode is %s, but multi-node pods run on different nodes and share the model cache: "
  "set persistence.accessMode: ReadWriteMany with a storage class that supports it (for example NFS), "
  "or use persistence.existingClaim, nfs or hostPath." -}}
{{- include "nim-llm.fail" (printf $message $V.persistence.accessMode) -}}
{{- end -}}
{{- if and (eq $backend "pvc-existing") (has $V.persistence.accessMode (list "ReadWriteOncePod")) -}}
{{- $message := print
  "persistence.accessMode is ReadWriteOncePod, but multi-node pods share the claim: use a ReadWriteMany claim and "
  "set persistence.accessMode: ReadWriteMany." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- if eq $backend "emptyDir" -}}
{{- $message := print
  "multiNode.enabled is true but no shared model cache is configured, so every node would download the model on its "
  "own: set persistence.enabled: true with persistence.accessMode: ReadWriteMany (or persistence.existingClaim), or "
  "enable nfs or hostPath." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}

{{- /* MPIJob mode refuses keys that only apply to LeaderWorkerSet */ -}}
{{- define "nim-llm.preflight.mpiJobKeys" -}}
{{- $V := .Values -}}
{{- $M := $V.multiNode -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- if eq $mode "mpijob" -}}
{{- if $V.autoscaling.enabled -}}
{{- $message := print
  "autoscaling.enabled is true but multiNode.leaderWorkerSet.enabled is false: an MPIJob cannot be scaled by a "
  "HorizontalPodAutoscaler. Set autoscaling.enabled: false, or use LeaderWorkerSet "
  "(multiNode.leaderWorkerSet.enabled: true)." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- if $M.workerCustomCommand -}}
{{- $message := print
  "multiNode.workerCustomCommand only applies to LeaderWorkerSet; MPIJob workers run sshd for mpirun: remove "
  "multiNode.workerCustomCommand or set multiNode.leaderWorkerSet.enabled: true." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- if $M.existingSSHSecret -}}
{{- $message := print
  "multiNode.existingSSHSecret only applies to LeaderWorkerSet; the MPI operator makes the SSH key of each MPIJob "
  "itself: remove multiNode.existingSSHSecret or set multiNode.leaderWorkerSet.enabled: true." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- if eq $M.launchMode "native" -}}
{{- $message := print
  "multiNode.launchMode is native, but an MPIJob always starts through mpirun: set multiNode.launchMode: auto (or "
  "mpi), or use LeaderWorkerSet for native start-up." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Start-up combinations that can never come up. */ -}}
{{- define "nim-llm.preflight.mpiStartup" -}}
{{- $M := .Values.multiNode -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- if and (eq $mode "leaderworkerset") (include "nim-llm.usesMPI" .) -}}
{{- if eq (toString $M.leaderWorkerSet.startupPolicy) "LeaderReady" -}}
{{- $message := print
  "multiNode.leaderWorkerSet.startupPolicy is LeaderReady, but the group starts in mpi launch mode: LeaderReady "
  "creates the workers only once the leader is Ready, and an mpi leader serves (becomes Ready) only after mpirun has "
  "started ranks on every worker, so the group would wait for itself until multiNode.clusterStartTimeout: set "
  "multiNode.leaderWorkerSet.startupPolicy: LeaderCreated (or multiNode.launchMode: native)." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- if $M.workerCustomCommand -}}
{{- $message := print
  "multiNode.workerCustomCommand is set, but the group starts in mpi launch mode, where every worker must run the "
  "chart's sshd for the leader's mpirun; with another command the leader waits for sshd until "
  "multiNode.clusterStartTimeout and fails: remove multiNode.workerCustomCommand, or set multiNode.launchMode: "
  "native (every pod runs its own server with its rank)." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* multiNode.leaderWorkerSet.subGroupSize divides multiNode.workers */ -}}
{{- define "nim-llm.preflight.subGroupSize" -}}
{{- $M := .Values.multiNode -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $size := int $M.leaderWorkerSet.subGroupSize -}}
{{- if and (eq $mode "leaderworkerset") $size -}}
{{- /* The LeaderWorkerSet webhook (lws v0.9.0, validateUpdateSubGroupPolicy): subGroupSize at most the group's size, and
the size or the size - 1 divisible by it (when only size - 1 is, the leader is an extra pod of the first subgroup);
with LeaderExcluded (the leader a subgroup of its own) size - 1 must be. */ -}}
{{- $workers := int $M.workers -}}
{{- $excluded := eq (toString $M.leaderWorkerSet.subGroupPolicyType) "LeaderExcluded" -}}
{{- $fits := and (le $size $workers) (ternary (eq (mod (sub $workers 1) $size) 0) (or (eq (mod $workers $size) 0) (eq (mod (sub $workers 1) $size) 0)) $excluded) -}}
{{- if not $fits -}}
{{- $divisors := list -}}
{{- range $d := until $workers -}}
{{- $d = add1 $d -}}
{{- if ternary (eq (mod (sub $workers 1) $d) 0) (or (eq (mod $workers $d) 0) (eq (mod (sub $workers 1) $d) 0)) $excluded -}}
{{- $divisors = append $divisors (toString $d) -}}
{{- end -}}
{{- end -}}
{{- $rule := ternary (printf (print "with multiNode.leaderWorkerSet.subGroupPolicyType LeaderExcluded the leader is a "
  "subgroup of its own, so subGroupSize must divide the %d workers (multiNode.workers - 1)") (sub $workers 1))
  (printf "subGroupSize must be at most multiNode.workers (%d) and divide it or multiNode.workers - 1" $workers) $excluded -}}
{{- $message := print
  "multiNode.leaderWorkerSet.subGroupSize is %d, which the LeaderWorkerSet controller's webhook refuses: %s. "
  "Set multiNode.leaderWorkerSet.subGroupSize to one of %s, or 0 for no subgroups." -}}
{{- include "nim-llm.fail" (printf $message $size $rule (join ", " $divisors)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* A LeaderWorkerSet has at most 1000000 groups: LeaderWorkerSet v0.10.0 refuses more in its CRD schema (spec.replicas
maximum 1000000) and its validating webhook (generalValidate: "replicas must be equal or less than 1000000"); the
autoscaler's maxReplicas is the most replicas it would write through the scale subresource. */ -}}
{{- define "nim-llm.preflight.lwsReplicasRange" -}}
{{- $V := .Values -}}
{{- if eq (include "nim-llm.mode" .) "leaderworkerset" -}}
{{- $keys := list (list "replicaCount" $V.replicaCount) -}}
{{- if $V.autoscaling.enabled -}}{{- $keys = append $keys (list "autoscaling.maxReplicas" $V.autoscaling.maxReplicas) -}}{{- end -}}
{{- range $keys -}}
{{- if gt (int64 (index . 1)) 1000000 -}}
{{- $message := print
  "%s is %d, more groups than a LeaderWorkerSet (multiNode.leaderWorkerSet.enabled) may have: LeaderWorkerSet "
  "v0.10.0 refuses spec.replicas above 1000000 (its CRD schema and its webhook). Set %s to 1000000 or less." -}}
{{- include "nim-llm.fail" (printf $message (index . 0) (int64 (index . 1)) (index . 0)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* In mpi launch mode customArgs are the command mpirun runs on every rank (the chart's start-up runs mpirun with
them last): a first argument starting with "-" is read by mpirun as one of its own options. */ -}}
{{- define "nim-llm.preflight.customArgsInMpi" -}}
{{- $V := .Values -}}
{{- if and (include "nim-llm.usesMPI" .) (not $V.customCommand) $V.customArgs (hasPrefix "-" (toString (first $V.customArgs))) -}}
{{- $message := print
  "customArgs[0] is %q, but with multiNode.launchMode mpi customArgs are the program mpirun runs on every rank, program "
  "first: mpirun would read %q as one of its own options. Start customArgs with the program, e.g. customArgs: "
  "[/opt/nim/start-mpi-cluster.sh, %s, ...], or remove customArgs to run the NIM's own start-up." -}}
{{- include "nim-llm.fail" (printf $message (toString (first $V.customArgs)) (toString (first $V.customArgs)) (toString (first $V.customArgs))) -}}
{{- end -}}
{{- end -}}

{{- /* The LeaderWorkerSet's controller names a StatefulSet per group (<name>-<group index>) and the StatefulSet
controller labels each pod controller-revision-hash: <StatefulSet name>-<hash of up to 10 characters>, a label value of
at most 63: the longest StatefulSet name may have 52 characters. */ -}}
{{- define "nim-llm.preflight.lwsNamesFit" -}}
{{- if eq (include "nim-llm.mode" .) "leaderworkerset" -}}
{{- $lws := include "nim-llm.lwsName" . -}}
{{- /* The last group index, surge groups of a rolling update and autoscaling.maxReplicas counted (_surge.tpl). */ -}}
{{- $longest := printf "%s-%d" $lws (sub (max (include "nim-llm.lwsGroupSlots" . | int) 1) 1) -}}
{{- if gt (len $longest) 52 -}}
{{- $message := print
  "the LeaderWorkerSet %s (multiNode.leaderWorkerSet.enabled) makes StatefulSets up to %s (%d characters), and the pods' label "
  "controller-revision-hash: <StatefulSet>-<hash> would pass the 63 characters of a label value, so no pod would "
  "be created: shorten fullnameOverride (or the release name and nameOverride) by %d characters." -}}
{{- include "nim-llm.fail" (printf $message $lws $longest (len $longest) (sub (len $longest) 52)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
