{{/* ---------------------------------------------------------------------------
Environment of the NIM container. The chart derives the variables a role needs;
an entry of the user's `env` with the same name replaces the derived one, so no
name appears twice. Derived variables come first, the user's after, in order.
Usage: include "nim-llm.env" (dict "root" $ "role" "leader")
--------------------------------------------------------------------------- */}}
{{- define "nim-llm.env" -}}
{{- $root := .root -}}
{{- $derived := include "nim-llm.derivedEnv" . | fromYamlArray -}}
{{- $userEnv := $root.Values.env | default list -}}
{{- $userNames := dict -}}
{{- range $userEnv -}}{{- $_ := set $userNames .name true -}}{{- end -}}
{{- $out := list -}}
{{- range $derived -}}
{{- if not (hasKey $userNames .name) -}}{{- $out = append $out . -}}{{- end -}}
{{- end -}}
{{- toYaml (concat $out $userEnv) -}}
{{- end -}}

{{/* The chart-derived variables of a role, as a YAML list of EnvVar. */}}
{{- define "nim-llm.derivedEnv" -}}
{{- $root := .root -}}
{{- $role := .role -}}
{{- $V := $root.Values -}}
{{- $mode := include "nim-llm.mode" $root -}}
- name: NIM_CACHE_PATH
  value: {{ $V.model.nimCache | quote }}
{{- /* The NGC key by model source and air-gap mode (_modelsource.tpl). */}}
{{- /* Not on the MPIJob launcher: it runs mpirun and downloads nothing (every rank gets its own pod's environment). */}}
{{- if ne $role "launcher" }}
{{- with include "nim-llm.modelSource.ngcKeyEnv" $root }}
{{ . }}
{{- end }}
{{- end }}
- name: NIM_SERVER_PORT
  value: {{ $V.model.openaiPort | int64 | toString | quote }}
- name: NIM_LOG_LEVEL
  value: {{ $V.model.logLevel | upper | quote }}
{{- /* JSON lines logging stays off in multi-node, as NVIDIA's NIM documentation advises for multi-node (its own
multi-node examples set jsonLogging: false); an env entry NIM_JSONL_LOGGING still wins. */}}
- name: NIM_JSONL_LOGGING
  value: {{ ternary "1" "0" (and $V.model.jsonLogging (not $V.multiNode.enabled)) | quote }}
{{- /* NIM 3.0 Dynamo mode and the engine settings of model.engine (_engine.tpl). */}}
{{- if ne $role "launcher" }}
{{- include "nim-llm.engine.env" $root }}
{{- end }}
{{- /* HOME and the caches GPU engines write at start, in the writable home (home.path): a read-only root filesystem
has no writable HOME otherwise (the runtime takes it from the image's passwd entry, else /). Each engine's own variable
too, so none depends on how it finds its home: Triton (TRITON_HOME, TRITON_CACHE_DIR), vLLM's torch.compile artifacts
(VLLM_CACHE_ROOT), PyTorch Inductor (TORCHINDUCTOR_CACHE_DIR, else /tmp/torchinductor_<user>, which needs a passwd
entry) and hub (TORCH_HOME), FlashInfer's JIT (FLASHINFER_WORKSPACE_BASE), CUDA's PTX JIT (CUDA_CACHE_PATH), Outlines
(OUTLINES_CACHE_DIR, which the NIM Operator puts under /tmp). */}}
{{- $home := trimSuffix "/" (toString $V.home.path) }}
- name: HOME
  value: {{ $home | quote }}
- name: XDG_CACHE_HOME
  value: {{ printf "%s/.cache" $home | quote }}
- name: TRITON_HOME
  value: {{ $home | quote }}
- name: TRITON_CACHE_DIR
  value: {{ printf "%s/.triton/cache" $home | quote }}
- name: VLLM_CACHE_ROOT
  value: {{ printf "%s/.cache/vllm" $home | quote }}
- name: TORCHINDUCTOR_CACHE_DIR
  value: {{ printf "%s/.cache/torchinductor" $home | quote }}
- name: TORCH_HOME
  value: {{ printf "%s/.cache/torch" $home | quote }}
- name: FLASHINFER_WORKSPACE_BASE
  value: {{ $home | quote }}
- name: CUDA_CACHE_PATH
  value: {{ printf "%s/.nv/ComputeCache" $home | quote }}
- name: OUTLINES_CACHE_DIR
  value: {{ printf "%s/.cache/outlines" $home | quote }}
{{- if ne $role "launcher" }}
- name: NGC_HOME
  value: {{ printf "%s/ngc" (trimSuffix "/" $V.model.nimCache) | quote }}
- name: HF_HOME
  value: {{ printf "%s/huggingface" (trimSuffix "/" $V.model.nimCache) | quote }}
{{- end }}
{{- if $V.multiNode.enabled }}
- name: NIM_MULTI_NODE
  value: "1"
- name: NIM_NUM_COMPUTE_NODES
  value: {{ $V.multiNode.workers | int64 | toString | quote }}
- name: NIM_GPUS_PER_NODE
  value: {{ $V.multiNode.gpusPerNode | int64 | toString | quote }}
- name: NIM_TENSOR_PARALLEL_SIZE
  value: {{ $V.multiNode.gpusPerNode | int64 | toString | quote }}
- name: NIM_PIPELINE_PARALLEL_SIZE
  value: {{ $V.multiNode.workers | int64 | toString | quote }}
- name: CLUSTER_START_TIMEOUT
  value: {{ $V.multiNode.clusterStartTimeout | int64 | toString | quote }}
{{- if eq $mode "leaderworkerset" }}
- name: NIM_LEADER_ROLE
  value: {{ ternary "1" "0" (eq $role "leader") | quote }}
- name: NIM_NODE_RANK
  valueFrom:
    fieldRef:
      fieldPath: metadata.labels['leaderworkerset.sigs.k8s.io/worker-index']
{{- /* The leader's address under the name NVIDIA's multi-node recipes give it (a DNS name here, which the NIM
resolves); LWS_LEADER_ADDRESS is injected by the LeaderWorkerSet webhook before the chart's entries. */}}
- name: NIM_LEADER_IP_ADDRESS
  value: $(LWS_LEADER_ADDRESS)
- name: MASTER_ADDR
  value: $(LWS_LEADER_ADDRESS)
- name: MASTER_PORT
  value: {{ $V.multiNode.masterPort | int64 | toString | quote }}
{{- else if eq $role "mpi-worker" }}
- name: NIM_NODE_RANK
  valueFrom:
    fieldRef:
      fieldPath: metadata.labels['training.kubeflow.org/replica-index']
{{- /* The leader of an MPIJob is worker 0 (MPI rank 0). Its address is the chart's headless Service named like its
host, <job>-worker-0, which publishes it before it is Ready (service-headless.yaml); the operator's own name
<job>-worker-0.<job> resolves only once the pod is Ready, and worker 0 is Ready only once the server answers. The
job's name is known only at run time (it carries a hash of this spec), so it is read from the pod's label. */}}
- name: NIM_MPI_JOB_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.labels['training.kubeflow.org/job-name']
- name: NIM_MPI_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
- name: MASTER_ADDR
  value: $(NIM_MPI_JOB_NAME)-worker-0.$(NIM_MPI_NAMESPACE).svc
- name: MASTER_PORT
  value: {{ $V.multiNode.masterPort | int64 | toString | quote }}
{{- end }}
{{- if include "nim-llm.usesRay" $root }}
{{- /* Ray reports usage statistics to its maintainers by default; a cluster serving models has no reason to, and an
air-gapped one could not. */}}
- name: RAY_USAGE_STATS_ENABLED
  value: "0"
{{- end }}
{{- if include "nim-llm.usesMPI" $root }}
- name: NIM_MPI_SSH_PORT
  value: {{ $V.multiNode.sshPort | int64 | toString | quote }}
{{- /* Least privilege: the pod that runs mpirun (LWS leader, MPIJob launcher) names the private key it dials with;
a pod that runs sshd names the public key it accepts and the memory-backed directory its sshd_config (which carries
this container's environment, secrets included) is written to. */}}
{{- if has $role (list "leader" "launcher") }}
- name: NIM_MPI_SSH_KEY
  value: {{ include "nim-llm.sshKeyPath" $root | quote }}
{{- end }}
{{- if include "nim-llm.runsSshd" (dict "root" $root "role" $role) }}
- name: NIM_MPI_SSH_AUTHORIZED_KEYS
  value: {{ include "nim-llm.sshAuthorizedKeysPath" $root | quote }}
- name: NIM_MPI_SSHD_DIR
  value: {{ include "nim-llm.sshdDir" $root | quote }}
{{- end }}
{{- if eq $role "launcher" }}
- name: NIM_MPI_NUM_PROCESSES
  value: {{ mul $V.multiNode.workers $V.multiNode.gpusPerNode | int64 | toString | quote }}
{{- end }}
{{- end }}
{{- if ne $role "launcher" }}
{{- include "nim-llm.networking.env" $root }}
{{- end }}
{{- end }}
{{- /* Model source, LoRA, proxy, CA bundle and health port (_modelsource.tpl). */}}
{{- with include "nim-llm.modelSource.env" (dict "root" $root "role" $role) }}
{{ . }}
{{- end }}
{{- end -}}

{{/* Where the MPI SSH private key is mounted: our Secret for LeaderWorkerSet, mpi-operator's for MPIJob. */}}
{{- define "nim-llm.sshKeyPath" -}}
{{- if eq (include "nim-llm.mode" .) "mpijob" -}}/etc/nim-llm/ssh/id_rsa{{- else -}}/etc/nim-llm/ssh/private.key{{- end -}}
{{- end -}}

{{/* Where the MPI SSH public key (an authorized_keys line) is mounted: our Secret's public.key for LeaderWorkerSet
workers (which get no private key), mpi-operator's authorized_keys for MPIJob workers (the operator mounts its whole
key pair on every pod of the job; the chart cannot change that, and worker.sh reads only the public key). */}}
{{- define "nim-llm.sshAuthorizedKeysPath" -}}
{{- if eq (include "nim-llm.mode" .) "mpijob" -}}/etc/nim-llm/ssh/authorized_keys{{- else -}}/etc/nim-llm/ssh/public.key{{- end -}}
{{- end -}}

{{/* The memory-backed directory (emptyDir, medium Memory) of a worker's sshd: its host key, authorized keys and its
sshd_config, whose SetEnv line carries the container's environment (NGC_API_KEY included) to the ranks: never on disk. */}}
{{- define "nim-llm.sshdDir" -}}
/opt/nim-llm/sshd
{{- end -}}
