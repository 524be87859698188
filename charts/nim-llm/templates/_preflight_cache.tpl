{{/* ---------------------------------------------------------------------------
Preflight rules of the model cache's storage: one backend (persistence, hostPath, nfs), an existing claim only with
persistence, an NFS server and export, paths without "..", a cache directory of its own, a claim several pods share
only with ReadWriteMany. Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

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
{{- $message := print
  "%s is %q, which holds a \"..\" segment: %s. Write the path without \"..\"." -}}
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
