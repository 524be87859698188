{{/* ---------------------------------------------------------------------------
Per-cloud multi-node networking, rendered straight into every GPU pod of a
multi-node deployment (LWS leaders and workers, MPIJob workers; never the MPIJob
launcher): no admission controller needed. At most one provider is enabled
(preflight). Each helper returns YAML for the active provider, or an empty value.
--------------------------------------------------------------------------- */}}

{{/* Providers switched on, in a fixed order (list). */}}
{{- define "nim-llm.networking.enabledProviders" -}}
{{- $on := list -}}
{{- range $p := list "aws" "azure" "gcp" "oci" -}}
{{- if (index $.Values.multinodeNetworking $p).enabled -}}{{- $on = append $on $p -}}{{- end -}}
{{- end -}}
{{- toYaml $on -}}
{{- end -}}

{{/* The provider injected into pods: the enabled one in a multi-node deployment, else empty. */}}
{{- define "nim-llm.networking.provider" -}}
{{- if .Values.multiNode.enabled -}}
{{- include "nim-llm.networking.enabledProviders" . | fromYamlArray | first | default "" -}}
{{- end -}}
{{- end -}}

{{/* EFA interfaces per 8-GPU instance, for multinodeNetworking.aws.instanceType. */}}
{{- define "nim-llm.networking.awsEfaPerInstance" -}}
{{- $efa := dict "p4d.24xlarge" 4 "p4de.24xlarge" 4 "p5.48xlarge" 32 "p5e.48xlarge" 32 "p5en.48xlarge" 16 "p6-b200.48xlarge" 8 -}}
{{- index $efa . -}}
{{- end -}}

{{/* Network devices one GPU container requests (a number; 0 for gcp and none). */}}
{{- define "nim-llm.networking.deviceCount" -}}
{{- $N := .Values.multinodeNetworking -}}
{{- $gpus := include "nim-llm.gpuLimit" . | int -}}
{{- $provider := include "nim-llm.networking.provider" . -}}
{{- if eq $provider "aws" -}}
{{- if $N.aws.instanceType -}}
{{- $perInstance := include "nim-llm.networking.awsEfaPerInstance" $N.aws.instanceType | int -}}
{{- max 1 (div (add (mul $perInstance $gpus) 7) 8) -}}
{{- else -}}
{{- mul (int $N.aws.efaDevicesPerGPU) $gpus -}}
{{- end -}}
{{- else if eq $provider "azure" -}}
{{- mul (int $N.azure.rdmaDevicesPerGPU) $gpus -}}
{{- else if eq $provider "oci" -}}
{{- mul (int $N.oci.rdmaDevicesPerGPU) $gpus -}}
{{- else -}}
0
{{- end -}}
{{- end -}}

{{/* Extended-resource device requests of each GPU container (map). */}}
{{- define "nim-llm.networking.devices" -}}
{{- $provider := include "nim-llm.networking.provider" . -}}
{{- $count := include "nim-llm.networking.deviceCount" . | int -}}
{{- if eq $provider "aws" -}}
vpc.amazonaws.com/efa: {{ $count }}
{{- else if eq $provider "azure" -}}
rdma/{{ .Values.multinodeNetworking.azure.rdmaDeviceName }}: {{ $count }}
{{- else if eq $provider "oci" -}}
nvidia.com/mlnxnics: {{ $count }}
{{- end -}}
{{- end -}}

{{/* Environment variables (YAML list entries appended to the derived env; a user env entry of the same name wins). */}}
{{- define "nim-llm.networking.env" -}}
{{- $provider := include "nim-llm.networking.provider" . -}}
{{- $vars := dict -}}
{{- if eq $provider "aws" -}}
{{- /* FI_EFA_USE_HUGE_PAGE=0: libfabric allocates no hugepages (a forking process would otherwise hit ENOMEM), so pods need no hugepages request. */ -}}
{{- $vars = dict "FI_PROVIDER" "efa" "FI_EFA_USE_DEVICE_RDMA" "1" "FI_EFA_USE_HUGE_PAGE" "0" "FI_EFA_FORK_SAFE" "1" -}}
{{- else if eq $provider "azure" -}}
{{- $vars = dict "NCCL_IB_PCI_RELAXED_ORDERING" "1" "CUDA_DEVICE_ORDER" "PCI_BUS_ID" "NCCL_SOCKET_IFNAME" "eth0"
  "NCCL_TOPO_FILE" "/etc/nccl/topology.xml" "UCX_IB_PCI_RELAXED_ORDERING" "on" "UCX_TLS" "rc" -}}
{{- else if eq $provider "gcp" -}}
{{- /* The NCCL configuration of Google's GPUDirect-TCPXO release of Jan 9, 2026 (container-engine-accelerators
gpudirect-tcpxo/README.md: NCCL plugin installer v1.0.15, tcpxo-daemon v1.0.21), without CUDA_VISIBLE_DEVICES (the
device plugin chooses the GPUs) and NCCL_DEBUG (the user's choice); the tuner files live where the installer puts the
plugin, mounted at /usr/local/nvidia/lib64. LD_LIBRARY_PATH is prepended at process start (nim-llm.networking.libraryPath). */ -}}
{{- $vars = dict "NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY" "/dev/aperture_devices" "NCCL_FASTRAK_CTRL_DEV" "eth0"
  "NCCL_FASTRAK_IFNAME" "eth1,eth2,eth3,eth4,eth5,eth6,eth7,eth8" "NCCL_SOCKET_IFNAME" "eth0" "NCCL_CROSS_NIC" "0"
  "NCCL_PROTO" "Simple,LL128" "NCCL_MIN_NCHANNELS" "4" "NCCL_TUNER_PLUGIN" "libnccl-tuner.so"
  "NCCL_TUNER_CONFIG_PATH" "/usr/local/nvidia/lib64/a3plus_tuner_config.textproto"
  "NCCL_SHIMNET_GUEST_CONFIG_CHECKER_CONFIG_FILE" "/usr/local/nvidia/lib64/a3plus_guest_config.textproto"
  "NCCL_NVLSTREE_MAX_CHUNKSIZE" "131072" "NCCL_P2P_NET_CHUNKSIZE" "524288" "NCCL_P2P_PCI_CHUNKSIZE" "524288"
  "NCCL_P2P_NVL_CHUNKSIZE" "1048576" "NCCL_FASTRAK_NUM_FLOWS" "2" "NCCL_FASTRAK_USE_SNAP" "1"
  "NCCL_FASTRAK_PLUGIN_ACCEPT_TIMEOUT_MS" "600000" "NCCL_FASTRAK_ENABLE_CONTROL_CHANNEL" "0" "NCCL_BUFFSIZE" "8388608"
  "NCCL_NET_GDR_LEVEL" "PIX" "NCCL_FASTRAK_ENABLE_HOTPATH_LOGGING" "0" "NCCL_FASTRAK_USE_LLCM" "1"
  "NCCL_NVLS_ENABLE" "1" -}}
{{- else if eq $provider "oci" -}}
{{- /* NCCL_IB_HCA "mlx5" is a prefix match (every mlx5_N VF); "=mlx5" would be an exact match on the whole name and match no device. */ -}}
{{- $vars = dict "NCCL_IB_HCA" "mlx5" "NCCL_IB_GID_INDEX" "3" "NCCL_IB_TC" "41" "NCCL_IB_SL" "0"
  "NCCL_IB_TIMEOUT" "22" "NCCL_IB_QPS_PER_CONNECTION" "4" "NCCL_IB_SPLIT_DATA_ON_QPS" "0" "NCCL_CUMEM_ENABLE" "0"
  "NCCL_SOCKET_IFNAME" "eth0" "NCCL_IGNORE_CPU_AFFINITY" "1" -}}
{{- end -}}
{{- range $name := keys $vars | sortAlpha }}
- name: {{ $name }}
  value: {{ index $vars $name | quote }}
{{- end -}}
{{- end -}}

{{/* Directories of the provider's NCCL network plugin, prepended to the image's LD_LIBRARY_PATH when each GPU
container's process starts (files/mpi/library-path.sh): a pod spec can only replace an image variable, and the NIM
image's own LD_LIBRARY_PATH must stay. AWS: multinodeNetworking.aws.ldLibraryPath; GCP: the mounted TCPXO plugin
directory, as Google's references prepend it. Empty for the others. */}}
{{- define "nim-llm.networking.libraryPath" -}}
{{- $provider := include "nim-llm.networking.provider" . -}}
{{- if eq $provider "aws" -}}
{{- .Values.multinodeNetworking.aws.ldLibraryPath -}}
{{- else if eq $provider "gcp" -}}
/usr/local/nvidia/lib64
{{- end -}}
{{- end -}}

{{/* Pod annotations (map). */}}
{{- define "nim-llm.networking.podAnnotations" -}}
{{- $provider := include "nim-llm.networking.provider" . -}}
{{- $N := .Values.multinodeNetworking -}}
{{- if eq $provider "gcp" -}}
{{- $devices := list -}}
{{- range $i := until 8 -}}{{- $devices = append $devices (dict "path" (printf "/dev/nvidia%d" $i)) -}}{{- end -}}
{{- $devices = concat $devices (list (dict "path" "/dev/nvidiactl") (dict "path" "/dev/nvidia-uvm") (dict "path" "/dev/dmabuf_import_helper")) -}}
{{- $interfaces := list (dict "interfaceName" "eth0" "network" "default") -}}
{{- range $i, $net := $N.gcp.networks -}}
{{- $interfaces = append $interfaces (dict "interfaceName" (printf "eth%d" (add1 $i)) "network" $net) -}}
{{- end -}}
devices.gke.io/container.tcpxo-daemon: {{ toYaml $devices | quote }}
networking.gke.io/default-interface: eth0
networking.gke.io/interfaces: {{ toJson $interfaces | quote }}
{{- else if eq $provider "oci" -}}
{{- $nets := list -}}
{{- /* At most 256 (the preflight refuses more than a node has; the bound keeps a huge count from exhausting memory first). */ -}}
{{- range until (min (include "nim-llm.networking.deviceCount" . | int) 256 | int) -}}{{- $nets = append $nets $N.oci.networkName -}}{{- end -}}
k8s.v1.cni.cncf.io/networks: {{ join "," $nets | quote }}
{{- end -}}
{{- end -}}

{{/* Capabilities added to the NIM container (list): IPC_LOCK for RDMA memory registration. */}}
{{- define "nim-llm.networking.capabilities" -}}
{{- if has (include "nim-llm.networking.provider" .) (list "aws" "azure" "oci") -}}
- IPC_LOCK
{{- else -}}
[]
{{- end -}}
{{- end -}}

{{/* Native sidecars (init containers with restartPolicy Always) of GPU pods (list). */}}
{{- define "nim-llm.networking.sidecars" -}}
{{- if eq (include "nim-llm.networking.provider" .) "gcp" -}}
- name: tcpxo-daemon
  image: {{ .Values.multinodeNetworking.gcp.tcpxoDaemonImage | quote }}
  imagePullPolicy: IfNotPresent
  restartPolicy: Always
  command: ["/bin/sh", "-c"]
  args:
    - |
      set -ex
      chmod 755 /fts/entrypoint_rxdm_container.sh
      /fts/entrypoint_rxdm_container.sh --num_hops=2
  # Arguments as Google's current reference (gpudirect-tcpxo/nccl-test-latest.yaml): --uid and --alsologtostderr are
  # obsolete since the open-source daemon (Aug 21, 2025 release), --num_nics has no effect since Nov 19, 2025.
  # The receive-datapath manager configures the GPU NICs: it runs as root with NET_ADMIN (a documented
  # exception to the chart's non-root default); the NIM container itself stays non-root.
  securityContext:
    runAsUser: 0
    runAsNonRoot: false
    allowPrivilegeEscalation: false
    capabilities:
      drop: [ALL]
      add: [NET_ADMIN, NET_BIND_SERVICE]
  # Its root filesystem stays writable: the entrypoint above changes a file of the image (a documented exception).
  resources:
    requests:
      cpu: 150m
      memory: 512Mi
    limits:
      memory: 2Gi
  env:
    - name: LD_LIBRARY_PATH
      value: /usr/local/nvidia/lib64
  volumeMounts:
    - name: nvidia-install-dir-host
      mountPath: /usr/local/nvidia/lib64
    - name: sys
      mountPath: /hostsysfs
    - name: proc-sys
      mountPath: /hostprocsysfs
{{- else -}}
[]
{{- end -}}
{{- end -}}

{{/* Pod volumes (list). */}}
{{- define "nim-llm.networking.volumes" -}}
{{- $provider := include "nim-llm.networking.provider" . -}}
{{- if eq $provider "aws" -}}
- name: efa-libraries
  hostPath:
    path: {{ .Values.multinodeNetworking.aws.hostPath | quote }}
    type: Directory
{{- else if eq $provider "azure" -}}
- name: nccl-topology
  configMap:
    name: {{ include "nim-llm.fullname" . }}-nccl-topology
{{- else if eq $provider "gcp" -}}
- name: nvidia-install-dir-host
  hostPath:
    path: /home/kubernetes/bin/nvidia/lib64
- name: sys
  hostPath:
    path: /sys
- name: proc-sys
  hostPath:
    path: /proc/sys
- name: aperture-devices
  hostPath:
    path: /dev/aperture_devices
{{- else if eq $provider "oci" -}}
- name: infiniband
  hostPath:
    path: /dev/infiniband
    type: Directory
{{- else -}}
[]
{{- end -}}
{{- end -}}

{{/* NIM container mounts (list). */}}
{{- define "nim-llm.networking.volumeMounts" -}}
{{- $provider := include "nim-llm.networking.provider" . -}}
{{- if eq $provider "aws" -}}
- name: efa-libraries
  mountPath: {{ .Values.multinodeNetworking.aws.hostPath | quote }}
  readOnly: true
{{- else if eq $provider "azure" -}}
- name: nccl-topology
  mountPath: /etc/nccl
  readOnly: true
{{- else if eq $provider "gcp" -}}
{{- /* The NIM container only loads the NCCL plugin and reads its tuner configs there: read-only, as AWS's libraries.
The tcpxo-daemon's own mounts of it, /sys and /proc/sys stay writable as Google's reference mounts them
(gpudirect-tcpxo/nccl-test-latest.yaml): no public source says the daemon runs with them read-only. */}}
- name: nvidia-install-dir-host
  mountPath: /usr/local/nvidia/lib64
  readOnly: true
- name: aperture-devices
  mountPath: /dev/aperture_devices
{{- else if eq $provider "oci" -}}
- name: infiniband
  mountPath: /dev/infiniband
{{- else -}}
[]
{{- end -}}
{{- end -}}

{{/* NOTES.txt line: what IPC_LOCK does and does not do for the NIM container. */}}
{{- define "nim-llm.networking.ipcLockNote" -}}
IPC_LOCK is asked for RDMA memory registration, but a process that does not run as root (the chart's default)
does not get it in its effective set: RDMA needs a large enough locked-memory limit (ulimit -l), which comes
from the node's container runtime configuration, not from this chart.
{{- end -}}

{{/* NOTES.txt line: the documented exception to the chart's secure defaults a provider needs. */}}
{{- define "nim-llm.networking.securityNote" -}}
Security exception: {{ . }}. A namespace enforcing the baseline or restricted Pod Security Standard
refuses these pods: run them in a namespace labelled pod-security.kubernetes.io/enforce=privileged.
{{- end -}}

{{/* NOTES.txt lines: the cluster prerequisite of the chosen provider, or why nothing was injected. */}}
{{- define "nim-llm.networking.notes" -}}
{{- $on := include "nim-llm.networking.enabledProviders" . | fromYamlArray -}}
{{- $provider := include "nim-llm.networking.provider" . -}}
{{- if and $on (not .Values.multiNode.enabled) }}

Networking: multinodeNetworking.{{ first $on }} is enabled but this is a single-node deployment,
so no high-speed networking was injected (it only applies with multiNode.enabled: true).
{{- else if eq $provider "aws" }}

Networking: AWS EFA ({{ include "nim-llm.networking.deviceCount" . }} vpc.amazonaws.com/efa per GPU pod).
Cluster prerequisite: the EFA device plugin (aws-efa-k8s-device-plugin) on EFA-enabled instances,
and a security group that allows all traffic between the nodes of the placement group.
{{ include "nim-llm.networking.securityNote" (printf "the NIM container adds IPC_LOCK and mounts the host's %s" .Values.multinodeNetworking.aws.hostPath) }}
{{ include "nim-llm.networking.ipcLockNote" . }}
{{- else if eq $provider "azure" }}

Networking: Azure InfiniBand ({{ include "nim-llm.networking.deviceCount" . }} rdma/{{ .Values.multinodeNetworking.azure.rdmaDeviceName }} per GPU pod, {{
  .Values.multinodeNetworking.azure.vmGeneration }} NCCL topology).
Cluster prerequisite: the RDMA shared device plugin or the NVIDIA Network Operator on InfiniBand VM sizes.
{{ include "nim-llm.networking.securityNote" "the NIM container adds IPC_LOCK" }}
{{ include "nim-llm.networking.ipcLockNote" . }}
{{- else if eq $provider "gcp" }}

Networking: GCP GPUDirect-TCPXO (tcpxo-daemon sidecar, networks {{ join ", " .Values.multinodeNetworking.gcp.networks }}).
Cluster prerequisite: A3 Mega node pools with GKE multi-networking and the eight GPU NIC networks
(Network and GKENetworkParamSet objects named as in multinodeNetworking.gcp.networks), and Google's
nccl-tcpxo-installer DaemonSet at the version that goes with the tcpxo-daemon image
({{ .Values.multinodeNetworking.gcp.tcpxoDaemonImage }}; v1.0.21 goes with installer v1.0.15).
{{ include "nim-llm.networking.securityNote" (print "the tcpxo-daemon sidecar runs as root with NET_ADMIN and NET_BIND_SERVICE "
  "(it configures the GPU NICs) and mounts host paths; the NIM container stays non-root") }}
{{- else if eq $provider "oci" }}

Networking: OCI RDMA over SR-IOV ({{ include "nim-llm.networking.deviceCount" . }} nvidia.com/mlnxnics per GPU pod, Multus network {{ .Values.multinodeNetworking.oci.networkName }}).
Cluster prerequisite: the SR-IOV Network Operator with the "{{ .Values.multinodeNetworking.oci.networkName }}" network attachment and its device plugin.
{{ include "nim-llm.networking.securityNote" "the NIM container adds IPC_LOCK and mounts the host's /dev/infiniband" }}
{{ include "nim-llm.networking.ipcLockNote" . }}
{{- end }}
{{- end -}}
