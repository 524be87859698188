{{/* ---------------------------------------------------------------------------
Preflight rules of networking: the Services, Ingress and NetworkPolicy of the release, and multi-node
networking (multinodeNetworking.*).
Index and order: _preflight.tpl.
--------------------------------------------------------------------------- */}}

{{- /* The inference Service must not take the name of a Service the release's controllers create. */ -}}
{{- define "nim-llm.preflight.serviceName" -}}
{{- $V := .Values -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $serviceName := include "nim-llm.serviceName" . -}}
{{- if has $serviceName (include "nim-llm.controllerServiceNames" . | fromYamlArray) -}}
{{- $message := print
  "service.name is %q, the name of the headless Service that the %s needs for its pods' DNS names (the "
  "controller would not create it, and the pods could not find each other): choose another "
  "service.name, or leave it empty for %q." -}}
{{- include "nim-llm.fail" (printf $message $serviceName
  (get (dict "leaderworkerset" "LeaderWorkerSet" "statefulset" "StatefulSet" "mpijob" "MPIJob (mpi-operator)") $mode)
  (include "nim-llm.fullname" .)) -}}
{{- end -}}
{{- end -}}

{{- /* service.nodePort only with a Service type that has node ports */ -}}
{{- define "nim-llm.preflight.nodePort" -}}
{{- $V := .Values -}}
{{- if and (ne (int $V.service.nodePort) 0) (eq $V.service.type "ClusterIP") -}}
{{- $message := print
  "service.nodePort is %d but service.type is ClusterIP, which has no node port: set service.type: "
  "NodePort (or LoadBalancer), or service.nodePort: 0." -}}
{{- include "nim-llm.fail" (printf $message (int $V.service.nodePort)) -}}
{{- end -}}
{{- end -}}

{{- /* an enabled Ingress has hosts */ -}}
{{- define "nim-llm.preflight.ingressHosts" -}}
{{- $V := .Values -}}
{{- if and $V.ingress.enabled (not $V.ingress.hosts) -}}
{{- $message := print
  "ingress.enabled is true but ingress.hosts is empty: add at least one host, e.g. ingress.hosts: [{host: "
  "nim.example.com, paths: [{path: /, pathType: Prefix}]}]." -}}
{{- include "nim-llm.fail" $message -}}
{{- end -}}
{{- end -}}

{{- /* a networkPolicy.ingressFrom peer is an ipBlock or selectors, not both */ -}}
{{- define "nim-llm.preflight.networkPolicyPeers" -}}
{{- $V := .Values -}}
{{- range $i, $peer := $V.networkPolicy.ingressFrom | default list -}}
{{- if and (hasKey $peer "ipBlock") (or (hasKey $peer "podSelector") (hasKey $peer "namespaceSelector")) -}}
{{- $message := print
  "networkPolicy.ingressFrom[%d] sets ipBlock together with podSelector or namespaceSelector, which "
  "Kubernetes refuses in one peer: split it into two entries, one with the ipBlock and one with the "
  "selectors." -}}
{{- include "nim-llm.fail" (printf $message $i) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The Service's labels must not redefine the chart's: the ServiceMonitor selects the Service by them. */ -}}
{{- define "nim-llm.preflight.serviceLabels" -}}
{{- $V := .Values -}}
{{- range $key := keys ($V.service.labels | default dict) | sortAlpha -}}
{{- if or (hasPrefix "app.kubernetes.io/" $key) (hasPrefix "helm.sh/" $key) (hasPrefix "nim-llm/" $key) -}}
{{- $message := print
  "service.labels sets %s, a label the chart manages (the ServiceMonitor and the release's own lookups "
  "select by it; a second value makes a duplicate key): remove it from service.labels, or use your own "
  "prefix such as example.com/%s." -}}
{{- include "nim-llm.fail" (printf $message $key (splitList "/" $key | last)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The EFA library directory is mounted at its host path: not on a path the NIM container already mounts. */ -}}
{{- define "nim-llm.preflight.efaHostPath" -}}
{{- $N := .Values.multinodeNetworking -}}
{{- if eq (include "nim-llm.networking.provider" .) "aws" -}}
{{- $efa := trimSuffix "/" (toString $N.aws.hostPath) -}}
{{- $role := ternary "leader" "mpi-worker" (eq (include "nim-llm.mode" .) "leaderworkerset") -}}
{{- range $m := include "nim-llm.volumeMounts" (dict "root" . "role" $role) | fromYamlArray -}}
{{- if and (ne $m.name "efa-libraries") (eq (trimSuffix "/" (toString $m.mountPath)) $efa) -}}
{{- $message := print
  "multinodeNetworking.aws.hostPath is %s, where the NIM container already mounts its %s volume "
  "(Kubernetes refuses a mount path used twice): set the host directory of the EFA libraries "
  "(/opt/amazon on the EKS GPU AMIs)." -}}
{{- include "nim-llm.fail" (printf $message $N.aws.hostPath $m.name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* one multinodeNetworking provider at most */ -}}
{{- define "nim-llm.preflight.oneNetworkProvider" -}}
{{- $on := include "nim-llm.networking.enabledProviders" . | fromYamlArray -}}
{{- if gt (len $on) 1 -}}
{{- $keys := list -}}
{{- range $on -}}{{- $keys = append $keys (printf "multinodeNetworking.%s.enabled" .) -}}{{- end -}}
{{- $message := print
  "%s are all true, but a cluster has one kind of high-speed network: keep exactly one "
  "multinodeNetworking provider enabled." -}}
{{- include "nim-llm.fail" (printf $message (join " and " $keys)) -}}
{{- end -}}
{{- end -}}

{{- /* network devices per GPU within what a node of the provider has */ -}}
{{- define "nim-llm.preflight.devicesPerGPU" -}}
{{- $N := .Values.multinodeNetworking -}}
{{- $on := include "nim-llm.networking.enabledProviders" . | fromYamlArray -}}
{{- $gpus := include "nim-llm.gpuLimit" . | int -}}
{{- $perGPU := dict "aws" (list "efaDevicesPerGPU" 32 "vpc.amazonaws.com/efa"
    "no EC2 instance has more than 32 EFA interfaces (p5.48xlarge: 32 for 8 GPUs, so 4 per GPU)") "azure"
  (list "rdmaDevicesPerGPU" 8 (printf "rdma/%s" $N.azure.rdmaDeviceName)
    "ND-series VMs have 8 InfiniBand HCAs for 8 GPUs, so at most 1 per GPU") "oci"
  (list "rdmaDevicesPerGPU" 16 "nvidia.com/mlnxnics"
    "OCI GPU bare-metal shapes expose at most 16 RDMA VFs (H100/A100: 2 per GPU, H200/B200: 1 per GPU)") -}}
{{- range $provider := $on -}}
{{- if and (hasKey $perGPU $provider) (not (and (eq $provider "aws") $N.aws.instanceType)) -}}
{{- $rule := index $perGPU $provider -}}
{{- $key := index $rule 0 -}}
{{- $value := index (index $N $provider) $key | int -}}
{{- if lt $value 1 -}}
{{- $message := print
  "multinodeNetworking.%s.%s is %d, but every GPU needs at least one network device: set "
  "multinodeNetworking.%s.%s to the devices per GPU of your instance type (%s)." -}}
{{- include "nim-llm.fail" (printf $message $provider $key $value $provider $key (index $rule 3)) -}}
{{- end -}}
{{- /* Compared by division: value x GPUs of a huge value wraps around and would pass. */ -}}
{{- if gt $value (div (index $rule 1 | int) (max $gpus 1)) -}}
{{- $request := ternary (printf "%d" (mul $value $gpus)) (printf "more than %d" (index $rule 1 | int))
  (lt $value 1000000) -}}
{{- $message := print
  "multinodeNetworking.%s.%s is %d, so each pod with %d GPUs would request %s %s, more than any node "
  "has (%s): lower multinodeNetworking.%s.%s to at most %d." -}}
{{- include "nim-llm.fail" (printf $message $provider $key $value $gpus $request (index $rule 2) (index $rule 3)
  $provider $key (div (index $rule 1 | int) (max $gpus 1))) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* GPUDirect-TCPXO: eight networks, eight GPUs, Kubernetes 1.29 or newer */ -}}
{{- define "nim-llm.preflight.gcpTcpxo" -}}
{{- $N := .Values.multinodeNetworking -}}
{{- $on := include "nim-llm.networking.enabledProviders" . | fromYamlArray -}}
{{- $gpus := include "nim-llm.gpuLimit" . | int -}}
{{- if and (has "gcp" $on) .Values.multiNode.enabled -}}
{{- if ne (len $N.gcp.networks) 8 -}}
{{- $message := print
  "multinodeNetworking.gcp.networks has %d entries, but GPUDirect-TCPXO uses the eight GPU NICs "
  "eth1..eth8 of an A3 Mega node: list the eight GKE network names, in order." -}}
{{- include "nim-llm.fail" (printf $message (len $N.gcp.networks)) -}}
{{- end -}}
{{- if ne $gpus 8 -}}
{{- $message := print
  "multinodeNetworking.gcp.enabled is true but resources.limits.nvidia.com/gpu is %d; GPUDirect-TCPXO "
  "pods take a whole A3 Mega node: set resources.limits.nvidia.com/gpu: 8 and multiNode.gpusPerNode: 8." -}}
{{- include "nim-llm.fail" (printf $message $gpus) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* multi-node networking needs shared memory for NCCL */ -}}
{{- define "nim-llm.preflight.ncclShm" -}}
{{- $on := include "nim-llm.networking.enabledProviders" . | fromYamlArray -}}
{{- if and $on .Values.multiNode.enabled (not .Values.shm.enabled) -}}
{{- $message := print
  "multinodeNetworking.%s.enabled is true but shm.enabled is false; NCCL needs shared memory at "
  "/dev/shm: set shm.enabled: true (and shm.sizeLimit)." -}}
{{- include "nim-llm.fail" (printf $message (first $on)) -}}
{{- end -}}
{{- end -}}

{{- /* Every TLS host of the Ingress is the host of one of its rules (a certificate for a host no rule serves secures
nothing), in lower case as Kubernetes requires. */ -}}
{{- define "nim-llm.preflight.ingressTlsHosts" -}}
{{- $V := .Values -}}
{{- if $V.ingress.enabled -}}
{{- $hosts := list -}}
{{- range $h := $V.ingress.hosts | default list -}}{{- $hosts = append $hosts (toString $h.host) -}}{{- end -}}
{{- range $i, $tls := $V.ingress.tls | default list -}}
{{- range $j, $host := $tls.hosts | default list -}}
{{- if not (regexMatch "^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$" (toString $host)) -}}
{{- $message := print
  "ingress.tls[%d].hosts[%d] is %q, which is no host name Kubernetes takes (lower-case letters, digits, '-' "
  "and '.', optionally starting with '*.'): write it as in ingress.hosts, e.g. %q." -}}
{{- include "nim-llm.fail" (printf $message $i $j (toString $host) (lower (toString $host))) -}}
{{- end -}}
{{- if not (has (toString $host) $hosts) -}}
{{- $message := print
  "ingress.tls[%d].hosts[%d] is %q, but no ingress.hosts entry serves that host, so the certificate would "
  "secure nothing: use one of the hosts of ingress.hosts (%s), or add a rule for %q to ingress.hosts." -}}
{{- include "nim-llm.fail" (printf $message $i $j (toString $host) (join ", " $hosts) (toString $host)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The pod annotations the networking provider sets (Multus networks, GKE interfaces and devices) are the chart's:
an entry of podAnnotations with the same key would replace them, and the pods would start without their networks. */ -}}
{{- define "nim-llm.preflight.networkingAnnotations" -}}
{{- $chart := include "nim-llm.networking.podAnnotations" . | fromYaml -}}
{{- range $key := keys (.Values.podAnnotations | default dict) | sortAlpha -}}
{{- if hasKey $chart $key -}}
{{- $message := print
  "podAnnotations sets %s, which the chart sets for multi-node networking (%s provider): your value would "
  "replace it and the pods would start without their high-speed networks. Remove %s from podAnnotations; "
  "the networks come from multinodeNetworking.*." -}}
{{- include "nim-llm.fail" (printf $message $key (include "nim-llm.networking.provider" $) $key) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* Network attachment names: Multus takes [<namespace>/]<name> of NetworkAttachmentDefinitions, GKE the names of its
Network objects; both are Kubernetes object names. */ -}}
{{- define "nim-llm.preflight.networkNames" -}}
{{- $N := .Values.multinodeNetworking -}}
{{- $names := list -}}
{{- if $N.oci.enabled -}}{{- $names = append $names (list "multinodeNetworking.oci.networkName" $N.oci.networkName) -}}{{- end -}}
{{- if $N.gcp.enabled -}}
{{- range $i, $n := $N.gcp.networks | default list -}}
{{- $names = append $names (list (printf "multinodeNetworking.gcp.networks[%d]" $i) $n) -}}
{{- end -}}
{{- end -}}
{{- range $n := $names -}}
{{- if not (regexMatch "^([a-z0-9]([-a-z0-9]*[a-z0-9])?/)?[a-z0-9]([-a-z0-9]*[a-z0-9])?$" (toString (index $n 1))) -}}
{{- $message := print
  "%s is %q, which is no network name the cluster can have: a network is a Kubernetes object, named in lower-case "
  "letters, digits and '-' (Multus also takes <namespace>/<name>): set it to the name of your network object." -}}
{{- include "nim-llm.fail" (printf $message (index $n 0) (toString (index $n 1))) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* One NetworkPolicy per multi-node group (a selector cannot say "my own group"): as many as the groups there may be
(autoscaling.maxReplicas or replicaCount, plus a rolling update's surge). Past 1000 the release would hold thousands of
policies (and Helm takes minutes to render them): refuse, naming both ways out. */ -}}
{{- define "nim-llm.preflight.networkPolicyGroups" -}}
{{- $V := .Values -}}
{{- if $V.networkPolicy.enabled -}}
{{- $mode := include "nim-llm.mode" . -}}
{{- $groups := 0 -}}
{{- if eq $mode "leaderworkerset" -}}{{- $groups = include "nim-llm.lwsGroupSlots" . | int -}}
{{- else if eq $mode "mpijob" -}}{{- $groups = int $V.replicaCount -}}
{{- end -}}
{{- if gt $groups 1000 -}}
{{- $key := ternary "autoscaling.maxReplicas" "replicaCount" (and $V.autoscaling.enabled (eq $mode "leaderworkerset")) -}}
{{- $message := print
  "networkPolicy.enabled renders one NetworkPolicy per multi-node group (a group's Ray, sshd and NCCL ports open to "
  "its own pods only), and %s allows %d groups (a rolling update's surge included): lower %s so that at most 1000 "
  "groups exist, or set networkPolicy.enabled: false and isolate the groups with policies of your own." -}}
{{- include "nim-llm.fail" (printf $message $key $groups $key) -}}
{{- end -}}
{{- end -}}
{{- end -}}
