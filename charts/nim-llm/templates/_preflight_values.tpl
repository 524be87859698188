{{/* ---------------------------------------------------------------------------
Preflight rules on values alone: blocks of settings, upstream key names, Secret names, GPU counts and single-node
parallelism, probes, labels, autoscaling bounds, budgets and rollouts, the ServiceAccount, the ServiceMonitor. Each
key read by itself or with its neighbours, no Kubernetes object inside. Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

{{- /* Blocks of settings (the schema requires them, but helm install --skip-schema-validation does not
look): a null deletes the chart's defaults of the whole block, and every template reads its keys. */ -}}
{{- define "nim-llm.preflight.blocks" -}}
{{- $V := .Values -}}
{{- range $path := list "image" "model" "resources" "resources.requests" "shm" "startupProbe" "livenessProbe" "readinessProbe" "statefulSet"
  "strategy" "strategy.rollingUpdate" "podDisruptionBudget" "persistence"
  "persistence.stsPersistentVolumeClaimRetentionPolicy" "hostPath" "nfs" "initContainers" "serviceAccount" "service"
  "ingress" "networkPolicy" "networkPolicy.endpointPicker" "autoscaling" "metrics" "metrics.serviceMonitor" "multiNode" "multiNode.leaderWorkerSet"
  "multiNode.mpiJob" "multiNode.optimized" "multinodeNetworking" "multinodeNetworking.aws" "multinodeNetworking.azure"
  "multinodeNetworking.gcp" "multinodeNetworking.oci" "testPod" "testPod.resources" "emptyDir" "tmp" "home" "multiNode.ray"
  "multiNode.ray.workerStartupProbe" "dra" "kueue" "multiNode.computeDomain" "multiNode.topology"
  "autoscaling.keda" "autoscaling.keda.prometheus" "inferencePool" "inferencePool.epp" "inferencePool.epp.image"
  "inferencePool.epp.engineMetrics" "inferencePool.httpRoute" "inferencePool.objective"
  "modelSource" "cachePrefill" "cachePrefill.resources" "airGap" "lora" "proxy" "proxy.caBundle" "model.dynamo" "model.engine" -}}
{{- $node := $V -}}
{{- range $key := splitList "." $path -}}
{{- if kindIs "map" $node -}}{{- $node = get $node $key -}}{{- end -}}
{{- end -}}
{{- if not (kindIs "map" $node) -}}
{{- $what := ternary "null (or missing)" (printf "%v, not a block of keys" $node)
  (or (kindIs "invalid" $node) (eq (toString $node) "")) -}}
{{- $message := print
  "%s is %s, but the chart reads the keys of %s: a null deletes all of the chart's defaults for the "
  "block. Remove that line, or set only the keys of %s you mean to change." -}}
{{- include "nim-llm.fail" (printf $message $path $what $path $path) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Upstream nim-deploy (helm/nim-llm) keys. Renamed ones are refused naming the new key; keys of pre-1.0 NIM
containers (upstream legacyCompat) are refused saying what NIM 1.x does instead; keys with a clear meaning that can be
mapped safely are accepted (autoscaling.scaleDownStabilizationSecs, in horizontalpodautoscaler.yaml;
persistence.storageClass: null is the cluster default). */ -}}
{{- define "nim-llm.preflight.upstreamKeys" -}}
{{- $V := .Values -}}
{{- range $block := list "model" "service" -}}
{{- $values := index $V $block -}}
{{- if hasKey $values "openai_port" -}}
{{- $message := print
  "%s.openai_port is the upstream nim-deploy name of %s.openaiPort, which this chart reads instead: "
  "write %s.openaiPort: %v and remove %s.openai_port." -}}
{{- include "nim-llm.fail" (printf $message $block $block $block (index $values "openai_port") $block) -}}
{{- end -}}
{{- end -}}
{{- range $key := list "model.nemo_port" "service.nemo_port" "service.http_port" "service.grpc_port"
  "service.metrics_port" -}}
{{- $parts := splitList "." $key -}}
{{- if hasKey (index $V (first $parts)) (last $parts) -}}
{{- $message := print
  "%s is a port of pre-1.0 NIM containers (the upstream chart's legacyCompat), which this chart does "
  "not run: NIM 1.x serves the OpenAI API, health and metrics (/v1/metrics) on one port, "
  "model.openaiPort, published as service.openaiPort. Remove %s." -}}
{{- include "nim-llm.fail" (printf $message $key $key) -}}
{{- end -}}
{{- end -}}
{{- range $key := list "numWorkers" "trtModelName" "tritonModelName" "tritonURL" "openai_host" "dataStoreURL"
  "customizationSource" -}}
{{- if hasKey $V.model $key -}}
{{- $message := print
  "model.%s is a command-line argument of pre-1.0 NIM containers (the upstream chart's legacyCompat), "
  "which this chart does not run: remove model.%s; NIM 1.x reads its settings from environment "
  "variables, set them in env (e.g. env: [{name: NIM_MAX_MODEL_LEN, value: \"8192\"}])." -}}
{{- include "nim-llm.fail" (printf $message $key $key) -}}
{{- end -}}
{{- end -}}
{{- if hasKey $V.autoscaling "targetCPUUtilizationPercentage" -}}
{{- $message := print
  "autoscaling.targetCPUUtilizationPercentage is not a key of this chart: write the metric in "
  "autoscaling.metrics, e.g. autoscaling.metrics: [{type: Resource, resource: {name: cpu, target: "
  "{type: Utilization, averageUtilization: %v}}}], and set resources.requests.cpu (utilization is a "
  "share of the request); NIM scales better on custom metrics such as queue depth." -}}
{{- include "nim-llm.fail" (printf $message $V.autoscaling.targetCPUUtilizationPercentage) -}}
{{- end -}}
{{- $window := $V.autoscaling.scaleDownStabilizationSecs | default 0 | int64 -}}
{{- $scaleDown := (($V.autoscaling.behavior | default dict).scaleDown) | default dict -}}
{{- if and (gt $window 0) (kindIs "map" $scaleDown) (hasKey $scaleDown "stabilizationWindowSeconds")
  (ne (toString $scaleDown.stabilizationWindowSeconds) (toString $window)) -}}
{{- $message := print
  "autoscaling.scaleDownStabilizationSecs (the upstream name, %d) and "
  "autoscaling.behavior.scaleDown.stabilizationWindowSeconds (%v) disagree: keep only "
  "autoscaling.behavior.scaleDown.stabilizationWindowSeconds." -}}
{{- include "nim-llm.fail" (printf $message $window $scaleDown.stabilizationWindowSeconds) -}}
{{- end -}}
{{- end -}}

{{- /* Two Secrets of the release with one name: the second would overwrite the first. */ -}}
{{- define "nim-llm.preflight.secretNames" -}}
{{- $V := .Values -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- if $V.model.ngcAPIKey -}}
{{- $pull := include "nim-llm.generatedPullSecretName" . -}}
{{- if eq $V.model.ngcAPISecret $pull -}}
{{- $message := print
  "model.ngcAPISecret is %s, the name of the pull secret the chart creates from model.ngcAPIKey: both "
  "Secrets would have one name. Give model.ngcAPISecret another name (the default is ngc-api)." -}}
{{- include "nim-llm.fail" (printf $message $pull) -}}
{{- end -}}
{{- end -}}
{{- if and (include "nim-llm.usesMPI" .) (eq $mode "leaderworkerset") (not $V.multiNode.existingSSHSecret)
  (eq $V.model.ngcAPISecret (include "nim-llm.sshSecretName" .)) -}}
{{- $message := print
  "model.ngcAPISecret is %s, the name of the SSH key Secret the chart generates for MPI start-up: give "
  "model.ngcAPISecret another name." -}}
{{- include "nim-llm.fail" (printf $message $V.model.ngcAPISecret) -}}
{{- end -}}
{{- end -}}

{{- /* model.numGpus (if set) equals the GPU limit */ -}}
{{- define "nim-llm.preflight.numGpus" -}}
{{- $V := .Values -}}
{{- $gpus := include "nim-llm.gpuLimit" . | int -}}
{{- if and $V.model.numGpus (ne (int $V.model.numGpus) $gpus) -}}
{{- $message := print
  "model.numGpus is %d but resources.limits.nvidia.com/gpu is %d; this chart takes the GPU count from "
  "resources only, so model.numGpus would be ignored: set resources.limits.nvidia.com/gpu: %d and "
  "remove model.numGpus (or set it to 0)." -}}
{{- include "nim-llm.fail" (printf $message (int $V.model.numGpus) $gpus (int $V.model.numGpus)) -}}
{{- end -}}
{{- end -}}

{{- /* Single-node pods: tensor x pipeline parallel (literal env values) must fit the pod's GPUs. */ -}}
{{- define "nim-llm.preflight.singleNodeParallelism" -}}
{{- $V := .Values -}}
{{- if not $V.multiNode.enabled -}}
{{- $gpus := include "nim-llm.gpuLimit" . | int -}}
{{- $sizes := dict -}}
{{- range $i, $e := $V.env | default list -}}
{{- if and (has $e.name (list "NIM_TENSOR_PARALLEL_SIZE" "NIM_PIPELINE_PARALLEL_SIZE")) (hasKey $e "value") -}}
{{- if not (regexMatch "^[1-9][0-9]{0,8}$" (toString $e.value)) -}}
{{- $message := print
  "env[%d] (%s) is %q, which is not a positive whole number: set env[%d].value to a number such as "
  "\"1\"." -}}
{{- include "nim-llm.fail" (printf $message $i $e.name (toString $e.value) $i) -}}
{{- end -}}
{{- $size := atoi (toString $e.value) -}}
{{- if gt $size $gpus -}}
{{- $message := print
  "env[%d] (%s) is %d, but each single-node pod has resources.limits.nvidia.com/gpu = %d GPUs: set it "
  "to at most %d, or raise resources.limits.nvidia.com/gpu (or use multiNode for a model larger than "
  "one node)." -}}
{{- include "nim-llm.fail" (printf $message $i $e.name $size $gpus $gpus) -}}
{{- end -}}
{{- $_ := set $sizes $e.name (list $size $i) -}}
{{- end -}}
{{- end -}}
{{- if and (hasKey $sizes "NIM_TENSOR_PARALLEL_SIZE") (hasKey $sizes "NIM_PIPELINE_PARALLEL_SIZE") -}}
{{- $tp := index $sizes "NIM_TENSOR_PARALLEL_SIZE" -}}
{{- $pp := index $sizes "NIM_PIPELINE_PARALLEL_SIZE" -}}
{{- if gt (mul (first $tp) (first $pp)) $gpus -}}
{{- $message := print
  "NIM_TENSOR_PARALLEL_SIZE (%d, env[%d]) x NIM_PIPELINE_PARALLEL_SIZE (%d, env[%d]) = %d, more than "
  "the %d GPUs of a single-node pod (resources.limits.nvidia.com/gpu): make the product at most %d." -}}
{{- include "nim-llm.fail" (printf $message (first $tp) (last $tp) (first $pp) (last $pp) (mul (first $tp) (first $pp))
  $gpus $gpus) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* startup and liveness probes have successThreshold 1 */ -}}
{{- define "nim-llm.preflight.probeSuccessThreshold" -}}
{{- $V := .Values -}}
{{- range $probe := list "startupProbe" "livenessProbe" -}}
{{- $p := index $V $probe -}}
{{- if and $p.enabled (ne (int $p.successThreshold) 1) -}}
{{- $message := print
  "%s.successThreshold is %v but Kubernetes requires 1 for %s probes: set %s.successThreshold: 1." -}}
{{- include "nim-llm.fail" (printf $message $probe $p.successThreshold (trimSuffix "Probe" $probe) $probe) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Extra pod labels must not redefine the chart's own (a duplicated key, or a broken selector). */ -}}
{{- define "nim-llm.preflight.modelLabels" -}}
{{- $V := .Values -}}
{{- range $key := keys ($V.model.labels | default dict) | sortAlpha -}}
{{- if or (hasPrefix "app.kubernetes.io/" $key) (hasPrefix "helm.sh/" $key) -}}
{{- $message := print
  "model.labels sets %s, a label the chart manages (selectors and Services depend on it): remove it "
  "from model.labels, or use your own prefix such as example.com/%s." -}}
{{- include "nim-llm.fail" (printf $message $key (splitList "/" $key | last)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* autoscaling.minReplicas at most autoscaling.maxReplicas */ -}}
{{- define "nim-llm.preflight.autoscalingRange" -}}
{{- $V := .Values -}}
{{- if and $V.autoscaling.enabled (gt (int $V.autoscaling.minReplicas) (int $V.autoscaling.maxReplicas)) -}}
{{- $message := print
  "autoscaling.minReplicas (%d) is greater than autoscaling.maxReplicas (%d): set "
  "autoscaling.maxReplicas to at least %d." -}}
{{- include "nim-llm.fail" (printf $message (int $V.autoscaling.minReplicas) (int $V.autoscaling.maxReplicas)
  (int $V.autoscaling.minReplicas)) -}}
{{- end -}}
{{- end -}}

{{- /* a PodDisruptionBudget takes minAvailable or maxUnavailable, not both */ -}}
{{- define "nim-llm.preflight.oneDisruptionBudgetBound" -}}
{{- $V := .Values -}}
{{- if and $V.podDisruptionBudget.enabled (toString $V.podDisruptionBudget.minAvailable)
  (toString $V.podDisruptionBudget.maxUnavailable) -}}
{{- $message := print
  "podDisruptionBudget.minAvailable and podDisruptionBudget.maxUnavailable are both set, and a PodDisruptionBudget "
  "takes one: set the other to \"\"." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}

{{- /* The Deployment's rollout must be able to make progress. */ -}}
{{- define "nim-llm.preflight.rolloutProgress" -}}
{{- $V := .Values -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- if and (eq $mode "deployment") (eq $V.strategy.type "RollingUpdate") -}}
{{- $rolling := $V.strategy.rollingUpdate | default dict -}}
{{- if and (include "nim-llm.isZeroCount" ($rolling.maxSurge | default 0)) (include "nim-llm.isZeroCount"
    (or (kindIs "invalid" $rolling.maxUnavailable) (eq (toString $rolling.maxUnavailable) "") | ternary 1
      $rolling.maxUnavailable)) -}}
{{- $message := print
  "strategy.rollingUpdate.maxSurge and strategy.rollingUpdate.maxUnavailable are both 0, so a rollout could never "
  "replace a pod (Kubernetes refuses it): set strategy.rollingUpdate.maxUnavailable: 1 (pods replaced in place, no "
  "extra GPUs), or a maxSurge above 0 if the cluster has GPUs free for the extra pods." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Every namespace has a ServiceAccount named default: the chart cannot create (and own) another. */ -}}
{{- define "nim-llm.preflight.serviceAccountNotDefault" -}}
{{- $sa := .Values.serviceAccount -}}
{{- if and $sa.create (eq (toString $sa.name) "default") -}}
{{- $message := print
  "serviceAccount.name is default with serviceAccount.create: true, but every namespace already has the "
  "ServiceAccount default, so the install would fail: give serviceAccount.name another name, or set "
  "serviceAccount.create: false to run as the namespace's default ServiceAccount." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}

{{- /* Percentages of a budget or of unavailable pods: at most 100% (Kubernetes refuses more). */ -}}
{{- define "nim-llm.preflight.percentagesAtMost100" -}}
{{- $V := .Values -}}
{{- $counts := list -}}
{{- if $V.podDisruptionBudget.enabled -}}
{{- $counts = append $counts (list "podDisruptionBudget.minAvailable" $V.podDisruptionBudget.minAvailable) -}}
{{- $counts = append $counts (list "podDisruptionBudget.maxUnavailable" $V.podDisruptionBudget.maxUnavailable) -}}
{{- end -}}
{{- $counts = append $counts (list "strategy.rollingUpdate.maxUnavailable" ($V.strategy.rollingUpdate | default dict).maxUnavailable) -}}
{{- range $c := $counts -}}
{{- $value := toString (index $c 1) -}}
{{- $digits := regexReplaceAll "^0+" (trimSuffix "%" $value) "" -}}
{{- if and (hasSuffix "%" $value) (or (gt (len $digits) 3) (and (eq (len $digits) 3) (gt (atoi $digits) 100))) -}}
{{- $message := print
  "%s is %s, more than 100%% of the pods, which Kubernetes refuses: set it to at most \"100%%\"." -}}
{{- include "nim-llm.fail" (printf $message (index $c 0) $value) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* A scrape that times out after its next one is due: Prometheus refuses the ServiceMonitor's configuration. */ -}}
{{- define "nim-llm.preflight.scrapeTimeoutWithinInterval" -}}
{{- $S := .Values.metrics.serviceMonitor -}}
{{- if and $S.enabled $S.interval $S.scrapeTimeout -}}
{{- if gt (include "nim-llm.durationMillis" $S.scrapeTimeout | int64) (include "nim-llm.durationMillis" $S.interval | int64) -}}
{{- $message := print
  "metrics.serviceMonitor.scrapeTimeout (%s) is longer than metrics.serviceMonitor.interval (%s), and "
  "Prometheus refuses a scrape timeout longer than its interval: set scrapeTimeout to at most %s." -}}
{{- include "nim-llm.fail" (printf $message $S.scrapeTimeout $S.interval $S.interval) -}}
{{- end -}}
{{- end -}}
{{- end -}}
