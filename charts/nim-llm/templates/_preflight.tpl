{{/* ---------------------------------------------------------------------------
Preflight: every cross-field rule of the chart, in one place. Reading this file
tells a user every rule. Each refusal names the key by its full path and says
what to set instead. values.schema.json covers single keys (types, enums,
ranges, unknown keys); this file covers what one key means for another.
Every template includes "nim-llm.preflight" first, so a refusal happens
before anything is created, whatever template Helm renders first.
--------------------------------------------------------------------------- */}}
{{- define "nim-llm.fail" -}}
{{- fail (printf "\n\nnim-llm: %s\n" .) -}}
{{- end -}}

{{- define "nim-llm.preflight" -}}
{{- $V := .Values -}}
{{- /* Blocks of settings, first of all (the schema requires them, but helm install --skip-schema-validation does not
look): a null deletes the chart's defaults of the whole block, and every template reads its keys. */ -}}
{{- range $path := list "image" "model" "resources" "resources.requests" "shm" "startupProbe" "livenessProbe" "readinessProbe" "statefulSet" "strategy" "strategy.rollingUpdate" "podDisruptionBudget" "persistence" "persistence.stsPersistentVolumeClaimRetentionPolicy" "hostPath" "nfs" "initContainers" "serviceAccount" "service" "ingress" "networkPolicy" "autoscaling" "metrics" "metrics.serviceMonitor" "multiNode" "multiNode.leaderWorkerSet" "multiNode.mpiJob" "multiNode.optimized" "multinodeNetworking" "multinodeNetworking.aws" "multinodeNetworking.azure" "multinodeNetworking.gcp" "multinodeNetworking.oci" "testPod" "testPod.resources" "emptyDir" "tmp" -}}
{{- $node := $V -}}
{{- range $key := splitList "." $path -}}
{{- if kindIs "map" $node -}}{{- $node = get $node $key -}}{{- end -}}
{{- end -}}
{{- if not (kindIs "map" $node) -}}
{{- $what := ternary "null (or missing)" (printf "%v, not a block of keys" $node) (or (kindIs "invalid" $node) (eq (toString $node) "")) -}}
{{- include "nim-llm.fail" (printf "%s is %s, but the chart reads the keys of %s: a null deletes all of the chart's defaults for the block. Remove that line, or set only the keys of %s you mean to change." $path $what $path $path) -}}
{{- end -}}
{{- end -}}
{{- /* Keys of NVIDIA's upstream nim-deploy chart that this chart renamed or removed: each refusal names what to write. */ -}}
{{- include "nim-llm.preflight.upstreamKeys" . -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $gpus := include "nim-llm.gpuLimit" . | int -}}

{{- /* Numbers. Helm has read the values file before the chart sees it: a tag written as a YAML number has lost its
text (1.10 arrives as 1.1, 0755 as 493), so only a quoted tag is taken. */ -}}
{{- if not (kindIs "string" $V.image.tag) -}}
{{- include "nim-llm.fail" (printf "image.tag is the number %v: YAML read the tag as a number and lost its text (1.10 becomes 1.1, 0755 becomes 493, 1.8 stays 1.8 only by chance): quote it, e.g. image.tag: \"1.10\"." $V.image.tag) -}}
{{- end -}}

{{- /* Names: every object and label of the release has one meaning and fits Kubernetes' limits. */ -}}
{{- include "nim-llm.preflight.names" . -}}

{{- /* Model cache: one backend at most. */ -}}
{{- $backends := list -}}
{{- if $V.persistence.enabled -}}{{- $backends = append $backends "persistence.enabled" -}}{{- end -}}
{{- if $V.hostPath.enabled -}}{{- $backends = append $backends "hostPath.enabled" -}}{{- end -}}
{{- if $V.nfs.enabled -}}{{- $backends = append $backends "nfs.enabled" -}}{{- end -}}
{{- if gt (len $backends) 1 -}}
{{- include "nim-llm.fail" (printf "%s are true, but the model cache takes one backend: keep one of them true and set the others to false." (join " and " $backends)) -}}
{{- end -}}
{{- if and $V.persistence.existingClaim (not $V.persistence.enabled) -}}
{{- include "nim-llm.fail" (printf "persistence.existingClaim is %q but persistence.enabled is false, so the claim would be ignored: set persistence.enabled: true (or remove persistence.existingClaim)." $V.persistence.existingClaim) -}}
{{- end -}}
{{- if and $V.nfs.enabled (or (not $V.nfs.server) (not $V.nfs.path)) -}}
{{- include "nim-llm.fail" "nfs.enabled is true but nfs.server or nfs.path is empty: set nfs.server (the NFS server address) and nfs.path (the exported path)." -}}
{{- end -}}
{{- $rwoModes := list "ReadWriteOnce" "ReadWriteOncePod" -}}
{{- $sharedClaim := has (include "nim-llm.cacheBackend" .) (list "pvc-existing" "pvc-shared") -}}
{{- if and (not $V.multiNode.enabled) $sharedClaim (has $V.persistence.accessMode $rwoModes) (or (gt (int $V.replicaCount) 1) $V.autoscaling.enabled) -}}
{{- include "nim-llm.fail" (printf "persistence.accessMode is %s but %d pods (replicaCount, or autoscaling.enabled) share one claim, which can only attach to one node: set persistence.accessMode: ReadWriteMany (with a storage class that supports it), or use statefulSet.enabled: true without persistence.existingClaim so each pod gets its own claim." $V.persistence.accessMode (int (max $V.replicaCount 2))) -}}
{{- end -}}

{{- /* Resources and probes. */ -}}
{{- $requests := $V.resources.requests | default dict -}}
{{- if and (hasKey $requests "nvidia.com/gpu") (ne (include "nim-llm.wholeNumber" (index $requests "nvidia.com/gpu") | int) $gpus) -}}
{{- include "nim-llm.fail" (printf "resources.requests.nvidia.com/gpu (%v) differs from resources.limits.nvidia.com/gpu (%d); Kubernetes needs GPU requests equal to limits: remove resources.requests.nvidia.com/gpu or set it to %d." (index $requests "nvidia.com/gpu") $gpus $gpus) -}}
{{- end -}}
{{- include "nim-llm.preflight.requestsWithinLimits" (dict "key" "resources" "resources" $V.resources) -}}
{{- include "nim-llm.preflight.requestsWithinLimits" (dict "key" "multiNode.mpiJob.launcherResources" "resources" $V.multiNode.mpiJob.launcherResources) -}}
{{- include "nim-llm.preflight.requestsWithinLimits" (dict "key" "testPod.resources" "resources" $V.testPod.resources) -}}
{{- include "nim-llm.preflight.shmWithinMemoryLimit" . -}}
{{- include "nim-llm.preflight.cacheWithinEphemeralStorageLimit" . -}}
{{- if and $V.model.numGpus (ne (int $V.model.numGpus) $gpus) -}}
{{- include "nim-llm.fail" (printf "model.numGpus is %d but resources.limits.nvidia.com/gpu is %d; this chart takes the GPU count from resources only, so model.numGpus would be ignored: set resources.limits.nvidia.com/gpu: %d and remove model.numGpus (or set it to 0)." (int $V.model.numGpus) $gpus (int $V.model.numGpus)) -}}
{{- end -}}
{{- if not (or (hasKey ($V.podSecurityContext | default dict) "runAsNonRoot") (hasKey ($V.containerSecurityContext | default dict) "runAsNonRoot")) -}}
{{- include "nim-llm.fail" "podSecurityContext.runAsNonRoot is not set (a null removed the chart's default) and containerSecurityContext sets none, so nothing would stop a root image: set podSecurityContext.runAsNonRoot: true (or false, to run as root on purpose)." -}}
{{- end -}}
{{- if not $V.multiNode.enabled -}}
{{- include "nim-llm.preflight.singleNodeParallelism" (dict "env" $V.env "gpus" $gpus) -}}
{{- end -}}
{{- range $probe := list "startupProbe" "livenessProbe" -}}
{{- $p := index $V $probe -}}
{{- if and $p.enabled (ne (int $p.successThreshold) 1) -}}
{{- include "nim-llm.fail" (printf "%s.successThreshold is %v but Kubernetes requires 1 for %s probes: set %s.successThreshold: 1." $probe $p.successThreshold (trimSuffix "Probe" $probe) $probe) -}}
{{- end -}}
{{- end -}}

{{- /* Extra pod labels must not redefine the chart's own (a duplicated key, or a broken selector). */ -}}
{{- range $key := keys ($V.model.labels | default dict) | sortAlpha -}}
{{- if or (hasPrefix "app.kubernetes.io/" $key) (hasPrefix "helm.sh/" $key) -}}
{{- include "nim-llm.fail" (printf "model.labels sets %s, a label the chart manages (selectors and Services depend on it): remove it from model.labels, or use your own prefix such as example.com/%s." $key (splitList "/" $key | last)) -}}
{{- end -}}
{{- end -}}

{{- /* Environment: one entry per name; secrets only from a Secret (a literal value is readable by anyone who can read the pod). */ -}}
{{- $seen := dict -}}
{{- range $i, $e := $V.env | default list -}}
{{- if hasKey $seen $e.name -}}
{{- include "nim-llm.fail" (printf "env[%d].name %s is already set by env[%v]: keep one entry per variable." $i $e.name (index $seen $e.name)) -}}
{{- end -}}
{{- $_ := set $seen $e.name $i -}}
{{- end -}}
{{- include "nim-llm.preflight.plainSecrets" (dict "key" "env" "env" $V.env) -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- include "nim-llm.preflight.plainSecrets" (dict "key" (printf "initContainers.extraInit[%d].env" $i) "env" $c.env) -}}
{{- end -}}

{{- /* Variables the MPI start-up scripts (files/mpi) read. The chart derives them from multiNode.*; a user entry
replaces the derived one, so it must keep its meaning: the scripts do bash arithmetic with the counts (where any text
is evaluated: a[$(cmd)] runs cmd), and sshd, ports, probes and policies must agree on the SSH port and key. */ -}}
{{- $scriptCounts := dict "CLUSTER_START_TIMEOUT" "multiNode.clusterStartTimeout" "NIM_NUM_COMPUTE_NODES" "multiNode.workers" "NIM_GPUS_PER_NODE" "multiNode.gpusPerNode" "NIM_MPI_NUM_PROCESSES" "multiNode.workers and multiNode.gpusPerNode" -}}
{{- $scriptFixed := dict "NIM_MPI_SSH_PORT" "multiNode.sshPort" "NIM_MPI_SSH_KEY" "multiNode.existingSSHSecret" -}}
{{- range $i, $e := $V.env | default list -}}
{{- if hasKey $scriptFixed $e.name -}}
{{- include "nim-llm.fail" (printf "env[%d] sets %s, which the chart derives from %s (the workers' sshd, the container ports, probes and network policies use the same value): remove env[%d] and set %s instead." $i $e.name (index $scriptFixed $e.name) $i (index $scriptFixed $e.name)) -}}
{{- end -}}
{{- if and (hasKey $scriptCounts $e.name) (hasKey $e "value") (not (regexMatch "^[1-9][0-9]{0,8}$" (toString $e.value))) -}}
{{- include "nim-llm.fail" (printf "env[%d] (%s) is %q, but the MPI start-up scripts read it as a whole number: remove env[%d] and set %s instead, or give a whole number such as \"300\"." $i $e.name (toString $e.value) $i (index $scriptCounts $e.name)) -}}
{{- end -}}
{{- end -}}

{{- /* Extra volumes, mounts and init containers: every name resolves, and none is taken twice. */ -}}
{{- include "nim-llm.preflight.extras" . -}}
{{- include "nim-llm.preflight.mountPaths" . -}}

{{- /* Service, Ingress, network policy, autoscaling, disruption budget. */ -}}
{{- /* The inference Service must not take the name of a Service the release's controllers create. */ -}}
{{- $serviceName := include "nim-llm.serviceName" . -}}
{{- if has $serviceName (include "nim-llm.controllerServiceNames" . | fromYamlArray) -}}
{{- include "nim-llm.fail" (printf "service.name is %q, the name of the headless Service that the %s needs for its pods' DNS names (the controller would not create it, and the pods could not find each other): choose another service.name, or leave it empty for %q." $serviceName (get (dict "leaderworkerset" "LeaderWorkerSet" "statefulset" "StatefulSet" "mpijob" "MPIJob (mpi-operator)") $mode) (include "nim-llm.fullname" .)) -}}
{{- end -}}
{{- if and (ne (int $V.service.nodePort) 0) (eq $V.service.type "ClusterIP") -}}
{{- include "nim-llm.fail" (printf "service.nodePort is %d but service.type is ClusterIP, which has no node port: set service.type: NodePort (or LoadBalancer), or service.nodePort: 0." (int $V.service.nodePort)) -}}
{{- end -}}
{{- if and $V.ingress.enabled (not $V.ingress.hosts) -}}
{{- include "nim-llm.fail" "ingress.enabled is true but ingress.hosts is empty: add at least one host, e.g. ingress.hosts: [{host: nim.example.com, paths: [{path: /, pathType: Prefix}]}]." -}}
{{- end -}}
{{- range $i, $peer := $V.networkPolicy.ingressFrom | default list -}}
{{- if and (hasKey $peer "ipBlock") (or (hasKey $peer "podSelector") (hasKey $peer "namespaceSelector")) -}}
{{- include "nim-llm.fail" (printf "networkPolicy.ingressFrom[%d] sets ipBlock together with podSelector or namespaceSelector, which Kubernetes refuses in one peer: split it into two entries, one with the ipBlock and one with the selectors." $i) -}}
{{- end -}}
{{- end -}}
{{- if and $V.autoscaling.enabled (gt (int $V.autoscaling.minReplicas) (int $V.autoscaling.maxReplicas)) -}}
{{- include "nim-llm.fail" (printf "autoscaling.minReplicas (%d) is greater than autoscaling.maxReplicas (%d): set autoscaling.maxReplicas to at least %d." (int $V.autoscaling.minReplicas) (int $V.autoscaling.maxReplicas) (int $V.autoscaling.minReplicas)) -}}
{{- end -}}
{{- if and $V.podDisruptionBudget.enabled (toString $V.podDisruptionBudget.minAvailable) (toString $V.podDisruptionBudget.maxUnavailable) -}}
{{- include "nim-llm.fail" "podDisruptionBudget.minAvailable and podDisruptionBudget.maxUnavailable are both set, and a PodDisruptionBudget takes one: set the other to \"\"." -}}
{{- end -}}

{{- /* Multi-node. */ -}}
{{- if $V.multiNode.enabled -}}
{{- include "nim-llm.preflight.multiNode" . -}}
{{- end -}}
{{- include "nim-llm.preflight.networking" . -}}

{{- /* The Deployment's rollout must be able to make progress. */ -}}
{{- if and (eq $mode "deployment") (eq $V.strategy.type "RollingUpdate") -}}
{{- $rolling := $V.strategy.rollingUpdate | default dict -}}
{{- if and (include "nim-llm.preflight.isZero" ($rolling.maxSurge | default 0)) (include "nim-llm.preflight.isZero" (or (kindIs "invalid" $rolling.maxUnavailable) (eq (toString $rolling.maxUnavailable) "") | ternary 1 $rolling.maxUnavailable)) -}}
{{- include "nim-llm.fail" "strategy.rollingUpdate.maxSurge and strategy.rollingUpdate.maxUnavailable are both 0, so a rollout could never replace a pod (Kubernetes refuses it): set strategy.rollingUpdate.maxUnavailable: 1 (pods replaced in place, no extra GPUs), or a maxSurge above 0 if the cluster has GPUs free for the extra pods." -}}
{{- end -}}
{{- end -}}

{{- /* The live objects of the release (install and upgrade; lookup finds nothing under helm template). */ -}}
{{- include "nim-llm.preflight.live" . -}}
{{- end -}}

{{- /* "true" when an int-or-percent count is zero (0, "0", "0%", ""). */ -}}
{{- define "nim-llm.preflight.isZero" -}}
{{- if regexMatch "^0*%?$" (toString .) -}}true{{- end -}}
{{- end -}}

{{- /* ---------------------------------------------------------------------------
Upgrades against what runs. Kubernetes refuses some changes of a live object (a StatefulSet's claim templates and
selector, a Deployment's selector, a claim's class and access modes, a LeaderWorkerSet's subgroups), and Helm applies
every other object first, so such an upgrade fails half applied with Kubernetes' raw message. Other changes would
leave the release's model cache unused, so the pods would start empty and download the model again. Both are found
here, from the release's live objects (Helm marks every object it manages with the annotation
meta.helm.sh/release-name), before anything changes.
--------------------------------------------------------------------------- */ -}}
{{- define "nim-llm.preflight.live" -}}
{{- $V := .Values -}}
{{- $ns := .Release.Namespace -}}
{{- $release := .Release.Name -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $fullname := include "nim-llm.fullname" . -}}
{{- $backend := include "nim-llm.cacheBackend" . -}}
{{- $claim := include "nim-llm.claimSpec" . | fromYaml -}}
{{- $selector := include "nim-llm.selectorLabels" . | fromYaml -}}
{{- $orphanHelp := "the pods would start with an empty model cache and download the model again. Keep statefulSet.enabled, multiNode.enabled, nameOverride, fullnameOverride, persistence.enabled and persistence.existingClaim as they are; or, to go ahead, set persistence.abandonLiveCache: true for this upgrade" -}}
{{- /* StatefulSets of the release: claim templates and selector are immutable; their per-pod claims are the cache. */ -}}
{{- range $sts := (lookup "apps/v1" "StatefulSet" $ns "").items | default list -}}
{{- if eq (get ($sts.metadata.annotations | default dict) "meta.helm.sh/release-name") $release -}}
{{- $name := $sts.metadata.name -}}
{{- $liveTemplate := dict -}}
{{- range $t := $sts.spec.volumeClaimTemplates | default list -}}
{{- if eq $t.metadata.name "model-store" -}}{{- $liveTemplate = $t -}}{{- end -}}
{{- end -}}
{{- $kept := and (eq $mode "statefulset") (eq $name $fullname) -}}
{{- if $kept -}}
{{- if ne (toYaml $sts.spec.selector.matchLabels) (toYaml $selector) -}}
{{- include "nim-llm.fail" (printf "nameOverride changes the selector of the live StatefulSet %s (app.kubernetes.io/name %v to %v), which Kubernetes does not allow to change: keep nameOverride as it was (%v), or install the new name as a new release." $name (get $sts.spec.selector.matchLabels "app.kubernetes.io/name") (get $selector "app.kubernetes.io/name") (get $sts.spec.selector.matchLabels "app.kubernetes.io/name")) -}}
{{- end -}}
{{- $orphanWay := printf "delete the StatefulSet but not its pods and claims (kubectl delete statefulset %s --cascade=orphan -n %s) and upgrade again: the new StatefulSet takes over the running pods and the existing claims model-store-%s-<n>, which keep what they have; only claims of new pods follow the new values" $name $ns $name -}}
{{- if and $liveTemplate (ne $backend "pvc-template") -}}
{{- include "nim-llm.fail" (printf "the live StatefulSet %s keeps its model cache in per-pod claims (model-store-%s-<n>), but these values give it %s: Kubernetes does not allow removing a StatefulSet's claim template, and the pods would lose their cache. Keep persistence.enabled: true without persistence.existingClaim; or set persistence.abandonLiveCache: true and %s (the old claims then stay unused until you delete them)." $name $name (include "nim-llm.preflight.cacheText" $) $orphanWay) -}}
{{- end -}}
{{- if and (not $liveTemplate) (eq $backend "pvc-template") -}}
{{- include "nim-llm.fail" (printf "persistence.enabled is true, but the live StatefulSet %s has no claim template (it was installed without persistence or with persistence.existingClaim), and Kubernetes does not allow adding one to a StatefulSet: %s; or install under a new release name." $name (printf "%s (the pods are then replaced with ones that have claims)" $orphanWay)) -}}
{{- end -}}
{{- if and $liveTemplate (eq $backend "pvc-template") -}}
{{- $live := $liveTemplate.spec -}}
{{- $liveSize := $live.resources.requests.storage -}}
{{- $growWay := printf "to resize the cache, resize each claim itself where its StorageClass allows volume expansion (kubectl patch pvc model-store-%s-<n> -n %s -p '{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"%s\"}}}}'), then %s" $name $ns (include "nim-llm.size" $V.persistence.size) $orphanWay -}}
{{- if ne (include "nim-llm.quantityValue" (toString $liveSize)) (include "nim-llm.quantityValue" (include "nim-llm.size" $V.persistence.size)) -}}
{{- include "nim-llm.fail" (printf "persistence.size is %s, but the claim template of the live StatefulSet %s asks %s, and Kubernetes does not allow changing a StatefulSet's claim templates: set persistence.size: %s; %s; or install under a new release name (a new, empty cache)." (include "nim-llm.size" $V.persistence.size) $name $liveSize $liveSize $growWay) -}}
{{- end -}}
{{- if ne (toYaml $live.accessModes) (toYaml $claim.accessModes) -}}
{{- include "nim-llm.fail" (printf "persistence.accessMode is %s, but the live StatefulSet %s makes its claims %s, and Kubernetes changes neither a StatefulSet's claim templates nor the access modes of existing claims: set persistence.accessMode: %s; or install under a new release name (a new, empty cache); or %s." $V.persistence.accessMode $name (join ", " $live.accessModes) (first $live.accessModes) $orphanWay) -}}
{{- end -}}
{{- $liveClass := ternary (ternary "-" (toString (get $live "storageClassName")) (eq (toString (get $live "storageClassName")) "")) "" (hasKey $live "storageClassName") -}}
{{- if ne $liveClass (toString ($V.persistence.storageClass | default "")) -}}
{{- include "nim-llm.fail" (printf "persistence.storageClass is %q, but the live StatefulSet %s makes its claims with storage class %q, and Kubernetes changes neither a StatefulSet's claim templates nor the class of existing claims: set persistence.storageClass: %q; or install under a new release name (a new, empty cache); or %s." (toString $V.persistence.storageClass) $name $liveClass $liveClass $orphanWay) -}}
{{- end -}}
{{- $liveAnnotations := $liveTemplate.metadata.annotations | default dict -}}
{{- if ne (toYaml $liveAnnotations) (toYaml ($V.persistence.annotations | default dict)) -}}
{{- include "nim-llm.fail" (printf "persistence.annotations differ from the claim template of the live StatefulSet %s (%s), and Kubernetes does not allow changing a StatefulSet's claim templates: set persistence.annotations back to %s (annotate the claims themselves with kubectl annotate pvc); or %s." $name (toJson $liveAnnotations) (toJson $liveAnnotations) $orphanWay) -}}
{{- end -}}
{{- if ne (toYaml ($liveTemplate.metadata.labels | default dict)) (toYaml $selector) -}}
{{- include "nim-llm.fail" (printf "nameOverride changes the labels of the claim template of the live StatefulSet %s, and Kubernetes does not allow changing a StatefulSet's claim templates: keep nameOverride as it was (%v); or %s." $name (get ($liveTemplate.metadata.labels | default dict) "app.kubernetes.io/name") $orphanWay) -}}
{{- end -}}
{{- end -}}
{{- else if and $liveTemplate $.Release.IsUpgrade (not $V.persistence.abandonLiveCache) -}}
{{- include "nim-llm.fail" (printf "this upgrade replaces the live StatefulSet %s, whose model cache is in the per-pod claims model-store-%s-<n>, with %s, so %s (the old claims then stay unused until you delete them)." $name $name (include "nim-llm.preflight.cacheText" $) $orphanHelp) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- /* The shared claims the chart made for the release: their class and access modes are immutable, a size only
grows (and only where the class allows it, which the chart cannot see without cluster-wide rights), and Helm deletes
one the upgrade no longer renders. */ -}}
{{- range $pvc := (lookup "v1" "PersistentVolumeClaim" $ns "").items | default list -}}
{{- if eq (get ($pvc.metadata.annotations | default dict) "meta.helm.sh/release-name") $release -}}
{{- $name := $pvc.metadata.name -}}
{{- $keep := eq (get ($pvc.metadata.annotations | default dict) "helm.sh/resource-policy") "keep" -}}
{{- if and (eq $backend "pvc-shared") (eq $name (include "nim-llm.sharedClaimName" $)) -}}
{{- $live := $pvc.spec -}}
{{- $liveSize := $live.resources.requests.storage -}}
{{- if ne (include "nim-llm.quantityValue" (toString $liveSize)) (include "nim-llm.quantityValue" (include "nim-llm.size" $V.persistence.size)) -}}
{{- if lt (include "nim-llm.quantityValue" (include "nim-llm.size" $V.persistence.size) | float64) (include "nim-llm.quantityValue" (toString $liveSize) | float64) -}}
{{- include "nim-llm.fail" (printf "persistence.size is %s, but the live model cache claim %s has %s, and Kubernetes never shrinks a claim: set persistence.size: %s." (include "nim-llm.size" $V.persistence.size) $name $liveSize $liveSize) -}}
{{- end -}}
{{- include "nim-llm.fail" (printf "persistence.size is %s, but the live model cache claim %s has %s: the chart does not resize a live claim (Kubernetes grows one only where its StorageClass allows volume expansion, which the chart cannot see). Set persistence.size: %s; to grow the cache, resize the claim itself (kubectl patch pvc %s -n %s -p '{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"%s\"}}}}'), then set persistence.size to the new size." (include "nim-llm.size" $V.persistence.size) $name $liveSize $liveSize $name $ns (include "nim-llm.size" $V.persistence.size)) -}}
{{- end -}}
{{- if ne (toYaml $live.accessModes) (toYaml $claim.accessModes) -}}
{{- include "nim-llm.fail" (printf "persistence.accessMode is %s, but the live model cache claim %s is %s, and Kubernetes does not allow changing a claim's access modes: set persistence.accessMode: %s; or copy the cache to a claim of your own with the new access mode and use it as persistence.existingClaim (with persistence.abandonLiveCache: true)." $V.persistence.accessMode $name (join ", " $live.accessModes) (first $live.accessModes)) -}}
{{- end -}}
{{- if and (hasKey $claim "storageClassName") (ne (toString (get $live "storageClassName")) (toString $claim.storageClassName)) -}}
{{- include "nim-llm.fail" (printf "persistence.storageClass is %q, but the live model cache claim %s has storage class %q, and Kubernetes does not allow changing a claim's class: set persistence.storageClass: %q (or empty, for the class it has); or copy the cache to a claim of your own in the new class and use it as persistence.existingClaim (with persistence.abandonLiveCache: true)." (toString $V.persistence.storageClass) $name (toString (get $live "storageClassName")) (toString (get $live "storageClassName"))) -}}
{{- end -}}
{{- else if and (eq $backend "pvc-existing") (eq $name $V.persistence.existingClaim) -}}
{{- if not $keep -}}
{{- include "nim-llm.fail" (printf "persistence.existingClaim is %s, the claim this release made itself: the upgrade no longer renders it, so Helm would delete it (and the cache) while the pods mount it. First mark it to be kept: kubectl annotate pvc %s -n %s helm.sh/resource-policy=keep, then upgrade again." $name $name $ns) -}}
{{- end -}}
{{- else if and $.Release.IsUpgrade (not $V.persistence.abandonLiveCache) -}}
{{- include "nim-llm.fail" (printf "this upgrade no longer uses the live model cache claim %s of the release (it gives the pods %s), so %s (%s)." $name (include "nim-llm.preflight.cacheText" $) $orphanHelp (ternary "the claim stays, as it is annotated helm.sh/resource-policy: keep: delete it when no longer needed" "Helm then deletes the claim and its data; annotate it helm.sh/resource-policy=keep first to keep it" $keep)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- /* Deployment selector: immutable. */ -}}
{{- if eq $mode "deployment" -}}
{{- $deployment := lookup "apps/v1" "Deployment" $ns $fullname -}}
{{- if and $deployment (eq (get ($deployment.metadata.annotations | default dict) "meta.helm.sh/release-name") $release) (ne (toYaml $deployment.spec.selector.matchLabels) (toYaml $selector)) -}}
{{- include "nim-llm.fail" (printf "nameOverride changes the selector of the live Deployment %s (app.kubernetes.io/name %v to %v), which Kubernetes does not allow to change: keep nameOverride as it was (%v), or install the new name as a new release." $fullname (get $deployment.spec.selector.matchLabels "app.kubernetes.io/name") (get $selector "app.kubernetes.io/name") (get $deployment.spec.selector.matchLabels "app.kubernetes.io/name")) -}}
{{- end -}}
{{- end -}}
{{- /* LeaderWorkerSet subgroups: its webhook refuses adding, removing or changing them. */ -}}
{{- if and (eq $mode "leaderworkerset") (.Capabilities.APIVersions.Has "leaderworkerset.x-k8s.io/v1/LeaderWorkerSet") -}}
{{- $lws := lookup "leaderworkerset.x-k8s.io/v1" "LeaderWorkerSet" $ns (include "nim-llm.lwsName" .) -}}
{{- if and $lws (eq (get ($lws.metadata.annotations | default dict) "meta.helm.sh/release-name") $release) -}}
{{- $live := int (((($lws.spec.leaderWorkerTemplate | default dict).subGroupPolicy) | default dict).subGroupSize | default 0) -}}
{{- if ne $live (int $V.multiNode.leaderWorkerSet.subGroupSize) -}}
{{- include "nim-llm.fail" (printf "multiNode.leaderWorkerSet.subGroupSize is %d, but the live LeaderWorkerSet %s has %d, and LeaderWorkerSet does not allow adding, removing or changing subgroups: set multiNode.leaderWorkerSet.subGroupSize: %d; or delete the LeaderWorkerSet (kubectl delete leaderworkerset %s -n %s: its pods stop) and upgrade again." (int $V.multiNode.leaderWorkerSet.subGroupSize) (include "nim-llm.lwsName" .) $live $live (include "nim-llm.lwsName" .) $ns) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* What model cache these values give the pods, in words (for the messages above). */ -}}
{{- define "nim-llm.preflight.cacheText" -}}
{{- $backend := include "nim-llm.cacheBackend" . -}}
{{- $workload := get (dict "statefulset" "a StatefulSet" "deployment" "a Deployment" "leaderworkerset" "a LeaderWorkerSet" "mpijob" "MPIJobs") (include "nim-llm.mode" .) -}}
{{- if eq $backend "pvc-template" -}}{{- printf "%s named %s with new per-pod claims model-store-%s-<n>" $workload (include "nim-llm.fullname" .) (include "nim-llm.fullname" .) -}}
{{- else if eq $backend "pvc-shared" -}}{{- printf "%s with the claim %s" $workload (include "nim-llm.sharedClaimName" .) -}}
{{- else if eq $backend "pvc-existing" -}}{{- printf "%s with the existing claim %s" $workload .Values.persistence.existingClaim -}}
{{- else if eq $backend "hostPath" -}}{{- printf "%s with the node directory %s (hostPath)" $workload .Values.hostPath.path -}}
{{- else if eq $backend "nfs" -}}{{- printf "%s with the NFS export %s:%s" $workload .Values.nfs.server .Values.nfs.path -}}
{{- else -}}{{- printf "%s with an emptyDir (no persistence)" $workload -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.preflight.multiNode" -}}
{{- $V := .Values -}}
{{- $M := $V.multiNode -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $gpus := include "nim-llm.gpuLimit" . | int -}}
{{- /* Also in values.schema.json; repeated here for installs run with --skip-schema-validation. */ -}}
{{- range $key := list "workers" "gpusPerNode" "clusterStartTimeout" -}}
{{- if lt (index $M $key | int) 1 -}}
{{- include "nim-llm.fail" (printf "multiNode.%s is %v but must be at least 1: set multiNode.%s to a positive number." $key (index $M $key) $key) -}}
{{- end -}}
{{- end -}}
{{- if not $M.optimized.enabled -}}
{{- include "nim-llm.fail" "multiNode.optimized.enabled is false, but only optimized (TensorRT-LLM) profiles run multi-node: set multiNode.optimized.enabled: true." -}}
{{- end -}}
{{- if ne $gpus (int $M.gpusPerNode) -}}
{{- include "nim-llm.fail" (printf "multiNode.gpusPerNode is %d but resources.limits.nvidia.com/gpu is %d; each multi-node pod gets exactly gpusPerNode GPUs: set resources.limits.nvidia.com/gpu: %d (or multiNode.gpusPerNode: %d)." (int $M.gpusPerNode) $gpus (int $M.gpusPerNode) $gpus) -}}
{{- end -}}
{{- /* Parallelism: TP x PP must use every GPU of a replica (user env or chart-derived). */ -}}
{{- $par := dict "NIM_TENSOR_PARALLEL_SIZE" (int $M.gpusPerNode) "NIM_PIPELINE_PARALLEL_SIZE" (int $M.workers) -}}
{{- $source := dict "NIM_TENSOR_PARALLEL_SIZE" "derived from multiNode.gpusPerNode" "NIM_PIPELINE_PARALLEL_SIZE" "derived from multiNode.workers" -}}
{{- $checkable := true -}}
{{- range $i, $e := $V.env | default list -}}
{{- if hasKey $par $e.name -}}
{{- if hasKey $e "value" -}}
{{- if not (regexMatch "^[1-9][0-9]*$" (toString $e.value)) -}}
{{- include "nim-llm.fail" (printf "env[%d] (%s) is %q, which is not a positive whole number: set env[%d].value to a number such as \"%d\"." $i $e.name (toString $e.value) $i (index $par $e.name)) -}}
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
{{- include "nim-llm.fail" (printf "%s (%d, %s) is more than the %d GPUs of one replica (multiNode.workers x multiNode.gpusPerNode = %d x %d): make tensor parallel x pipeline parallel %d, e.g. tensor parallel %d and pipeline parallel %d." $name (index $par $name) (index $source $name) $total (int $M.workers) (int $M.gpusPerNode) $total (int $M.gpusPerNode) (int $M.workers)) -}}
{{- end -}}
{{- end -}}
{{- if not $checkable -}}
{{- range $name := list "NIM_TENSOR_PARALLEL_SIZE" "NIM_PIPELINE_PARALLEL_SIZE" -}}
{{- $literal := index $par $name -}}
{{- if hasPrefix "env[" (index $source $name) -}}
{{- if or (gt $literal $total) (mod $total $literal) -}}
{{- include "nim-llm.fail" (printf "%s (%d, %s) does not divide the %d GPUs of one replica (multiNode.workers x multiNode.gpusPerNode = %d x %d), so no value of the other parallel size (set with valueFrom) can make the product %d: set %s to a divisor of %d." $name $literal (index $source $name) $total (int $M.workers) (int $M.gpusPerNode) $total (index $source $name) $total) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if and $checkable (ne (mul $tp $pp) $total) -}}
{{- include "nim-llm.fail" (printf "NIM_TENSOR_PARALLEL_SIZE (%d, %s) x NIM_PIPELINE_PARALLEL_SIZE (%d, %s) = %d, but one replica has multiNode.workers x multiNode.gpusPerNode = %d x %d = %d GPUs: make the product %d, e.g. tensor parallel %d and pipeline parallel %d." $tp (index $source "NIM_TENSOR_PARALLEL_SIZE") $pp (index $source "NIM_PIPELINE_PARALLEL_SIZE") (mul $tp $pp) (int $M.workers) (int $M.gpusPerNode) $total $total (int $M.gpusPerNode) (int $M.workers)) -}}
{{- end -}}
{{- /* The model cache must be reachable from every node of a group. */ -}}
{{- $backend := include "nim-llm.cacheBackend" . -}}
{{- if and (eq $backend "pvc-shared") (has $V.persistence.accessMode (list "ReadWriteOnce" "ReadWriteOncePod")) -}}
{{- include "nim-llm.fail" (printf "persistence.accessMode is %s, but multi-node pods run on different nodes and share the model cache: set persistence.accessMode: ReadWriteMany with a storage class that supports it (for example NFS), or use persistence.existingClaim, nfs or hostPath." $V.persistence.accessMode) -}}
{{- end -}}
{{- if and (eq $backend "pvc-existing") (has $V.persistence.accessMode (list "ReadWriteOncePod")) -}}
{{- include "nim-llm.fail" "persistence.accessMode is ReadWriteOncePod, but multi-node pods share the claim: use a ReadWriteMany claim and set persistence.accessMode: ReadWriteMany." -}}
{{- end -}}
{{- if eq $backend "emptyDir" -}}
{{- include "nim-llm.fail" "multiNode.enabled is true but no shared model cache is configured, so every node would download the model on its own: set persistence.enabled: true with persistence.accessMode: ReadWriteMany (or persistence.existingClaim), or enable nfs or hostPath." -}}
{{- end -}}
{{- /* Backend-specific keys. */ -}}
{{- if eq $mode "mpijob" -}}
{{- if $V.autoscaling.enabled -}}
{{- include "nim-llm.fail" "autoscaling.enabled is true but multiNode.leaderWorkerSet.enabled is false: an MPIJob cannot be scaled by a HorizontalPodAutoscaler. Set autoscaling.enabled: false, or use LeaderWorkerSet (multiNode.leaderWorkerSet.enabled: true)." -}}
{{- end -}}
{{- if $M.workerCustomCommand -}}
{{- include "nim-llm.fail" "multiNode.workerCustomCommand only applies to LeaderWorkerSet; MPIJob workers run sshd for mpirun: remove multiNode.workerCustomCommand or set multiNode.leaderWorkerSet.enabled: true." -}}
{{- end -}}
{{- if $M.existingSSHSecret -}}
{{- include "nim-llm.fail" "multiNode.existingSSHSecret only applies to LeaderWorkerSet; the MPI operator makes the SSH key of each MPIJob itself: remove multiNode.existingSSHSecret or set multiNode.leaderWorkerSet.enabled: true." -}}
{{- end -}}
{{- if eq $M.launchMode "native" -}}
{{- include "nim-llm.fail" "multiNode.launchMode is native, but an MPIJob always starts through mpirun: set multiNode.launchMode: auto (or mpi), or use LeaderWorkerSet for native start-up." -}}
{{- end -}}
{{- end -}}
{{- /* Start-up combinations that can never come up. */ -}}
{{- if and (eq $mode "leaderworkerset") (include "nim-llm.usesMPI" .) -}}
{{- if eq (toString $M.leaderWorkerSet.startupPolicy) "LeaderReady" -}}
{{- include "nim-llm.fail" "multiNode.leaderWorkerSet.startupPolicy is LeaderReady, but the group starts in mpi launch mode: LeaderReady creates the workers only once the leader is Ready, and an mpi leader serves (becomes Ready) only after mpirun has started ranks on every worker, so the group would wait for itself until multiNode.clusterStartTimeout: set multiNode.leaderWorkerSet.startupPolicy: LeaderCreated (or multiNode.launchMode: native)." -}}
{{- end -}}
{{- if $M.workerCustomCommand -}}
{{- include "nim-llm.fail" "multiNode.workerCustomCommand is set, but the group starts in mpi launch mode, where every worker must run the chart's sshd for the leader's mpirun; with another command the leader waits for sshd until multiNode.clusterStartTimeout and fails: remove multiNode.workerCustomCommand, or set multiNode.launchMode: native (every pod runs its own server with its rank)." -}}
{{- end -}}
{{- end -}}
{{- if and (eq $mode "leaderworkerset") $M.leaderWorkerSet.subGroupSize -}}
{{- if mod (int $M.workers) (int $M.leaderWorkerSet.subGroupSize) -}}
{{- include "nim-llm.fail" (printf "multiNode.leaderWorkerSet.subGroupSize (%d) must divide multiNode.workers (%d): set it to a divisor of %d, or 0 for no subgroups." (int $M.leaderWorkerSet.subGroupSize) (int $M.workers) (int $M.workers)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "nim-llm.preflight.networking" -}}
{{- $N := .Values.multinodeNetworking -}}
{{- /* The EFA library directory is mounted at its host path: not on a path the NIM container already mounts. */ -}}
{{- if eq (include "nim-llm.networking.provider" .) "aws" -}}
{{- $efa := trimSuffix "/" (toString $N.aws.hostPath) -}}
{{- $role := ternary "leader" "mpi-worker" (eq (include "nim-llm.mode" .) "leaderworkerset") -}}
{{- range $m := include "nim-llm.volumeMounts" (dict "root" . "role" $role) | fromYamlArray -}}
{{- if and (ne $m.name "efa-libraries") (eq (trimSuffix "/" (toString $m.mountPath)) $efa) -}}
{{- include "nim-llm.fail" (printf "multinodeNetworking.aws.hostPath is %s, where the NIM container already mounts its %s volume (Kubernetes refuses a mount path used twice): set the host directory of the EFA libraries (/opt/amazon on the EKS GPU AMIs)." $N.aws.hostPath $m.name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $on := include "nim-llm.networking.enabledProviders" . | fromYamlArray -}}
{{- if gt (len $on) 1 -}}
{{- $keys := list -}}
{{- range $on -}}{{- $keys = append $keys (printf "multinodeNetworking.%s.enabled" .) -}}{{- end -}}
{{- include "nim-llm.fail" (printf "%s are all true, but a cluster has one kind of high-speed network: keep exactly one multinodeNetworking provider enabled." (join " and " $keys)) -}}
{{- end -}}
{{- $gpus := include "nim-llm.gpuLimit" . | int -}}
{{- $perGPU := dict "aws" (list "efaDevicesPerGPU" 32 "vpc.amazonaws.com/efa" "no EC2 instance has more than 32 EFA interfaces (p5.48xlarge: 32 for 8 GPUs, so 4 per GPU)") "azure" (list "rdmaDevicesPerGPU" 8 (printf "rdma/%s" $N.azure.rdmaDeviceName) "ND-series VMs have 8 InfiniBand HCAs for 8 GPUs, so at most 1 per GPU") "oci" (list "rdmaDevicesPerGPU" 16 "nvidia.com/mlnxnics" "OCI GPU bare-metal shapes expose at most 16 RDMA VFs (H100/A100: 2 per GPU, H200/B200: 1 per GPU)") -}}
{{- range $provider := $on -}}
{{- if and (hasKey $perGPU $provider) (not (and (eq $provider "aws") $N.aws.instanceType)) -}}
{{- $rule := index $perGPU $provider -}}
{{- $key := index $rule 0 -}}
{{- $value := index (index $N $provider) $key | int -}}
{{- if lt $value 1 -}}
{{- include "nim-llm.fail" (printf "multinodeNetworking.%s.%s is %d, but every GPU needs at least one network device: set multinodeNetworking.%s.%s to the devices per GPU of your instance type (%s)." $provider $key $value $provider $key (index $rule 3)) -}}
{{- end -}}
{{- /* Compared by division: value x GPUs of a huge value wraps around and would pass. */ -}}
{{- if gt $value (div (index $rule 1 | int) (max $gpus 1)) -}}
{{- $request := ternary (printf "%d" (mul $value $gpus)) (printf "more than %d" (index $rule 1 | int)) (lt $value 1000000) -}}
{{- include "nim-llm.fail" (printf "multinodeNetworking.%s.%s is %d, so each pod with %d GPUs would request %s %s, more than any node has (%s): lower multinodeNetworking.%s.%s to at most %d." $provider $key $value $gpus $request (index $rule 2) (index $rule 3) $provider $key (div (index $rule 1 | int) (max $gpus 1))) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if and (has "gcp" $on) .Values.multiNode.enabled -}}
{{- if ne (len $N.gcp.networks) 8 -}}
{{- include "nim-llm.fail" (printf "multinodeNetworking.gcp.networks has %d entries, but GPUDirect-TCPXO uses the eight GPU NICs eth1..eth8 of an A3 Mega node: list the eight GKE network names, in order." (len $N.gcp.networks)) -}}
{{- end -}}
{{- if ne $gpus 8 -}}
{{- include "nim-llm.fail" (printf "multinodeNetworking.gcp.enabled is true but resources.limits.nvidia.com/gpu is %d; GPUDirect-TCPXO pods take a whole A3 Mega node: set resources.limits.nvidia.com/gpu: 8 and multiNode.gpusPerNode: 8." $gpus) -}}
{{- end -}}
{{- if semverCompare "<1.29.0-0" .Capabilities.KubeVersion.Version -}}
{{- include "nim-llm.fail" (printf "multinodeNetworking.gcp.enabled is true, but the tcpxo-daemon runs as a native sidecar, which needs Kubernetes 1.29 or newer (this cluster is %s): upgrade the cluster, or set multinodeNetworking.gcp.enabled: false." .Capabilities.KubeVersion.Version) -}}
{{- end -}}
{{- end -}}
{{- if and $on .Values.multiNode.enabled (not .Values.shm.enabled) -}}
{{- include "nim-llm.fail" (printf "multinodeNetworking.%s.enabled is true but shm.enabled is false; NCCL needs shared memory at /dev/shm: set shm.enabled: true (and shm.sizeLimit)." (first $on)) -}}
{{- end -}}
{{- end -}}


{{- define "nim-llm.preflight.extras" -}}
{{- $V := .Values -}}
{{- $mapForm := kindIs "map" $V.extraVolumes -}}
{{- $volumes := list -}}
{{- range $i, $v := include "nim-llm.namedList" $V.extraVolumes | fromYamlArray -}}
{{- $key := ternary (printf "extraVolumes.%v" $v.name) (printf "extraVolumes[%d].name" $i) $mapForm -}}
{{- if has (toString $v.name) (include "nim-llm.chartVolumeNames" . | fromYamlArray) -}}
{{- include "nim-llm.fail" (printf "%s: the chart already defines a pod volume named %v (the model cache, /dev/shm, MPI or networking volumes): give your volume another name." $key $v.name) -}}
{{- end -}}
{{- if has (toString $v.name) $volumes -}}
{{- include "nim-llm.fail" (printf "%s: a volume named %v is already in extraVolumes: give each volume its own name." $key $v.name) -}}
{{- end -}}
{{- $volumes = append $volumes (toString $v.name) -}}
{{- end -}}
{{- $mountMapForm := kindIs "map" $V.extraVolumeMounts -}}
{{- range $i, $m := include "nim-llm.namedList" $V.extraVolumeMounts | fromYamlArray -}}
{{- if not (has (toString $m.name) $volumes) -}}
{{- $key := ternary (printf "extraVolumeMounts.%v" $m.name) (printf "extraVolumeMounts[%d].name" $i) $mountMapForm -}}
{{- $others := ternary (printf ", or mount one of %s" (join ", " $volumes)) "" (gt (len $volumes) 0) -}}
{{- include "nim-llm.fail" (printf "%s mounts a volume named %v, but extraVolumes defines no such volume: add %v to extraVolumes%s." $key $m.name $m.name $others) -}}
{{- end -}}
{{- end -}}
{{- $containers := dict "nim" "the NIM container" "tcpxo-daemon" "the GCP networking sidecar" -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- $name := toString $c.name -}}
{{- if hasKey $containers $name -}}
{{- include "nim-llm.fail" (printf "initContainers.extraInit[%d].name %s is already used by %s: give each container its own name." $i $name (index $containers $name)) -}}
{{- end -}}
{{- $_ := set $containers $name (printf "initContainers.extraInit[%d]" $i) -}}
{{- end -}}
{{- /* Init containers mount volumes of the GPU pod: the chart's (model-store always, as a volume or a claim template)
and extraVolumes; Kubernetes refuses a pod mounting any other, after the release is installed. */ -}}
{{- $role := get (dict "statefulset" "server" "deployment" "server" "leaderworkerset" "leader" "mpijob" "mpi-worker") (include "nim-llm.mode" .) -}}
{{- $podVolumes := list "model-store" -}}
{{- range $v := include "nim-llm.volumes" (dict "root" . "role" $role) | fromYamlArray -}}
{{- $podVolumes = append $podVolumes (toString $v.name) -}}
{{- end -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- range $j, $m := $c.volumeMounts | default list -}}
{{- if not (has (toString $m.name) $podVolumes) -}}
{{- include "nim-llm.fail" (printf "initContainers.extraInit[%d].volumeMounts[%d].name mounts a volume named %v, which the pod does not have: add it to extraVolumes, or mount one of %s." $i $j $m.name (join ", " ($podVolumes | uniq))) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}


{{- /* A secret in a literal env value is readable by anyone who can read the pod. A name is secret-like when one of its
words (split at "_", any case) is KEY after API, ACCESS or PRIVATE, or TOKEN, SECRET, PASSWORD, PASSWD, PASS,
CREDENTIAL(S): AWS_SECRET_ACCESS_KEY, hf_token, REDIS_PASS, GITHUB_TOKEN_READONLY. Usage: (dict "key" "env" "env" list) */ -}}
{{- define "nim-llm.preflight.plainSecrets" -}}
{{- $key := .key -}}
{{- range $i, $e := .env | default list -}}
{{- if and (kindIs "map" $e) (hasKey $e "value") (regexMatch "(?i)(^|_)((API|ACCESS|PRIVATE)_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?)(_|$)|^(NGC_API_KEY|NGC_CLI_API_KEY|HF_TOKEN|HUGGING_FACE_HUB_TOKEN)$" (toString $e.name)) -}}
{{- include "nim-llm.fail" (printf "%s[%d].value sets %s in plain text, readable by anyone who can read the pod: keep it in a Secret and use %s[%d].valueFrom.secretKeyRef instead (for the NGC key: model.ngcAPISecret, or model.ngcAPIKey to let the chart create the Secret)." $key $i (toString $e.name) $key $i) -}}
{{- end -}}
{{- end -}}
{{- end -}}


{{- define "nim-llm.preflight.names" -}}
{{- $V := .Values -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $fullname := include "nim-llm.fullname" . -}}
{{- /* The image reference is <repository>[:<tag>][@<digest>]: a digest or a tag inside image.repository makes it invalid. */ -}}
{{- if contains "@" $V.image.repository -}}
{{- include "nim-llm.fail" (printf "image.repository is %q, which holds a digest, but the chart appends :<image.tag> to it (an invalid reference): set image.repository to the repository alone (%s) and the digest in image.digest: %q." $V.image.repository (splitList "@" $V.image.repository | first) (splitList "@" $V.image.repository | last)) -}}
{{- end -}}
{{- if contains ":" (splitList "/" $V.image.repository | last) -}}
{{- $parts := splitList ":" (splitList "/" $V.image.repository | last) -}}
{{- include "nim-llm.fail" (printf "image.repository is %q, which ends in a tag (:%s), but the chart appends :<image.tag> to it: remove :%s from image.repository and set image.tag: %q." $V.image.repository (last $parts) (last $parts) (last $parts)) -}}
{{- end -}}
{{- /* Two Secrets of the release with one name: the second would overwrite the first. */ -}}
{{- if $V.model.ngcAPIKey -}}
{{- $pull := include "nim-llm.generatedPullSecretName" . -}}
{{- if eq $V.model.ngcAPISecret $pull -}}
{{- include "nim-llm.fail" (printf "model.ngcAPISecret is %s, the name of the pull secret the chart creates from model.ngcAPIKey: both Secrets would have one name. Give model.ngcAPISecret another name (the default is ngc-api)." $pull) -}}
{{- end -}}
{{- end -}}
{{- if and (include "nim-llm.usesMPI" .) (eq $mode "leaderworkerset") (not $V.multiNode.existingSSHSecret) (eq $V.model.ngcAPISecret (include "nim-llm.sshSecretName" .)) -}}
{{- include "nim-llm.fail" (printf "model.ngcAPISecret is %s, the name of the SSH key Secret the chart generates for MPI start-up: give model.ngcAPISecret another name." $V.model.ngcAPISecret) -}}
{{- end -}}
{{- /* The Service's labels must not redefine the chart's: the ServiceMonitor selects the Service by them. */ -}}
{{- range $key := keys ($V.service.labels | default dict) | sortAlpha -}}
{{- if or (hasPrefix "app.kubernetes.io/" $key) (hasPrefix "helm.sh/" $key) (hasPrefix "nim-llm/" $key) -}}
{{- include "nim-llm.fail" (printf "service.labels sets %s, a label the chart manages (the ServiceMonitor and the release's own lookups select by it; a second value makes a duplicate key): remove it from service.labels, or use your own prefix such as example.com/%s." $key (splitList "/" $key | last)) -}}
{{- end -}}
{{- end -}}
{{- /* The SSH port of MPI start-up and the API port share the pod's network namespace. */ -}}
{{- if and (include "nim-llm.usesMPI" .) (eq (int $V.multiNode.sshPort) (int $V.model.openaiPort)) -}}
{{- include "nim-llm.fail" (printf "multiNode.sshPort and model.openaiPort are both %d, but the workers' sshd and the API server listen in one pod: give multiNode.sshPort another port (the default is 2222)." (int $V.model.openaiPort)) -}}
{{- end -}}
{{- /* MASTER_PORT (torch.distributed's rendezvous on the leader) shares the leader's network namespace with the API
server and, in mpi launch mode, the workers' sshd. */ -}}
{{- if and $V.multiNode.enabled (eq (int $V.multiNode.masterPort) (int $V.model.openaiPort)) -}}
{{- include "nim-llm.fail" (printf "multiNode.masterPort and model.openaiPort are both %d, but MASTER_PORT and the API server listen on the leader's pod: give multiNode.masterPort another port (the default is 50000)." (int $V.model.openaiPort)) -}}
{{- end -}}
{{- if and (include "nim-llm.usesMPI" .) (eq (int $V.multiNode.masterPort) (int $V.multiNode.sshPort)) -}}
{{- include "nim-llm.fail" (printf "multiNode.masterPort and multiNode.sshPort are both %d, but MASTER_PORT and the workers' sshd listen in one pod: give multiNode.masterPort another port (the default is 50000)." (int $V.multiNode.sshPort)) -}}
{{- end -}}
{{- /* Host names of MPIJob pods are <fullname>-<replica>-<spec hash>-worker-<index> (and -launcher): a DNS label of at most 63. */ -}}
{{- if eq $mode "mpijob" -}}
{{- $longest := printf "%s-worker-%d" (include "nim-llm.mpiJobName" (list . (sub (max (int $V.replicaCount) 1) 1))) (sub (int $V.multiNode.workers) 1) -}}
{{- if gt (len $longest) 63 -}}
{{- include "nim-llm.fail" (printf "the MPIJob worker pod name %s has %d characters, more than the 63 of a pod host name (multiNode.workers %d, replicaCount %d): shorten fullnameOverride (or the release name and nameOverride) to at most %d characters, or use LeaderWorkerSet." $longest (len $longest) (int $V.multiNode.workers) (int $V.replicaCount) (sub 63 (sub (len $longest) (len $fullname)))) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Extra mounts must not land on the chart's own mount paths (Kubernetes refuses a mount path used twice). Runs
after nim-llm.preflight.extras, so every extra mount names an extra volume, never a chart volume. */ -}}
{{- define "nim-llm.preflight.mountPaths" -}}
{{- $V := .Values -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $role := get (dict "statefulset" "server" "deployment" "server" "leaderworkerset" "leader" "mpijob" "mpi-worker") $mode -}}
{{- $chartMounts := dict -}}
{{- range $m := include "nim-llm.volumeMounts" (dict "root" . "role" $role) | fromYamlArray -}}
{{- if has $m.name (include "nim-llm.chartVolumeNames" $ | fromYamlArray) -}}
{{- $_ := set $chartMounts (trimSuffix "/" (toString $m.mountPath)) $m.name -}}
{{- end -}}
{{- end -}}
{{- $mapForm := kindIs "map" $V.extraVolumeMounts -}}
{{- range $i, $m := include "nim-llm.namedList" $V.extraVolumeMounts | fromYamlArray -}}
{{- $path := trimSuffix "/" (toString $m.mountPath) -}}
{{- if hasKey $chartMounts $path -}}
{{- $key := ternary (printf "extraVolumeMounts.%v.mountPath" $m.name) (printf "extraVolumeMounts[%d].mountPath" $i) $mapForm -}}
{{- include "nim-llm.fail" (printf "%s is %s, where the chart already mounts its %s volume (Kubernetes refuses a mount path used twice): mount it elsewhere%s." $key $m.mountPath (index $chartMounts $path) (ternary "; to move the model cache, set model.nimCache" "" (eq (index $chartMounts $path) "model-store"))) -}}
{{- end -}}
{{- end -}}
{{- end -}}


{{- /* Every request at most its limit (Kubernetes refuses a request above its limit, after the release has begun).
Usage: (dict "key" "resources" "resources" map) */ -}}
{{- define "nim-llm.preflight.requestsWithinLimits" -}}
{{- $key := .key -}}
{{- $res := .resources | default dict -}}
{{- $limits := $res.limits | default dict -}}
{{- range $name, $request := $res.requests | default dict -}}
{{- if and (hasKey $limits $name) (ne $name "nvidia.com/gpu") -}}
{{- $limit := index $limits $name -}}
{{- if gt (include "nim-llm.quantityValue" $request | float64) (include "nim-llm.quantityValue" $limit | float64) -}}
{{- include "nim-llm.fail" (printf "%s.requests.%s (%v) is more than %s.limits.%s (%v), and Kubernetes refuses a request above its limit: lower %s.requests.%s to at most %v (or raise the limit)." $key $name $request $key $name $limit $key $name $limit) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The value of a Kubernetes quantity (a number or a string such as 500m, 16Gi, 1.5e3), as a float, for comparisons
only; 0 when it cannot be read (the schema refuses such quantities). */ -}}
{{- define "nim-llm.quantityValue" -}}
{{- if not (kindIs "string" .) -}}
{{- float64 . -}}
{{- else -}}
{{- $number := regexFind "^[+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)" . -}}
{{- $suffix := trimPrefix $number . -}}
{{- $factor := dict "" 1.0 "m" 0.001 "k" 1000.0 "M" 1000000.0 "G" 1000000000.0 "T" 1000000000000.0 "P" 1000000000000000.0 "E" 1000000000000000000.0 "Ki" 1024.0 "Mi" 1048576.0 "Gi" 1073741824.0 "Ti" 1099511627776.0 "Pi" 1125899906842624.0 "Ei" 1152921504606846976.0 -}}
{{- if hasKey $factor $suffix -}}
{{- mulf (float64 (trimPrefix "+" $number)) (index $factor $suffix) -}}
{{- else if regexMatch "^[eE][+-]?[0-9]+$" $suffix -}}
{{- float64 (trimPrefix "+" .) -}}
{{- else -}}
0
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Single-node pods: tensor x pipeline parallel (literal env values) must fit the pod's GPUs.
Usage: (dict "env" list "gpus" int) */ -}}
{{- define "nim-llm.preflight.singleNodeParallelism" -}}
{{- $gpus := .gpus -}}
{{- $sizes := dict -}}
{{- range $i, $e := .env | default list -}}
{{- if and (has $e.name (list "NIM_TENSOR_PARALLEL_SIZE" "NIM_PIPELINE_PARALLEL_SIZE")) (hasKey $e "value") -}}
{{- if not (regexMatch "^[1-9][0-9]{0,8}$" (toString $e.value)) -}}
{{- include "nim-llm.fail" (printf "env[%d] (%s) is %q, which is not a positive whole number: set env[%d].value to a number such as \"1\"." $i $e.name (toString $e.value) $i) -}}
{{- end -}}
{{- $size := atoi (toString $e.value) -}}
{{- if gt $size $gpus -}}
{{- include "nim-llm.fail" (printf "env[%d] (%s) is %d, but each single-node pod has resources.limits.nvidia.com/gpu = %d GPUs: set it to at most %d, or raise resources.limits.nvidia.com/gpu (or use multiNode for a model larger than one node)." $i $e.name $size $gpus $gpus) -}}
{{- end -}}
{{- $_ := set $sizes $e.name (list $size $i) -}}
{{- end -}}
{{- end -}}
{{- if and (hasKey $sizes "NIM_TENSOR_PARALLEL_SIZE") (hasKey $sizes "NIM_PIPELINE_PARALLEL_SIZE") -}}
{{- $tp := index $sizes "NIM_TENSOR_PARALLEL_SIZE" -}}
{{- $pp := index $sizes "NIM_PIPELINE_PARALLEL_SIZE" -}}
{{- if gt (mul (first $tp) (first $pp)) $gpus -}}
{{- include "nim-llm.fail" (printf "NIM_TENSOR_PARALLEL_SIZE (%d, env[%d]) x NIM_PIPELINE_PARALLEL_SIZE (%d, env[%d]) = %d, more than the %d GPUs of a single-node pod (resources.limits.nvidia.com/gpu): make the product at most %d." (first $tp) (last $tp) (first $pp) (last $pp) (mul (first $tp) (first $pp)) $gpus $gpus) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Upstream nim-deploy (helm/nim-llm) keys. Renamed ones are refused naming the new key; keys of pre-1.0 NIM
containers (upstream legacyCompat) are refused saying what NIM 1.x does instead; keys with a clear meaning that can be
mapped safely are accepted (autoscaling.scaleDownStabilizationSecs, in horizontalpodautoscaler.yaml;
persistence.storageClass: null is the cluster default). */}}
{{- define "nim-llm.preflight.upstreamKeys" -}}
{{- $V := .Values -}}
{{- range $block := list "model" "service" -}}
{{- $values := index $V $block -}}
{{- if hasKey $values "openai_port" -}}
{{- include "nim-llm.fail" (printf "%s.openai_port is the upstream nim-deploy name of %s.openaiPort, which this chart reads instead: write %s.openaiPort: %v and remove %s.openai_port." $block $block $block (index $values "openai_port") $block) -}}
{{- end -}}
{{- end -}}
{{- range $key := list "model.nemo_port" "service.nemo_port" "service.http_port" "service.grpc_port" "service.metrics_port" -}}
{{- $parts := splitList "." $key -}}
{{- if hasKey (index $V (first $parts)) (last $parts) -}}
{{- include "nim-llm.fail" (printf "%s is a port of pre-1.0 NIM containers (the upstream chart's legacyCompat), which this chart does not run: NIM 1.x serves the OpenAI API, health and metrics (/v1/metrics) on one port, model.openaiPort, published as service.openaiPort. Remove %s." $key $key) -}}
{{- end -}}
{{- end -}}
{{- range $key := list "numWorkers" "trtModelName" "tritonModelName" "tritonURL" "openai_host" "dataStoreURL" "customizationSource" -}}
{{- if hasKey $V.model $key -}}
{{- include "nim-llm.fail" (printf "model.%s is a command-line argument of pre-1.0 NIM containers (the upstream chart's legacyCompat), which this chart does not run: remove model.%s; NIM 1.x reads its settings from environment variables, set them in env (e.g. env: [{name: NIM_MAX_MODEL_LEN, value: \"8192\"}])." $key $key) -}}
{{- end -}}
{{- end -}}
{{- if hasKey $V.autoscaling "targetCPUUtilizationPercentage" -}}
{{- include "nim-llm.fail" (printf "autoscaling.targetCPUUtilizationPercentage is not a key of this chart: write the metric in autoscaling.metrics, e.g. autoscaling.metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: %v}}}], and set resources.requests.cpu (utilization is a share of the request); NIM scales better on custom metrics such as queue depth." $V.autoscaling.targetCPUUtilizationPercentage) -}}
{{- end -}}
{{- $window := $V.autoscaling.scaleDownStabilizationSecs | default 0 | int64 -}}
{{- $scaleDown := (($V.autoscaling.behavior | default dict).scaleDown) | default dict -}}
{{- if and (gt $window 0) (kindIs "map" $scaleDown) (hasKey $scaleDown "stabilizationWindowSeconds") (ne (toString $scaleDown.stabilizationWindowSeconds) (toString $window)) -}}
{{- include "nim-llm.fail" (printf "autoscaling.scaleDownStabilizationSecs (the upstream name, %d) and autoscaling.behavior.scaleDown.stabilizationWindowSeconds (%v) disagree: keep only autoscaling.behavior.scaleDown.stabilizationWindowSeconds." $window $scaleDown.stabilizationWindowSeconds) -}}
{{- end -}}
{{- end -}}
