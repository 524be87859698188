{{/* ---------------------------------------------------------------------------
Preflight rules of resources: requests and limits (GPUs, every request within its limit, extended resources and
hugepages as Kubernetes counts them), memory, shared memory and disk, and the size of what the API server stores.
Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

{{- /* resources.requests.nvidia.com/gpu (if set) equals the limit */ -}}
{{- define "nim-llm.preflight.gpuRequestEqualsLimit" -}}
{{- $V := .Values -}}
{{- $gpus := include "nim-llm.gpuLimit" . | int -}}
{{- $requests := $V.resources.requests | default dict -}}
{{- if and (hasKey $requests "nvidia.com/gpu")
  (ne (include "nim-llm.wholeNumber" (index $requests "nvidia.com/gpu") | int) $gpus) -}}
{{- $message := print
  "resources.requests.nvidia.com/gpu (%v) differs from resources.limits.nvidia.com/gpu (%d); "
  "Kubernetes needs GPU requests equal to limits: remove resources.requests.nvidia.com/gpu or set it "
  "to %d." -}}
{{- include "nim-llm.fail" (printf $message (index $requests "nvidia.com/gpu") $gpus $gpus) -}}
{{- end -}}
{{- end -}}

{{- /* The resources of every container the chart renders, each held to the API server's resource rules: every request
at most its limit, extended resources in whole devices, hugepages and extended resources not overcommitted. */ -}}
{{- define "nim-llm.preflight.resourcesOfEveryContainer" -}}
{{- $V := .Values -}}
{{- $all := list (list "resources" $V.resources)
  (list "multiNode.mpiJob.launcherResources" $V.multiNode.mpiJob.launcherResources)
  (list "testPod.resources" $V.testPod.resources) -}}
{{- if $V.cachePrefill.enabled -}}
{{- $all = append $all (list "cachePrefill.resources" $V.cachePrefill.resources) -}}
{{- end -}}
{{- if include "nim-llm.epp.enabled" . -}}
{{- $all = append $all (list "inferencePool.epp.resources" $V.inferencePool.epp.resources) -}}
{{- end -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- $all = append $all (list (printf "initContainers.extraInit[%d].resources" $i) $c.resources) -}}
{{- end -}}
{{- range $each := $all -}}
{{- $args := dict "key" (index $each 0) "resources" (index $each 1) -}}
{{- include "nim-llm.preflight.requestsWithinLimitsOf" $args -}}
{{- include "nim-llm.preflight.extendedResourcesWholeOf" $args -}}
{{- include "nim-llm.preflight.extendedResourcesExactOf" $args -}}
{{- end -}}
{{- end -}}

{{- /* Every request at most its limit (Kubernetes refuses a request above its limit, after the release has begun).
Usage: (dict "key" "resources" "resources" map) */ -}}
{{- define "nim-llm.preflight.requestsWithinLimitsOf" -}}
{{- $key := .key -}}
{{- $res := .resources | default dict -}}
{{- $limits := $res.limits | default dict -}}
{{- range $name, $request := $res.requests | default dict -}}
{{- if and (hasKey $limits $name) (ne $name "nvidia.com/gpu") -}}
{{- $limit := index $limits $name -}}
{{- if gt (include "nim-llm.quantityValue" $request | float64) (include "nim-llm.quantityValue" $limit | float64) -}}
{{- $message := print
  "%s.requests.%s (%v) is more than %s.limits.%s (%v), and Kubernetes refuses a request above its "
  "limit: lower %s.requests.%s to at most %v (or raise the limit)." -}}
{{- include "nim-llm.fail" (printf $message $key $name $request $key $name $limit $key $name $limit) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* An extended resource (nvidia.com/gpu, example.com/fpga: a name with a domain other than kubernetes.io) is counted
in whole devices: the API server refuses a fraction ("must be an integer") in a request or a limit.
Usage: (dict "key" "resources" "resources" map) */ -}}
{{- define "nim-llm.preflight.extendedResourcesWholeOf" -}}
{{- $key := .key -}}
{{- $res := .resources | default dict -}}
{{- range $side := list "limits" "requests" -}}
{{- range $name, $value := get $res $side | default dict -}}
{{- $extended := and (contains "/" $name) (not (regexMatch "^([^/]*\\.)?kubernetes\\.io/" $name)) (not (hasPrefix "requests." $name)) -}}
{{- $number := include "nim-llm.quantityValue" $value | float64 -}}
{{- if and $extended (ne (floor $number) $number) -}}
{{- $message := print
  "%s.%s.%s is %v, a fraction, but %s is an extended resource counted in whole devices and Kubernetes "
  "refuses a fraction of one: set %s.%s.%s to a whole number such as %v." -}}
{{- include "nim-llm.fail" (printf $message $key $side $name $value $name $key $side $name (max 1 (int (ceil $number)))) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Hugepages and extended resources (a name with a domain other than kubernetes.io, such as example.com/fpga) cannot
be overcommitted: Kubernetes refuses a request of one without a limit equal to it. nvidia.com/gpu of the GPU pods
(resources) has its own rule (gpuRequestEqualsLimit).
Usage: (dict "key" "resources" "resources" map) */ -}}
{{- define "nim-llm.preflight.extendedResourcesExactOf" -}}
{{- $key := .key -}}
{{- $res := .resources | default dict -}}
{{- $limits := $res.limits | default dict -}}
{{- range $name, $request := $res.requests | default dict -}}
{{- $extended := and (contains "/" $name) (not (regexMatch "^([^/]*\\.)?kubernetes\\.io/" $name)) -}}
{{- if and (or (hasPrefix "hugepages-" $name) $extended) (not (and (eq $key "resources") (eq $name "nvidia.com/gpu"))) -}}
{{- if not (hasKey $limits $name) -}}
{{- $message := print
  "%s.requests.%s is %v but %s.limits.%s is not set, and Kubernetes cannot overcommit %s: it refuses the pod "
  "unless the limit equals the request. Set %s.limits.%s: %v (or move the value from requests to limits)." -}}
{{- include "nim-llm.fail" (printf $message $key $name $request $key $name $name $key $name $request) -}}
{{- else if ne (include "nim-llm.quantityValue" $request) (include "nim-llm.quantityValue" (index $limits $name)) -}}
{{- $message := print
  "%s.requests.%s (%v) differs from %s.limits.%s (%v), and Kubernetes cannot overcommit %s: it refuses the "
  "pod unless they are equal. Set both to the same value (or remove %s.requests.%s)." -}}
{{- include "nim-llm.fail" (printf $message $key $name $request $key $name (index $limits $name) $name $key $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* A hugepages quantity is a whole number of pages: the API server reads hugepages-<size> as a count of <size> pages
(it rounds a fractional quantity up to a whole byte count first) and refuses any other amount ("is not positive integer
multiple of hugepages-2Mi"), inside a LeaderWorkerSet or MPIJob only once the controller makes the pods. */ -}}
{{- define "nim-llm.preflight.hugepagesWholePages" -}}
{{- $V := .Values -}}
{{- include "nim-llm.preflight.hugepagesWholePagesOf" (dict "key" "resources" "resources" $V.resources) -}}
{{- include "nim-llm.preflight.hugepagesWholePagesOf"
  (dict "key" "multiNode.mpiJob.launcherResources" "resources" $V.multiNode.mpiJob.launcherResources) -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- include "nim-llm.preflight.hugepagesWholePagesOf"
  (dict "key" (printf "initContainers.extraInit[%d].resources" $i) "resources" $c.resources) -}}
{{- end -}}
{{- end -}}

{{- /* Usage: (dict "key" "resources" "resources" map) */ -}}
{{- define "nim-llm.preflight.hugepagesWholePagesOf" -}}
{{- $key := .key -}}
{{- $res := .resources | default dict -}}
{{- range $section := list "limits" "requests" -}}
{{- range $name, $q := index $res $section | default dict -}}
{{- if hasPrefix "hugepages-" $name -}}
{{- $page := include "nim-llm.quantityValue" (trimPrefix "hugepages-" $name) | float64 -}}
{{- $bytes := include "nim-llm.quantityValue" $q | float64 | ceil -}}
{{- if gt $page 0.0 -}}
{{- $pages := divf $bytes $page -}}
{{- if ne (float64 (int64 $pages)) $pages -}}
{{- $size := trimPrefix "hugepages-" $name -}}
{{- $number := regexFind "^[0-9]+" $size | default "1" | atoi -}}
{{- $suggest := printf "%d%s" (mul (max 1 (int64 (ceil $pages))) $number) (trimPrefix (regexFind "^[0-9]+" $size) $size) -}}
{{- $message := print
  "%s.%s.%s is %v, not a whole number of %s pages, and Kubernetes refuses it (a hugepages quantity counts pages "
  "of the size in its name). Set a multiple of %s, e.g. %s.%s.%s: %s." -}}
{{- include "nim-llm.fail" (printf $message $key $section $name $q $size $size $key $section $name $suggest) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* /dev/shm is a memory-backed emptyDir: its pages count against the container's memory limit, so a size limit at or
above that limit leaves the server no memory once shared memory fills (the container is OOM-killed). */}}
{{- define "nim-llm.preflight.shmWithinMemoryLimit" -}}
{{- $V := .Values -}}
{{- $limits := $V.resources.limits | default dict -}}
{{- if and $V.shm.enabled (hasKey $limits "memory") -}}
{{- $shm := include "nim-llm.size" $V.shm.sizeLimit -}}
{{- $memory := index $limits "memory" -}}
{{- if ge (include "nim-llm.quantityValue" $shm | float64) (include "nim-llm.quantityValue" $memory | float64) -}}
{{- $message := print
  "shm.sizeLimit (%s) is not below resources.limits.memory (%v): /dev/shm's pages count against the container's "
  "memory limit, so a full /dev/shm would leave the server no memory and get it OOM-killed. Raise "
  "resources.limits.memory (and resources.requests.memory) above shm.sizeLimit plus what the server needs, or lower "
  "shm.sizeLimit." -}}
{{- include "nim-llm.fail" (printf $message $shm $memory) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* An emptyDir model cache counts against the container's ephemeral-storage limit: a size limit above it gets the pod
evicted before the cache is full, and the chart's ephemeral-storage request (the size limit) would exceed the limit. */}}
{{- define "nim-llm.preflight.cacheWithinEphemeralStorageLimit" -}}
{{- $V := .Values -}}
{{- $limits := $V.resources.limits | default dict -}}
{{- $requests := $V.resources.requests | default dict -}}
{{- if and (eq (include "nim-llm.cacheBackend" .) "emptyDir") (hasKey $limits "ephemeral-storage") (not (hasKey $requests "ephemeral-storage")) -}}
{{- $size := include "nim-llm.size" $V.emptyDir.sizeLimit -}}
{{- $limit := index $limits "ephemeral-storage" -}}
{{- if gt (include "nim-llm.quantityValue" $size | float64) (include "nim-llm.quantityValue" $limit | float64) -}}
{{- $message := print
  "emptyDir.sizeLimit (%s) is above resources.limits.ephemeral-storage (%v): the emptyDir model cache counts against "
  "that limit (the pod would be evicted before the cache is full), and the chart requests emptyDir.sizeLimit of "
  "ephemeral storage. Raise resources.limits.ephemeral-storage to at least %s, or lower emptyDir.sizeLimit." -}}
{{- include "nim-llm.fail" (printf $message $size $limit $size) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The home emptyDir holds what GPU engines compile at start (Triton and FlashInfer kernels, torch.compile artifacts,
CUDA's PTX cache); a home that fills stops the server at start with "No space left on device". 1Gi is the chart's floor,
not a measured need: engines and models differ, and a large model's compile caches take more. */}}
{{- define "nim-llm.preflight.homeSizeFloor" -}}
{{- $size := include "nim-llm.size" .Values.home.sizeLimit -}}
{{- if lt (include "nim-llm.quantityValue" $size | float64) 1073741824.0 -}}
{{- $message := print
  "home.sizeLimit is %s, below 1Gi: the NIM container's home (home.path) is where GPU engines write the kernels and "
  "graphs they compile at start (Triton, FlashInfer, torch.compile, CUDA's PTX cache), and a full home stops the "
  "server at start (No space left on device). Set home.sizeLimit to at least 1Gi (the chart's default is 8Gi)." -}}
{{- include "nim-llm.fail" (printf $message $size) -}}
{{- end -}}
{{- end -}}

{{- /* etcd stores an object in one request of at most 1.5 MiB (--max-request-bytes, 1572864 bytes by default; the API
server answers "etcdserver: request is too large"), and a server-side dry run never reaches etcd, so only a real
install finds it. Nearly all of a workload object is its pod templates (a LeaderWorkerSet holds two, the leader's and
the worker's, each with every env entry): their size as JSON (what the API server stores for a custom resource), with
room left for the object's other fields and its managedFields, must stay at most 1,500,000 bytes. Large env values,
annotations or init containers are what fill them. */ -}}
{{- define "nim-llm.preflight.objectSize" -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $roles := get (dict "statefulset" (list "server") "deployment" (list "server") "leaderworkerset" (list "leader" "worker")
  "mpijob" (list "launcher" "mpi-worker")) $mode -}}
{{- $size := 0 -}}
{{- range $role := $roles -}}
{{- $size = add $size (len (include "nim-llm.podTemplate" (dict "root" $ "role" $role) | fromYaml | toJson)) -}}
{{- end -}}
{{- if gt $size 1500000 -}}
{{- $kind := get (dict "statefulset" "StatefulSet" "deployment" "Deployment" "leaderworkerset" "LeaderWorkerSet" "mpijob" "MPIJob") $mode -}}
{{- $message := print
  "env (%d entries), podAnnotations and initContainers.extraInit make the %s's pod templates %d bytes of JSON%s, and with "
  "the rest of the object that passes the 1.5 MiB etcd stores in one request: the API server would refuse to store it "
  "(etcdserver: request is too large) after a dry run had accepted it. Keep them at most 1500000 bytes as JSON: move large "
  "values into a ConfigMap and read them with env valueFrom.configMapKeyRef, or mount it with extraVolumes." -}}
{{- include "nim-llm.fail" (printf $message (len (.Values.env | default list)) $kind $size (ternary " (every env entry is in both, the leader's and the worker's)" "" (eq $mode "leaderworkerset"))) -}}
{{- end -}}
{{- end -}}
