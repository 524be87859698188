{{/* ---------------------------------------------------------------------------
Preflight rules of the Ray launch mode (NIM 2.x and 3.x), one define per rule, run in this order by
"nim-llm.preflight.ray", which the preflight entry point calls. Each refusal names the key by its full path and says
what to set instead.
--------------------------------------------------------------------------- */}}
{{- define "nim-llm.preflight.ray" -}}
{{- if .Values.multiNode.enabled -}}
{{- /* auto cannot read a NIM version from a tag that is not one: the user chooses. */ -}}
{{- include "nim-llm.preflight.ray.tagDecidesNothing" . -}}
{{- /* An MPIJob runs mpirun; a Ray group needs a LeaderWorkerSet. */ -}}
{{- include "nim-llm.preflight.ray.needsLeaderWorkerSet" . -}}
{{- /* An explicit ray mode on a NIM 1.x tag: no 1.x image has nim-serve-ray. */ -}}
{{- include "nim-llm.preflight.ray.imageHasRay" . -}}
{{- if include "nim-llm.usesRay" . -}}
{{- /* The chart gives each pod its Ray role; a custom command or args would replace it. */ -}}
{{- include "nim-llm.preflight.ray.roleNotReplaced" . -}}
{{- /* The Ray head's port is not a port the pods already use. */ -}}
{{- include "nim-llm.preflight.ray.portFree" . -}}
{{- /* The Ray head's port is none of the ports Ray itself reserves (ray start refuses to start). */ -}}
{{- include "nim-llm.preflight.ray.portNotRays" . -}}
{{- /* LeaderReady would wait for a leader that is Ready only once its workers joined. */ -}}
{{- include "nim-llm.preflight.ray.workersCreatedWithLeader" . -}}
{{- /* A Ray group is a head and at least one worker. */ -}}
{{- include "nim-llm.preflight.ray.groupHasWorkers" . -}}
{{- /* The leader may not be restarted before its workers have had their time to join. */ -}}
{{- include "nim-llm.preflight.ray.leaderOutlastsWorkers" . -}}
{{- /* A worker's startup probe gets more than one period to join (else the first probe, at start, ends it). */ -}}
{{- include "nim-llm.preflight.ray.workerProbeBudget" . -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.preflight.ray.tagDecidesNothing" -}}
{{- $V := .Values -}}
{{- if and (eq $V.multiNode.launchMode "auto") $V.multiNode.leaderWorkerSet.enabled (not (include "nim-llm.nimMajorVersion" .)) -}}
{{- $message := print
  "image.tag %q is not a NIM version, so multiNode.launchMode: auto cannot tell how the group starts (NIM 2.x and "
  "3.x form a Ray cluster, NIM 1.x runs mpirun over SSH or starts every pod natively): set multiNode.launchMode: ray "
  "for NIM 2.0 and later, or mpi (or native, for SGLang images) for NIM 1.x." -}}
{{- include "nim-llm.fail" (printf $message (toString ($V.image.tag | default .Chart.AppVersion))) -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.preflight.ray.needsLeaderWorkerSet" -}}
{{- $V := .Values -}}
{{- if not $V.multiNode.leaderWorkerSet.enabled -}}
{{- if eq $V.multiNode.launchMode "ray" -}}
{{- $message := print
  "multiNode.launchMode is ray, but multiNode.leaderWorkerSet.enabled is false: an MPIJob starts its group with "
  "mpirun over SSH, and a Ray group (NIM 2.x and 3.x) needs a LeaderWorkerSet, whose leader runs the Ray head: set "
  "multiNode.leaderWorkerSet.enabled: true (install the LeaderWorkerSet controller), or multiNode.launchMode: mpi "
  "for a NIM 1.x image." -}}
{{- include "nim-llm.fail" $message -}}
{{- else if and (eq $V.multiNode.launchMode "auto") (ge (include "nim-llm.nimMajorVersion" . | default "0" | atoi) 2) -}}
{{- $message := print
  "image.tag %q is NIM %s, which forms its multi-node cluster with Ray, but multiNode.leaderWorkerSet.enabled is "
  "false: an MPIJob starts its group with mpirun over SSH, which NIM 2.x and 3.x do not use. Set "
  "multiNode.leaderWorkerSet.enabled: true (a LeaderWorkerSet, whose leader runs the Ray head), or use a NIM 1.x "
  "image.tag with the MPIJob." -}}
{{- include "nim-llm.fail" (printf $message (toString ($V.image.tag | default .Chart.AppVersion))
  (include "nim-llm.nimMajorVersion" . | printf "%s.x")) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.preflight.ray.roleNotReplaced" -}}
{{- $V := .Values -}}
{{- range $key := list "customCommand" "customArgs" "multiNode.workerCustomCommand" -}}
{{- $value := $V -}}
{{- range $part := splitList "." $key -}}{{- $value = get $value $part -}}{{- end -}}
{{- if $value -}}
{{- $message := print
  "%s is set, but the group starts in ray launch mode (multiNode.launchMode ray, or auto with a NIM 2.x or 3.x "
  "image.tag), where the chart gives every pod its Ray role as the image entrypoint's arguments (leader: "
  "nim-serve-ray --head --port %d; workers: nim-serve-ray --head-address <leader>:%d) and %s would replace it, so no "
  "Ray cluster would form: remove %s (set server options through env), or set multiNode.launchMode: mpi or native "
  "for a NIM 1.x image." -}}
{{- include "nim-llm.fail" (printf $message $key (int $V.multiNode.ray.port) (int $V.multiNode.ray.port) $key $key) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.preflight.ray.portFree" -}}
{{- $V := .Values -}}
{{- $port := int $V.multiNode.ray.port -}}
{{- range $key := list "model.openaiPort" "multiNode.masterPort" "multiNode.sshPort" -}}
{{- $value := $V -}}
{{- range $part := splitList "." $key -}}{{- $value = get $value $part -}}{{- end -}}
{{- if eq (int $value) $port -}}
{{- $message := print
  "multiNode.ray.port is %d, the same as %s (%s): the Ray head listens on multiNode.ray.port on every leader, next "
  "to the inference server (model.openaiPort, which also serves health and metrics) and torch.distributed "
  "(multiNode.masterPort), so two of them could not bind it: choose another multiNode.ray.port (6379 is Ray's own "
  "default)." -}}
{{- include "nim-llm.fail" (printf $message $port $key (include "nim-llm.rayPortUse" $key)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* What each port that multiNode.ray.port must differ from is for. */}}
{{- define "nim-llm.rayPortUse" -}}
{{- get (dict "model.openaiPort" "the inference API, health and metrics port" "multiNode.masterPort" "torch.distributed's MASTER_PORT" "multiNode.sshPort" "the SSH port of mpi launch mode") . -}}
{{- end -}}

{{- define "nim-llm.preflight.ray.workersCreatedWithLeader" -}}
{{- if eq .Values.multiNode.leaderWorkerSet.startupPolicy "LeaderReady" -}}
{{- $message := print
  "multiNode.leaderWorkerSet.startupPolicy is LeaderReady, but the group starts in ray launch mode: LeaderReady "
  "creates the workers only once the leader is Ready, and a Ray leader is Ready only once every worker has joined "
  "its Ray head and the model is loaded across them, so the group would wait for itself: set "
  "multiNode.leaderWorkerSet.startupPolicy: LeaderCreated." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.preflight.ray.groupHasWorkers" -}}
{{- if lt (int .Values.multiNode.workers) 2 -}}
{{- $message := print
  "multiNode.workers is %d, but a Ray group is a leader (the Ray head) and at least one worker: set "
  "multiNode.workers to the number of nodes of one replica (2 or more), or multiNode.enabled: false to serve from "
  "one pod." -}}
{{- include "nim-llm.fail" (printf $message (int .Values.multiNode.workers)) -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.preflight.ray.leaderOutlastsWorkers" -}}
{{- $p := .Values.startupProbe -}}
{{- $timeout := int .Values.multiNode.clusterStartTimeout -}}
{{- if $p.enabled -}}
{{- $budget := add (int64 $p.initialDelaySeconds) (mul (int64 $p.periodSeconds) (int64 $p.failureThreshold)) -}}
{{- if lt $budget (int64 $timeout) -}}
{{- $message := print
  "the leader's startup budget (startupProbe.initialDelaySeconds + startupProbe.periodSeconds x "
  "startupProbe.failureThreshold = %d s) is shorter than multiNode.clusterStartTimeout (%d s), the time its Ray "
  "workers have to join: the kubelet would restart the leader (and the LeaderWorkerSet the whole group) while "
  "workers may still be joining, and it is Ready only once they have and the model is loaded. Raise "
  "startupProbe.failureThreshold (the leader also downloads the model: NVIDIA's multi-node examples use 1500 x 10 "
  "s), or lower multiNode.clusterStartTimeout." -}}
{{- include "nim-llm.fail" (printf $message $budget $timeout) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* NIM 1.x images start multi-node with mpirun (or natively); nim-serve-ray, the Ray role the chart gives every pod in
ray launch mode, exists from NIM 2.0 on. An explicit multiNode.launchMode: ray wins over the tag, so without this rule
a 1.x tag renders a command its image does not have and every pod of the group fails at start. A tag that is not a
version (latest) says nothing and is left to the user. */ -}}
{{- define "nim-llm.preflight.ray.imageHasRay" -}}
{{- $V := .Values -}}
{{- $major := include "nim-llm.nimMajorVersion" . -}}
{{- if and (eq $V.multiNode.launchMode "ray") $major (lt (atoi $major) 2) -}}
{{- $message := print
  "multiNode.launchMode is ray, but image.tag %q is NIM %s.x, whose images have no nim-serve-ray (NIM forms its "
  "multi-node cluster with Ray from 2.0 on): set multiNode.launchMode: auto (or mpi, or native for SGLang images) "
  "for this NIM 1.x image, or set image.tag to a NIM 2.x or 3.x version." -}}
{{- include "nim-llm.fail" (printf $message (toString ($V.image.tag | default .Chart.AppVersion)) $major) -}}
{{- end -}}
{{- end -}}

{{- /* ray start checks the ports of its components before it starts anything, and exits with "Ray component <name> is
trying to use a port number <port> that is used by other components" when two share one (RayParams'
update_pre_selected_port, Ray 2.x): the GCS port (multiNode.ray.port, --port) must not be the dashboard's 8265
(--dashboard-port), the dashboard agent's 52365 (--dashboard-agent-listen-port) or a port of the worker range
10002-19999 (--min-worker-port, --max-worker-port): the defaults of ray start, which nim-serve-ray is not documented to
change. The Ray client server's 10001 is not among them: ray start reserves it only where ray[client] is installed
(the pinned Ray 2.60.0, a plain install, starts with --port 10001; ChartValidatorAgreementIT asks it). */ -}}
{{- define "nim-llm.preflight.ray.portNotRays" -}}
{{- $port := int .Values.multiNode.ray.port -}}
{{- $reserved := dict "8265" "the dashboard's port (--dashboard-port)" "52365" "the dashboard agent's port (--dashboard-agent-listen-port)" -}}
{{- $what := get $reserved (toString $port) -}}
{{- if and (ge $port 10002) (le $port 19999) -}}
{{- $what = "in the range of Ray's worker processes, 10002-19999 (--min-worker-port, --max-worker-port)" -}}
{{- end -}}
{{- if $what -}}
{{- $message := print
  "multiNode.ray.port is %d, %s, a port Ray reserves for another of its components on the same pod: ray start "
  "refuses to start (\"Ray component ... is trying to use a port number %d that is used by other components\"), so "
  "no group would form: set multiNode.ray.port to Ray's default 6379 (or another port below 10002 that is not 8265, "
  "or from 20000 up other than 52365)." -}}
{{- include "nim-llm.fail" (printf $message $port $what $port) -}}
{{- end -}}
{{- end -}}

{{- /* A Ray worker's startup probe (ray status) has no initial delay: the kubelet runs it as the worker starts, and ends
the worker at its failureThreshold-th failure, failureThreshold = clusterStartTimeout / periodSeconds rounded up. A
period as long as the whole start budget makes that 1, and the worker is ended by its first probe, seconds after it
starts, long before it could have joined its head. */ -}}
{{- define "nim-llm.preflight.ray.workerProbeBudget" -}}
{{- $M := .Values.multiNode -}}
{{- $period := int64 $M.ray.workerStartupProbe.periodSeconds -}}
{{- if ge $period (int64 $M.clusterStartTimeout) -}}
{{- $message := print
  "multiNode.ray.workerStartupProbe.periodSeconds (%d) is at least multiNode.clusterStartTimeout (%d), so a Ray "
  "worker's startup probe gets one try (failureThreshold 1), made as the worker starts: the kubelet would end every "
  "worker seconds after it starts, before it could join its head. Set multiNode.ray.workerStartupProbe.periodSeconds "
  "well below multiNode.clusterStartTimeout (10 is the default), or raise multiNode.clusterStartTimeout." -}}
{{- include "nim-llm.fail" (printf $message $period (int64 $M.clusterStartTimeout)) -}}
{{- end -}}
{{- end -}}
