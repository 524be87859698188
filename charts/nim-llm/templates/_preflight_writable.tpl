{{/* ---------------------------------------------------------------------------
Preflight rules about where the NIM container can write. Its root filesystem is read-only by default
(containerSecurityContext.readOnlyRootFilesystem); it writes to /tmp, its home (home.path), the model cache, /dev/shm and
writable extraVolumeMounts only. One define per rule, each called with one line from "nim-llm.preflight" (_preflight.tpl).
--------------------------------------------------------------------------- */}}

{{/* The variables that decide where a GPU engine writes its caches at start (the chart sets each under home.path). */}}
{{- define "nim-llm.cacheVariables" -}}
{{- toYaml (list "HOME" "XDG_CACHE_HOME" "TRITON_HOME" "TRITON_CACHE_DIR" "VLLM_CACHE_ROOT" "TORCHINDUCTOR_CACHE_DIR"
  "TORCH_HOME" "FLASHINFER_WORKSPACE_BASE" "CUDA_CACHE_PATH" "OUTLINES_CACHE_DIR" "HF_HOME" "NGC_HOME" "TMPDIR") -}}
{{- end -}}

{{/* The directories the NIM container can write, as a list of paths without a trailing slash. */}}
{{- define "nim-llm.writableDirs" -}}
{{- $V := .Values -}}
{{- $dirs := list "/tmp" (trimSuffix "/" (toString $V.home.path)) -}}
{{- if not (and $V.nfs.enabled $V.nfs.readOnly) -}}
{{- $dirs = append $dirs (trimSuffix "/" (toString $V.model.nimCache)) -}}
{{- end -}}
{{- if $V.shm.enabled -}}{{- $dirs = append $dirs "/dev/shm" -}}{{- end -}}
{{- range $m := include "nim-llm.namedList" $V.extraVolumeMounts | fromYamlArray -}}
{{- if not $m.readOnly -}}{{- $dirs = append $dirs (trimSuffix "/" (toString $m.mountPath)) -}}{{- end -}}
{{- end -}}
{{- if not ($V.containerSecurityContext | default dict).readOnlyRootFilesystem -}}
{{- $dirs = list "" -}}
{{- end -}}
{{- toYaml $dirs -}}
{{- end -}}

{{/* home.path is a directory of its own: an emptyDir there must not hide the image's files, the chart's other mounts or
the system's directories, nor be hidden by them. */}}
{{- define "nim-llm.preflight.homePathFree" -}}
{{- $V := .Values -}}
{{- $home := trimSuffix "/" (toString $V.home.path) -}}
{{- $cache := trimSuffix "/" (toString $V.model.nimCache) -}}
{{- $clash := "" -}}
{{- range $dir := list "/tmp" $cache "/dev" "/proc" "/sys" "/etc" "/usr" "/bin" "/sbin" "/lib" "/lib64" "/run" "/var/run" "/opt/nim" "/opt/nim-llm/mpi" "/etc/nim-llm" -}}
{{- if and (not $clash) (or (eq $home $dir) (hasPrefix (printf "%s/" $dir) $home) (hasPrefix (printf "%s/" $home) $dir)) -}}
{{- $clash = $dir -}}
{{- end -}}
{{- end -}}
{{- if or (eq $home "") $clash -}}
{{- $message := print
  "home.path is %q, which %s: the chart mounts the NIM container's home (an emptyDir of home.sizeLimit, where GPU engines "
  "write their caches) there, and it would hide those files or be hidden by them. Set home.path to a directory of its "
  "own, e.g. home.path: /opt/nim-llm/home." -}}
{{- $what := ternary "is the whole file system" (printf "overlaps %s (the image's, the system's or another of the chart's mounts)" $clash) (eq $home "") -}}
{{- include "nim-llm.fail" (printf $message (toString $V.home.path) $what) -}}
{{- end -}}
{{- end -}}

{{/* An env entry that moves a cache (HOME, XDG_CACHE_HOME, TRITON_CACHE_DIR, ...) must name a directory the container
can write: with a read-only root filesystem, the engine's first cache write anywhere else fails ("Read-only file
system") and the server exits at start. Values with $(VAR) references are left to the kubelet. */}}
{{- define "nim-llm.preflight.cachePathsWritable" -}}
{{- $V := .Values -}}
{{- $writable := include "nim-llm.writableDirs" . | fromYamlArray -}}
{{- $home := trimSuffix "/" (toString $V.home.path) -}}
{{- range $i, $e := $V.env | default list -}}
{{- if and (has $e.name (include "nim-llm.cacheVariables" $ | fromYamlArray)) (hasKey $e "value") (not (contains "$(" (toString $e.value))) -}}
{{- $path := toString $e.value -}}
{{- $ok := false -}}
{{- range $dir := $writable -}}
{{- if and (hasPrefix "/" $path) (or (eq $dir "") (eq (trimSuffix "/" $path) $dir) (hasPrefix (printf "%s/" $dir) $path)) -}}{{- $ok = true -}}{{- end -}}
{{- end -}}
{{- if not $ok -}}
{{- $message := print
  "env[%d] sets %s to %q, which is not a directory the NIM container can write: its root filesystem is read-only "
  "(containerSecurityContext.readOnlyRootFilesystem), and it writes only to %s, so the engine's first cache write "
  "there fails (Read-only file system) and the server exits at start. Point %s under home.path (%s), or remove env[%d]." -}}
{{- $cache := trimSuffix "/" (toString $V.model.nimCache) -}}
{{- if and $V.nfs.enabled $V.nfs.readOnly (or (eq (trimSuffix "/" $path) $cache) (hasPrefix (printf "%s/" $cache) $path)) -}}
{{- $message = print $message " (The model cache " $cache " is mounted read-only: nfs.readOnly.)" -}}
{{- end -}}
{{- include "nim-llm.fail" (printf $message $i $e.name $path (join ", " $writable) $e.name $home $i) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
