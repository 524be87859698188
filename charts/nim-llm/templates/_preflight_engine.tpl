{{/* ---------------------------------------------------------------------------
Preflight rules of NIM 3.0's Dynamo mode (model.dynamo) and of the engine settings (model.engine): helpers and
sources in _engine.tpl. Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

{{- /* The image tag as messages name it. */ -}}
{{- define "nim-llm.preflight.engine.tag" -}}
{{- toString (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{- /* env entries of the variables model.dynamo and model.engine own: the Dynamo selectors and ports always (the
mode is a value, never loose env; the entrypoint takes the first of SINGLE, WORKER, FRONTEND and rejects none), an
engine variable while its value is set (one source for each variable). */ -}}
{{- define "nim-llm.preflight.engineEnvOwned" -}}
{{- $V := .Values -}}
{{- $E := $V.model.engine -}}
{{- $owners := include "nim-llm.engine.owners" . | fromYaml -}}
{{- $set := dict "NIM_PASSTHROUGH_ARGS" (gt (len ($E.args | default list)) 0) "NIM_MAX_MODEL_LEN" (gt (int64 $E.maxModelLen) 0)
  "NIM_DISABLE_CUDA_GRAPH" $E.disableCudaGraph "NIM_SERVED_MODEL_NAME" (ne (toString $E.servedModelName) "")
  "NIM_DRAFT_MODEL_PATH" (ne (toString $E.draftModelPath) "") -}}
{{- range $i, $e := $V.env | default list -}}
{{- $name := toString $e.name -}}
{{- if hasPrefix "NIM_DYNAMO_" $name -}}
{{- $message := print
  "env[%d] sets %s, a selector of NIM 3.0's Dynamo mode, which model.dynamo.mode chooses (the chart renders exactly "
  "one selector, NIM_DYNAMO_SINGLE=1 for model.dynamo.mode: single; NIM's entrypoint does not reject several and "
  "takes the first of SINGLE, WORKER, FRONTEND). Remove env[%d] and set model.dynamo.mode instead." -}}
{{- include "nim-llm.fail" (printf $message $i $name $i) -}}
{{- else if eq $name "DYN_HTTP_PORT" -}}
{{- $message := print
  "env[%d] sets DYN_HTTP_PORT, the Dynamo frontend's port, which the chart sets from model.openaiPort in Dynamo mode "
  "(the port the Service, the probes, the NetworkPolicy and helm test use). Remove env[%d] and set model.openaiPort "
  "instead." -}}
{{- include "nim-llm.fail" (printf $message $i $i) -}}
{{- else if eq $name "DYN_SYSTEM_PORT" -}}
{{- $message := print
  "env[%d] sets DYN_SYSTEM_PORT, which NIM's entrypoint derives from NIM_HEALTH_PORT and overwrites (NIM 3.0 "
  "troubleshooting, Dynamo mode). Remove env[%d] and set model.healthPort instead." -}}
{{- include "nim-llm.fail" (printf $message $i $i) -}}
{{- else if get $set $name -}}
{{- $message := print
  "env[%d] sets %s, which %s sets: one of them would silently win. Remove env[%d] (or unset %s and keep the env "
  "entry)." -}}
{{- include "nim-llm.fail" (printf $message $i $name (get $owners $name) $i (get $owners $name)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Dynamo mode: single-container on a NIM 3.x tag, single-node, with a pinned (the recipe's) profile, ports that do not
collide, and no reader of NIM's own metrics. */ -}}
{{- define "nim-llm.preflight.dynamoMode" -}}
{{- $V := .Values -}}
{{- $mode := toString $V.model.dynamo.mode -}}
{{- $tag := include "nim-llm.preflight.engine.tag" . -}}
{{- if has $mode (list "frontend" "worker") -}}
{{- $message := print
  "model.dynamo.mode is %q: the split Dynamo deployment (a frontend/router and separate workers, which register "
  "through etcd and NATS) is documented on Kubernetes only through the Dynamo Operator, as a DynamoGraphDeployment "
  "made from the model's NIM 3.0 recipe (NIM 3.0.0 docs, Dynamo Deployment); this chart does not render it. Deploy "
  "it with the Dynamo Operator, or set model.dynamo.mode: single (frontend and one worker in one container)." -}}
{{- include "nim-llm.fail" (printf $message $mode) -}}
{{- end -}}
{{- if eq $mode "single" -}}
{{- $major := include "nim-llm.nimMajorVersion" . -}}
{{- if not $major -}}
{{- $message := print
  "model.dynamo.mode is single, but image.tag %q is not a NIM version, so the chart cannot tell that the image has "
  "Dynamo mode (NIM 3.0.0 and later; a 2.x image cannot enable it). Set image.tag to the NIM 3.x tag the model's NIM "
  "3.0 recipe pins." -}}
{{- include "nim-llm.fail" (printf $message $tag) -}}
{{- else if lt ($major | atoi) 3 -}}
{{- $message := print
  "model.dynamo.mode is single, but image.tag %q is NIM %s.x: Dynamo mode exists from NIM 3.0.0 on, and an existing "
  "%s.x container cannot enable it (NIM 3.0 migration guide). Set image.tag to the NIM 3.x tag the model's NIM 3.0 "
  "recipe pins, or set model.dynamo.mode: \"\"." -}}
{{- include "nim-llm.fail" (printf $message $tag $major $major) -}}
{{- end -}}
{{- if $V.multiNode.enabled -}}
{{- $message := print
  "model.dynamo.mode is single with multiNode.enabled: NIM 3.0 documents Dynamo across nodes only through the Dynamo "
  "Operator (a DynamoGraphDeployment), not as a LeaderWorkerSet or MPIJob group. Set model.dynamo.mode: \"\" (a "
  "multi-node group then forms a Ray cluster), or multiNode.enabled: false." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- $profile := ne (toString $V.modelSource.profile) "" -}}
{{- range $e := $V.env | default list -}}
{{- if and (eq (toString $e.name) "NIM_MODEL_PROFILE") (or $e.valueFrom (ne (toString $e.value) "")) -}}
{{- $profile = true -}}
{{- end -}}
{{- end -}}
{{- if not $profile -}}
{{- $message := print
  "model.dynamo.mode is single, but no profile is pinned (modelSource.profile is empty and env sets no "
  "NIM_MODEL_PROFILE): NIM's migration guide to Dynamo mode says to run the image and the profile its NIM 3.0 recipe "
  "pins together, and never to carry a 2.x profile ID over (the two cannot be told apart by their form). Set "
  "modelSource.profile to the profile of the model's NIM 3.0 recipe." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- if and (eq (int $V.model.healthPort) 0) (eq (int $V.model.openaiPort) 9090) -}}
{{- $message := print
  "model.openaiPort is 9090 with model.dynamo.mode single, but the Dynamo worker's system server listens on 9090 "
  "when model.healthPort (NIM_HEALTH_PORT) is 0, and the frontend then fails with \"Address already in use\" (NIM "
  "3.0 troubleshooting, Dynamo mode). Choose another model.openaiPort, or set model.healthPort." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- if or $V.inferencePool.enabled $V.autoscaling.nimMetrics $V.autoscaling.keda.enabled -}}
{{- $which := ternary "inferencePool.enabled (the endpoint picker)" "autoscaling.nimMetrics or autoscaling.keda.enabled"
  (eq (toString $V.inferencePool.enabled) "true") -}}
{{- $message := print
  "model.dynamo.mode is single with %s, which read NIM's metrics on /v1/metrics; in Dynamo mode the Dynamo frontend "
  "serves its own metrics, under other names, on /metrics, and which of NIM's names it keeps is not documented. Turn "
  "%s off in Dynamo mode, or set model.dynamo.mode: \"\"." -}}
{{- include "nim-llm.fail" (printf $message $which $which) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Engine settings: each only on a NIM version that has its variable, arguments NIM_PASSTHROUGH_ARGS can carry
and no other value owns, and a draft model the NIM container can read. */ -}}
{{- define "nim-llm.preflight.engineSettings" -}}
{{- $V := .Values -}}
{{- $E := $V.model.engine -}}
{{- $tag := include "nim-llm.preflight.engine.tag" . -}}
{{- $major := include "nim-llm.nimMajorVersion" . -}}
{{- $nim1 := and $major (lt ($major | atoi) 2) -}}
{{- if and $nim1 $E.args -}}
{{- $message := print
  "model.engine.args is set, but image.tag %q is NIM %s.x, which has no NIM_PASSTHROUGH_ARGS (NIM 2.0 and later pass "
  "engine arguments through): remove model.engine.args, or use a NIM 2.x or 3.x image." -}}
{{- include "nim-llm.fail" (printf $message $tag $major) -}}
{{- end -}}
{{- if and $nim1 $E.disableCudaGraph -}}
{{- $message := print
  "model.engine.disableCudaGraph is true, but image.tag %q is NIM %s.x, which has no NIM_DISABLE_CUDA_GRAPH (NIM 2.0 "
  "and later): set model.engine.disableCudaGraph: false, or use a NIM 2.x or 3.x image." -}}
{{- include "nim-llm.fail" (printf $message $tag $major) -}}
{{- end -}}
{{- with $E.draftModelPath -}}
{{- $version := include "nim-llm.nimVersion" $ -}}
{{- if or $nim1 (and $version (semverCompare "<2.0.10" $version)) -}}
{{- $message := print
  "model.engine.draftModelPath is set (speculative decoding, NIM_DRAFT_MODEL_PATH), but image.tag %q is older than "
  "NIM 2.0.10, the first version with NIM_DRAFT_MODEL_PATH: use a NIM image of 2.0.10 or later, or remove "
  "model.engine.draftModelPath." -}}
{{- include "nim-llm.fail" (printf $message $tag) -}}
{{- end -}}
{{- $path := trimSuffix "/" (toString .) -}}
{{- $mounts := list (trimSuffix "/" (toString $V.model.nimCache)) -}}
{{- range $m := $V.extraVolumeMounts | default list -}}
{{- $mounts = append $mounts (trimSuffix "/" (toString $m.mountPath)) -}}
{{- end -}}
{{- $inside := false -}}
{{- range $m := $mounts -}}
{{- if or (eq $path $m) (hasPrefix (printf "%s/" $m) $path) -}}{{- $inside = true -}}{{- end -}}
{{- end -}}
{{- if not $inside -}}
{{- $message := print
  "model.engine.draftModelPath %q is not inside a mount of the NIM container, so the draft model would not be there: "
  "put it under model.nimCache (%s), or mount its volume with extraVolumes and extraVolumeMounts." -}}
{{- include "nim-llm.fail" (printf $message (toString .) (toString $V.model.nimCache)) -}}
{{- end -}}
{{- end -}}
{{- $multi := $V.multiNode.enabled -}}
{{- $check := "which the chart checks against resources.limits.nvidia.com/gpu" -}}
{{- $tp := ternary "multiNode.gpusPerNode (NIM_TENSOR_PARALLEL_SIZE)" (printf "an env entry NIM_TENSOR_PARALLEL_SIZE, %s" $check) $multi -}}
{{- $pp := ternary "multiNode.workers (NIM_PIPELINE_PARALLEL_SIZE)" (printf "an env entry NIM_PIPELINE_PARALLEL_SIZE, %s" $check) $multi -}}
{{- $owners := dict "--tensor-parallel-size" $tp "-tp" $tp "--pipeline-parallel-size" $pp "-pp" $pp
  "--port" "model.openaiPort" "--host" "NIM itself (it listens on every address of the pod)"
  "--model" "modelSource.uri (or the image's own model)" "--download-dir" "model.nimCache"
  "--served-model-name" "model.engine.servedModelName" "--max-model-len" "model.engine.maxModelLen"
  "--enforce-eager" "model.engine.disableCudaGraph" "--speculative-config" "model.engine.draftModelPath" -}}
{{- range $i, $a := $E.args | default list -}}
{{- $s := toString $a -}}
{{- $flag := regexReplaceAll "=.*$" $s "" -}}
{{- if and (hasPrefix "-" $s) (regexMatch "\\s" $flag) -}}
{{- $message := print
  "model.engine.args[%d] is %q, a flag and its value in one item: NIM would pass it to the engine as one argument. "
  "Write each argument as its own item, such as [\"--max-num-seqs\", \"384\"]." -}}
{{- include "nim-llm.fail" (printf $message $i $s) -}}
{{- end -}}
{{- if hasKey $owners $flag -}}
{{- $message := print
  "model.engine.args[%d] is %s, an engine argument that %s sets: a second value here would silently win over it or "
  "be overridden. Remove it from model.engine.args and set it there." -}}
{{- include "nim-llm.fail" (printf $message $i $flag (get $owners $flag)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
