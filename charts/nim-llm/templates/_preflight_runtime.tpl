{{/* ---------------------------------------------------------------------------
Preflight rules of the pod's own runtime contract: what the container runtime and the kubelet do with what the chart
renders, after the API server has taken it.
- Ports: every container of a pod shares the pod's network namespace, so two processes binding one port (a native
  sidecar and the NIM server, an init container and sshd) make the second fail with "address already in use"; the API
  server only warns ("duplicate port definition", k8s.io/kubernetes pkg/api/pod/warnings.go). The API port, the SSH
  port and MASTER_PORT of one pod differ; no extraInit port is a port another container of the pod binds.
- Proxies: Python's requests/urllib read the lower-case variable first, curl reads only lower-case http_proxy: the
  chart renders both cases from proxy.*, and an `env` entry of either case would leave the two disagreeing.
- The pre-fill Job writes only where it mounts: /tmp, its home (home.path) and the model cache.
- Selectors: the endpoint picker's pods never carry the model workload's selector labels.
Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

{{/* The ports the chart's containers bind in a GPU pod (every role that gets initContainers.extraInit), each with the
key that sets it and who binds it (YAML list of {port, protocol, key, what}). Declared containerPorts and the ports a
process of the pod binds without declaring them (MASTER_PORT on the leader; Ray's dashboard 8265 on the head and its
dashboard agent 52365 on every Ray node: ray_constants.DEFAULT_DASHBOARD_PORT, DEFAULT_DASHBOARD_AGENT_LISTEN_PORT). */}}
{{- define "nim-llm.chartPodPorts" -}}
{{- $V := .Values -}}
{{- $keys := dict "http-openai" "model.openaiPort" "http-health" "model.healthPort" "ssh" "multiNode.sshPort" "ray" "multiNode.ray.port" -}}
{{- $what := dict "http-openai" "the NIM API server" "http-health" "the NIM health server" "ssh" "the workers' sshd"
  "ray" "the Ray head (GCS)" -}}
{{- $roles := get (dict "statefulset" (list "server") "deployment" (list "server") "leaderworkerset" (list "leader" "worker")
  "mpijob" (list "mpi-worker")) (include "nim-llm.mode" .) -}}
{{- $out := list -}}
{{- $seen := dict -}}
{{- range $role := $roles -}}
{{- range $p := include "nim-llm.ports" (dict "root" $ "role" $role) | fromYamlArray -}}
{{- if not (hasKey $seen $p.name) -}}
{{- $_ := set $seen $p.name true -}}
{{- $out = append $out (dict "port" (int $p.containerPort) "protocol" "TCP" "key" (index $keys $p.name)
  "what" (printf "%s (container nim, port %s)" (index $what $p.name) $p.name) "name" $p.name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if $V.multiNode.enabled -}}
{{- $out = append $out (dict "port" (int $V.multiNode.masterPort) "protocol" "TCP" "key" "multiNode.masterPort"
  "what" "MASTER_PORT (torch.distributed's rendezvous on the leader)" "name" "") -}}
{{- if include "nim-llm.usesRay" . -}}
{{- $out = append $out (dict "port" 8265 "protocol" "TCP" "key" "Ray's default dashboard port"
  "what" "the Ray head's dashboard" "name" "") -}}
{{- $out = append $out (dict "port" 52365 "protocol" "TCP" "key" "Ray's default dashboard agent port"
  "what" "the Ray dashboard agent of every Ray node" "name" "") -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* No two containers of a pod bind one port at the same time, as the kubelet starts them (init containers one after
another, each native sidecar, restartPolicy Always, staying up; then the NIM container beside every sidecar): a sidecar's
port differs from the chart's ports and from every earlier sidecar's, a regular init container's from every earlier
sidecar's (the same rule as the test suite's PodPorts). A sidecar's port name differs from the chart's and the other
sidecars' (Services, probes and the InferencePool select the chart's ports by name). */}}
{{- define "nim-llm.preflight.podPortsDisjoint" -}}
{{- $main := dict -}}
{{- $names := dict -}}
{{- range $p := include "nim-llm.chartPodPorts" . | fromYamlArray -}}
{{- $_ := set $main (printf "%d/%s" (int $p.port) $p.protocol) (printf "%s, set by %s," $p.what $p.key) -}}
{{- if $p.name -}}{{- $_ := set $names $p.name (printf "%s (%s)" $p.what $p.key) -}}{{- end -}}
{{- end -}}
{{- $sidecars := dict -}}
{{- range $i, $c := .Values.initContainers.extraInit | default list -}}
{{- $sidecar := eq (toString $c.restartPolicy) "Always" -}}
{{- $own := dict -}}
{{- range $j, $p := $c.ports | default list -}}
{{- $key := printf "initContainers.extraInit[%d].ports[%d]" $i $j -}}
{{- $id := printf "%d/%s" (int $p.containerPort) (toString ($p.protocol | default "TCP")) -}}
{{- $other := "" -}}
{{- if hasKey $sidecars $id -}}{{- $other = index $sidecars $id -}}
{{- else if hasKey $own $id -}}{{- $other = index $own $id -}}
{{- else if and $sidecar (hasKey $main $id) -}}{{- $other = index $main $id -}}
{{- end -}}
{{- if $other -}}
{{- $message := print
  "%s.containerPort is %d, which %s already binds in the same pod: every container of a pod shares one network "
  "namespace, so the second process to bind the port fails (address already in use). Give %s another port, or move "
  "the other one." -}}
{{- include "nim-llm.fail" (printf $message $key (int $p.containerPort) $other $key) -}}
{{- end -}}
{{- $_ := set $own $id $key -}}
{{- if $sidecar -}}
{{- with $p.name -}}
{{- if hasKey $names (toString .) -}}
{{- $message := print
  "%s.name is %q, a port name %s already uses in the same pod: Services, probes and the InferencePool that "
  "select a port by name would take the first one. Give %s.name another name." -}}
{{- include "nim-llm.fail" (printf $message $key (toString .) (index $names (toString .)) $key) -}}
{{- end -}}
{{- $_ := set $names (toString .) $key -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if $sidecar -}}{{- $sidecars = merge $sidecars $own -}}{{- end -}}
{{- end -}}
{{- end -}}

{{/* An init container of initContainers.extraInit gets the proxy variables (both cases) from proxy.* unless it sets
one itself: setting one case only would leave the two cases disagreeing (Python's requests reads no_proxy first, curl
reads only http_proxy), so a container that sets one sets all six, or none. */}}
{{- define "nim-llm.preflight.initContainerProxyEnv" -}}
{{- $V := .Values -}}
{{- if or $V.proxy.httpProxy $V.proxy.httpsProxy -}}
{{- $proxyNames := list "HTTP_PROXY" "http_proxy" "HTTPS_PROXY" "https_proxy" "NO_PROXY" "no_proxy" -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- $set := list -}}
{{- range $e := $c.env | default list -}}
{{- if has (toString $e.name) $proxyNames -}}{{- $set = append $set (toString $e.name) -}}{{- end -}}
{{- end -}}
{{- if and $set (lt (len ($set | uniq)) (len $proxyNames)) -}}
{{- $message := print
  "initContainers.extraInit[%d].env sets %s but not all of HTTP_PROXY, http_proxy, HTTPS_PROXY, https_proxy, NO_PROXY "
  "and no_proxy: the chart adds the others from proxy.*, and the two cases would disagree (Python's requests reads "
  "the lower-case variable first, curl reads only http_proxy in lower case). Remove them from "
  "initContainers.extraInit[%d].env to take proxy.* (proxy.httpProxy, proxy.httpsProxy, proxy.noProxy), or set all six." -}}
{{- include "nim-llm.fail" (printf $message $i (join ", " ($set | uniq)) $i) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The pre-fill Job takes the cache and home variables from env as the NIM pods do, but mounts only /tmp, its home
(home.path) and the model cache: a path outside them fails its first write (Read-only file system). */}}
{{- define "nim-llm.preflight.cachePrefillPathsWritable" -}}
{{- $V := .Values -}}
{{- if and $V.cachePrefill.enabled ($V.containerSecurityContext | default dict).readOnlyRootFilesystem -}}
{{- $writable := list "/tmp" (trimSuffix "/" (toString $V.home.path)) (trimSuffix "/" (toString $V.model.nimCache)) -}}
{{- range $i, $e := $V.env | default list -}}
{{- if and (has (toString $e.name) (include "nim-llm.cacheVariables" $ | fromYamlArray)) (hasKey $e "value") (not (contains "$(" (toString $e.value))) -}}
{{- $path := trimSuffix "/" (toString $e.value) -}}
{{- $ok := false -}}
{{- range $dir := $writable -}}
{{- if or (eq $path $dir) (hasPrefix (printf "%s/" $dir) $path) -}}{{- $ok = true -}}{{- end -}}
{{- end -}}
{{- if not $ok -}}
{{- $message := print
  "env[%d] sets %s to %q, which the cache pre-fill Job (cachePrefill.enabled) cannot write: it takes the same variables "
  "as the NIM pods but mounts only %s (extraVolumeMounts are the NIM container's alone), and its root filesystem is "
  "read-only. Point %s under home.path (%s) or model.nimCache, or remove env[%d]." -}}
{{- include "nim-llm.fail" (printf $message $i (toString $e.name) (toString $e.value) (join ", " $writable) (toString $e.name) (toString $V.home.path) $i) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The endpoint picker's pods are labelled app.kubernetes.io/name: <name>-epp; the model workloads, Services and
budget select app.kubernetes.io/name: <name>. A name that ends in -epp and fills the 63 characters of a label value
would make the two equal, and the model's selector would take in the picker's pods. */}}
{{- define "nim-llm.preflight.selectorsDisjoint" -}}
{{- if .Values.inferencePool.enabled -}}
{{- $model := include "nim-llm.selectorLabels" . | fromYaml -}}
{{- $epp := include "nim-llm.epp.selectorLabels" . | fromYaml -}}
{{- if eq (index $model "app.kubernetes.io/name") (index $epp "app.kubernetes.io/name") -}}
{{- $message := print
  "nameOverride %q makes the endpoint picker's pods carry app.kubernetes.io/name %q, the model workload's selector "
  "label: its Deployment, Service and budget would take in the picker's pods. Shorten nameOverride (at most 59 "
  "characters) or give it another ending than -epp." -}}
{{- include "nim-llm.fail" (printf $message (toString .Values.nameOverride) (index $model "app.kubernetes.io/name")) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The SSH port of MPI start-up, MASTER_PORT (torch.distributed's rendezvous on the leader) and the API port
share the pod's network namespace. */ -}}
{{- define "nim-llm.preflight.podPorts" -}}
{{- $V := .Values -}}
{{- if and (include "nim-llm.usesMPI" .) (eq (int $V.multiNode.sshPort) (int $V.model.openaiPort)) -}}
{{- $message := print
  "multiNode.sshPort and model.openaiPort are both %d, but the workers' sshd and the API server listen "
  "in one pod: give multiNode.sshPort another port (the default is 2222)." -}}
{{- include "nim-llm.fail" (printf $message (int $V.model.openaiPort)) -}}
{{- end -}}
{{- if and $V.multiNode.enabled (eq (int $V.multiNode.masterPort) (int $V.model.openaiPort)) -}}
{{- $message := print
  "multiNode.masterPort and model.openaiPort are both %d, but MASTER_PORT and the API server listen on "
  "the leader's pod: give multiNode.masterPort another port (the default is 50000)." -}}
{{- include "nim-llm.fail" (printf $message (int $V.model.openaiPort)) -}}
{{- end -}}
{{- if and (include "nim-llm.usesMPI" .) (eq (int $V.multiNode.masterPort) (int $V.multiNode.sshPort)) -}}
{{- $message := print
  "multiNode.masterPort and multiNode.sshPort are both %d, but MASTER_PORT and the workers' sshd "
  "listen in one pod: give multiNode.masterPort another port (the default is 50000)." -}}
{{- include "nim-llm.fail" (printf $message (int $V.multiNode.sshPort)) -}}
{{- end -}}
{{- end -}}
