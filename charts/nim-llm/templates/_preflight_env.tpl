{{/* ---------------------------------------------------------------------------
Preflight rules of the containers' environment (env): one entry per name, values a process environment can carry,
no variable another key owns, and variables the chart derives or the start-up scripts (files/mpi) read keep their
meaning. The kubelet keeps the last entry of a name (pkg/kubelet/kubelet_pods.go makeEnvironmentVariables), so an
`env` entry silently replaces what the chart derived; where the chart uses the same key elsewhere (the pre-fill Job,
probes, ports, preflight rules), the entry is refused naming the key to set instead. Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

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
{{- $message := print
  "env[%d] sets %s, which replaces %s: remove env[%d]." -}}
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

{{- /* Variables the MPI start-up scripts (files/mpi) read. The chart derives them from multiNode.*; a user entry
replaces the derived one, so it must keep its meaning: the scripts do bash arithmetic with the counts (where any text
is evaluated: a[$(cmd)] runs cmd), and sshd, ports, probes and policies must agree on the SSH port and key. */ -}}
{{- define "nim-llm.preflight.scriptEnv" -}}
{{- $V := .Values -}}
{{- $scriptCounts := dict "CLUSTER_START_TIMEOUT" "multiNode.clusterStartTimeout" "NIM_NUM_COMPUTE_NODES"
  "multiNode.workers" "NIM_GPUS_PER_NODE" "multiNode.gpusPerNode" "NIM_MPI_NUM_PROCESSES"
  "multiNode.workers and multiNode.gpusPerNode" -}}
{{- $scriptFixed := dict "NIM_MPI_SSH_PORT" "multiNode.sshPort" "NIM_MPI_SSH_KEY" "multiNode.existingSSHSecret"
  "NIM_MPI_SSH_AUTHORIZED_KEYS" "multiNode.existingSSHSecret" -}}
{{- range $i, $e := $V.env | default list -}}
{{- if hasKey $scriptFixed $e.name -}}
{{- $message := print
  "env[%d] sets %s, which the chart derives from %s (the workers' sshd, the container ports, probes "
  "and network policies use the same value): remove env[%d] and set %s instead." -}}
{{- include "nim-llm.fail" (printf $message $i $e.name (index $scriptFixed $e.name) $i (index $scriptFixed $e.name)) -}}
{{- end -}}
{{- if and (hasKey $scriptCounts $e.name) (hasKey $e "value") (not (regexMatch "^[1-9][0-9]{0,8}$" (toString $e.value))) -}}
{{- $message := print
  "env[%d] (%s) is %q, but the MPI start-up scripts read it as a whole number: remove env[%d] and set "
  "%s instead, or give a whole number such as \"300\"." -}}
{{- include "nim-llm.fail" (printf $message $i $e.name (toString $e.value) $i (index $scriptCounts $e.name)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Variables the chart derives for a pod's role (its port, its cache, its rank, its group's size and leader): an env
entry with the same name replaces the derived one for every pod, so it must say exactly the same (a copied recipe that
repeats a value is fine); a different value breaks start-up or serving (a literal rank on every pod, a port the probes
and Service do not use, a node count the group does not have). Runs after scriptEnv (its counts' form). */ -}}
{{- define "nim-llm.preflight.derivedEnvKeepsMeaning" -}}
{{- $V := .Values -}}
{{- $from := dict
  "NIM_SERVER_PORT" "model.openaiPort" "NIM_CACHE_PATH" "model.nimCache" "NIM_MULTI_NODE" "multiNode.enabled"
  "NIM_NUM_COMPUTE_NODES" "multiNode.workers" "NIM_GPUS_PER_NODE" "multiNode.gpusPerNode"
  "CLUSTER_START_TIMEOUT" "multiNode.clusterStartTimeout" "MASTER_PORT" "multiNode.masterPort"
  "NIM_MPI_NUM_PROCESSES" "multiNode.workers and multiNode.gpusPerNode"
  "NIM_LEADER_ROLE" "each pod's role in its group" "NIM_NODE_RANK" "each pod's index in its group"
  "NIM_LEADER_IP_ADDRESS" "the group's leader" "MASTER_ADDR" "the group's leader"
  "NIM_MPI_JOB_NAME" "the MPIJob's pod labels" "NIM_MPI_NAMESPACE" "the pod's namespace" -}}
{{- $roles := get (dict "statefulset" (list "server") "deployment" (list "server") "leaderworkerset" (list "leader" "worker")
  "mpijob" (list "launcher" "mpi-worker")) (include "nim-llm.mode" .) -}}
{{- $derived := dict -}}
{{- range $role := $roles -}}
{{- range $e := include "nim-llm.derivedEnv" (dict "root" $ "role" $role) | fromYamlArray -}}
{{- $_ := set $derived $e.name (append (get $derived $e.name | default list) (toYaml $e)) -}}
{{- end -}}
{{- end -}}
{{- range $i, $e := $V.env | default list -}}
{{- if hasKey $from $e.name -}}
{{- $mine := toYaml (pick $e "name" "value" "valueFrom") -}}
{{- $same := true -}}
{{- range $d := get $derived $e.name | default (list "") -}}
{{- if ne $d $mine -}}{{- $same = false -}}{{- end -}}
{{- end -}}
{{- if not (hasKey $derived $e.name) -}}
{{- $message := print
  "env[%d] sets %s, which the chart sets only for the pods of a multi-node group (from %s): this release is "
  "single-node, so the NIM would wait for a group that does not exist. Remove env[%d]." -}}
{{- include "nim-llm.fail" (printf $message $i $e.name (index $from $e.name) $i) -}}
{{- else if not $same -}}
{{- $message := print
  "env[%d] sets %s, which the chart derives from %s for every pod: a different value there breaks the group's "
  "start-up or serving (the probes, the Service and the start-up scripts use the derived one). Remove env[%d] "
  "and set %s instead." -}}
{{- include "nim-llm.fail" (printf $message $i $e.name (index $from $e.name) $i (index $from $e.name)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Variables the chart derives from a key it also uses elsewhere (the pre-fill Job, probes, ports, Services, preflight
rules): an `env` entry of the name would change the NIM container alone. Refused naming the key to set instead; each
only while the chart derives it or uses its key in this release (NIM_HEALTH_PORT and the proxy variables always: the
probes and NO_PROXY follow their keys). The cache and home variables are honoured everywhere instead (the NIM
containers and the pre-fill Job take them from env; cachePathsWritable and cachePrefillPathsWritable check them). */}}
{{- define "nim-llm.preflight.envNotDerived" -}}
{{- $V := .Values -}}
{{- $refused := dict
  "NIM_HEALTH_PORT" "model.healthPort (the container port http-health, the probes, the Service and the network policy follow it)"
  "HTTP_PROXY" "proxy.httpProxy (the chart renders HTTP_PROXY and http_proxy from it, in every container that downloads)"
  "http_proxy" "proxy.httpProxy (the chart renders HTTP_PROXY and http_proxy from it, in every container that downloads)"
  "HTTPS_PROXY" "proxy.httpsProxy (the chart renders HTTPS_PROXY and https_proxy from it, in every container that downloads)"
  "https_proxy" "proxy.httpsProxy (the chart renders HTTPS_PROXY and https_proxy from it, in every container that downloads)"
  "NO_PROXY" "proxy.noProxy or proxy.clusterCIDRs (the chart renders NO_PROXY and no_proxy from them, after the release's own Services and pods)"
  "no_proxy" "proxy.noProxy or proxy.clusterCIDRs (the chart renders NO_PROXY and no_proxy from them, after the release's own Services and pods)" -}}
{{- /* NIM_MODEL_PATH: refused beside modelSource.uri or the pre-fill Job, and for a source modelSource.uri takes (hf://,
ngc://, modelscope://, a path); s3://, gs:// and local:// sources, which the chart does not model, still go through env
(docs/model-sources.md). */ -}}
{{- range $e := $V.env | default list -}}
{{- if and (eq (toString $e.name) "NIM_MODEL_PATH") (or $V.modelSource.uri $V.cachePrefill.enabled (regexMatch "^(hf://|ngc://|modelscope://|/)" (toString ($e.value | default "")))) -}}
{{- $_ := set $refused "NIM_MODEL_PATH" "modelSource.uri (the pre-fill Job downloads modelSource.uri, and the model-source rules check it)" -}}
{{- end -}}
{{- end -}}
{{- if or $V.modelSource.profile $V.cachePrefill.enabled -}}
{{- $_ := set $refused "NIM_MODEL_PROFILE" "modelSource.profile (the pre-fill Job downloads that profile, and the NIM pods select it)" -}}
{{- end -}}
{{- if $V.lora.enabled -}}
{{- $_ := set $refused "NIM_PEFT_SOURCE" "lora.source (lora.enabled; the chart checks that it lies inside a mount)" -}}
{{- $_ := set $refused "NIM_PEFT_REFRESH_INTERVAL" "lora.refreshInterval (lora.enabled)" -}}
{{- end -}}
{{- with include "nim-llm.modelSource.tokenName" . -}}
{{- $_ := set $refused . "modelSource.tokenSecret (the pre-fill Job and every NIM pod read the token from it)" -}}
{{- end -}}
{{- if not (include "nim-llm.airGapped" .) -}}
{{- $_ := set $refused "NGC_API_KEY" "model.ngcAPISecret (the pre-fill Job and every NIM pod read NGC_API_KEY from that Secret)" -}}
{{- end -}}
{{- if include "nim-llm.caBundle.enabled" . -}}
{{- $_ := set $refused "SSL_CERT_FILE" "proxy.caBundle (the chart points SSL_CERT_FILE and REQUESTS_CA_BUNDLE at the mounted bundle)" -}}
{{- $_ := set $refused "REQUESTS_CA_BUNDLE" "proxy.caBundle (the chart points SSL_CERT_FILE and REQUESTS_CA_BUNDLE at the mounted bundle)" -}}
{{- end -}}
{{- if or $V.proxy.httpProxy $V.proxy.httpsProxy (include "nim-llm.caBundle.enabled" .) -}}
{{- $_ := set $refused "NIM_SDK_USE_NATIVE_TLS" "proxy.* (the chart sets it to 1 whenever a proxy or a CA bundle is set, so NIM's downloads trust the bundle)" -}}
{{- end -}}
{{- range $i, $e := $V.env | default list -}}
{{- if hasKey $refused (toString $e.name) -}}
{{- $message := print
  "env[%d] sets %s, which the chart derives from %s: the kubelet keeps the last entry of a name, so env[%d] would "
  "silently replace it in the NIM container alone. Remove env[%d] and set %s instead." -}}
{{- $key := index $refused (toString $e.name) -}}
{{- include "nim-llm.fail" (printf $message $i (toString $e.name) $key $i $i (regexReplaceAll " \\(.*$" $key "")) -}}
{{- end -}}
{{- end -}}
{{- end -}}
