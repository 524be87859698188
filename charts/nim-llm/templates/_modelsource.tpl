{{/* ---------------------------------------------------------------------------
Model sources, the cache pre-fill Job, air-gap mode, LoRA adapters, proxies, the
private CA bundle and the health port (docs/model-sources.md). Every helper here
renders nothing while its keys keep their defaults, so a release that sets none
of them renders exactly as before.
Facts they rest on (read at NVIDIA/k8s-nim-operator f63f74d and NIM for LLMs
2.0.x documentation): NIM_MODEL_PATH with hf:// ngc:// modelscope:// (model-free
NIM), HF_TOKEN and MODELSCOPE_API_TOKEN, `download-to-cache --profiles|--all`
and `download-to-cache --model-uri ... --manifest-file ...` (nimcache_controller.go),
HTTP(S)_PROXY/NO_PROXY in both cases with NIM_SDK_USE_NATIVE_TLS=1
(nimcache_types.go GetEnvWithProxy), NIM_PEFT_SOURCE, NIM_PEFT_REFRESH_INTERVAL,
NIM_HEALTH_PORT (nim_llm.utils.envs).
--------------------------------------------------------------------------- */}}

{{/* The source's kind: image (the model-specific image's own model) | hf | ngc | modelscope | local. */}}
{{- define "nim-llm.modelSource.kind" -}}
{{- $uri := toString .Values.modelSource.uri -}}
{{- if not $uri -}}image
{{- else if hasPrefix "hf://" $uri -}}hf
{{- else if hasPrefix "ngc://" $uri -}}ngc
{{- else if hasPrefix "modelscope://" $uri -}}modelscope
{{- else -}}local
{{- end -}}
{{- end -}}

{{/* "true" when the NIM containers run without credentials (air-gap mode). */}}
{{- define "nim-llm.airGapped" -}}
{{- if .Values.airGap.enabled -}}true{{- end -}}
{{- end -}}

{{/* The NGC key of a NIM container (YAML list): none in air-gap mode; required for the image's own model and for
ngc:// (as before); optional for the other model-free sources, which NIM reads with their own token (the NIM Operator
makes it optional the same way for Hugging Face models). */}}
{{- define "nim-llm.modelSource.ngcKeyEnv" -}}
{{- $V := .Values -}}
{{- $kind := include "nim-llm.modelSource.kind" . -}}
{{- if not (include "nim-llm.airGapped" .) -}}
{{- $ref := dict "name" (toString $V.model.ngcAPISecret) "key" "NGC_API_KEY" -}}
{{- if not (has $kind (list "image" "ngc")) -}}{{- $_ := set $ref "optional" true -}}{{- end -}}
{{- toYaml (list (dict "name" "NGC_API_KEY" "valueFrom" (dict "secretKeyRef" $ref))) -}}
{{- end -}}
{{- end -}}

{{/* The token variable of a source other than NGC (HF_TOKEN, MODELSCOPE_API_TOKEN), or empty. */}}
{{- define "nim-llm.modelSource.tokenName" -}}
{{- $kind := include "nim-llm.modelSource.kind" . -}}
{{- if eq $kind "hf" -}}HF_TOKEN{{- else if eq $kind "modelscope" -}}MODELSCOPE_API_TOKEN{{- end -}}
{{- end -}}

{{/* The source's own token from modelSource.tokenSecret (YAML list; empty without one). */}}
{{- define "nim-llm.modelSource.tokenEnv" -}}
{{- $name := include "nim-llm.modelSource.tokenName" . -}}
{{- if and $name .Values.modelSource.tokenSecret -}}
{{- toYaml (list (dict "name" $name "valueFrom" (dict "secretKeyRef" (dict "name" (toString .Values.modelSource.tokenSecret) "key" $name)))) -}}
{{- end -}}
{{- end -}}

{{/* Where the CA bundle is mounted, and its file. */}}
{{- define "nim-llm.caBundle.dir" -}}/etc/nim-llm/ca{{- end -}}
{{- define "nim-llm.caBundle.enabled" -}}
{{- $ca := .Values.proxy.caBundle -}}
{{- if or $ca.configMap $ca.secret -}}true{{- end -}}
{{- end -}}

{{/* NO_PROXY: the cluster's own names first (so Services, pods and, in multi-node, the group's leader and headless
domain are never reached through the proxy), then proxy.clusterCIDRs and proxy.noProxy. In a LeaderWorkerSet the
leader's address is $(LWS_LEADER_ADDRESS), which the LWS webhook defines before the chart's variables. */}}
{{- define "nim-llm.proxy.noProxy" -}}
{{- $withLeader := .withLeader -}}
{{- with .root -}}
{{- $V := .Values -}}
{{- $ns := .Release.Namespace -}}
{{- $entries := list "localhost" "127.0.0.1" "::1" ".svc" ".cluster.local" -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $entries = concat $entries (list (include "nim-llm.serviceName" .) (printf "%s.%s" (include "nim-llm.serviceName" .) $ns)) -}}
{{- /* The headless Service whose domain names the pods (<pod>.<service>.<namespace>): the LeaderWorkerSet's or the
StatefulSet's. (An MPIJob's names end in .svc; they carry a hash of the pod template, which holds this list.) */ -}}
{{- $headless := "" -}}
{{- if eq $mode "leaderworkerset" -}}{{- $headless = include "nim-llm.lwsName" . -}}
{{- else if eq $mode "statefulset" -}}{{- $headless = printf "%s-headless" (include "nim-llm.fullname" .) -}}
{{- end -}}
{{- with $headless -}}
{{- $entries = concat $entries (list . (printf "%s.%s" . $ns) (printf ".%s" .) (printf ".%s.%s" . $ns)) -}}
{{- end -}}
{{- if and $withLeader (eq $mode "leaderworkerset") -}}
{{- $entries = append $entries "$(LWS_LEADER_ADDRESS)" -}}
{{- end -}}
{{- $entries = concat $entries ($V.proxy.clusterCIDRs | default list) ($V.proxy.noProxy | default list) -}}
{{- join "," ($entries | uniq) -}}
{{- end -}}
{{- end -}}

{{/* Proxy and CA variables of a container that downloads (YAML list; empty without a proxy or a bundle).
Usage: include "nim-llm.proxy.env" (dict "root" $ "withLeader" true); withLeader for the pods of a LeaderWorkerSet,
where $(LWS_LEADER_ADDRESS) is defined. */}}
{{- define "nim-llm.proxy.env" -}}
{{- $withLeader := .withLeader -}}
{{- with .root -}}
{{- $V := .Values -}}
{{- $env := list -}}
{{- $p := $V.proxy -}}
{{- if or $p.httpProxy $p.httpsProxy -}}
{{- range $pair := list (list "HTTP_PROXY" $p.httpProxy) (list "HTTPS_PROXY" $p.httpsProxy) -}}
{{- if index $pair 1 -}}
{{- $env = append $env (dict "name" (index $pair 0) "value" (toString (index $pair 1))) -}}
{{- $env = append $env (dict "name" (lower (index $pair 0)) "value" (toString (index $pair 1))) -}}
{{- end -}}
{{- end -}}
{{- $noProxy := include "nim-llm.proxy.noProxy" (dict "root" . "withLeader" $withLeader) -}}
{{- $env = concat $env (list (dict "name" "NO_PROXY" "value" $noProxy) (dict "name" "no_proxy" "value" $noProxy)) -}}
{{- end -}}
{{- if include "nim-llm.caBundle.enabled" . -}}
{{- $file := printf "%s/%s" (include "nim-llm.caBundle.dir" .) (toString $p.caBundle.key) -}}
{{- $env = concat $env (list (dict "name" "SSL_CERT_FILE" "value" $file) (dict "name" "REQUESTS_CA_BUNDLE" "value" $file)) -}}
{{- end -}}
{{- if or $p.httpProxy $p.httpsProxy (include "nim-llm.caBundle.enabled" .) -}}
{{- $env = append $env (dict "name" "NIM_SDK_USE_NATIVE_TLS" "value" "1") -}}
{{- end -}}
{{- with $env -}}{{- toYaml . -}}{{- end -}}
{{- end -}}
{{- end -}}

{{/* A user init container (initContainers.extraInit) with the proxy variables and the CA bundle mount it does not set
itself; unchanged without a proxy or a bundle. Usage: include "nim-llm.proxy.initContainer" (dict "root" $ "container" $c) */}}
{{- define "nim-llm.proxy.initContainer" -}}
{{- $c := .container -}}
{{- $add := include "nim-llm.proxy.env" (dict "root" .root "withLeader" (eq (include "nim-llm.mode" .root) "leaderworkerset")) | fromYamlArray -}}
{{- if $add -}}
{{- $c = deepCopy $c -}}
{{- $names := list -}}
{{- range $e := $c.env | default list -}}{{- $names = append $names (toString $e.name) -}}{{- end -}}
{{- $env := $c.env | default list -}}
{{- range $e := $add -}}
{{- if not (has $e.name $names) -}}{{- $env = append $env $e -}}{{- end -}}
{{- end -}}
{{- $_ := set $c "env" $env -}}
{{- if include "nim-llm.caBundle.enabled" .root -}}
{{- $mounted := false -}}
{{- range $m := $c.volumeMounts | default list -}}{{- if eq (toString $m.name) "ca-bundle" -}}{{- $mounted = true -}}{{- end -}}{{- end -}}
{{- if not $mounted -}}
{{- $_ := set $c "volumeMounts" (append ($c.volumeMounts | default list) (dict "name" "ca-bundle" "mountPath" (include "nim-llm.caBundle.dir" .root) "readOnly" true)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toYaml $c -}}
{{- end -}}

{{/* Variables of the model source, LoRA, proxy and health port for a NIM container of a role (YAML list). */}}
{{- define "nim-llm.modelSource.env" -}}
{{- $root := .root -}}
{{- $V := $root.Values -}}
{{- $role := .role -}}
{{- $env := list -}}
{{- if ne $role "launcher" -}}
{{- with $V.modelSource.uri -}}
{{- $env = append $env (dict "name" "NIM_MODEL_PATH" "value" (toString .)) -}}
{{- end -}}
{{- if not (include "nim-llm.airGapped" $root) -}}
{{- $env = concat $env (include "nim-llm.modelSource.tokenEnv" $root | fromYamlArray) -}}
{{- end -}}
{{- with $V.modelSource.profile -}}
{{- $env = append $env (dict "name" "NIM_MODEL_PROFILE" "value" (toString .)) -}}
{{- end -}}
{{- if $V.lora.enabled -}}
{{- $env = append $env (dict "name" "NIM_PEFT_SOURCE" "value" (toString $V.lora.source)) -}}
{{- if gt (int64 $V.lora.refreshInterval) 0 -}}
{{- $env = append $env (dict "name" "NIM_PEFT_REFRESH_INTERVAL" "value" ($V.lora.refreshInterval | int64 | toString)) -}}
{{- end -}}
{{- end -}}
{{- if and (gt (int64 $V.model.healthPort) 0) (has $role (list "server" "leader")) -}}
{{- $env = append $env (dict "name" "NIM_HEALTH_PORT" "value" ($V.model.healthPort | int64 | toString)) -}}
{{- end -}}
{{- $env = concat $env (include "nim-llm.proxy.env" (dict "root" $root "withLeader" true) | fromYamlArray) -}}
{{- end -}}
{{- with $env -}}{{- toYaml . -}}{{- end -}}
{{- end -}}

{{/* Volumes of every NIM pod but the MPI launcher: the CA bundle and the LoRA claim (YAML list). */}}
{{- define "nim-llm.modelSource.volumes" -}}
{{- $V := .Values -}}
{{- $vols := list -}}
{{- $ca := $V.proxy.caBundle -}}
{{- $items := list (dict "key" (toString $ca.key) "path" (toString $ca.key)) -}}
{{- if $ca.configMap -}}
{{- $vols = append $vols (dict "name" "ca-bundle" "configMap" (dict "name" (toString $ca.configMap) "items" $items)) -}}
{{- else if $ca.secret -}}
{{- $vols = append $vols (dict "name" "ca-bundle" "secret" (dict "secretName" (toString $ca.secret) "items" $items)) -}}
{{- end -}}
{{- if and $V.lora.enabled $V.lora.existingClaim -}}
{{- $vols = append $vols (dict "name" "lora-adapters" "persistentVolumeClaim" (dict "claimName" (toString $V.lora.existingClaim) "readOnly" true)) -}}
{{- end -}}
{{- with $vols -}}{{- toYaml . -}}{{- end -}}
{{- end -}}

{{/* Mounts of the volumes above (YAML list). */}}
{{- define "nim-llm.modelSource.volumeMounts" -}}
{{- $V := .Values -}}
{{- $mounts := list -}}
{{- if include "nim-llm.caBundle.enabled" . -}}
{{- $mounts = append $mounts (dict "name" "ca-bundle" "mountPath" (include "nim-llm.caBundle.dir" .) "readOnly" true) -}}
{{- end -}}
{{- if and $V.lora.enabled $V.lora.existingClaim -}}
{{- $mounts = append $mounts (dict "name" "lora-adapters" "mountPath" (toString $V.lora.mountPath) "readOnly" true) -}}
{{- end -}}
{{- with $mounts -}}{{- toYaml . -}}{{- end -}}
{{- end -}}

{{/* ---------------------------------------------------------------------------
The cache pre-fill Job.
--------------------------------------------------------------------------- */}}

{{/* What one fill downloads, the input of its identity: the image, the source and the profiles, and where. */}}
{{- define "nim-llm.cachePrefill.id" -}}
{{- $V := .Values -}}
{{- list (include "nim-llm.image" .) (toString $V.modelSource.uri) (include "nim-llm.cachePrefill.profiles" . | fromYamlArray) (toString $V.model.nimCache) | toJson | sha256sum | trunc 10 -}}
{{- end -}}

{{/* Profiles the Job downloads (YAML list): cachePrefill.profiles, else modelSource.profile. */}}
{{- define "nim-llm.cachePrefill.profiles" -}}
{{- $V := .Values -}}
{{- $profiles := $V.cachePrefill.profiles | default list -}}
{{- if and (not $profiles) $V.modelSource.profile -}}{{- $profiles = list (toString $V.modelSource.profile) -}}{{- end -}}
{{- toYaml $profiles -}}
{{- end -}}

{{/* The Job's name without its hash: <fullname>-prefill, so that with "-" and 5 hex digits it stays within 63
characters (the Job controller puts the name in a label). */}}
{{- define "nim-llm.cachePrefill.jobPrefix" -}}
{{- printf "%s-prefill" (include "nim-llm.fullname" . | trunc 46 | trimSuffix "-") -}}
{{- end -}}

{{/* The marker file a finished fill writes, which the NIM pods wait for. */}}
{{- define "nim-llm.cachePrefill.marker" -}}
{{- printf "%s/.nim-llm/prefill-%s.done" (trimSuffix "/" (toString .Values.model.nimCache)) (include "nim-llm.cachePrefill.id" .) -}}
{{- end -}}

{{/* NIM's own download command for the source (YAML list): the NIM Operator's NIMCache runs the same. */}}
{{- define "nim-llm.cachePrefill.command" -}}
{{- $V := .Values -}}
{{- $profiles := include "nim-llm.cachePrefill.profiles" . | fromYamlArray -}}
{{- $command := list "download-to-cache" -}}
{{- if $V.modelSource.uri -}}
{{- $command = concat $command (list "--model-uri" (toString $V.modelSource.uri) "--manifest-file" (printf "%s/model_manifest.json" (trimSuffix "/" (toString $V.model.nimCache)))) -}}
{{- end -}}
{{- if eq (toJson $profiles) "[\"all\"]" -}}
{{- $command = append $command "--all" -}}
{{- else if eq (len $profiles) 1 -}}
{{- /* One profile: --profile, as NIM 2.x documents it (argparse also reads it as an abbreviation of --profiles). */ -}}
{{- $command = concat $command (list "--profile") $profiles -}}
{{- else if $profiles -}}
{{- /* Several: --profiles, as the NIM Operator's NIMCache Job passes them. */ -}}
{{- $command = concat $command (list "--profiles") $profiles -}}
{{- end -}}
{{- toYaml $command -}}
{{- end -}}

{{/* The init container of every NIM pod (launcher aside) while the pre-fill Job is on: it waits until the Job's
marker is in the cache, saying so in its log every minute, so a pod never downloads again, and a failed Job leaves
the pods waiting (Init:0/N) with the reason in their log rather than crashing. Values reach the script only as
variables. */}}
{{- define "nim-llm.cachePrefill.initContainers" -}}
{{- $root := .root -}}
{{- $V := $root.Values -}}
{{- if and $V.cachePrefill.enabled (ne .role "launcher") -}}
- name: wait-for-model-cache
  image: {{ include "nim-llm.image" $root | quote }}
  imagePullPolicy: {{ $V.image.pullPolicy }}
  command:
    - /bin/sh
    - -c
    - |
      waited=0
      until [ -f "$NIM_LLM_PREFILL_MARKER" ]; do
        if [ $((waited % 60)) -eq 0 ]; then
          echo "nim-llm: waiting for the model cache pre-fill Job to write $NIM_LLM_PREFILL_MARKER (${waited}s so far; kubectl get jobs,pods -l $NIM_LLM_PREFILL_JOBS)"
        fi
        sleep 5
        waited=$((waited + 5))
      done
      echo "nim-llm: the model cache is filled ($NIM_LLM_PREFILL_MARKER); starting NIM"
  env:
    - name: NIM_LLM_PREFILL_MARKER
      value: {{ include "nim-llm.cachePrefill.marker" $root | quote }}
    - name: NIM_LLM_PREFILL_JOBS
      value: {{ printf "app.kubernetes.io/instance=%s,app.kubernetes.io/component=cache-prefill" $root.Release.Name | quote }}
  {{- with $V.containerSecurityContext }}
  securityContext:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  resources:
    requests:
      cpu: 10m
      memory: 16Mi
    limits:
      memory: 64Mi
  volumeMounts:
    - name: model-store
      mountPath: {{ $V.model.nimCache | quote }}
      readOnly: true
    - name: tmp
      mountPath: /tmp
{{- end -}}
{{- end -}}
