{{/* ---------------------------------------------------------------------------
Preflight rules of security: who the containers run as (runAsNonRoot, user 0), secrets in plain sight (literal
secret-like env values, proxy credentials, secret variables expanded into commands), host paths on the system's own
directories (docs/security.md). Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

{{- /* "true" when a variable name is secret-like: one of its words (split at "_", any case) is KEY (alone or after
API, ACCESS, PRIVATE or SECRET, or as APIKEY), TOKEN, SECRET, PASSWORD, PASSWD, PASS or CREDENTIAL(S), or it is one of
the well-known credential names; unless its last word says it names a file or a path (NIM_SSL_KEY_PATH,
HF_TOKEN_FILE, and the chart's own NIM_MPI_SSH_KEY): OPENAI_KEY, SSH_KEY, hf_token, REDIS_PASS, GITHUB_TOKEN_READONLY, AWS_SECRET_ACCESS_KEY. The one
implementation of the rule: plainSecrets and secretExpansions both ask it. */ -}}
{{- define "nim-llm.secretLikeName" -}}
{{- $name := toString . -}}
{{- $words := "(?i)(^|_)((API|ACCESS|PRIVATE|SECRET)?_?KEY|APIKEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?)(_|$)" -}}
{{- $known := "^(NGC_API_KEY|NGC_CLI_API_KEY|HF_TOKEN|HUGGING_FACE_HUB_TOKEN|MODELSCOPE_API_TOKEN)$" -}}
{{- /* NIM_MPI_SSH_KEY is the chart's own: the path of the mounted key (preflight.scriptEnv refuses it in env). */ -}}
{{- $paths := "(?i)_(PATH|FILE|DIR)$|^NIM_MPI_SSH_KEY$" -}}
{{- if or (regexMatch $known $name) (and (regexMatch $words $name) (not (regexMatch $paths $name))) -}}
true
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

{{- /* seLinuxChangePolicy MountOption needs the SELinuxMount feature, on by default from Kubernetes 1.37: an older API
server supports only Recursive there (for a LeaderWorkerSet or MPIJob, refusing the pods once their controller makes them). */ -}}
{{- define "nim-llm.preflight.seLinuxChangePolicy" -}}
{{- $policy := (.Values.podSecurityContext | default dict).seLinuxChangePolicy -}}
{{- if and (eq (toString $policy) "MountOption") (semverCompare "<1.37.0-0" .Capabilities.KubeVersion.Version) -}}
{{- $message := print
  "podSecurityContext.seLinuxChangePolicy is MountOption, which Kubernetes %s supports only with its SELinuxMount "
  "feature gate (on by default from 1.37): set Recursive, or leave it out." -}}
{{- include "nim-llm.fail" (printf $message .Capabilities.KubeVersion.Version) -}}
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

{{- /* Environment: secrets only from a Secret (a literal value is readable by anyone who can read the pod). */ -}}
{{- define "nim-llm.preflight.plainSecrets" -}}
{{- $V := .Values -}}
{{- include "nim-llm.preflight.plainSecretsIn" (dict "key" "env" "env" $V.env) -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- include "nim-llm.preflight.plainSecretsIn" (dict "key" (printf "initContainers.extraInit[%d].env" $i) "env" $c.env) -}}
{{- end -}}
{{- end -}}

{{- /* A secret in a literal env value is readable by anyone who can read the pod. What is secret-like:
"nim-llm.secretLikeName" (at the top of this file). Usage: (dict "key" "env" "env" list) */ -}}
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

{{- /* A $(VAR) reference to a secret variable in a command or args: the kubelet expands it into the process's
arguments, which every process of the pod (ps, /proc/<pid>/cmdline) and the container runtime's logs can read.
$$(VAR) is Kubernetes' escape for the literal text and is left alone. */ -}}
{{- define "nim-llm.preflight.secretExpansions" -}}
{{- $V := .Values -}}
{{- $lists := list (list "customCommand" $V.customCommand) (list "customArgs" $V.customArgs)
  (list "multiNode.workerCustomCommand" $V.multiNode.workerCustomCommand) -}}
{{- range $i, $c := $V.initContainers.extraInit | default list -}}
{{- $lists = concat $lists (list (list (printf "initContainers.extraInit[%d].command" $i) $c.command)
  (list (printf "initContainers.extraInit[%d].args" $i) $c.args)) -}}
{{- end -}}
{{- range $l := $lists -}}
{{- range $j, $arg := index $l 1 | default list -}}
{{- range $ref := regexFindAll "\\$+\\([A-Za-z_][A-Za-z0-9_.-]*\\)" (toString $arg) -1 -}}
{{- $dollars := len (regexFind "^\\$+" $ref) -}}
{{- $name := regexReplaceAll "^\\$+\\((.*)\\)$" $ref "${1}" -}}
{{- if and (eq (mod $dollars 2) 1) (include "nim-llm.secretLikeName" $name) -}}
{{- $message := print
  "%s[%d] expands $(%s), a secret, into the process's arguments, which every process of the pod (ps, "
  "/proc/<pid>/cmdline) can read: let the program read %s from its environment instead (a wrapper script can "
  "pass it on), or write $$(%s) for the literal text." -}}
{{- include "nim-llm.fail" (printf $message (index $l 0) $j $name $name $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Proxy URLs carry no credentials: HTTP_PROXY and friends are plain environment variables of every downloading
container (readable by anyone who can read the pod), so user:password@ in them would publish the password. */ -}}
{{- define "nim-llm.preflight.proxyCredentials" -}}
{{- range $key := list "httpProxy" "httpsProxy" -}}
{{- $url := toString (index $.Values.proxy $key | default "") -}}
{{- if regexMatch "^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*@" $url -}}
{{- $message := print
  "proxy.%s holds credentials (user:password@ before the host), but the chart passes it to every downloading "
  "container as a plain environment variable (HTTP_PROXY, HTTPS_PROXY), readable by anyone who can read the pod: "
  "give the proxy URL without credentials, and let the proxy admit the pods by their address or a proxy that "
  "authenticates without them." -}}
{{- include "nim-llm.fail" (printf $message $key) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Host paths of extraVolumes (and the model cache's hostPath.path) stay off the node's system: the root, /etc,
/proc, /sys, /run (and /var/run), /root, /boot, the kubelet's and the container runtimes' state, and /dev but for the
device directories the chart documents (/dev/infiniband, /dev/aperture_devices). A pod mounting them could read the
node's credentials or change the node; a read-only mount still reads them. */ -}}
{{- define "nim-llm.preflight.hostPathSystem" -}}
{{- $V := .Values -}}
{{- $paths := list -}}
{{- if $V.hostPath.enabled -}}{{- $paths = append $paths (list "hostPath.path" $V.hostPath.path) -}}{{- end -}}
{{- $mapForm := kindIs "map" $V.extraVolumes -}}
{{- range $i, $v := include "nim-llm.namedList" $V.extraVolumes | fromYamlArray -}}
{{- if and (kindIs "map" $v.hostPath) (hasKey $v.hostPath "path") -}}
{{- $key := ternary (printf "extraVolumes.%v.hostPath.path" $v.name) (printf "extraVolumes[%d].hostPath.path" $i) $mapForm -}}
{{- $paths = append $paths (list $key $v.hostPath.path) -}}
{{- end -}}
{{- end -}}
{{- $system := list "/etc" "/proc" "/sys" "/run" "/var/run" "/root" "/boot" "/dev" "/var/lib/kubelet"
  "/var/lib/containerd" "/var/lib/docker" "/var/lib/crio" "/var/log" -}}
{{- $devices := list "/dev/infiniband" "/dev/aperture_devices" -}}
{{- range $p := $paths -}}
{{- $path := clean (toString (index $p 1)) -}}
{{- $refused := eq $path "/" -}}
{{- range $s := $system -}}
{{- if or (eq $path $s) (hasPrefix (printf "%s/" $s) $path) -}}{{- $refused = true -}}{{- end -}}
{{- end -}}
{{- range $d := $devices -}}
{{- if or (eq $path $d) (hasPrefix (printf "%s/" $d) $path) -}}{{- $refused = false -}}{{- end -}}
{{- end -}}
{{- if $refused -}}
{{- $message := print
  "%s is %q, a directory of the node's system (the root, /etc, /proc, /sys, /run, /root, /boot, /dev, /var/log "
  "or the kubelet's and container runtimes' state): a pod mounting it can read the node's credentials or change "
  "the node. Mount a directory of your own data instead (a networking provider's device directories are the "
  "chart's own: multinodeNetworking.*)." -}}
{{- include "nim-llm.fail" (printf $message (index $p 0) (toString (index $p 1))) -}}
{{- end -}}
{{- end -}}
{{- end -}}
