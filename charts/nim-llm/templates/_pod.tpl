{{/* ---------------------------------------------------------------------------
The one pod template of the chart. Every pod the chart makes is rendered here:
  role "server"     single-node StatefulSet or Deployment pod
  role "leader"     LeaderWorkerSet leader (serves the API)
  role "worker"     LeaderWorkerSet worker
  role "launcher"   MPIJob launcher (runs mpirun, no GPU)
  role "mpi-worker" MPIJob worker (rank 0 serves the API)
So securityContext, serviceAccount, pull secrets, scheduling, volumes and init
containers can never reach one kind of pod and miss another.
Usage: include "nim-llm.podTemplate" (dict "root" $ "role" "leader"), plus "group" <i> for the pods of MPIJob i.
--------------------------------------------------------------------------- */}}
{{- define "nim-llm.podTemplate" -}}
{{- $root := .root -}}
{{- $role := .role -}}
{{- $V := $root.Values -}}
{{- $gpuPod := ne $role "launcher" -}}
{{- /* What placement (_placement.tpl) needs of this pod: its role, and the MPIJob index when one is rendered. */ -}}
{{- $placement := dict "root" $root "role" $role -}}
{{- if hasKey . "group" -}}{{- $_ := set $placement "group" .group -}}{{- end -}}
{{- $annotations := merge (dict) ($V.podAnnotations | default dict) -}}
{{- if eq $role "mpi-worker" -}}
{{- $annotations = merge $annotations ($V.multiNode.mpiJob.workerAnnotations | default dict) -}}
{{- end -}}
{{- if and $gpuPod (include "nim-llm.isMultiNode" $root) -}}
{{- $annotations = merge $annotations (include "nim-llm.networking.podAnnotations" $root | fromYaml) -}}
{{- end -}}
{{- $annotations = merge $annotations (include "nim-llm.placement.podAnnotations" $placement | fromYaml) -}}
metadata:
  labels:
    {{- include "nim-llm.podLabels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ include "nim-llm.component" $role }}
    {{- with $V.model.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with $annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  serviceAccountName: {{ include "nim-llm.serviceAccountName" $root | quote }}
  automountServiceAccountToken: {{ $V.serviceAccount.automountServiceAccountToken }}
  enableServiceLinks: false
  {{- $pullSecrets := $V.imagePullSecrets | default list -}}
  {{- if $V.model.ngcAPIKey }}
  {{- $pullSecrets = append $pullSecrets (dict "name" (include "nim-llm.generatedPullSecretName" $root)) | uniq -}}
  {{- end }}
  {{- with $pullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $V.podSecurityContext }}
  securityContext:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $V.priorityClassName }}
  priorityClassName: {{ . | quote }}
  {{- end }}
  {{- with $V.schedulerName }}
  schedulerName: {{ . | quote }}
  {{- end }}
  {{- with $V.runtimeClassName }}
  runtimeClassName: {{ . | quote }}
  {{- end }}
  terminationGracePeriodSeconds: {{ $V.terminationGracePeriodSeconds | int64 }}
  {{- $initContainers := list -}}
  {{- if $gpuPod -}}
  {{- $initContainers = concat (include "nim-llm.networking.sidecars" $root | fromYamlArray)
    (include "nim-llm.cachePrefill.initContainers" (dict "root" $root "role" $role) | fromYamlArray)
    (include "nim-llm.extraInitContainers" $root | fromYamlArray) -}}
  {{- end }}
  {{- with $initContainers }}
  initContainers:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  containers:
    - name: nim
      image: {{ include "nim-llm.image" $root | quote }}
      imagePullPolicy: {{ $V.image.pullPolicy }}
      {{- with include "nim-llm.commandAndArgs" (dict "root" $root "role" $role) | trim }}
      {{- . | nindent 6 }}
      {{- end }}
      {{- with include "nim-llm.securityContext" (dict "root" $root "gpuPod" $gpuPod) | fromYaml }}
      securityContext:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      env:
        {{- include "nim-llm.env" (dict "root" $root "role" $role) | nindent 8 }}
      {{- with include "nim-llm.ports" (dict "root" $root "role" $role) | fromYamlArray }}
      ports:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with include "nim-llm.probes" (dict "root" $root "role" $role) | trim }}
      {{- . | nindent 6 }}
      {{- end }}
      {{- with include "nim-llm.placement.resources" (merge (dict "resources" (include "nim-llm.resources" (dict "root" $root "role" $role) | fromYaml)) $placement) | fromYaml }}
      resources:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with include "nim-llm.volumeMounts" (dict "root" $root "role" $role) | fromYamlArray }}
      volumeMounts:
        {{- toYaml . | nindent 8 }}
      {{- end }}
  {{- with $V.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with include "nim-llm.placement.affinity" $placement | fromYaml }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- /* The MPI launcher shares the GPU pods' node selector but asks for no GPU, so it does not get the toleration
  of the GPU nodes' nvidia.com/gpu taint that GKE (and any cluster running the ExtendedResourceToleration admission)
  gives pods requesting GPUs: it tolerates that taint itself, or it stays Pending on tainted GPU pools (GKE A3). */}}
  {{- $tolerations := $V.tolerations | default list }}
  {{- $gpuTaint := dict "key" "nvidia.com/gpu" "operator" "Exists" "effect" "NoSchedule" }}
  {{- if and (eq $role "launcher") (not (has $gpuTaint $tolerations)) }}
  {{- $tolerations = append $tolerations $gpuTaint }}
  {{- end }}
  {{- with $tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with include "nim-llm.placement.podClaims" $placement | fromYamlArray }}
  resourceClaims:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with include "nim-llm.volumes" (dict "root" $root "role" $role) | fromYamlArray }}
  volumes:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}

{{/* initContainers.extraInit, each without a securityContext of its own given containerSecurityContext, and then,
when that makes its root filesystem read-only, the pod's /tmp unless it mounts something there itself (list). */}}
{{- define "nim-llm.extraInitContainers" -}}
{{- $out := list -}}
{{- range $c := .Values.initContainers.extraInit | default list -}}
{{- if not (hasKey $c "securityContext") -}}
{{- $ctx := deepCopy ($.Values.containerSecurityContext | default dict) -}}
{{- $c = merge (dict "securityContext" $ctx) $c -}}
{{- $mountsTmp := false -}}
{{- range $m := $c.volumeMounts | default list -}}
{{- if eq (trimSuffix "/" (toString $m.mountPath)) "/tmp" -}}{{- $mountsTmp = true -}}{{- end -}}
{{- end -}}
{{- if and $ctx.readOnlyRootFilesystem (not $mountsTmp) -}}
{{- $c = merge (dict "volumeMounts" (append ($c.volumeMounts | default list) (dict "name" "tmp" "mountPath" "/tmp"))) (omit $c "volumeMounts") -}}
{{- end -}}
{{- end -}}
{{- /* An init container may download too: the proxy variables and the CA bundle it does not set itself (_modelsource.tpl). */ -}}
{{- $out = append $out (include "nim-llm.proxy.initContainer" (dict "root" $ "container" $c) | fromYaml) -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* app.kubernetes.io/component value of a pod role. */}}
{{- define "nim-llm.component" -}}
{{- $components := dict "server" "inference" "leader" "leader" "worker" "worker" "launcher" "launcher" "mpi-worker" "worker" -}}
{{- index $components . -}}
{{- end -}}

{{/* Container command and args of a role. */}}
{{- define "nim-llm.commandAndArgs" -}}
{{- $V := .root.Values -}}
{{- $command := list -}}
{{- $args := list -}}
{{- $mpi := include "nim-llm.usesMPI" .root -}}
{{- if or (eq .role "server") (eq .role "leader") -}}
  {{- $command = $V.customCommand -}}
  {{- $args = $V.customArgs -}}
  {{- if and (eq .role "leader") $mpi (not $V.customCommand) -}}
    {{- $command = list "/bin/bash" "/opt/nim-llm/mpi/leader.sh" -}}
    {{- $args = $V.customArgs | default (include "nim-llm.rankCommand" .root | fromYamlArray) -}}
  {{- end -}}
  {{- if and (eq .role "leader") (include "nim-llm.usesRay" .root) -}}
    {{- $args = include "nim-llm.rayArgs" (dict "root" .root "role" "leader") | fromYamlArray -}}
  {{- end -}}
{{- else if eq .role "worker" -}}
  {{- $command = $V.multiNode.workerCustomCommand -}}
  {{- if and $mpi (not $command) -}}
    {{- $command = list "/bin/bash" "/opt/nim-llm/mpi/worker.sh" -}}
  {{- end -}}
  {{- if include "nim-llm.usesRay" .root -}}
    {{- $args = include "nim-llm.rayArgs" (dict "root" .root "role" "worker") | fromYamlArray -}}
  {{- end -}}
{{- else if eq .role "mpi-worker" -}}
  {{- $command = list "/bin/bash" "/opt/nim-llm/mpi/worker.sh" -}}
{{- else if eq .role "launcher" -}}
  {{- $command = $V.customCommand | default (list "/bin/bash" "/opt/nim-llm/mpi/launcher.sh") -}}
  {{- $args = $V.customArgs | default (include "nim-llm.rankCommand" .root | fromYamlArray) -}}
{{- end -}}
{{- /* A networking provider's plugin directories are prepended to the image's LD_LIBRARY_PATH by library-path.sh,
which then runs the role's command: every process of a GPU pod (sshd and the ranks it starts, mpirun and its local
ranks, a native server) sees them. Without a command the container would run the image's ENTRYPOINT and CMD, so
they are written out: /opt/nvidia/nvidia_entrypoint.sh and /opt/nim/start_server.sh, as NVIDIA's nim-deploy
(cloud-service-providers/aws/sagemaker/Dockerfile: NIM_ENTRYPOINT, NIM_CMD) names them. */ -}}
{{- $libraryPath := "" -}}
{{- if has .role (list "leader" "worker" "mpi-worker") -}}
  {{- $libraryPath = include "nim-llm.networking.libraryPath" .root -}}
{{- end -}}
{{- if $libraryPath -}}
  {{- if not $command -}}
    {{- $command = list "/opt/nvidia/nvidia_entrypoint.sh" -}}
    {{- if not $args -}}{{- $args = list "/opt/nim/start_server.sh" -}}{{- end -}}
  {{- end -}}
  {{- $command = concat (list "/bin/bash" "/opt/nim-llm/mpi/library-path.sh" $libraryPath "--") $command -}}
{{- end -}}
{{- with $command }}
command:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $args }}
args:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Container securityContext: the user's, plus the capabilities an enabled networking provider needs (GPU pods only). */}}
{{- define "nim-llm.securityContext" -}}
{{- $ctx := deepCopy (.root.Values.containerSecurityContext | default dict) -}}
{{- $add := list -}}
{{- if and .gpuPod (include "nim-llm.isMultiNode" .root) -}}
{{- $add = include "nim-llm.networking.capabilities" .root | fromYamlArray -}}
{{- end -}}
{{- if $add -}}
{{- $caps := $ctx.capabilities | default dict -}}
{{- $_ := set $caps "add" (concat ($caps.add | default list) $add | uniq) -}}
{{- $_ := set $ctx "capabilities" $caps -}}
{{- end -}}
{{- toYaml $ctx -}}
{{- end -}}

{{/* "true" when a role's container runs sshd for mpirun: MPIJob workers, and LWS workers in mpi launch mode without workerCustomCommand. */}}
{{- define "nim-llm.runsSshd" -}}
{{- if or (eq .role "mpi-worker") (and (eq .role "worker") (include "nim-llm.usesMPI" .root) (not .root.Values.multiNode.workerCustomCommand)) -}}true{{- end -}}
{{- end -}}

{{/* Container ports of a role. */}}
{{- define "nim-llm.ports" -}}
{{- $V := .root.Values -}}
{{- $ports := list -}}
{{- if has .role (list "server" "leader" "mpi-worker") -}}
{{- $ports = append $ports (dict "name" "http-openai" "containerPort" ($V.model.openaiPort | int) "protocol" "TCP") -}}
{{- end -}}
{{- if and (has .role (list "server" "leader")) (gt (int $V.model.healthPort) 0) -}}
{{- $ports = append $ports (dict "name" "http-health" "containerPort" ($V.model.healthPort | int) "protocol" "TCP") -}}
{{- end -}}
{{- if include "nim-llm.runsSshd" . -}}
{{- $ports = append $ports (dict "name" "ssh" "containerPort" ($V.multiNode.sshPort | int) "protocol" "TCP") -}}
{{- end -}}
{{- if and (has .role (list "leader" "worker")) (include "nim-llm.usesRay" .root) -}}
{{- $ports = append $ports (dict "name" "ray" "containerPort" ($V.multiNode.ray.port | int) "protocol" "TCP") -}}
{{- end -}}
{{- toYaml $ports -}}
{{- end -}}

{{/* Probes of a role: HTTP probes where the API is served (single-node pod, LWS leader); on MPIJob workers
ready.sh (worker 0 serves the API); an sshd readiness probe on LWS MPI workers; none on the launcher. */}}
{{- define "nim-llm.probes" -}}
{{- $V := .root.Values -}}
{{- $port := ternary "http-health" "http-openai" (gt (int $V.model.healthPort) 0) -}}
{{- /* NIM 3.0 Dynamo mode bypasses NIM's server: the Dynamo frontend on DYN_HTTP_PORT (http-openai) answers the
probes, at its own paths (model.dynamo.livenessPath, model.dynamo.readinessPath); model.healthPort is then the
worker's system port (_engine.tpl). */ -}}
{{- $dynamo := include "nim-llm.dynamo.single" .root -}}
{{- if $dynamo -}}{{- $port = "http-openai" -}}{{- end -}}
{{- if has .role (list "server" "leader") -}}
{{- range $kind := list "startupProbe" "livenessProbe" "readinessProbe" -}}
{{- $p := index $V $kind -}}
{{- $path := $p.path -}}
{{- if $dynamo -}}
{{- $path = ternary $V.model.dynamo.livenessPath $V.model.dynamo.readinessPath (eq $kind "livenessProbe") -}}
{{- end -}}
{{- if $p.enabled }}
{{ $kind }}:
  httpGet:
    path: {{ $path | quote }}
    port: {{ $port }}
  initialDelaySeconds: {{ $p.initialDelaySeconds | int64 }}
  periodSeconds: {{ $p.periodSeconds | int64 }}
  timeoutSeconds: {{ $p.timeoutSeconds | int64 }}
  successThreshold: {{ $p.successThreshold | int64 }}
  failureThreshold: {{ $p.failureThreshold | int64 }}
{{- end -}}
{{- end -}}
{{- else if eq .role "mpi-worker" }}
{{- /* ready.sh: worker 0 (MPI rank 0 serves the API) is Ready only while the server answers readinessProbe.path;
the other workers while their sshd listens (the MPI operator publishes their DNS names only while they are Ready). */}}
{{- $p := $V.readinessProbe }}
readinessProbe:
  exec:
    command:
      - /bin/bash
      - /opt/nim-llm/mpi/ready.sh
      - {{ ternary $p.path "" (and $p.enabled true) | quote }}
  periodSeconds: {{ ternary $p.periodSeconds 5 (and $p.enabled true) | int64 }}
  timeoutSeconds: {{ ternary (max $p.timeoutSeconds 5) 5 (and $p.enabled true) | int64 }}
  failureThreshold: {{ ternary $p.failureThreshold 3 (and $p.enabled true) | int64 }}
{{- else if and (eq .role "worker") (include "nim-llm.usesRay" .root) }}
{{- /* A Ray worker serves nothing: it is started once `ray status` in its own container reaches the cluster it
joined (the command finds the cluster through the address the worker's own Ray start recorded, so it fails until
this worker has joined, and fails again if the head is gone). The budget is multiNode.clusterStartTimeout: a worker
that has not joined by then is restarted, and the LeaderWorkerSet recreates the whole group. */}}
{{- $p := $V.multiNode.ray.workerStartupProbe }}
startupProbe:
  exec:
    command:
      - /bin/sh
      - -c
      - ray status
  periodSeconds: {{ $p.periodSeconds | int64 }}
  timeoutSeconds: {{ $p.timeoutSeconds | int64 }}
  failureThreshold: {{ include "nim-llm.rayWorkerStartupFailures" .root }}
{{- else if include "nim-llm.runsSshd" . }}
readinessProbe:
  tcpSocket:
    port: ssh
  periodSeconds: 5
  failureThreshold: 3
{{- end -}}
{{- end -}}

{{/* Resources of a role: the chart resources plus networking devices for GPU pods; the launcher's own. */}}
{{- define "nim-llm.resources" -}}
{{- $V := .root.Values -}}
{{- if eq .role "launcher" -}}
{{- include "nim-llm.quantities" ($V.multiNode.mpiJob.launcherResources | default dict) -}}
{{- else -}}
{{- $res := include "nim-llm.quantities" ($V.resources | default dict) | fromYaml -}}
{{- /* An emptyDir model cache lives on the node's disk: ask for that much, so the scheduler picks a node that has it. */ -}}
{{- if eq (include "nim-llm.cacheBackend" .root) "emptyDir" -}}
{{- $requests := $res.requests | default dict -}}
{{- if not (hasKey $requests "ephemeral-storage") -}}
{{- $_ := set $requests "ephemeral-storage" (include "nim-llm.size" $V.emptyDir.sizeLimit) -}}
{{- $_ := set $res "requests" $requests -}}
{{- end -}}
{{- end -}}
{{- if include "nim-llm.isMultiNode" .root -}}
{{- $devices := include "nim-llm.networking.devices" .root | fromYaml -}}
{{- if $devices -}}
{{- range $section := list "limits" "requests" -}}
{{- if or (eq $section "limits") (hasKey $res $section) -}}
{{- $_ := set $res $section (merge (index $res $section | default dict | deepCopy) $devices) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toYaml $res -}}
{{- end -}}
{{- end -}}
