{{/* ---------------------------------------------------------------------------
Volumes and mounts of every pod, by role.
--------------------------------------------------------------------------- */}}

{{/* extraVolumes / extraVolumeMounts as a list, from either the upstream map form (name -> spec) or a list. */}}
{{- define "nim-llm.namedList" -}}
{{- if kindIs "map" . -}}
{{- $out := list -}}
{{- range $name := keys . | sortAlpha -}}
{{- $out = append $out (merge (dict "name" $name) (index $ $name)) -}}
{{- end -}}
{{- toYaml $out -}}
{{- else -}}
{{- toYaml (. | default list) -}}
{{- end -}}
{{- end -}}

{{/* Names of every pod volume the chart itself may define (list); extraVolumes must not reuse them. */}}
{{- define "nim-llm.chartVolumeNames" -}}
{{- toYaml (list "model-store" "dshm" "tmp" "home" "mpi-scripts" "ssh-key" "sshd" "efa-ofi" "nccl-topology"
  "nvidia-install-dir-host" "sys" "proc-sys" "aperture-devices" "infiniband" "ca-bundle" "lora-adapters") -}}
{{- end -}}

{{/* The model cache volume source (absent for per-pod StatefulSet claims). */}}
{{- define "nim-llm.cacheVolume" -}}
{{- $V := .Values -}}
{{- $backend := include "nim-llm.cacheBackend" . -}}
{{- if has $backend (list "pvc-existing" "pvc-shared") -}}
name: model-store
persistentVolumeClaim:
  claimName: {{ include "nim-llm.sharedClaimName" . | quote }}
{{- else if eq $backend "hostPath" -}}
name: model-store
hostPath:
  path: {{ $V.hostPath.path | quote }}
  type: DirectoryOrCreate
{{- else if eq $backend "nfs" -}}
name: model-store
nfs:
  server: {{ $V.nfs.server | quote }}
  path: {{ $V.nfs.path | quote }}
  readOnly: {{ $V.nfs.readOnly }}
{{- else if eq $backend "emptyDir" -}}
name: model-store
emptyDir:
  sizeLimit: {{ include "nim-llm.size" $V.emptyDir.sizeLimit | quote }}
{{- end -}}
{{- end -}}

{{/* Pod volumes of a role. */}}
{{- define "nim-llm.volumes" -}}
{{- $root := .root -}}
{{- $V := $root.Values -}}
{{- $role := .role -}}
{{- $vols := list -}}
{{- if ne $role "launcher" -}}
{{- with include "nim-llm.cacheVolume" $root | fromYaml -}}{{- $vols = append $vols . -}}{{- end -}}
{{- if $V.shm.enabled -}}
{{- $vols = append $vols (dict "name" "dshm" "emptyDir" (dict "medium" "Memory" "sizeLimit" (include "nim-llm.size" $V.shm.sizeLimit))) -}}
{{- end -}}
{{- end -}}
{{- /* The writable /tmp of a container whose root filesystem is read-only (containerSecurityContext). */ -}}
{{- $vols = append $vols (dict "name" "tmp" "emptyDir" (dict "sizeLimit" (include "nim-llm.size" $V.tmp.sizeLimit))) -}}
{{- /* The writable home (HOME), where GPU engines write their JIT and compile caches (derivedEnv points them here). */ -}}
{{- $vols = append $vols (dict "name" "home" "emptyDir" (dict "sizeLimit" (include "nim-llm.size" $V.home.sizeLimit))) -}}
{{- if include "nim-llm.startScripts" $root -}}
{{- $vols = append $vols (dict "name" "mpi-scripts" "configMap" (dict "name" (printf "%s-mpi" (include "nim-llm.fullname" $root)) "defaultMode" 365)) -}}
{{- end -}}
{{- if include "nim-llm.usesMPI" $root -}}
{{- /* LeaderWorkerSet: the leader (mpirun) gets the private key only, a worker (sshd) the public key only. */ -}}
{{- if eq (include "nim-llm.mode" $root) "leaderworkerset" -}}
{{- $item := ternary "private.key" "public.key" (eq $role "leader") -}}
{{- $vols = append $vols (dict "name" "ssh-key" "secret" (dict "secretName" (include "nim-llm.sshSecretName" $root) "defaultMode" 288 "items" (list (dict "key" $item "path" $item)))) -}}
{{- end -}}
{{- /* A worker's sshd files, its sshd_config with the container's environment among them, in memory only. */ -}}
{{- if include "nim-llm.runsSshd" (dict "root" $root "role" $role) -}}
{{- $vols = append $vols (dict "name" "sshd" "emptyDir" (dict "medium" "Memory" "sizeLimit" "16Mi")) -}}
{{- end -}}
{{- end -}}
{{- if ne $role "launcher" -}}
{{- $vols = concat $vols (include "nim-llm.networking.volumes" $root | fromYamlArray) -}}
{{- $vols = concat $vols (include "nim-llm.modelSource.volumes" $root | fromYamlArray) -}}
{{- end -}}
{{- $vols = concat $vols (include "nim-llm.namedList" $V.extraVolumes | fromYamlArray) -}}
{{- toYaml $vols -}}
{{- end -}}

{{/* NIM container mounts of a role. */}}
{{- define "nim-llm.volumeMounts" -}}
{{- $root := .root -}}
{{- $V := $root.Values -}}
{{- $role := .role -}}
{{- $mounts := list -}}
{{- if ne $role "launcher" -}}
{{- $mounts = append $mounts (dict "name" "model-store" "mountPath" $V.model.nimCache) -}}
{{- if $V.shm.enabled -}}
{{- $mounts = append $mounts (dict "name" "dshm" "mountPath" "/dev/shm") -}}
{{- end -}}
{{- end -}}
{{- $mounts = append $mounts (dict "name" "tmp" "mountPath" "/tmp") -}}
{{- $mounts = append $mounts (dict "name" "home" "mountPath" $V.home.path) -}}
{{- if include "nim-llm.startScripts" $root -}}
{{- $mounts = append $mounts (dict "name" "mpi-scripts" "mountPath" "/opt/nim-llm/mpi" "readOnly" true) -}}
{{- end -}}
{{- if include "nim-llm.usesMPI" $root -}}
{{- if eq (include "nim-llm.mode" $root) "leaderworkerset" -}}
{{- $mounts = append $mounts (dict "name" "ssh-key" "mountPath" "/etc/nim-llm/ssh" "readOnly" true) -}}
{{- end -}}
{{- if include "nim-llm.runsSshd" (dict "root" $root "role" $role) -}}
{{- $mounts = append $mounts (dict "name" "sshd" "mountPath" (include "nim-llm.sshdDir" $root)) -}}
{{- end -}}
{{- end -}}
{{- if ne $role "launcher" -}}
{{- $mounts = concat $mounts (include "nim-llm.networking.volumeMounts" $root | fromYamlArray) -}}
{{- $mounts = concat $mounts (include "nim-llm.modelSource.volumeMounts" $root | fromYamlArray) -}}
{{- end -}}
{{- $mounts = concat $mounts (include "nim-llm.namedList" $V.extraVolumeMounts | fromYamlArray) -}}
{{- toYaml $mounts -}}
{{- end -}}

{{/* Spec of a model cache claim (the shared PVC and the StatefulSet claim template). */}}
{{- define "nim-llm.claimSpec" -}}
accessModes:
  - {{ .Values.persistence.accessMode }}
{{- $class := .Values.persistence.storageClass }}
{{- if eq (toString $class) "-" }}
storageClassName: ""
{{- else if $class }}
storageClassName: {{ $class | quote }}
{{- end }}
resources:
  requests:
    storage: {{ include "nim-llm.size" .Values.persistence.size | quote }}
{{- end -}}
