{{/* ---------------------------------------------------------------------------
Preflight rules of volumes and mounts: extraVolumes names, extraVolumeMounts that resolve, init container names and
the volumes they mount, mount paths off the chart's own, and no container mounting two volumes on one path.
Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

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

{{- /* extraVolumes sources a kubelet of every Kubernetes version the chart claims can mount: the in-tree plugins
Kubernetes removed (none of them migrated to CSI) are still in the API, so the pod is created and never starts. */ -}}
{{- define "nim-llm.preflight.extraVolumeTypes" -}}
{{- $V := .Values -}}
{{- $mapForm := kindIs "map" $V.extraVolumes -}}
{{- $removed := list "cephfs" "flocker" "glusterfs" "photonPersistentDisk" "quobyte" "rbd" "scaleIO" "storageos" -}}
{{- range $i, $v := include "nim-llm.namedList" $V.extraVolumes | fromYamlArray -}}
{{- $key := ternary (printf "extraVolumes.%v" $v.name) (printf "extraVolumes[%d]" $i) $mapForm -}}
{{- range $type := $removed -}}
{{- if hasKey $v $type -}}
{{- $message := print
  "%s.%s: Kubernetes removed the in-tree %s volume plugin (its API says \"no longer supported\"): the API "
  "server still takes the pod, but no kubelet can mount the volume, so the pod would never start: mount the storage "
  "through its CSI driver instead (a persistentVolumeClaim of the driver's StorageClass, or a csi volume)." -}}
{{- include "nim-llm.fail" (printf $message $key $type $type) -}}
{{- end -}}
{{- end -}}
{{- if hasKey $v "gitRepo" -}}
{{- $message := print
  "%s.gitRepo: Kubernetes turned the gitRepo volume driver off by default in 1.33 and for good in 1.36, so the "
  "pod would never start: clone the repository into an emptyDir volume from an initContainers.extraInit "
  "container (with git in its image) and mount that emptyDir instead." -}}
{{- include "nim-llm.fail" (printf $message $key) -}}
{{- end -}}
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

{{- /* An init container's own restartPolicy other than Always (a sidecar) needs Kubernetes 1.35 (ContainerRestartRules,
on by default from 1.35): 1.34's API server supports only Always there. */ -}}
{{- define "nim-llm.preflight.initContainerRestartPolicy" -}}
{{- range $i, $c := .Values.initContainers.extraInit | default list -}}
{{- if and (has (toString $c.restartPolicy) (list "Never" "OnFailure")) (semverCompare "<1.35.0-0" $.Capabilities.KubeVersion.Version) -}}
{{- $message := print
  "initContainers.extraInit[%d].restartPolicy is %s, which Kubernetes %s does not support for an init container (only "
  "Always, a sidecar, until ContainerRestartRules in 1.35): leave restartPolicy out (the pod's restartPolicy applies), or "
  "set Always to run it as a sidecar." -}}
{{- include "nim-llm.fail" (printf $message $i (toString $c.restartPolicy) $.Capabilities.KubeVersion.Version) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* An init container claims only the pod's own DRA claims: the API server refuses a container's resources.claims
naming none of the pod's resourceClaims, for LeaderWorkerSet and MPIJob pods only once their controller creates them. */ -}}
{{- define "nim-llm.preflight.initContainerClaims" -}}
{{- $V := .Values -}}
{{- $role := get (dict "statefulset" "server" "deployment" "server" "leaderworkerset" "leader" "mpijob" "mpi-worker")
  (include "nim-llm.mode" .) -}}
{{- $podClaims := list -}}
{{- range $c := include "nim-llm.placement.podClaims" (dict "root" . "role" $role) | fromYamlArray -}}
{{- $podClaims = append $podClaims (toString $c.name) -}}
{{- end -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- range $j, $claim := ($c.resources | default dict).claims | default list -}}
{{- if not (has (toString $claim.name) $podClaims) -}}
{{- $have := ternary (printf "name one of the pod's claims (%s)" (join ", " $podClaims))
  "the pod has no claims (dra.enabled, multiNode.computeDomain and dra.extraClaims add them)" (gt (len $podClaims) 0) -}}
{{- $message := print
  "initContainers.extraInit[%d].resources.claims[%d].name is %q, which is not a claim of the pod, so Kubernetes "
  "refuses the pod: %s, or add a claim with dra.extraClaims." -}}
{{- include "nim-llm.fail" (printf $message $i $j (toString $claim.name) $have) -}}
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
{{- $message := print
  "%s and %s both mount on %s in the %s container of the %s pods (%s): %s." -}}
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
