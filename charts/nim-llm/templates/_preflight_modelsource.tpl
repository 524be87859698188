{{/* ---------------------------------------------------------------------------
Preflight rules of model sources, the cache pre-fill Job, air-gap mode, LoRA
adapters, the proxy's CA bundle and the health port (docs/model-sources.md).
Index and order: _preflight.tpl. Single keys (URI schemes, proxy URLs, CIDRs,
the bundle's key) are checked by values.schema.json.
--------------------------------------------------------------------------- */}}

{{- /* A local model source is a directory of the mounted cache, without "..". */ -}}
{{- define "nim-llm.preflight.modelSourceLocalPath" -}}
{{- $V := .Values -}}
{{- if eq (include "nim-llm.modelSource.kind" .) "local" -}}
{{- $uri := toString $V.modelSource.uri -}}
{{- $cache := trimSuffix "/" (toString $V.model.nimCache) -}}
{{- if or (not (hasPrefix (printf "%s/" $cache) $uri)) (regexMatch "(^|/)\\.\\.(/|$)" $uri) -}}
{{- $message := print
  "modelSource.uri %q is a local path, but not a directory inside the model cache %s (model.nimCache), the only "
  "place the NIM container has it: write hf://<org>/<model>, ngc://<org>/<team>/<model>:<version> or "
  "modelscope://<org>/<model>, or a directory such as %s/models/<name> holding the model's files." -}}
{{- include "nim-llm.fail" (printf $message $uri $cache $cache) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Model-free NIM cannot read the NGC layout a model-specific NIM writes into the cache (NGC_HOME, <cache>/ngc). */ -}}
{{- define "nim-llm.preflight.modelFreeNotNgcLayout" -}}
{{- $V := .Values -}}
{{- if eq (include "nim-llm.modelSource.kind" .) "local" -}}
{{- $ngc := printf "%s/ngc" (trimSuffix "/" (toString $V.model.nimCache)) -}}
{{- $uri := trimSuffix "/" (toString $V.modelSource.uri) -}}
{{- if or (eq $uri $ngc) (hasPrefix (printf "%s/" $ngc) $uri) -}}
{{- $message := print
  "modelSource.uri %q points model-free NIM at %s, the NGC cache a model-specific NIM image fills, whose layout "
  "(hub/models--.../blobs, refs, snapshots) model-free NIM cannot read, as NIM's documentation says: keep "
  "modelSource.uri empty to serve it with the model-specific image, or point modelSource.uri at the model's source "
  "(hf://..., ngc://...) or at a directory holding the model's own files (config.json, *.safetensors)." -}}
{{- include "nim-llm.fail" (printf $message (toString $V.modelSource.uri) $ngc) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Model-free NIM (NIM_MODEL_PATH) exists from NIM 2.0 on. */ -}}
{{- define "nim-llm.preflight.modelFreeNeedsNim2" -}}
{{- $V := .Values -}}
{{- $major := include "nim-llm.nimMajorVersion" . -}}
{{- if and $V.modelSource.uri $major (lt ($major | atoi) 2) -}}
{{- $message := print
  "modelSource.uri is set (model-free NIM, NIM_MODEL_PATH), but image.tag %q is NIM %s.x, which serves only its "
  "image's own model: use a model-free NIM image of version 2.0 or later (such as "
  "nvcr.io/nim/nvidia/model-free-nim), or remove modelSource.uri." -}}
{{- include "nim-llm.fail" (printf $message (toString ($V.image.tag | default .Chart.AppVersion)) $major) -}}
{{- end -}}
{{- end -}}

{{- /* modelSource.tokenSecret only for sources read with their own token. */ -}}
{{- define "nim-llm.preflight.modelSourceToken" -}}
{{- $V := .Values -}}
{{- if and $V.modelSource.tokenSecret (not (include "nim-llm.modelSource.tokenName" .)) -}}
{{- $kind := include "nim-llm.modelSource.kind" . -}}
{{- $why := ternary "a local directory needs no token" "NGC models are read with model.ngcAPISecret (key NGC_API_KEY)" (eq $kind "local") -}}
{{- $message := print
  "modelSource.tokenSecret is %q, but the model source is %s: %s. modelSource.tokenSecret is for hf:// (key "
  "HF_TOKEN) and modelscope:// (key MODELSCOPE_API_TOKEN); remove it." -}}
{{- include "nim-llm.fail" (printf $message (toString $V.modelSource.tokenSecret)
  (ternary "the image's own model (NGC)" (printf "%q" (toString $V.modelSource.uri)) (eq $kind "image")) $why) -}}
{{- end -}}
{{- end -}}

{{- /* Air-gap mode: no credential reaches a NIM container, through env or the source's token. */ -}}
{{- define "nim-llm.preflight.airGapNoCredentials" -}}
{{- $V := .Values -}}
{{- if $V.airGap.enabled -}}
{{- range $i, $e := $V.env | default list -}}
{{- if has (toString $e.name) (list "NGC_API_KEY" "NGC_CLI_API_KEY" "HF_TOKEN" "HUGGING_FACE_HUB_TOKEN" "MODELSCOPE_API_TOKEN") -}}
{{- $message := print
  "env[%d] sets %s, but airGap.enabled is true: in the air-gapped phase NIM must load everything from the cache and, "
  "as NIM's air-gap documentation says, NGC_API_KEY and HF_TOKEN must not be set. Remove env[%d] (the pre-fill Job, "
  "cachePrefill.enabled, is given the keys it needs), or set airGap.enabled: false." -}}
{{- include "nim-llm.fail" (printf $message $i (toString $e.name) $i) -}}
{{- end -}}
{{- end -}}
{{- if and $V.modelSource.tokenSecret (not $V.cachePrefill.enabled) -}}
{{- $message := print
  "modelSource.tokenSecret is set, but airGap.enabled is true and cachePrefill.enabled is false: no pod of the "
  "release downloads, so no pod would be given the token. Remove modelSource.tokenSecret, or set "
  "cachePrefill.enabled: true to fill the cache with it." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Air-gap mode: a cache that starts empty would make NIM download. */ -}}
{{- define "nim-llm.preflight.airGapCacheFilled" -}}
{{- $V := .Values -}}
{{- if and $V.airGap.enabled (not $V.cachePrefill.enabled) -}}
{{- $backend := include "nim-llm.cacheBackend" . -}}
{{- if eq $backend "emptyDir" -}}
{{- $message := print
  "airGap.enabled is true, but the model cache is an emptyDir (persistence, hostPath and nfs are off), which starts "
  "empty in every pod, so NIM would have to download the model with no network and no key. Mount a cache staged "
  "before (persistence.existingClaim, or nfs) or fill a claim with the pre-fill Job (persistence.enabled: true, "
  "persistence.accessMode: ReadWriteMany, cachePrefill.enabled: true)." -}}
{{- include "nim-llm.fail" $message -}}
{{- else if has $backend (list "pvc-shared" "pvc-template") -}}
{{- $message := print
  "airGap.enabled is true, but persistence.enabled creates a new, empty model cache claim and cachePrefill.enabled "
  "is false, so NIM would have to download the model with no network and no key. Set cachePrefill.enabled: true "
  "(with persistence.accessMode: ReadWriteMany) to fill the claim first, or name a claim staged before in "
  "persistence.existingClaim." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The pre-fill Job writes a cache every NIM pod mounts, while they wait. */ -}}
{{- define "nim-llm.preflight.cachePrefillSharedCache" -}}
{{- $V := .Values -}}
{{- if $V.cachePrefill.enabled -}}
{{- $backend := include "nim-llm.cacheBackend" . -}}
{{- if eq $backend "emptyDir" -}}
{{- $message := print
  "cachePrefill.enabled is true, but the model cache is an emptyDir (persistence, hostPath and nfs are off): the Job "
  "would fill a directory no NIM pod sees. Set persistence.enabled: true with persistence.accessMode: ReadWriteMany, "
  "persistence.existingClaim, or nfs." -}}
{{- include "nim-llm.fail" $message -}}
{{- else if eq $backend "hostPath" -}}
{{- $message := print
  "cachePrefill.enabled is true, but the model cache is hostPath, a directory of whichever node a pod lands on: the "
  "Job would fill one node's directory. Use a claim every pod shares (persistence.enabled: true, "
  "persistence.accessMode: ReadWriteMany) or nfs." -}}
{{- include "nim-llm.fail" $message -}}
{{- else if eq $backend "pvc-template" -}}
{{- $message := print
  "cachePrefill.enabled is true, but the StatefulSet gives each pod a claim of its own (persistence.enabled with "
  "statefulSet.enabled): one Job cannot fill them. Set statefulSet.enabled: false (a Deployment sharing one claim, "
  "persistence.accessMode: ReadWriteMany) or persistence.existingClaim." -}}
{{- include "nim-llm.fail" $message -}}
{{- else if and (eq $backend "nfs") $V.nfs.readOnly -}}
{{- $message := print
  "cachePrefill.enabled is true, but nfs.readOnly is true: the Job could not write the cache. Set nfs.readOnly: "
  "false, or cachePrefill.enabled: false for an export filled beforehand." -}}
{{- include "nim-llm.fail" $message -}}
{{- else if and (eq $backend "pvc-shared") (ne (toString $V.persistence.accessMode) "ReadWriteMany") -}}
{{- $message := print
  "cachePrefill.enabled is true, but persistence.accessMode is %s: the Job writes the claim while the NIM pods, on "
  "other nodes, mount it to wait for it. Set persistence.accessMode: ReadWriteMany." -}}
{{- include "nim-llm.fail" (printf $message (toString $V.persistence.accessMode)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The pre-fill Job knows what to download. */ -}}
{{- define "nim-llm.preflight.cachePrefillSource" -}}
{{- $V := .Values -}}
{{- if $V.cachePrefill.enabled -}}
{{- $kind := include "nim-llm.modelSource.kind" . -}}
{{- if eq $kind "local" -}}
{{- $message := print
  "cachePrefill.enabled is true, but modelSource.uri %q is already a directory of the cache: there is nothing to "
  "download. Set cachePrefill.enabled: false." -}}
{{- include "nim-llm.fail" (printf $message (toString $V.modelSource.uri)) -}}
{{- else if and (eq $kind "image") (not (include "nim-llm.cachePrefill.profiles" . | fromYamlArray)) -}}
{{- $message := print
  "cachePrefill.enabled is true, but neither cachePrefill.profiles nor modelSource.profile names a profile: the Job "
  "runs without GPUs, so NIM cannot choose one by hardware. Set modelSource.profile to the profile the NIM pods "
  "serve (an id from the image's list-model-profiles), cachePrefill.profiles to the profiles to download, or "
  "cachePrefill.profiles: [all] for every profile of the image." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- if eq (include "nim-llm.mode" .) "mpijob" -}}
{{- $message := print
  "cachePrefill.enabled is true with an MPIJob (multiNode.leaderWorkerSet.enabled: false): its workers wait for the "
  "fill, but the launcher, which mounts no cache, starts at once and gives up on their sshd after "
  "multiNode.clusterStartTimeout, long before a model is downloaded. Use the LeaderWorkerSet "
  "(multiNode.leaderWorkerSet.enabled: true), or fill the cache beforehand (persistence.existingClaim) with "
  "cachePrefill.enabled: false." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- range $c := $V.initContainers.extraInit | default list -}}
{{- if eq (toString $c.name) "wait-for-model-cache" -}}
{{- $message := print
  "initContainers.extraInit has a container named wait-for-model-cache, the name of the init container "
  "cachePrefill.enabled adds to every NIM pod: rename yours." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* LoRA adapters live in a directory some mount of the NIM container provides. */ -}}
{{- define "nim-llm.preflight.loraSourceMounted" -}}
{{- $V := .Values -}}
{{- if $V.lora.enabled -}}
{{- $source := trimSuffix "/" (toString $V.lora.source) -}}
{{- if not $source -}}
{{- $message := print
  "lora.enabled is true, but lora.source is empty: set it to the directory holding one directory per adapter "
  "(NIM_PEFT_SOURCE), under model.nimCache, under lora.mountPath with lora.existingClaim, or under a mount of "
  "extraVolumeMounts." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- if regexMatch "(^|/)\\.\\.(/|$)" $source -}}
{{- $message := print
  "lora.source %q holds \"..\": write the directory without it." -}}
{{- include "nim-llm.fail" (printf $message $source) -}}
{{- end -}}
{{- $mounts := list (trimSuffix "/" (toString $V.model.nimCache)) -}}
{{- if $V.lora.existingClaim -}}{{- $mounts = append $mounts (trimSuffix "/" (toString $V.lora.mountPath)) -}}{{- end -}}
{{- range $m := include "nim-llm.namedList" $V.extraVolumeMounts | fromYamlArray -}}
{{- $mounts = append $mounts (trimSuffix "/" (toString $m.mountPath)) -}}
{{- end -}}
{{- $inside := false -}}
{{- range $m := $mounts -}}
{{- if or (eq $source $m) (hasPrefix (printf "%s/" $m) $source) -}}{{- $inside = true -}}{{- end -}}
{{- end -}}
{{- if not $inside -}}
{{- $message := print
  "lora.source %q is outside every volume the NIM container mounts (%s), so NIM would find no adapters: put the "
  "adapters in a directory of the cache (such as %s/loras), set lora.existingClaim to the claim holding them "
  "(mounted at lora.mountPath, %s) and lora.source under it, or mount them with extraVolumes/extraVolumeMounts." -}}
{{- include "nim-llm.fail" (printf $message $source (join ", " $mounts) (first $mounts) (toString $V.lora.mountPath)) -}}
{{- end -}}
{{- end -}}
{{- if and $V.lora.existingClaim (not $V.lora.enabled) -}}
{{- $message := print
  "lora.existingClaim is set, but lora.enabled is false: set lora.enabled: true (and lora.source), or remove "
  "lora.existingClaim." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}

{{- /* The LoRA claim's mount path is not a path the NIM container already uses. */ -}}
{{- define "nim-llm.preflight.loraMountPath" -}}
{{- $V := .Values -}}
{{- if and $V.lora.enabled $V.lora.existingClaim -}}
{{- $path := trimSuffix "/" (toString $V.lora.mountPath) -}}
{{- range $used := list (trimSuffix "/" (toString $V.model.nimCache)) "/tmp" "/dev/shm" "/etc/nim-llm" "/opt/nim-llm" -}}
{{- if or (eq $path $used) (hasPrefix (printf "%s/" $used) $path) (hasPrefix (printf "%s/" $path) $used) -}}
{{- $message := print
  "lora.mountPath %q overlaps %s, which the chart already mounts in the NIM container: choose another directory, "
  "such as /opt/nim/loras." -}}
{{- include "nim-llm.fail" (printf $message $path $used) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The CA bundle comes from one object. */ -}}
{{- define "nim-llm.preflight.caBundleOneSource" -}}
{{- $ca := .Values.proxy.caBundle -}}
{{- if and $ca.configMap $ca.secret -}}
{{- $message := print
  "proxy.caBundle.configMap (%q) and proxy.caBundle.secret (%q) are both set: the bundle comes from one of them. "
  "Remove one." -}}
{{- include "nim-llm.fail" (printf $message (toString $ca.configMap) (toString $ca.secret)) -}}
{{- end -}}
{{- end -}}

{{- /* A CA bundle object that already exists holds the key, and the key holds PEM certificates. (The object may be
created after the release; then the pod waits for it, as Kubernetes makes it.) */ -}}
{{- define "nim-llm.preflight.caBundleLive" -}}
{{- $ca := .Values.proxy.caBundle -}}
{{- if or $ca.configMap $ca.secret -}}
{{- $kind := ternary "ConfigMap" "Secret" (not (empty $ca.configMap)) -}}
{{- $name := toString (ternary $ca.configMap $ca.secret (not (empty $ca.configMap))) -}}
{{- $key := toString $ca.key -}}
{{- $live := lookup "v1" $kind .Release.Namespace $name -}}
{{- if $live -}}
{{- $data := $live.data | default dict -}}
{{- $value := "" -}}
{{- if hasKey $data $key -}}
{{- $value = index $data $key | toString -}}
{{- if eq $kind "Secret" -}}{{- $value = b64dec $value -}}{{- end -}}
{{- end -}}
{{- $keyPath := ternary "proxy.caBundle.configMap" "proxy.caBundle.secret" (eq $kind "ConfigMap") -}}
{{- if not (hasKey $data $key) -}}
{{- $message := print
  "proxy.caBundle.key is %q, but the %s %q (%s) has no such key (it has: %s): set proxy.caBundle.key to the key "
  "holding the PEM bundle." -}}
{{- include "nim-llm.fail" (printf $message $key $kind $name $keyPath
  (keys $data | sortAlpha | join ", " | default "none")) -}}
{{- else if not (contains "-----BEGIN CERTIFICATE-----" $value) -}}
{{- $message := print
  "key %q of the %s %q (%s, proxy.caBundle.key) holds no PEM certificate (no -----BEGIN CERTIFICATE----- line): put "
  "the CA certificates there in PEM form." -}}
{{- include "nim-llm.fail" (printf $message $key $kind $name $keyPath) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* NIM_HEALTH_PORT is a port of its own, of NIM 2.x and 3.x. */ -}}
{{- define "nim-llm.preflight.healthPort" -}}
{{- $V := .Values -}}
{{- $port := int $V.model.healthPort -}}
{{- if gt $port 0 -}}
{{- if eq $port (int $V.model.openaiPort) -}}
{{- $message := print
  "model.healthPort is %d, the same as model.openaiPort: health is served there already. Set model.healthPort: 0, or "
  "another port." -}}
{{- include "nim-llm.fail" (printf $message $port) -}}
{{- end -}}
{{- if include "nim-llm.usesMPI" . -}}
{{- $message := print
  "model.healthPort is set, but the release starts NIM 1.x with mpirun (multiNode launch mode mpi), which has no "
  "NIM_HEALTH_PORT: set model.healthPort: 0." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- $major := include "nim-llm.nimMajorVersion" . -}}
{{- if and $major (lt ($major | atoi) 2) -}}
{{- $message := print
  "model.healthPort is set, but image.tag %q is NIM %s.x, which serves health only on model.openaiPort "
  "(NIM_HEALTH_PORT exists from NIM 2.0 on): set model.healthPort: 0." -}}
{{- include "nim-llm.fail" (printf $message (toString ($V.image.tag | default .Chart.AppVersion)) $major) -}}
{{- end -}}
{{- if and $V.multiNode.enabled (include "nim-llm.usesRay" .) (eq $port (int $V.multiNode.ray.port)) -}}
{{- $message := print
  "model.healthPort is %d, the Ray head's port (multiNode.ray.port): choose another port." -}}
{{- include "nim-llm.fail" (printf $message $port) -}}
{{- end -}}
{{- if and $V.multiNode.enabled (eq $port (int $V.multiNode.masterPort)) -}}
{{- $message := print
  "model.healthPort is %d, the same as multiNode.masterPort (MASTER_PORT): choose another port." -}}
{{- include "nim-llm.fail" (printf $message $port) -}}
{{- end -}}
{{- end -}}
{{- end -}}
