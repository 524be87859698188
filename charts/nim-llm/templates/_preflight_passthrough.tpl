{{/* ---------------------------------------------------------------------------
Preflight rules on Kubernetes objects the chart passes through into pods (resources, security contexts,
env, extra volumes and mounts, init containers): what the API server or the kubelet would refuse after install.
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

{{- /* every request of resources and of the MPI launcher at most its limit */ -}}
{{- define "nim-llm.preflight.requestsWithinLimits" -}}
{{- $V := .Values -}}
{{- include "nim-llm.preflight.requestsWithinLimitsOf" (dict "key" "resources" "resources" $V.resources) -}}
{{- include "nim-llm.preflight.requestsWithinLimitsOf"
  (dict "key" "multiNode.mpiJob.launcherResources" "resources" $V.multiNode.mpiJob.launcherResources) -}}
{{- include "nim-llm.preflight.requestsWithinLimitsOf" (dict "key" "testPod.resources" "resources" $V.testPod.resources) -}}
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

{{- /* Hugepages and extended resources (a name with a domain other than kubernetes.io, such as example.com/fpga) cannot
be overcommitted: Kubernetes refuses a request of one without a limit equal to it. nvidia.com/gpu of the GPU pods
(resources) has its own rule (gpuRequestEqualsLimit). */ -}}
{{- define "nim-llm.preflight.extendedResourcesExact" -}}
{{- $V := .Values -}}
{{- $all := list (list "resources" $V.resources)
  (list "multiNode.mpiJob.launcherResources" $V.multiNode.mpiJob.launcherResources)
  (list "cachePrefill.resources" $V.cachePrefill.resources)
  (list "testPod.resources" $V.testPod.resources)
  (list "inferencePool.epp.resources" $V.inferencePool.epp.resources) -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- $all = append $all (list (printf "initContainers.extraInit[%d].resources" $i) $c.resources) -}}
{{- end -}}
{{- range $each := $all -}}
{{- include "nim-llm.preflight.extendedResourcesWholeOf" (dict "key" (index $each 0) "resources" (index $each 1)) -}}
{{- include "nim-llm.preflight.extendedResourcesExactOf" (dict "key" (index $each 0) "resources" (index $each 1)) -}}
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

{{- /* Usage: (dict "key" "resources" "resources" map) */ -}}
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

{{- /* A container that must not run as root (runAsNonRoot: true, its own or the pod's) with user ID 0 (its own or the
pod's): the kubelet refuses to start it (CreateContainerConfigError), after the release is installed. */ -}}
{{- define "nim-llm.preflight.rootUserUnderNonRoot" -}}
{{- $V := .Values -}}
{{- $pod := $V.podSecurityContext | default dict -}}
{{- $containers := list (list "containerSecurityContext" ($V.containerSecurityContext | default dict)) -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- if $c.securityContext -}}
{{- $containers = append $containers (list (printf "initContainers.extraInit[%d].securityContext" $i) $c.securityContext) -}}
{{- end -}}
{{- end -}}
{{- range $c := $containers -}}
{{- $key := index $c 0 -}}
{{- $sc := index $c 1 -}}
{{- $nonRoot := ternary $sc.runAsNonRoot $pod.runAsNonRoot (hasKey $sc "runAsNonRoot") -}}
{{- $userKey := ternary (printf "%s.runAsUser" $key) "podSecurityContext.runAsUser" (hasKey $sc "runAsUser") -}}
{{- $user := ternary $sc.runAsUser $pod.runAsUser (hasKey $sc "runAsUser") -}}
{{- $nonRootKey := ternary (printf "%s.runAsNonRoot" $key) "podSecurityContext.runAsNonRoot" (hasKey $sc "runAsNonRoot") -}}
{{- if and (eq (toString $nonRoot) "true") (not (kindIs "invalid" $user)) (eq (toString $user) "0") -}}
{{- $message := print
  "%s is 0 (root) but %s is true, so the kubelet refuses to start the container (after the release is "
  "installed): set %s to a non-root user ID such as 1000, or %s: false to run as root on purpose." -}}
{{- include "nim-llm.fail" (printf $message $userKey $nonRootKey $userKey $nonRootKey) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* runAsNonRoot is set somewhere (a null must not silently allow root) */ -}}
{{- define "nim-llm.preflight.runAsNonRoot" -}}
{{- $V := .Values -}}
{{- if not (or (hasKey ($V.podSecurityContext | default dict) "runAsNonRoot")
    (hasKey ($V.containerSecurityContext | default dict) "runAsNonRoot")) -}}
{{- $message := print
  "podSecurityContext.runAsNonRoot is not set (a null removed the chart's default) and containerSecurityContext sets "
  "none, so nothing would stop a root image: set podSecurityContext.runAsNonRoot: true (or false, to run as root on "
  "purpose)." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}

{{- /* env holds one entry per variable */ -}}
{{- define "nim-llm.preflight.envOnePerName" -}}
{{- $V := .Values -}}
{{- $seen := dict -}}
{{- range $i, $e := $V.env | default list -}}
{{- if hasKey $seen $e.name -}}
{{- $message := print
  "env[%d].name %s is already set by env[%v]: keep one entry per variable." -}}
{{- include "nim-llm.fail" (printf $message $i $e.name (index $seen $e.name)) -}}
{{- end -}}
{{- $_ := set $seen $e.name $i -}}
{{- end -}}
{{- end -}}

{{- /* Environment: secrets only from a Secret (a literal value is readable by anyone who can read the pod). */ -}}
{{- define "nim-llm.preflight.plainSecrets" -}}
{{- $V := .Values -}}
{{- include "nim-llm.preflight.plainSecretsIn" (dict "key" "env" "env" $V.env) -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- include "nim-llm.preflight.plainSecretsIn" (dict "key" (printf "initContainers.extraInit[%d].env" $i) "env" $c.env) -}}
{{- end -}}
{{- end -}}

{{- /* A secret in a literal env value is readable by anyone who can read the pod. What is secret-like:
"nim-llm.secretLikeName" (_preflight_security.tpl). Usage: (dict "key" "env" "env" list) */ -}}
{{- define "nim-llm.preflight.plainSecretsIn" -}}
{{- $key := .key -}}
{{- range $i, $e := .env | default list -}}
{{- if and (kindIs "map" $e) (hasKey $e "value") (include "nim-llm.secretLikeName" $e.name) -}}
{{- $message := print
  "%s[%d].value sets %s in plain text, readable by anyone who can read the pod: keep it in a Secret "
  "and use %s[%d].valueFrom.secretKeyRef instead (for the NGC key: model.ngcAPISecret, or "
  "model.ngcAPIKey to let the chart create the Secret)." -}}
{{- include "nim-llm.fail" (printf $message $key $i (toString $e.name) $key $i) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* extraVolumes names are unique and not the chart's own */ -}}
{{- define "nim-llm.preflight.extraVolumeNames" -}}
{{- $V := .Values -}}
{{- $mapForm := kindIs "map" $V.extraVolumes -}}
{{- $volumes := list -}}
{{- range $i, $v := include "nim-llm.namedList" $V.extraVolumes | fromYamlArray -}}
{{- $key := ternary (printf "extraVolumes.%v" $v.name) (printf "extraVolumes[%d].name" $i) $mapForm -}}
{{- if has (toString $v.name) (include "nim-llm.chartVolumeNames" . | fromYamlArray) -}}
{{- $message := print
  "%s: the chart already defines a pod volume named %v (the model cache, /dev/shm, MPI or networking "
  "volumes): give your volume another name." -}}
{{- include "nim-llm.fail" (printf $message $key $v.name) -}}
{{- end -}}
{{- if has (toString $v.name) $volumes -}}
{{- $message := print
  "%s: a volume named %v is already in extraVolumes: give each volume its own name." -}}
{{- include "nim-llm.fail" (printf $message $key $v.name) -}}
{{- end -}}
{{- $volumes = append $volumes (toString $v.name) -}}
{{- end -}}
{{- end -}}

{{- /* every extraVolumeMounts entry names an extraVolumes volume */ -}}
{{- define "nim-llm.preflight.extraMountsResolve" -}}
{{- $V := .Values -}}
{{- $volumes := list -}}
{{- range $v := include "nim-llm.namedList" $V.extraVolumes | fromYamlArray -}}
{{- $volumes = append $volumes (toString $v.name) -}}
{{- end -}}
{{- $mountMapForm := kindIs "map" $V.extraVolumeMounts -}}
{{- range $i, $m := include "nim-llm.namedList" $V.extraVolumeMounts | fromYamlArray -}}
{{- if not (has (toString $m.name) $volumes) -}}
{{- $key := ternary (printf "extraVolumeMounts.%v" $m.name) (printf "extraVolumeMounts[%d].name" $i) $mountMapForm -}}
{{- $others := ternary (printf ", or mount one of %s" (join ", " $volumes)) "" (gt (len $volumes) 0) -}}
{{- $message := print
  "%s mounts a volume named %v, but extraVolumes defines no such volume: add %v to extraVolumes%s." -}}
{{- include "nim-llm.fail" (printf $message $key $m.name $m.name $others) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* init container names are unique and not the chart's containers' names */ -}}
{{- define "nim-llm.preflight.initContainerNames" -}}
{{- $V := .Values -}}
{{- $containers := dict "nim" "the NIM container" "tcpxo-daemon" "the GCP networking sidecar" -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- $name := toString $c.name -}}
{{- if hasKey $containers $name -}}
{{- $message := print
  "initContainers.extraInit[%d].name %s is already used by %s: give each container its own name." -}}
{{- include "nim-llm.fail" (printf $message $i $name (index $containers $name)) -}}
{{- end -}}
{{- $_ := set $containers $name (printf "initContainers.extraInit[%d]" $i) -}}
{{- end -}}
{{- end -}}

{{- /* Init containers mount volumes of the GPU pod: the chart's (model-store always, as a volume or a claim template)
and extraVolumes; Kubernetes refuses a pod mounting any other, after the release is installed. */ -}}
{{- define "nim-llm.preflight.initContainerMounts" -}}
{{- $V := .Values -}}
{{- $role := get (dict "statefulset" "server" "deployment" "server" "leaderworkerset" "leader" "mpijob" "mpi-worker")
  (include "nim-llm.mode" .) -}}
{{- $podVolumes := list "model-store" -}}
{{- range $v := include "nim-llm.volumes" (dict "root" . "role" $role) | fromYamlArray -}}
{{- $podVolumes = append $podVolumes (toString $v.name) -}}
{{- end -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- range $j, $m := $c.volumeMounts | default list -}}
{{- if not (has (toString $m.name) $podVolumes) -}}
{{- $message := print
  "initContainers.extraInit[%d].volumeMounts[%d].name mounts a volume named %v, which the pod does not "
  "have: add it to extraVolumes, or mount one of %s." -}}
{{- include "nim-llm.fail" (printf $message $i $j $m.name (join ", " ($podVolumes | uniq))) -}}
{{- end -}}
{{- end -}}
{{- range $j, $m := $c.volumeDevices | default list -}}
{{- if not (has (toString $m.name) $podVolumes) -}}
{{- $message := print
  "initContainers.extraInit[%d].volumeDevices[%d].name names a volume %q, which the pod does not have (the API "
  "server refuses the pod): add it to extraVolumes as a block-mode claim, or name one of %s." -}}
{{- include "nim-llm.fail" (printf $message $i $j (toString $m.name) (join ", " ($podVolumes | uniq))) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Extra mounts must not land on the chart's own mount paths (Kubernetes refuses a mount path used twice). Runs
after nim-llm.preflight.extraMountsResolve, so every extra mount names an extra volume, never a chart volume. */ -}}
{{- define "nim-llm.preflight.mountPaths" -}}
{{- $V := .Values -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $role := get (dict "statefulset" "server" "deployment" "server" "leaderworkerset" "leader" "mpijob" "mpi-worker")
  $mode -}}
{{- $chartMounts := dict -}}
{{- $chartPaths := dict -}}
{{- range $m := include "nim-llm.volumeMounts" (dict "root" . "role" $role) | fromYamlArray -}}
{{- if has $m.name (include "nim-llm.chartVolumeNames" $ | fromYamlArray) -}}
{{- $_ := set $chartMounts (trimSuffix "/" (toString $m.mountPath)) $m.name -}}
{{- $_ := set $chartPaths (trimSuffix "/" (toString $m.mountPath)) (toString $m.mountPath) -}}
{{- end -}}
{{- end -}}
{{- $mapForm := kindIs "map" $V.extraVolumeMounts -}}
{{- range $i, $m := include "nim-llm.namedList" $V.extraVolumeMounts | fromYamlArray -}}
{{- $path := trimSuffix "/" (toString $m.mountPath) -}}
{{- if hasKey $chartMounts $path -}}
{{- $key := ternary (printf "extraVolumeMounts.%v.mountPath" $m.name) (printf "extraVolumeMounts[%d].mountPath" $i)
  $mapForm -}}
{{- $message := print
  "%s is %s, where the chart already mounts its %s volume (%s): mount it elsewhere%s." -}}
{{- include "nim-llm.fail" (printf $message $key $m.mountPath (index $chartMounts $path)
  (include "nim-llm.twiceMountedWhy" (dict "paths" (list (toString $m.mountPath) (get $chartPaths $path))))
  (ternary "; to move the model cache, set model.nimCache" "" (eq (index $chartMounts $path) "model-store"))) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Variables the container runtime or the image own: the image's PATH and LD_LIBRARY_PATH (an env entry replaces
them whole, and the NIM's own tools and CUDA libraries disappear), and the GPU list the device plugin hands each pod. */ -}}
{{- define "nim-llm.preflight.envNotOwnedElsewhere" -}}
{{- $owned := dict
  "PATH" "the image's PATH, which the NIM's start-up and tools rely on"
  "LD_LIBRARY_PATH" "the image's LD_LIBRARY_PATH, where its CUDA and NCCL libraries are found (a networking provider's are prepended by the chart)"
  "CUDA_VISIBLE_DEVICES" "the GPUs the device plugin assigns to each pod (resources.limits.nvidia.com/gpu)"
  "NVIDIA_VISIBLE_DEVICES" "the GPUs the device plugin assigns to each pod (resources.limits.nvidia.com/gpu)" -}}
{{- range $i, $e := .Values.env | default list -}}
{{- if hasKey $owned $e.name -}}
{{- $message := print "env[%d] sets %s, which replaces %s: remove env[%d]." -}}
{{- include "nim-llm.fail" (printf $message $i $e.name (index $owned $e.name) $i) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* An environment value the runtime can pass: no NUL byte (it ends a C string) and shorter than the kernel's limit of
one environment string (MAX_ARG_STRLEN, 131072 bytes with NAME= and the final NUL); else the container never starts. */ -}}
{{- define "nim-llm.preflight.envValuesPassable" -}}
{{- $V := .Values -}}
{{- $lists := list (list "env" $V.env) -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- $lists = append $lists (list (printf "initContainers.extraInit[%d].env" $i) $c.env) -}}
{{- end -}}
{{- range $l := $lists -}}
{{- range $i, $e := index $l 1 | default list -}}
{{- if and (kindIs "map" $e) (hasKey $e "value") -}}
{{- $value := toString $e.value -}}
{{- if contains "\x00" $value -}}
{{- $message := print
  "%s[%d].value (%s) holds a NUL byte, which no process environment can carry: remove it." -}}
{{- include "nim-llm.fail" (printf $message (index $l 0) $i (toString $e.name)) -}}
{{- end -}}
{{- if ge (add (len (toString $e.name)) (len $value) 2) 131072 -}}
{{- $message := print
  "%s[%d].value (%s) has %d bytes: with its name it passes the kernel's limit of 131072 bytes for one environment "
  "string, so the container would never start. Put the text in a ConfigMap mounted as a file (extraVolumes) instead." -}}
{{- include "nim-llm.fail" (printf $message (index $l 0) $i (toString $e.name) (len $value)) -}}
{{- end -}}
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

{{- /* No container mounts two volumes on one path: the API server refuses the pod ("must be unique"), and for a
LeaderWorkerSet or MPIJob only when the controller creates the pods, after the release installed. Every mount of every
role the chart renders is checked, the chart's own included, so a value that moves one of them (model.nimCache, the EFA
host path) onto a path another mount already takes is refused with that value's key; paths are compared cleaned
(/tmp/ is /tmp). Runs after nim-llm.preflight.mountPaths and efaHostPath, which name an extra mount or the EFA host path on a chart
mount. */ -}}
{{- define "nim-llm.preflight.mountPathsUnique" -}}
{{- $V := .Values -}}
{{- $roles := get (dict "statefulset" (list "server") "deployment" (list "server") "leaderworkerset" (list "leader" "worker")
  "mpijob" (list "launcher" "mpi-worker")) (include "nim-llm.mode" .) -}}
{{- $extras := include "nim-llm.namedList" $V.extraVolumeMounts | fromYamlArray -}}
{{- $mapForm := kindIs "map" $V.extraVolumeMounts -}}
{{- range $role := $roles -}}
{{- $mounts := include "nim-llm.volumeMounts" (dict "root" $ "role" $role) | fromYamlArray -}}
{{- $firstExtra := sub (len $mounts) (len $extras) -}}
{{- $seen := dict -}}
{{- range $i, $m := $mounts -}}
{{- $path := clean (toString $m.mountPath) -}}
{{- /* The value a mount's path comes from. */ -}}
{{- $key := printf "the chart's %s volume" $m.name -}}
{{- if ge $i $firstExtra -}}
{{- $key = ternary (printf "extraVolumeMounts.%v.mountPath" $m.name) (printf "extraVolumeMounts[%d].mountPath" (sub $i $firstExtra)) $mapForm -}}
{{- else if eq (toString $m.name) "model-store" -}}
{{- $key = "model.nimCache" -}}
{{- else if eq (toString $m.name) "efa-libraries" -}}
{{- $key = "multinodeNetworking.aws.hostPath" -}}
{{- end -}}
{{- if hasKey $seen $path -}}
{{- $first := index (get $seen $path) 0 -}}
{{- $fix := "mount it on a directory of its own" -}}
{{- if or (eq $key "model.nimCache") (eq $first "model.nimCache") -}}
{{- $fix = "set model.nimCache to a directory of its own (the default is /model-store)" -}}
{{- end -}}
{{- $message := print "%s and %s both mount on %s in the %s container of the %s pods (%s): %s." -}}
{{- include "nim-llm.fail" (printf $message $first $key $path "NIM" $role
  (include "nim-llm.twiceMountedWhy" (dict "paths" (list (index (get $seen $path) 1) (toString $m.mountPath)))) $fix) -}}
{{- end -}}
{{- $_ := set $seen $path (list $key (toString $m.mountPath)) -}}
{{- end -}}
{{- end -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- $seen := dict -}}
{{- range $j, $m := $c.volumeMounts | default list -}}
{{- $path := clean (toString $m.mountPath) -}}
{{- if hasKey $seen $path -}}
{{- $message := print
  "initContainers.extraInit[%d].volumeMounts[%d].mountPath is %s, where volumeMounts[%d] already mounts (%s): mount "
  "it elsewhere." -}}
{{- include "nim-llm.fail" (printf $message $i $j $path (index (get $seen $path) 0)
  (include "nim-llm.twiceMountedWhy" (dict "paths" (list (index (get $seen $path) 1) (toString $m.mountPath))))) -}}
{{- end -}}
{{- $_ := set $seen $path (list $j (toString $m.mountPath)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Why two mounts on one directory fail: the API server compares mount paths as written and refuses the same one twice;
two spellings of one directory (/data and /data/) it takes, and then the volume mounted last hides the other. */ -}}
{{- define "nim-llm.twiceMountedWhy" -}}
{{- if eq (index .paths 0) (index .paths 1) -}}
Kubernetes refuses a mount path used twice in a container; for a LeaderWorkerSet or MPIJob only when its controller creates the pods, so none would ever run
{{- else -}}
{{- printf "%s and %s are one directory: the API server takes the two spellings, and the volume mounted last would hide the other" (index .paths 0) (index .paths 1) -}}
{{- end -}}
{{- end -}}
