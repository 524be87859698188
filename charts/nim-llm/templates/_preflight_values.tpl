{{/* ---------------------------------------------------------------------------
Preflight rules on values alone: each key read by itself or with its neighbours, no Kubernetes object inside.
Index and order: _preflight.tpl.
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

{{- /* Helm has read the values file before the chart sees it: a tag written as a YAML number has lost its
text (1.10 arrives as 1.1, 0755 as 493), so only a quoted tag is taken. */ -}}
{{- define "nim-llm.preflight.imageTagQuoted" -}}
{{- $V := .Values -}}
{{- if not (kindIs "string" $V.image.tag) -}}
{{- $message := print
  "image.tag is the number %v: YAML read the tag as a number and lost its text (1.10 becomes 1.1, 0755 "
  "becomes 493, 1.8 stays 1.8 only by chance): quote it, e.g. image.tag: \"1.10\"." -}}
{{- include "nim-llm.fail" (printf $message $V.image.tag) -}}
{{- end -}}
{{- end -}}

{{- /* The image reference is <repository>:<tag>: a digest or a tag inside image.repository makes it invalid. */ -}}
{{- define "nim-llm.preflight.imageReference" -}}
{{- $V := .Values -}}
{{- if contains "@" $V.image.repository -}}
{{- $message := print
  "image.repository is %q, which holds a digest, but the chart appends :<image.tag> to it (an invalid "
  "reference): set image.repository to the repository alone (%s) and the digest in image.digest: %q." -}}
{{- include "nim-llm.fail" (printf $message $V.image.repository (splitList "@" $V.image.repository | first)
  (splitList "@" $V.image.repository | last)) -}}
{{- end -}}
{{- if contains ":" (splitList "/" $V.image.repository | last) -}}
{{- $parts := splitList ":" (splitList "/" $V.image.repository | last) -}}
{{- $message := print
  "image.repository is %q, which ends in a tag (:%s), but the chart appends :<image.tag> to it: remove "
  ":%s from image.repository and set image.tag: %q." -}}
{{- include "nim-llm.fail" (printf $message $V.image.repository (last $parts) (last $parts) (last $parts)) -}}
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

{{- /* the model cache takes one backend at most */ -}}
{{- define "nim-llm.preflight.oneCacheBackend" -}}
{{- $V := .Values -}}
{{- $backends := list -}}
{{- if $V.persistence.enabled -}}{{- $backends = append $backends "persistence.enabled" -}}{{- end -}}
{{- if $V.hostPath.enabled -}}{{- $backends = append $backends "hostPath.enabled" -}}{{- end -}}
{{- if $V.nfs.enabled -}}{{- $backends = append $backends "nfs.enabled" -}}{{- end -}}
{{- if gt (len $backends) 1 -}}
{{- $message := print
  "%s are true, but the model cache takes one backend: keep one of them true and set the others to "
  "false." -}}
{{- include "nim-llm.fail" (printf $message (join " and " $backends)) -}}
{{- end -}}
{{- end -}}

{{- /* persistence.existingClaim only with persistence.enabled */ -}}
{{- define "nim-llm.preflight.existingClaimNeedsPersistence" -}}
{{- $V := .Values -}}
{{- if and $V.persistence.existingClaim (not $V.persistence.enabled) -}}
{{- $message := print
  "persistence.existingClaim is %q but persistence.enabled is false, so the claim would be ignored: "
  "set persistence.enabled: true (or remove persistence.existingClaim)." -}}
{{- include "nim-llm.fail" (printf $message $V.persistence.existingClaim) -}}
{{- end -}}
{{- end -}}

{{- /* nfs.enabled needs nfs.server and nfs.path */ -}}
{{- define "nim-llm.preflight.nfsServerAndPath" -}}
{{- $V := .Values -}}
{{- if and $V.nfs.enabled (or (not $V.nfs.server) (not $V.nfs.path)) -}}
{{- $message := print
  "nfs.enabled is true but nfs.server or nfs.path is empty: set nfs.server (the NFS server address) and nfs.path "
  "(the exported path)." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}

{{- /* several single-node pods share a claim only with ReadWriteMany */ -}}
{{- define "nim-llm.preflight.sharedClaimAccessMode" -}}
{{- $V := .Values -}}
{{- $rwoModes := list "ReadWriteOnce" "ReadWriteOncePod" -}}
{{- $sharedClaim := has (include "nim-llm.cacheBackend" .) (list "pvc-existing" "pvc-shared") -}}
{{- if and (not $V.multiNode.enabled) $sharedClaim (has $V.persistence.accessMode $rwoModes)
  (or (gt (int $V.replicaCount) 1) $V.autoscaling.enabled) -}}
{{- $message := print
  "persistence.accessMode is %s but %d pods (replicaCount, or autoscaling.enabled) share one claim, "
  "which can only attach to one node: set persistence.accessMode: ReadWriteMany (with a storage class "
  "that supports it), or use statefulSet.enabled: true without persistence.existingClaim so each pod "
  "gets its own claim." -}}
{{- include "nim-llm.fail" (printf $message $V.persistence.accessMode (int (max $V.replicaCount 2))) -}}
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

{{- /* image.repository is a reference the container runtime can pull: no scheme (https://) and, past the registry host,
lower case only (a runtime refuses "NVIDIA/llama"; the pod then waits in InvalidImageName). */ -}}
{{- define "nim-llm.preflight.imageRepositoryForm" -}}
{{- $repository := toString .Values.image.repository -}}
{{- if regexMatch "^[A-Za-z][A-Za-z0-9+.-]*://" $repository -}}
{{- $message := print
  "image.repository is %q, which starts with a scheme (%s), but an image reference has none: set "
  "image.repository: %s." -}}
{{- $bare := regexReplaceAll "^[A-Za-z][A-Za-z0-9+.-]*://" $repository "" -}}
{{- include "nim-llm.fail" (printf $message $repository (regexFind "^[A-Za-z][A-Za-z0-9+.-]*://" $repository) $bare) -}}
{{- end -}}
{{- $parts := splitList "/" $repository -}}
{{- $path := $repository -}}
{{- if and (gt (len $parts) 1) (regexMatch "[.:]|^localhost$" (first $parts)) -}}
{{- $path = join "/" (rest $parts) -}}
{{- end -}}
{{- if not (regexMatch "^[a-z0-9]+((\\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\\.|_|__|-+)[a-z0-9]+)*)*$" $path) -}}
{{- $message := print
  "image.repository is %q, which is no image reference a container runtime pulls (after the registry host, only "
  "lower-case letters, digits and the separators . _ __ - between path components): write it in lower case, "
  "e.g. image.repository: %s." -}}
{{- include "nim-llm.fail" (printf $message $repository (lower $repository)) -}}
{{- end -}}
{{- end -}}

{{- /* A tag that starts like a version is compared with the NIM versions whose start-up differs (multi-node); a part of
ten digits or more overflows that comparison. */ -}}
{{- define "nim-llm.preflight.imageTagComparable" -}}
{{- $tag := toString .Values.image.tag -}}
{{- $version := regexFind "^v?[0-9]+\\.[0-9]+\\.[0-9]+" $tag -}}
{{- if and $version (regexMatch "(^v?|\\.)[0-9]{10,}(\\.|$)" $version) -}}
{{- $message := print
  "image.tag is %q, which starts like a version but has a part of ten digits or more, so it cannot be compared "
  "with NIM versions (the multi-node start-up depends on the version): set image.tag to the NIM version you "
  "run, e.g. image.tag: \"1.8.4\"." -}}
{{- include "nim-llm.fail" (printf $message $tag) -}}
{{- end -}}
{{- end -}}

{{- /* Paths the pods mount: no ".." (Kubernetes refuses it in a mount path and a hostPath), and the model cache not on
a directory the image or the chart already uses. */ -}}
{{- define "nim-llm.preflight.pathsWithoutDotDot" -}}
{{- $V := .Values -}}
{{- $paths := list (list "model.nimCache" $V.model.nimCache) -}}
{{- if $V.hostPath.enabled -}}{{- $paths = append $paths (list "hostPath.path" $V.hostPath.path) -}}{{- end -}}
{{- if $V.nfs.enabled -}}{{- $paths = append $paths (list "nfs.path" $V.nfs.path) -}}{{- end -}}
{{- $mapForm := kindIs "map" $V.extraVolumeMounts -}}
{{- range $i, $m := include "nim-llm.namedList" $V.extraVolumeMounts | fromYamlArray -}}
{{- $key := ternary (printf "extraVolumeMounts.%v.mountPath" $m.name) (printf "extraVolumeMounts[%d].mountPath" $i) $mapForm -}}
{{- $paths = append $paths (list $key $m.mountPath) -}}
{{- end -}}
{{- range $p := $paths -}}
{{- if has ".." (splitList "/" (toString (index $p 1))) -}}
{{- /* The API server refuses ".." only in a host path (validatePathNoBacksteps); a mount path with ".." it takes, and
the container runtime mounts at the directory the path resolves to, not the one written. */ -}}
{{- $why := ternary "Kubernetes refuses a host path with \"..\""
  (printf "the volume would be mounted at %s, the directory it resolves to, not where the path says"
    (clean (toString (index $p 1))))
  (eq (index $p 0) "hostPath.path") -}}
{{- $message := print "%s is %q, which holds a \"..\" segment: %s. Write the path without \"..\"." -}}
{{- include "nim-llm.fail" (printf $message (index $p 0) (toString (index $p 1)) $why) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The model cache is mounted at model.nimCache: over the image's own files or the chart's mounts it would hide them
(or Kubernetes refuses the second mount). */ -}}
{{- define "nim-llm.preflight.cachePathFree" -}}
{{- $cache := trimSuffix "/" (toString .Values.model.nimCache) -}}
{{- $taken := "" -}}
{{- range $dir := list "/opt/nim" "/opt/nim-llm" "/etc/nim-llm" "/dev" "/proc" "/sys" "/etc" "/usr" "/bin" "/lib" -}}
{{- if or (eq $cache $dir) (hasPrefix (printf "%s/" $dir) $cache) -}}{{- $taken = $dir -}}{{- end -}}
{{- end -}}
{{- if eq $cache "" -}}{{- $taken = "/, the whole file system" -}}{{- end -}}
{{- if $taken -}}
{{- $message := print
  "model.nimCache is %q, on a directory the NIM image or the chart already uses (%s): the cache volume would hide "
  "its files or collide with the chart's mounts. Set model.nimCache to a directory of its own, e.g. "
  "model.nimCache: /model-store." -}}
{{- include "nim-llm.fail" (printf $message (toString .Values.model.nimCache) $taken) -}}
{{- end -}}
{{- end -}}

{{- /* nfs.server is a host name or address; the exported directory is nfs.path. */ -}}
{{- define "nim-llm.preflight.nfsServerIsHost" -}}
{{- $V := .Values -}}
{{- if and $V.nfs.enabled (regexMatch "[/ ]|^[A-Za-z]+:" (toString $V.nfs.server)) -}}
{{- $message := print
  "nfs.server is %q, but it takes the server's host name or IP address only (the kubelet mounts "
  "<nfs.server>:<nfs.path>): put the exported directory in nfs.path, e.g. nfs.server: %s and nfs.path: %s." -}}
{{- $server := regexReplaceAll "^[A-Za-z]+://" (toString $V.nfs.server) "" -}}
{{- $host := first (splitList "/" (first (splitList ":" $server))) -}}
{{- $path := printf "/%s" (join "/" (rest (splitList "/" $server))) -}}
{{- include "nim-llm.fail" (printf $message (toString $V.nfs.server) $host $path) -}}
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
