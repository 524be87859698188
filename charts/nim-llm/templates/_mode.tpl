{{/* ---------------------------------------------------------------------------
Deployment mode: one place decides what kind of workload the release is.
The multi-node backend is chosen by values alone, never by the CRDs a cluster has.
--------------------------------------------------------------------------- */}}

{{/* statefulset | deployment | leaderworkerset | mpijob */}}
{{- define "nim-llm.mode" -}}
{{- if .Values.multiNode.enabled -}}
{{- ternary "leaderworkerset" "mpijob" .Values.multiNode.leaderWorkerSet.enabled -}}
{{- else -}}
{{- ternary "statefulset" "deployment" .Values.statefulSet.enabled -}}
{{- end -}}
{{- end -}}

{{/* "true" in multi-node mode, else empty. */}}
{{- define "nim-llm.isMultiNode" -}}
{{- if .Values.multiNode.enabled -}}true{{- end -}}
{{- end -}}

{{/* The major version of the NIM image, read from image.tag (appVersion when empty): the number before the first dot
of a tag that starts with <major>.<minor> (an optional leading v); empty when the tag is not such a version (latest,
a branch name). Only a regular expression reads it, so no tag can reach a version parser. */}}
{{- define "nim-llm.nimMajorVersion" -}}
{{- $tag := toString (.Values.image.tag | default .Chart.AppVersion) -}}
{{- if regexMatch "^v?[0-9]{1,6}\\.[0-9]+" $tag -}}
{{- regexReplaceAll "^v?([0-9]{1,6})\\..*$" $tag "${1}" | atoi -}}
{{- end -}}
{{- end -}}

{{/* How a group starts: mpi | native | ray. An explicit multiNode.launchMode always wins; an MPIJob is always mpi (an
MPIJob with ray is refused by the preflight). auto: ray for a NIM of major version 2 or more (NIM 2.x and 3.x form
their cluster with Ray), else native when env sets NIM_USE_SGLANG=1, else mpi. A tag that is not a version leaves
auto undecided (the preflight refuses it for a LeaderWorkerSet, naming the choice); it falls back to the NIM 1.x rule
here so that other templates never see an empty mode. */}}
{{- define "nim-llm.launchMode" -}}
{{- $mode := .Values.multiNode.launchMode -}}
{{- if eq (include "nim-llm.mode" .) "mpijob" -}}
mpi
{{- else if ne $mode "auto" -}}
{{- $mode -}}
{{- else if ge (include "nim-llm.nimMajorVersion" . | default "0" | atoi) 2 -}}
ray
{{- else -}}
{{- $sglang := "" -}}
{{- range .Values.env -}}
{{- if and (eq .name "NIM_USE_SGLANG") (hasKey . "value") -}}{{- $sglang = toString .value -}}{{- end -}}
{{- end -}}
{{- ternary "native" "mpi" (eq $sglang "1") -}}
{{- end -}}
{{- end -}}

{{/* "true" when the release's groups form a Ray cluster (NIM 2.x and 3.x): the leader a Ray head, every worker a Ray
worker joining it. */}}
{{- define "nim-llm.usesRay" -}}
{{- if and .Values.multiNode.enabled (eq (include "nim-llm.launchMode" .) "ray") -}}true{{- end -}}
{{- end -}}

{{/* The command mpirun runs on every rank, by the start-up contract of the user's NIM version
(multiNode.nimStartContract; auto decides by image.tag as NVIDIA's nim-llm chart 1.1.2 did): NIM 1.1.2 and earlier
run the API server module of the image's virtual environment; later NIM (and a tag that is not a version, such as
latest) run the image's /opt/nim/start-mpi-cluster.sh. A YAML list. */}}
{{- define "nim-llm.rankCommand" -}}
{{- $contract := .Values.multiNode.nimStartContract -}}
{{- if eq $contract "auto" -}}
{{- $tag := toString (.Values.image.tag | default .Chart.AppVersion) -}}
{{- $contract = "start-mpi-cluster" -}}
{{- if regexMatch "^v?[0-9]+\\.[0-9]+\\.[0-9]+" $tag -}}
{{- $version := regexReplaceAll "^v?([0-9]+\\.[0-9]+\\.[0-9]+).*$" $tag "${1}" -}}
{{- if semverCompare "<=1.1.2" $version -}}{{- $contract = "api-server-module" -}}{{- end -}}
{{- end -}}
{{- end -}}
{{- if eq $contract "api-server-module" -}}
{{- toYaml (list "/opt/nim/llm/.venv/bin/python3" "-m" "vllm_nvext.entrypoints.openai.api_server") -}}
{{- else -}}
{{- toYaml (list "/opt/nim/start-mpi-cluster.sh") -}}
{{- end -}}
{{- end -}}

{{/* "true" when the release uses MPI over SSH between pods. */}}
{{- define "nim-llm.usesMPI" -}}
{{- if and .Values.multiNode.enabled (eq (include "nim-llm.launchMode" .) "mpi") -}}true{{- end -}}
{{- end -}}

{{/* "true" when the pods mount the chart's start-up scripts (the -mpi ConfigMap at /opt/nim-llm/mpi): MPI start-up,
or a networking provider whose plugin directories library-path.sh prepends to LD_LIBRARY_PATH. */}}
{{- define "nim-llm.startScripts" -}}
{{- if or (include "nim-llm.usesMPI" .) (include "nim-llm.networking.libraryPath" .) -}}true{{- end -}}
{{- end -}}

{{/* GPUs of each GPU pod, from resources.limits (0 when absent). */}}
{{- define "nim-llm.gpuLimit" -}}
{{- $limits := .Values.resources.limits | default dict -}}
{{- include "nim-llm.wholeNumber" (index $limits "nvidia.com/gpu" | default 0) -}}
{{- end -}}

{{/* Model cache backend: pvc-template | pvc-shared | pvc-existing | hostPath | nfs | emptyDir */}}
{{- define "nim-llm.cacheBackend" -}}
{{- $p := .Values.persistence -}}
{{- if $p.enabled -}}
{{- if $p.existingClaim -}}pvc-existing
{{- else if eq (include "nim-llm.mode" .) "statefulset" -}}pvc-template
{{- else -}}pvc-shared
{{- end -}}
{{- else if .Values.hostPath.enabled -}}hostPath
{{- else if .Values.nfs.enabled -}}nfs
{{- else -}}emptyDir
{{- end -}}
{{- end -}}

{{/* Labels that select exactly the pods serving the API: every single-node pod, LWS leaders only, or rank 0 (worker 0) of each MPIJob. */}}
{{- define "nim-llm.servingPodSelector" -}}
{{- include "nim-llm.selectorLabels" . }}
{{- $mode := include "nim-llm.mode" . }}
{{- if eq $mode "leaderworkerset" }}
app.kubernetes.io/component: leader
{{- else if eq $mode "mpijob" }}
app.kubernetes.io/component: worker
training.kubeflow.org/replica-index: "0"
{{- else }}
app.kubernetes.io/component: inference
{{- end }}
{{- end -}}

{{/* The spec of MPIJob i: every MPIJob of the release has the same spec, but for its ComputeDomain channel with
multiNode.computeDomain.scope group. Usage: include "nim-llm.mpiJobSpec" (list $ $i) */}}
{{- define "nim-llm.mpiJobSpec" -}}
{{- $root := index . 0 -}}
{{- $pod := dict "root" $root -}}
{{- if eq $root.Values.multiNode.computeDomain.scope "group" -}}{{- $_ := set $pod "group" (index . 1 | int) -}}{{- end -}}
slotsPerWorker: {{ $root.Values.multiNode.gpusPerNode | int64 }}
{{- /* AtStartup: the launcher starts with the workers and launcher.sh waits for their sshd itself (at most
clusterStartTimeout). WaitForWorkersReady would wait for every worker's Ready condition, and worker 0 is Ready only once
the server it hosts answers, which needs the launcher's mpirun: it would never start. */}}
launcherCreationPolicy: AtStartup
sshAuthMountPath: /etc/nim-llm/ssh
runPolicy:
  cleanPodPolicy: Running
mpiReplicaSpecs:
  Launcher:
    replicas: 1
    restartPolicy: OnFailure
    template:
      {{- include "nim-llm.podTemplate" (merge (dict "role" "launcher") $pod) | nindent 6 }}
  Worker:
    replicas: {{ $root.Values.multiNode.workers | int64 }}
    {{- /* mpi-operator accepts only Never or OnFailure here (its CRD schema does not say so; it refuses the MPIJob
    with a ValidationError event and creates no pods). OnFailure: a worker whose sshd dies is restarted in place. */}}
    restartPolicy: OnFailure
    template:
      {{- include "nim-llm.podTemplate" (merge (dict "role" "mpi-worker") $pod) | nindent 6 }}
{{- end -}}

{{/* Name of MPIJob number i: <fullname>-<i>-<first 5 hex digits of the sha256 of its spec>.
Usage: include "nim-llm.mpiJobName" (list $ $i) */}}
{{- define "nim-llm.mpiJobName" -}}
{{- $root := index . 0 -}}
{{- printf "%s-%d-%s" (include "nim-llm.fullname" $root) (index . 1 | int) (include "nim-llm.mpiJobSpec" . | sha256sum | trunc 5) -}}
{{- end -}}

{{/* The multi-node groups, each with the labels its operator puts on every pod of that group and only those (list of
{index, labels}): LeaderWorkerSet group i (leaderworkerset.sigs.k8s.io/name and group-index; as many groups as
autoscaling.maxReplicas when the autoscaler owns the count, and the surge groups of a rolling update: _surge.tpl), or MPIJob i (training.kubeflow.org/job-name). Empty for
single-node. */}}
{{- define "nim-llm.groups" -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $groups := list -}}
{{- if eq $mode "leaderworkerset" -}}
{{- $count := include "nim-llm.lwsGroupSlots" . | int -}}
{{- range $i := until $count -}}
{{- $groups = append $groups (dict "index" $i "labels" (dict "leaderworkerset.sigs.k8s.io/name" (include "nim-llm.lwsName" $) "leaderworkerset.sigs.k8s.io/group-index" (toString $i))) -}}
{{- end -}}
{{- else if eq $mode "mpijob" -}}
{{- range $i := until (int .Values.replicaCount) -}}
{{- $groups = append $groups (dict "index" $i "labels" (dict "training.kubeflow.org/job-name" (include "nim-llm.mpiJobName" (list $ $i)))) -}}
{{- end -}}
{{- end -}}
{{- toYaml $groups -}}
{{- end -}}

{{/* The Ray role of a LeaderWorkerSet pod as the image's entrypoint takes it (NIM's CLI action nim-serve-ray, as
NVIDIA's NIM Operator renders it): the leader starts the Ray head on multiNode.ray.port and serves; a worker joins
the head of its own group, at the leader address the LeaderWorkerSet webhook injects. A YAML list.
Usage: include "nim-llm.rayArgs" (dict "root" $ "role" "leader") */}}
{{- define "nim-llm.rayArgs" -}}
{{- $port := .root.Values.multiNode.ray.port | int64 | toString -}}
{{- if eq .role "leader" -}}
{{- toYaml (list "nim-serve-ray" "--head" "--port" $port) -}}
{{- else -}}
{{- toYaml (list "nim-serve-ray" "--head-address" (printf "$(LWS_LEADER_ADDRESS):%s" $port)) -}}
{{- end -}}
{{- end -}}

{{/* failureThreshold of a Ray worker's startup probe: enough periods to cover multiNode.clusterStartTimeout. */}}
{{- define "nim-llm.rayWorkerStartupFailures" -}}
{{- $M := .Values.multiNode -}}
{{- $period := $M.ray.workerStartupProbe.periodSeconds | int64 -}}
{{- max 1 (div (add ($M.clusterStartTimeout | int64) $period -1) $period) -}}
{{- end -}}
