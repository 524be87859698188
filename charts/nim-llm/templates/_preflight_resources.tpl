{{/* ---------------------------------------------------------------------------
Preflight rules about resources: memory, shared memory and disk. One define per rule, each called with one line from
"nim-llm.preflight" (_preflight.tpl).
--------------------------------------------------------------------------- */}}

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
