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
{{- if include "nim-llm.usesRay" . -}}
{{- /* The chart gives each pod its Ray role; a custom command or args would replace it. */ -}}
{{- include "nim-llm.preflight.ray.roleNotReplaced" . -}}
{{- /* The Ray head's port is not a port the pods already use. */ -}}
{{- include "nim-llm.preflight.ray.portFree" . -}}
{{- /* LeaderReady would wait for a leader that is Ready only once its workers joined. */ -}}
{{- include "nim-llm.preflight.ray.workersCreatedWithLeader" . -}}
{{- /* A Ray group is a head and at least one worker. */ -}}
{{- include "nim-llm.preflight.ray.groupHasWorkers" . -}}
{{- /* The leader may not be restarted before its workers have had their time to join. */ -}}
{{- include "nim-llm.preflight.ray.leaderOutlastsWorkers" . -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.preflight.ray.tagDecidesNothing" -}}
{{- $V := .Values -}}
{{- if and (eq $V.multiNode.launchMode "auto") $V.multiNode.leaderWorkerSet.enabled (not (include "nim-llm.nimMajorVersion" .)) -}}
{{- include "nim-llm.fail" (printf (print
  "image.tag %q is not a NIM version, so multiNode.launchMode: auto cannot tell how the group starts "
  "(NIM 2.x and 3.x form a Ray cluster, NIM 1.x runs mpirun over SSH or starts every pod natively): "
  "set multiNode.launchMode: ray for NIM 2.0 and later, or mpi (or native, for SGLang images) for NIM "
  "1.x.") (toString ($V.image.tag | default .Chart.AppVersion))) -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.preflight.ray.needsLeaderWorkerSet" -}}
{{- $V := .Values -}}
{{- if not $V.multiNode.leaderWorkerSet.enabled -}}
{{- if eq $V.multiNode.launchMode "ray" -}}
{{- include "nim-llm.fail" (print
  "multiNode.launchMode is ray, but multiNode.leaderWorkerSet.enabled is false: an MPIJob starts its "
  "group with mpirun over SSH, and a Ray group (NIM 2.x and 3.x) needs a LeaderWorkerSet, whose leader "
  "runs the Ray head: set multiNode.leaderWorkerSet.enabled: true (install the LeaderWorkerSet "
  "controller), or multiNode.launchMode: mpi for a NIM 1.x image.") -}}
{{- else if and (eq $V.multiNode.launchMode "auto") (ge (include "nim-llm.nimMajorVersion" . | default "0" | atoi) 2) -}}
{{- include "nim-llm.fail" (printf (print
  "image.tag %q is NIM %s, which forms its multi-node cluster with Ray, but "
  "multiNode.leaderWorkerSet.enabled is false: an MPIJob starts its group with mpirun over SSH, which "
  "NIM 2.x and 3.x do not use. Set multiNode.leaderWorkerSet.enabled: true (a LeaderWorkerSet, whose "
  "leader runs the Ray head), or use a NIM 1.x image.tag with the MPIJob.") (toString ($V.image.tag | default .Chart.AppVersion)) (include "nim-llm.nimMajorVersion" . | printf "%s.x")) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.preflight.ray.roleNotReplaced" -}}
{{- $V := .Values -}}
{{- range $key := list "customCommand" "customArgs" "multiNode.workerCustomCommand" -}}
{{- $value := $V -}}
{{- range $part := splitList "." $key -}}{{- $value = get $value $part -}}{{- end -}}
{{- if $value -}}
{{- include "nim-llm.fail" (printf (print
  "%s is set, but the group starts in ray launch mode (multiNode.launchMode ray, or auto with a NIM "
  "2.x or 3.x image.tag), where the chart gives every pod its Ray role as the image entrypoint's "
  "arguments (leader: nim-serve-ray --head --port %d; workers: nim-serve-ray --head-address "
  "<leader>:%d) and %s would replace it, so no Ray cluster would form: remove %s (set server options "
  "through env), or set multiNode.launchMode: mpi or native for a NIM 1.x image.") $key (int $V.multiNode.ray.port) (int $V.multiNode.ray.port) $key $key) -}}
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
{{- include "nim-llm.fail" (printf (print
  "multiNode.ray.port is %d, the same as %s (%s): the Ray head listens on multiNode.ray.port on every "
  "leader, next to the inference server (model.openaiPort, which also serves health and metrics) and "
  "torch.distributed (multiNode.masterPort), so two of them could not bind it: choose another "
  "multiNode.ray.port (6379 is Ray's own default).") $port $key (include "nim-llm.rayPortUse" $key)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* What each port that multiNode.ray.port must differ from is for. */}}
{{- define "nim-llm.rayPortUse" -}}
{{- get (dict "model.openaiPort" "the inference API, health and metrics port" "multiNode.masterPort" "torch.distributed's MASTER_PORT" "multiNode.sshPort" "the SSH port of mpi launch mode") . -}}
{{- end -}}

{{- define "nim-llm.preflight.ray.workersCreatedWithLeader" -}}
{{- if eq .Values.multiNode.leaderWorkerSet.startupPolicy "LeaderReady" -}}
{{- include "nim-llm.fail" (print
  "multiNode.leaderWorkerSet.startupPolicy is LeaderReady, but the group starts in ray launch mode: "
  "LeaderReady creates the workers only once the leader is Ready, and a Ray leader is Ready only once "
  "every worker has joined its Ray head and the model is loaded across them, so the group would wait "
  "for itself: set multiNode.leaderWorkerSet.startupPolicy: LeaderCreated.") -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.preflight.ray.groupHasWorkers" -}}
{{- if lt (int .Values.multiNode.workers) 2 -}}
{{- include "nim-llm.fail" (printf (print
  "multiNode.workers is %d, but a Ray group is a leader (the Ray head) and at least one worker: set "
  "multiNode.workers to the number of nodes of one replica (2 or more), or multiNode.enabled: false to "
  "serve from one pod.") (int .Values.multiNode.workers)) -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.preflight.ray.leaderOutlastsWorkers" -}}
{{- $p := .Values.startupProbe -}}
{{- $timeout := int .Values.multiNode.clusterStartTimeout -}}
{{- if $p.enabled -}}
{{- $budget := add (int64 $p.initialDelaySeconds) (mul (int64 $p.periodSeconds) (int64 $p.failureThreshold)) -}}
{{- if lt $budget (int64 $timeout) -}}
{{- include "nim-llm.fail" (printf (print
  "the leader's startup budget (startupProbe.initialDelaySeconds + startupProbe.periodSeconds x "
  "startupProbe.failureThreshold = %d s) is shorter than multiNode.clusterStartTimeout (%d s), the "
  "time its Ray workers have to join: the kubelet would restart the leader (and the LeaderWorkerSet "
  "the whole group) while workers may still be joining, and it is Ready only once they have and the "
  "model is loaded. Raise startupProbe.failureThreshold (the leader also downloads the model: NVIDIA's "
  "multi-node examples use 1500 x 10 s), or lower multiNode.clusterStartTimeout.") $budget $timeout) -}}
{{- end -}}
{{- end -}}
{{- end -}}
