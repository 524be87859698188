{{/* ---------------------------------------------------------------------------
Preflight: the index of every rule the chart checks before it creates anything.
values.schema.json checks single keys (types, enums, ranges, patterns, unknown
keys); the rules listed here check what one key means for another, and what the
API server, a controller or the start-up scripts would refuse after install.
templates/validate/preflight.yaml is the one template that includes
"nim-llm.preflight": Helm renders it before any object template, so a refusal
is the first and only error a user sees, and nothing is created.

Each rule is one define, "nim-llm.preflight.<rule>", taking the chart's root
context; it refuses through "nim-llm.fail" with a message that names the key by
its full path and says what to set instead. The rules run in the order below,
one line each. Their bodies live in files by concern:
  _preflight_values.tpl       values alone: blocks, upstream keys, Secret names, GPU counts, probes, labels, budgets
  _preflight_image.tpl        the image reference (image.*)
  _preflight_cache.tpl        the model cache's storage: one backend, claims, NFS, its paths
  _preflight_resources.tpl    requests and limits, memory, shared memory, disk, the size of stored objects
  _preflight_security.tpl     who containers run as, secrets in plain sight, host paths
  _preflight_env.tpl          the containers' environment (env), derived and start-up variables
  _preflight_mounts.tpl       extra volumes, mounts and init containers
  _preflight_writable.tpl     where the NIM container can write (its home, the caches engines write at start)
  _preflight_engine.tpl       NIM 3.0 Dynamo mode and the engine settings (model.dynamo, model.engine)
  _preflight_ray.tpl          the Ray launch mode (NIM 2.x and 3.x)
  _preflight_runtime.tpl      the pod's runtime: ports in one network namespace, proxies, pre-fill writes
  _preflight_multinode.tpl    multi-node: counts, parallelism, shared cache, launch modes, names
  _preflight_networking.tpl   Services, Ingress, NetworkPolicy, multi-node networking
  _preflight_routing.tpl      Inference Gateway routing: the InferencePool and the HTTPRoute
  _preflight_picker.tpl       the endpoint picker (inferencePool.epp.*)
  _preflight_autoscaling.tpl  LLM-aware autoscaling (autoscaling.nimMetrics, autoscaling.keda)
  _preflight_placement.tpl    placement: DRA GPUs, ComputeDomains, topology, LWS policies, Kueue
  _preflight_modelsource.tpl  model sources, cache pre-fill, air gap, LoRA, CA bundle, health port
  _preflight_live.tpl         upgrades against the release's live objects
  _numbers.tpl                number helpers (counts, sizes, quantities)
A new rule: its define in the file of its concern, or in a new
_preflight_<topic>.tpl, and one line below calling it, with a one-line comment.
--------------------------------------------------------------------------- */}}
{{- define "nim-llm.fail" -}}
{{- fail (printf "\n\nnim-llm: %s\n" .) -}}
{{- end -}}

{{- define "nim-llm.preflight" -}}
{{- /* Values alone (_preflight_values.tpl) */ -}}
{{- include "nim-llm.preflight.blocks" . -}}                        {{- /* no block of settings is null (a null deletes all of the block's defaults) */ -}}
{{- include "nim-llm.preflight.upstreamKeys" . -}}                  {{- /* keys of the upstream nim-deploy chart renamed or removed here */ -}}
{{- /* The image reference (_preflight_image.tpl) */ -}}
{{- include "nim-llm.preflight.imageTagQuoted" . -}}                {{- /* image.tag is a string (a YAML number has lost its text) */ -}}
{{- include "nim-llm.preflight.imageReference" . -}}                {{- /* image.repository holds no digest or tag (the chart appends :<image.tag>) */ -}}
{{- include "nim-llm.preflight.imageRepositoryForm" . -}}           {{- /* image.repository is a pullable reference (no scheme, lower case) */ -}}
{{- include "nim-llm.preflight.imageTagComparable" . -}}            {{- /* a version-like image.tag can be compared with NIM versions */ -}}
{{- /* Values alone (_preflight_values.tpl) */ -}}
{{- include "nim-llm.preflight.secretNames" . -}}                   {{- /* no two Secrets of the release share a name */ -}}
{{- /* The model cache's storage (_preflight_cache.tpl) */ -}}
{{- include "nim-llm.preflight.oneCacheBackend" . -}}               {{- /* the model cache takes one backend at most */ -}}
{{- include "nim-llm.preflight.existingClaimNeedsPersistence" . -}} {{- /* persistence.existingClaim only with persistence.enabled */ -}}
{{- include "nim-llm.preflight.nfsServerAndPath" . -}}              {{- /* nfs.enabled needs nfs.server and nfs.path */ -}}
{{- include "nim-llm.preflight.nfsServerIsHost" . -}}               {{- /* nfs.server is a host, the export is nfs.path */ -}}
{{- include "nim-llm.preflight.pathsWithoutDotDot" . -}}            {{- /* no ".." in the paths the pods mount */ -}}
{{- include "nim-llm.preflight.cachePathFree" . -}}                 {{- /* model.nimCache is not a directory the image or chart uses */ -}}
{{- include "nim-llm.preflight.sharedClaimAccessMode" . -}}         {{- /* several single-node pods share a claim only with ReadWriteMany */ -}}
{{- /* Values alone (_preflight_values.tpl) */ -}}
{{- include "nim-llm.preflight.numGpus" . -}}                       {{- /* model.numGpus (if set) equals the GPU limit */ -}}
{{- include "nim-llm.preflight.singleNodeParallelism" . -}}         {{- /* single-node: literal tensor x pipeline parallel sizes fit the GPUs */ -}}
{{- include "nim-llm.preflight.probeSuccessThreshold" . -}}         {{- /* startup and liveness probes have successThreshold 1 */ -}}
{{- include "nim-llm.preflight.modelLabels" . -}}                   {{- /* model.labels does not redefine the chart's own labels */ -}}
{{- include "nim-llm.preflight.autoscalingRange" . -}}              {{- /* autoscaling.minReplicas at most autoscaling.maxReplicas */ -}}
{{- include "nim-llm.preflight.oneDisruptionBudgetBound" . -}}      {{- /* a PodDisruptionBudget takes minAvailable or maxUnavailable, not both */ -}}
{{- include "nim-llm.preflight.percentagesAtMost100" . -}}          {{- /* budget and maxUnavailable percentages at most 100% */ -}}
{{- include "nim-llm.preflight.serviceAccountNotDefault" . -}}      {{- /* the chart does not create the ServiceAccount default */ -}}
{{- include "nim-llm.preflight.scrapeTimeoutWithinInterval" . -}}   {{- /* the ServiceMonitor scrape timeout is within its interval */ -}}
{{- include "nim-llm.preflight.rolloutProgress" . -}}               {{- /* a Deployment's rollout can replace a pod (maxSurge, maxUnavailable not both 0) */ -}}
{{- /* Requests and limits, memory, shared memory and disk (_preflight_resources.tpl) */ -}}
{{- include "nim-llm.preflight.gpuRequestEqualsLimit" . -}}         {{- /* resources.requests.nvidia.com/gpu (if set) equals the limit */ -}}
{{- include "nim-llm.preflight.resourcesOfEveryContainer" . -}}     {{- /* every resources key: requests within limits, extended resources whole and not overcommitted */ -}}
{{- include "nim-llm.preflight.hugepagesWholePages" . -}}           {{- /* a hugepages quantity is a whole number of its pages */ -}}
{{- include "nim-llm.preflight.shmWithinMemoryLimit" . -}}          {{- /* shm.sizeLimit below resources.limits.memory (its pages count against it) */ -}}
{{- include "nim-llm.preflight.cacheWithinEphemeralStorageLimit" . -}} {{- /* an emptyDir cache's size within the ephemeral-storage limit */ -}}
{{- include "nim-llm.preflight.homeSizeFloor" . -}}                 {{- /* home.sizeLimit at least 1Gi (engines compile into it at start) */ -}}
{{- /* Who containers run as, secrets in plain sight, host paths (_preflight_security.tpl) */ -}}
{{- include "nim-llm.preflight.runAsNonRoot" . -}}                  {{- /* runAsNonRoot is set somewhere (a null must not silently allow root) */ -}}
{{- include "nim-llm.preflight.rootUserUnderNonRoot" . -}}          {{- /* no container runs as user 0 under runAsNonRoot: true */ -}}
{{- include "nim-llm.preflight.seLinuxChangePolicy" . -}}           {{- /* seLinuxChangePolicy MountOption only from Kubernetes 1.37 */ -}}
{{- /* The environment (_preflight_env.tpl) */ -}}
{{- include "nim-llm.preflight.envOnePerName" . -}}                 {{- /* env holds one entry per variable */ -}}
{{- /* Who containers run as, secrets in plain sight, host paths (_preflight_security.tpl) */ -}}
{{- include "nim-llm.preflight.plainSecrets" . -}}                  {{- /* no secret-like env variable (pod or init container) is a literal */ -}}
{{- include "nim-llm.preflight.secretExpansions" . -}}             {{- /* no $(VAR) of a secret variable in a command or args */ -}}
{{- include "nim-llm.preflight.proxyCredentials" . -}}             {{- /* proxy URLs carry no user:password@ */ -}}
{{- include "nim-llm.preflight.hostPathSystem" . -}}               {{- /* no host path on the node's system directories */ -}}
{{- /* The environment (_preflight_env.tpl) */ -}}
{{- include "nim-llm.preflight.envNotOwnedElsewhere" . -}}          {{- /* env does not replace PATH, LD_LIBRARY_PATH or the GPU list */ -}}
{{- include "nim-llm.preflight.envValuesPassable" . -}}             {{- /* env values a process environment can carry (no NUL, under 128 KiB) */ -}}
{{- /* Extra volumes, mounts and init containers (_preflight_mounts.tpl) */ -}}
{{- include "nim-llm.preflight.extraVolumeNames" . -}}              {{- /* extraVolumes names are unique and not the chart's own */ -}}
{{- include "nim-llm.preflight.extraMountsResolve" . -}}            {{- /* every extraVolumeMounts entry names an extraVolumes volume */ -}}
{{- include "nim-llm.preflight.extraVolumeTypes" . -}}              {{- /* extraVolumes are no volume type Kubernetes removed (quobyte, glusterfs, gitRepo, ...) */ -}}
{{- include "nim-llm.preflight.initContainerNames" . -}}            {{- /* init container names are unique and not the chart's */ -}}
{{- include "nim-llm.preflight.initContainerMounts" . -}}           {{- /* init containers mount (and map devices of) only volumes the pod has */ -}}
{{- include "nim-llm.preflight.initContainerClaims" . -}}           {{- /* init containers claim only the pod's own DRA claims */ -}}
{{- include "nim-llm.preflight.initContainerRestartPolicy" . -}}    {{- /* an init container's restartPolicy Never/OnFailure needs Kubernetes 1.35 */ -}}
{{- include "nim-llm.preflight.mountPaths" . -}}                    {{- /* extra mounts stay off the chart's own mount paths */ -}}
{{- /* Where the NIM container writes (_preflight_writable.tpl) */ -}}
{{- include "nim-llm.preflight.homePathFree" . -}}                  {{- /* home.path is a directory of its own (no image, system or chart directory) */ -}}
{{- include "nim-llm.preflight.cachePathsWritable" . -}}            {{- /* env entries that move a cache (HOME, TRITON_CACHE_DIR, ...) name a writable directory */ -}}
{{- /* NIM 3.0 Dynamo mode and engine settings (_preflight_engine.tpl); before the multi-node env rules */ -}}
{{- include "nim-llm.preflight.engineEnvOwned" . -}}               {{- /* env sets no Dynamo selector or port, nor a variable model.engine sets */ -}}
{{- include "nim-llm.preflight.dynamoMode" . -}}                   {{- /* Dynamo single-container only, on NIM 3.x, single-node, with the recipe's profile */ -}}
{{- include "nim-llm.preflight.engineSettings" . -}}               {{- /* engine settings exist in the image's NIM version; args no other key owns */ -}}
{{- /* The Ray launch mode (_preflight_ray.tpl) */ -}}
{{- include "nim-llm.preflight.ray" . -}}                          {{- /* Ray launch mode (NIM 2.x and 3.x): its rules, in order */ -}}
{{- /* The environment (_preflight_env.tpl) */ -}}
{{- include "nim-llm.preflight.scriptEnv" . -}}                     {{- /* env entries the MPI start-up scripts read keep their meaning */ -}}
{{- include "nim-llm.preflight.derivedEnvKeepsMeaning" . -}}        {{- /* env entries for variables the chart derives say the same */ -}}
{{- /* The pod's runtime contract (_preflight_runtime.tpl) */ -}}
{{- include "nim-llm.preflight.podPorts" . -}}                      {{- /* the API port, the SSH port and MASTER_PORT differ (one network namespace) */ -}}
{{- /* The environment (_preflight_env.tpl) */ -}}
{{- include "nim-llm.preflight.envNotDerived" . -}}                 {{- /* env does not replace a variable the chart derives from a key it uses elsewhere */ -}}
{{- /* The pod's runtime contract (_preflight_runtime.tpl) */ -}}
{{- include "nim-llm.preflight.initContainerProxyEnv" . -}}         {{- /* an extraInit container sets all six proxy variables or none (proxy.* fills them) */ -}}
{{- include "nim-llm.preflight.cachePrefillPathsWritable" . -}}     {{- /* the pre-fill Job can write where env points its caches */ -}}
{{- include "nim-llm.preflight.selectorsDisjoint" . -}}             {{- /* the endpoint picker's pods never carry the model's selector labels */ -}}
{{- /* Multi-node (_preflight_multinode.tpl) */ -}}
{{- include "nim-llm.preflight.mpiJobHostNames" . -}}               {{- /* MPIJob pod host names fit 63 characters */ -}}
{{- include "nim-llm.preflight.lwsNamesFit" . -}}                   {{- /* LeaderWorkerSet StatefulSet names leave room for the revision hash */ -}}
{{- include "nim-llm.preflight.customArgsInMpi" . -}}               {{- /* in mpi launch mode customArgs start with the program */ -}}
{{- if .Values.multiNode.enabled -}}
{{- include "nim-llm.preflight.multiNodeCounts" . -}}               {{- /* multiNode.workers, gpusPerNode and clusterStartTimeout are at least 1 */ -}}
{{- include "nim-llm.preflight.multiNodeOptimized" . -}}            {{- /* multi-node runs optimized (TensorRT-LLM) profiles only */ -}}
{{- include "nim-llm.preflight.multiNodeGpusPerNode" . -}}          {{- /* multiNode.gpusPerNode equals the GPU limit */ -}}
{{- include "nim-llm.preflight.multiNodeParallelism" . -}}          {{- /* tensor x pipeline parallel uses every GPU of a replica */ -}}
{{- include "nim-llm.preflight.multiNodeSharedCache" . -}}          {{- /* every node of a group reaches the model cache */ -}}
{{- include "nim-llm.preflight.mpiJobKeys" . -}}                    {{- /* MPIJob mode refuses keys that only apply to LeaderWorkerSet */ -}}
{{- include "nim-llm.preflight.mpiStartup" . -}}                    {{- /* mpi launch mode in a LeaderWorkerSet: no start-up that waits for itself */ -}}
{{- include "nim-llm.preflight.subGroupSize" . -}}                  {{- /* multiNode.leaderWorkerSet.subGroupSize as the LWS webhook takes it (LeaderExcluded: divides workers - 1) */ -}}
{{- include "nim-llm.preflight.lwsReplicasRange" . -}}              {{- /* a LeaderWorkerSet has at most 1000000 groups (LWS v0.10.0's CRD and webhook) */ -}}
{{- end -}}
{{- /* Services, Ingress, NetworkPolicy, multi-node networking (_preflight_networking.tpl) */ -}}
{{- include "nim-llm.preflight.serviceName" . -}}                   {{- /* service.name is not the headless Service a controller creates */ -}}
{{- include "nim-llm.preflight.nodePort" . -}}                      {{- /* service.nodePort only with a Service type that has node ports */ -}}
{{- include "nim-llm.preflight.ingressHosts" . -}}                  {{- /* an enabled Ingress has hosts */ -}}
{{- include "nim-llm.preflight.ingressTlsHosts" . -}}               {{- /* every Ingress TLS host is a rule host, in lower case */ -}}
{{- include "nim-llm.preflight.networkPolicyPeers" . -}}            {{- /* a networkPolicy.ingressFrom peer is an ipBlock or selectors, not both */ -}}
{{- include "nim-llm.preflight.networkPolicyGroups" . -}}           {{- /* at most 1000 multi-node groups, one NetworkPolicy each */ -}}
{{- include "nim-llm.preflight.serviceLabels" . -}}                 {{- /* service.labels does not redefine the chart's labels */ -}}
{{- include "nim-llm.preflight.efaHostPath" . -}}                   {{- /* the EFA library directory is not a path the NIM container mounts */ -}}
{{- include "nim-llm.preflight.oneNetworkProvider" . -}}            {{- /* one multinodeNetworking provider at most */ -}}
{{- include "nim-llm.preflight.devicesPerGPU" . -}}                 {{- /* network devices per GPU within what a node of the provider has */ -}}
{{- include "nim-llm.preflight.gcpTcpxo" . -}}                      {{- /* GPUDirect-TCPXO: eight networks, eight GPUs */ -}}
{{- include "nim-llm.preflight.ncclShm" . -}}                       {{- /* multi-node networking needs shared memory for NCCL */ -}}
{{- include "nim-llm.preflight.networkNames" . -}}                  {{- /* Multus and GKE network names are object names */ -}}
{{- include "nim-llm.preflight.networkingAnnotations" . -}}         {{- /* podAnnotations leave the networking annotations alone */ -}}
{{- /* Mounts of every container, after the rules that name a networking or extra mount (_preflight_mounts.tpl) */ -}}
{{- include "nim-llm.preflight.mountPathsUnique" . -}}              {{- /* no container mounts two volumes on one path (model.nimCache included) */ -}}
{{- /* Inference Gateway routing (_preflight_routing.tpl) */ -}}
{{- include "nim-llm.preflight.routingNeedsPool" . -}}              {{- /* an HTTPRoute or InferenceObjective needs inferencePool.enabled */ -}}
{{- /* The endpoint picker (_preflight_picker.tpl) */ -}}
{{- include "nim-llm.preflight.eppImagePinned" . -}}                {{- /* the endpoint picker's image has a tag or a digest */ -}}
{{- include "nim-llm.preflight.pickerImage" . -}}                   {{- /* a known GAIE picker image is the picker inferencePool.epp.picker names */ -}}
{{- include "nim-llm.preflight.pickerConfig" . -}}                  {{- /* an EndpointPickerConfig only for a picker that reads one */ -}}
{{- /* Inference Gateway routing (_preflight_routing.tpl) */ -}}
{{- include "nim-llm.preflight.poolTargetPort" . -}}                {{- /* the pool's target port is the serving pods' API port */ -}}
{{- include "nim-llm.preflight.poolSelectsServingPods" . -}}        {{- /* the pool selects exactly the serving pods, never workers */ -}}
{{- include "nim-llm.preflight.httpRouteParents" . -}}              {{- /* an HTTPRoute has a parent Gateway */ -}}
{{- /* LLM-aware autoscaling (_preflight_autoscaling.tpl) */ -}}
{{- include "nim-llm.preflight.nimMetricTargets" . -}}              {{- /* each autoscaling.nimMetrics entry has the target its type takes */ -}}
{{- include "nim-llm.preflight.nimMetricNames" . -}}                {{- /* metrics the autoscaler and the endpoint picker read are names NIM exports */ -}}
{{- include "nim-llm.preflight.keda" . -}}                          {{- /* KEDA: with autoscaling, a trigger, scale to zero only with a trigger that can wake it */ -}}
{{- include "nim-llm.preflight.kedaTriggers" . -}}                  {{- /* KEDA's webhook: unique trigger names, useCachedMetrics, cpu/memory requests */ -}}
{{- include "nim-llm.preflight.kedaDropsHpaMetrics" . -}}           {{- /* with KEDA, no HorizontalPodAutoscaler metrics silently dropped */ -}}
{{- /* The endpoint picker (_preflight_picker.tpl) */ -}}
{{- include "nim-llm.preflight.eppArgs" . -}}                       {{- /* the picker's flags: none it exits on, none repeated, the chart's ports and pool */ -}}
{{- include "nim-llm.preflight.objectiveGroup" . -}}                {{- /* the InferenceObjective is in the group the picker reads */ -}}
{{- include "nim-llm.preflight.objectiveForPicker" . -}}            {{- /* an InferenceObjective only in the group the release's picker reads */ -}}
{{- /* Placement: DRA GPUs, ComputeDomains, topology, LWS policies, Kueue (_preflight_placement.tpl) */ -}}
{{- include "nim-llm.preflight.placement" . -}}                     {{- /* every placement rule, one define each, in order */ -}}
{{- /* Model sources, pre-fill, air gap, LoRA, CA bundle, health port (_preflight_modelsource.tpl) */ -}}
{{- include "nim-llm.preflight.modelSourceLocalPath" . -}}          {{- /* a local modelSource.uri is a directory of the cache */ -}}
{{- include "nim-llm.preflight.modelFreeNotNgcLayout" . -}}         {{- /* model-free NIM is not pointed at the NGC model-specific cache layout */ -}}
{{- include "nim-llm.preflight.modelFreeNeedsNim2" . -}}            {{- /* modelSource.uri (NIM_MODEL_PATH) only with NIM 2.0 or later */ -}}
{{- include "nim-llm.preflight.modelSourceToken" . -}}              {{- /* modelSource.tokenSecret only for hf:// and modelscope:// */ -}}
{{- include "nim-llm.preflight.airGapNoCredentials" . -}}           {{- /* air-gap mode: no key or token reaches a NIM container */ -}}
{{- include "nim-llm.preflight.airGapCacheFilled" . -}}             {{- /* air-gap mode: no cache that starts empty */ -}}
{{- include "nim-llm.preflight.cachePrefillSharedCache" . -}}       {{- /* the pre-fill Job fills a cache every NIM pod shares */ -}}
{{- include "nim-llm.preflight.cachePrefillSource" . -}}            {{- /* the pre-fill Job knows what to download */ -}}
{{- include "nim-llm.preflight.loraSourceMounted" . -}}             {{- /* lora.source lies inside a mount of the NIM container */ -}}
{{- include "nim-llm.preflight.loraMountPath" . -}}                 {{- /* the LoRA claim's mount path is free */ -}}
{{- include "nim-llm.preflight.caBundleOneSource" . -}}             {{- /* the CA bundle comes from a ConfigMap or a Secret, not both */ -}}
{{- include "nim-llm.preflight.caBundleLive" . -}}                  {{- /* an existing CA bundle object holds the key, in PEM */ -}}
{{- include "nim-llm.preflight.healthPort" . -}}                    {{- /* model.healthPort is a port of its own, with NIM 2.x or later */ -}}
{{- /* The pod's runtime contract (_preflight_runtime.tpl) */ -}}
{{- include "nim-llm.preflight.podPortsDisjoint" . -}}              {{- /* no extraInit port is a port another container of the pod binds */ -}}
{{- /* Size of what the API server stores (_preflight_resources.tpl); after every rule on values, as it renders the pod templates */ -}}
{{- include "nim-llm.preflight.objectSize" . -}}                    {{- /* a workload's pod templates fit etcd's 1.5 MiB request */ -}}
{{- /* Upgrades against the live objects (_preflight_live.tpl) */ -}}
{{- include "nim-llm.preflight.liveStatefulSets" . -}}              {{- /* a live StatefulSet keeps its claim templates, selector and per-pod cache */ -}}
{{- include "nim-llm.preflight.liveClaims" . -}}                    {{- /* a live shared cache claim keeps its class, access modes and size, and stays in use */ -}}
{{- include "nim-llm.preflight.liveDeploymentSelector" . -}}        {{- /* a live Deployment's selector stays */ -}}
{{- include "nim-llm.preflight.liveSubGroups" . -}}                 {{- /* a live LeaderWorkerSet's subgroups stay */ -}}
{{- include "nim-llm.preflight.liveSshSecretHasKey" . -}}           {{- /* an existing SSH Secret holds private.key and public.key */ -}}
{{- end -}}
