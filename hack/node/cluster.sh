#!/usr/bin/env bash
# A real single-node Kubernetes cluster on this machine, for the in-cluster e2e suite and
# `make cluster-up NODE=1`: etcd, kube-apiserver, kube-controller-manager, kube-scheduler,
# containerd + runc, kubelet, kube-proxy (iptables) and a CNI bridge, plus the operator image
# built here (hack/image/build.sh) loaded into the node's containerd.
#
# Isolation (why cleanup can be complete): everything runs inside one network namespace and one
# private mount namespace that this script creates. Pod networks, kube-proxy's iptables rules and
# every mount containerd or kubelet makes (rootfs overlays, volumes, pod netns bind mounts) live
# only there, so they vanish with the namespaces; kubelet's cgroups sit under a cgroup root named
# after the cluster and are removed on teardown. Nothing listens outside the namespace and no
# traffic leaves the machine: the node address (10.213.0.2) is on a veth pair inside it.
#
# Usage:
#   hack/node/cluster.sh run -- CMD [ARGS...]  start, run CMD inside the namespaces, tear down
#   hack/node/cluster.sh up                     start detached; state in $CDN_OPERATOR_CACHE/node
#   hack/node/cluster.sh down                   stop what `up` started; idempotent
#   hack/node/cluster.sh exec -- CMD [ARGS...]  run CMD inside the namespaces of `up`
#   hack/node/cluster.sh check                  exit 1 with the reason when this machine cannot run it
# CMD sees KUBECONFIG (admin), CDN_NODE_IP, CDN_OPERATOR_IMAGE and CDN_NODE_DIR.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${CDN_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cdn-operator}
NODE_IP=10.213.0.2
NODE_NAME=cdn-node
POD_CIDR=10.244.0.0/24
SERVICE_CIDR=10.0.0.0/24
API_PORT=6443
IMAGE=${CDN_OPERATOR_IMAGE:-localhost/cdn-operator:dev}

log() { printf '[node] %s\n' "$*" >&2; }

# --- host side: namespaces, cgroups, teardown -----------------------------------------------

resolve_binaries() {
  local out
  out=$("$repo/hack/build-binaries.sh" etcd kube-apiserver node)
  ETCD=$(sed -n 's/^etcd=//p' <<<"$out")
  APISERVER=$(sed -n 's/^kube-apiserver=//p' <<<"$out")
  NODE_BINS=$(sed -n 's/^node=//p' <<<"$out")
  export ETCD APISERVER NODE_BINS
}

# Prints why this machine cannot run the node (nothing when it can): root, the tools, and the
# kernel features the node uses (network and mount namespaces, veth, overlayfs, writable cgroups).
# Checked before anything is built or started, so CI reports a clear reason instead of a timeout.
preflight() {
  local t missing=()
  for t in containerd containerd-shim-runc-v2 runc ctr iptables conntrack buildah openssl nsenter unshare ip sysctl curl; do
    command -v "$t" >/dev/null 2>&1 || missing+=("$t")
  done
  [ -x /usr/lib/cni/bridge ] || missing+=("containernetworking-plugins")
  if [ ${#missing[@]} -gt 0 ]; then
    echo "missing ${missing[*]} (apt-get install containerd runc containernetworking-plugins iptables conntrack iproute2 procps curl buildah)"
    return 0
  fi
  [ "$(id -u)" -eq 0 ] || { echo "needs root (namespaces, mounts, cgroups), runs as uid $(id -u)"; return 0; }
  unshare --net --mount --propagation slave -- sh -c \
    'ip link add cdnchk0 type veth peer name cdnchk1 && mount -t tmpfs tmpfs /mnt' >/dev/null 2>&1 ||
    { echo "cannot create a network namespace with a veth pair and a private mount (unshare --net --mount)"; return 0; }
  grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null ||
    { echo "the kernel has no overlay filesystem (containerd's snapshotter)"; return 0; }
  local probe="cdn-node-check-$$" d made=0
  for d in $(cgroup_dirs "$probe"); do
    if mkdir "$d" 2>/dev/null; then made=1; rmdir "$d"; else made=0; break; fi
  done
  [ "$made" -eq 1 ] || echo "cannot create cgroups under /sys/fs/cgroup (read-only or not mounted)"
}

require_tools() {
  local reason
  reason=$(preflight)
  [ -z "$reason" ] || { echo "cannot start the node: $reason" >&2; exit 1; }
}

cgroup_dirs() {
  local name=$1 m
  for m in /sys/fs/cgroup/*/; do
    [ -d "$m" ] && [ ! -L "${m%/}" ] && echo "${m}$name"
  done
  [ -f /sys/fs/cgroup/cgroup.controllers ] && echo "/sys/fs/cgroup/$name"
  return 0
}

# Creates the network namespace (lo, the veth pair holding the node address, forwarding) and
# the cgroup root; writes $dir/state so a failed start can still be torn down.
setup_host() {
  local dir=$1 id=$2
  printf 'NS=%s\nCGROUP=%s\nOWNER=%s\n' "$id" "$id" "$$" >"$dir/state"
  ip netns add "$id"
  ip -n "$id" link set lo up
  ip -n "$id" link add node0 type veth peer name node0p
  ip -n "$id" addr add "$NODE_IP/24" dev node0
  ip -n "$id" link set node0 up
  ip -n "$id" link set node0p up
  ip -n "$id" route add default dev node0
  ip netns exec "$id" sysctl -qw net.ipv4.ip_forward=1
  ip netns exec "$id" sysctl -qw net.bridge.bridge-nf-call-iptables=1 2>/dev/null || true
  local d f
  for d in $(cgroup_dirs "$id"); do
    mkdir -p "$d"
    # cgroup v1 cpuset: a new group starts with no CPUs or memory nodes; inherit the parent's.
    for f in cpuset.cpus cpuset.mems; do
      [ -f "$d/$f" ] && cat "$(dirname "$d")/$f" >"$d/$f"
    done
  done
  return 0
}

# Removes every cgroup under the cluster's root, deepest first (a cgroup must be empty).
remove_cgroups() {
  local name=$1 d
  for d in $(cgroup_dirs "$name"); do
    [ -d "$d" ] || continue
    find "$d" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done
}

# Kills every process still inside the cluster's network namespace or cgroups: the daemons, the
# shims and the containers. Nothing else can be in a namespace this script created.
kill_namespace_processes() {
  local ns=$1 cg=$2 sig pids d
  for sig in TERM KILL; do
    pids=$(ip netns pids "$ns" 2>/dev/null || true)
    for d in $(cgroup_dirs "$cg"); do
      [ -d "$d" ] && pids="$pids $(find "$d" -name cgroup.procs -exec cat {} + 2>/dev/null | tr '\n' ' ')"
    done
    pids=$(tr ' ' '\n' <<<"$pids" | grep -E '^[0-9]+$' | sort -u || true)
    [ -z "$pids" ] && return 0
    # shellcheck disable=SC2086
    kill -s "$sig" $pids 2>/dev/null || true
    local _
    for _ in $(seq 1 50); do
      pids=$(for p in $pids; do [ -d "/proc/$p" ] && echo "$p"; done)
      [ -z "$pids" ] && break
      sleep 0.2
    done
  done
}

teardown() {
  local dir=$1
  # Best effort to the end: one failed step must not leave the rest behind. A second signal or
  # a reader of our stderr that already died (SIGPIPE: the caller's tee got the same Ctrl-C)
  # must not stop it halfway either.
  set +e
  trap '' INT TERM PIPE
  [ -f "$dir/state" ] || { rm -rf --one-file-system "$dir"; return 0; }
  local NS CGROUP
  NS=$(sed -n 's/^NS=//p' "$dir/state")
  CGROUP=$(sed -n 's/^CGROUP=//p' "$dir/state")
  log "tearing down $NS"
  kill_namespace_processes "$NS" "$CGROUP"
  remove_cgroups "$CGROUP"
  ip netns del "$NS" 2>/dev/null || true
  # Mounts made inside died with the mount namespace; a busy one would stop rm at the boundary.
  rm -rf --one-file-system "$dir"
}

# Enters the namespaces of the cluster in $dir and runs the inner part of this script there.
enter() {
  local dir=$1; shift
  local NS
  NS=$(sed -n 's/^NS=//p' "$dir/state")
  nsenter --net="/run/netns/$NS" -- unshare --mount --propagation slave -- "$@"
}

# --- inside the namespaces -------------------------------------------------------------------

private_mounts() {
  # containerd, CNI and kubelet hard-code paths under /run (shim sockets, pod netns) and
  # /var/log/containers: private tmpfs there, so nothing lands on the host.
  mount -t tmpfs -o mode=0755 tmpfs /run
  mount -t tmpfs -o mode=0755 tmpfs /var/log
  mkdir -p /run/netns /run/containerd /var/log/containers /var/log/pods
}

sign() {
  local dir=$1 name=$2 subj=$3 ext=$4
  openssl ecparam -name prime256v1 -genkey -noout -out "$dir/$name.key" 2>/dev/null
  openssl req -new -key "$dir/$name.key" -subj "$subj" -out "$dir/$name.csr"
  printf '%b' "$ext" >"$dir/$name.ext"
  openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
    -days 2 -sha256 -extfile "$dir/$name.ext" -out "$dir/$name.crt" 2>/dev/null
}

make_pki() {
  local pki=$1
  mkdir -p "$pki"
  openssl ecparam -name prime256v1 -genkey -noout -out "$pki/ca.key" 2>/dev/null
  openssl req -x509 -new -key "$pki/ca.key" -subj /CN=cdn-operator-node-ca -days 2 -sha256 \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
    -out "$pki/ca.crt" 2>/dev/null
  sign "$pki" apiserver /CN=kube-apiserver \
    "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,IP:$NODE_IP,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local\n"
  sign "$pki" admin /O=system:masters/CN=cdn-operator-admin \
    "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n"
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$pki/sa.key" 2>/dev/null
  openssl pkey -in "$pki/sa.key" -pubout -out "$pki/sa.pub"
}

write_kubeconfig() {
  local dir=$1
  cat >"$dir/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: node
  cluster:
    server: https://$NODE_IP:$API_PORT
    certificate-authority-data: $(base64 -w0 "$dir/pki/ca.crt")
users:
- name: admin
  user:
    client-certificate-data: $(base64 -w0 "$dir/pki/admin.crt")
    client-key-data: $(base64 -w0 "$dir/pki/admin.key")
contexts:
- name: node
  context: {cluster: node, user: admin, namespace: default}
current-context: node
EOF
  chmod 600 "$dir/kubeconfig"
}

start_bg() {
  local dir=$1 name=$2; shift 2
  nice -n 5 "$@" >"$dir/logs/$name.log" 2>&1 &
  echo "$!" >"$dir/pids/$name"
}

wait_for() {
  local what=$1 timeout=$2; shift 2
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    if [ $SECONDS -ge $deadline ]; then
      log "cannot start: $what not ready after ${timeout}s"
      return 1
    fi
    sleep 0.5
  done
}

start_control_plane() {
  local dir=$1
  start_bg "$dir" etcd "$ETCD" --data-dir="$dir/etcd" --listen-client-urls=http://127.0.0.1:2379 \
    --advertise-client-urls=http://127.0.0.1:2379 --listen-peer-urls=http://127.0.0.1:2380 \
    --initial-advertise-peer-urls=http://127.0.0.1:2380 --initial-cluster=default=http://127.0.0.1:2380 \
    --unsafe-no-fsync --log-level=warn
  wait_for etcd 30 curl -sf http://127.0.0.1:2379/health
  start_bg "$dir" kube-apiserver "$APISERVER" --etcd-servers=http://127.0.0.1:2379 \
    --secure-port=$API_PORT --bind-address=0.0.0.0 --advertise-address=$NODE_IP \
    --cert-dir="$dir/pki/apiserver" --tls-cert-file="$dir/pki/apiserver.crt" \
    --tls-private-key-file="$dir/pki/apiserver.key" --client-ca-file="$dir/pki/ca.crt" \
    --authorization-mode=Node,RBAC --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$dir/pki/sa.pub" --service-account-signing-key-file="$dir/pki/sa.key" \
    --service-cluster-ip-range=$SERVICE_CIDR --allow-privileged=true \
    --kubelet-client-certificate="$dir/pki/admin.crt" --kubelet-client-key="$dir/pki/admin.key" \
    --kubelet-preferred-address-types=InternalIP --enable-admission-plugins=NodeRestriction --v=0
  wait_for kube-apiserver 120 kubectl --kubeconfig "$dir/kubeconfig" get --raw /readyz
  wait_for "namespace default" 60 kubectl --kubeconfig "$dir/kubeconfig" get namespace default
  start_bg "$dir" kube-controller-manager "$NODE_BINS/kube-controller-manager" \
    --kubeconfig="$dir/kubeconfig" --authentication-kubeconfig="$dir/kubeconfig" \
    --authorization-kubeconfig="$dir/kubeconfig" --leader-elect=false --secure-port=0 \
    --root-ca-file="$dir/pki/ca.crt" --service-account-private-key-file="$dir/pki/sa.key" \
    --use-service-account-credentials=true --service-cluster-ip-range=$SERVICE_CIDR --v=0
  start_bg "$dir" kube-scheduler "$NODE_BINS/kube-scheduler" --kubeconfig="$dir/kubeconfig" \
    --authentication-kubeconfig="$dir/kubeconfig" --authorization-kubeconfig="$dir/kubeconfig" \
    --leader-elect=false --secure-port=0 --v=0
}

write_containerd_config() {
  local dir=$1 pause=$2
  mkdir -p "$dir/cni/net.d" "$dir/containerd"
  cat >"$dir/containerd/config.toml" <<EOF
version = 2
root = "$dir/containerd/root"
state = "$dir/containerd/state"
[grpc]
  address = "$dir/containerd.sock"
[debug]
  level = "warn"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$pause"
  # root here lacks CAP_SYS_RESOURCE: without this every sandbox fails in runc.
  restrict_oom_score_adj = true
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$dir/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
EOF
  cat >"$dir/cni/net.d/10-bridge.conflist" <<EOF
{
  "cniVersion": "0.4.0",
  "name": "cdn-node",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "dataDir": "$dir/cni/ipam",
        "ranges": [[{ "subnet": "$POD_CIDR" }]],
        "routes": [{ "dst": "0.0.0.0/0" }]
      }
    },
    { "type": "portmap", "capabilities": { "portMappings": true } }
  ]
}
EOF
}

# Builds the images (on the host side, before entering the namespaces: buildah keeps state in
# /run) and exports them as docker archives named as kubelet asks for them.
build_images() {
  local dir=$1 built
  built=$("$repo/hack/image/build.sh" "$IMAGE")
  PAUSE_IMAGE=$(sed -n 's/^pause=//p' <<<"$built")
  mkdir -p "$dir/images"
  printf 'PAUSE=%s\n' "$PAUSE_IMAGE" >>"$dir/state"
  local img n=0
  for img in "$PAUSE_IMAGE" "$IMAGE"; do
    n=$((n + 1))
    buildah push --quiet "$img" "docker-archive:$dir/images/$n.tar:$img" >/dev/null
  done
}

load_images() {
  local dir=$1 tar
  for tar in "$dir"/images/*.tar; do
    ctr --address "$dir/containerd.sock" -n k8s.io images import "$tar" >/dev/null
  done
  rm -rf "$dir/images"
}

write_node_configs() {
  local dir=$1 cg=$2
  printf 'nameserver %s\nsearch cluster.local\noptions ndots:5\n' "$NODE_IP" >"$dir/resolv.conf"
  cat >"$dir/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
cgroupDriver: cgroupfs
cgroupRoot: /$cg
failSwapOn: false
containerRuntimeEndpoint: unix://$dir/containerd.sock
address: $NODE_IP
readOnlyPort: 0
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $dir/pki/ca.crt}
authorization: {mode: Webhook}
clusterDomain: cluster.local
clusterDNS: [$NODE_IP]
resolvConf: $dir/resolv.conf
podLogsDir: $dir/pod-logs
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1%, nodefs.inodesFree: 1%}
serializeImagePulls: false
syncFrequency: 10s
fileCheckFrequency: 10s
EOF
  cat >"$dir/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: $dir/kubeconfig}
mode: iptables
clusterCIDR: $POD_CIDR
hostnameOverride: $NODE_NAME
bindAddress: 0.0.0.0
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
# Pod -> Service -> pod on the same bridge: SNAT so replies come back through the node.
iptables: {masqueradeAll: true}
conntrack: {maxPerCore: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
EOF
}

start_node() {
  local dir=$1 cg=$2
  write_containerd_config "$dir" "$(sed -n 's/^PAUSE=//p' "$dir/state")"
  start_bg "$dir" containerd containerd --config "$dir/containerd/config.toml"
  wait_for containerd 30 ctr --address "$dir/containerd.sock" version
  load_images "$dir"
  write_node_configs "$dir" "$cg"
  mkdir -p "$dir/pod-logs"
  start_bg "$dir" dns node --import tsx "$repo/hack/node/dns.ts" --listen "$NODE_IP" \
    --kubeconfig "$dir/kubeconfig"
  start_bg "$dir" kubelet "$NODE_BINS/kubelet" --config="$dir/kubelet.yaml" \
    --kubeconfig="$dir/kubeconfig" --hostname-override=$NODE_NAME --node-ip=$NODE_IP \
    --root-dir="$dir/kubelet" --cert-dir="$dir/kubelet/pki" --v=0
  start_bg "$dir" kube-proxy "$NODE_BINS/kube-proxy" --config="$dir/kube-proxy.yaml" --v=0
  wait_for "node $NODE_NAME Ready" 180 kubectl --kubeconfig "$dir/kubeconfig" wait \
    --for=condition=Ready "node/$NODE_NAME" --timeout=2s
  wait_for "service account default" 60 kubectl --kubeconfig "$dir/kubeconfig" get serviceaccount default
}

# Runs inside the namespaces: starts everything, then either runs CMD or (detached) waits.
inner() {
  local dir=$1; shift
  local CGROUP
  CGROUP=$(sed -n 's/^CGROUP=//p' "$dir/state")
  cd "$repo"
  private_mounts
  mkdir -p "$dir/logs" "$dir/pids"
  make_pki "$dir/pki"
  write_kubeconfig "$dir"
  start_control_plane "$dir"
  start_node "$dir" "$CGROUP"
  log "node $NODE_NAME Ready at $NODE_IP (logs in $dir/logs)"
  touch "$dir/ready"
  export KUBECONFIG="$dir/kubeconfig" CDN_NODE_IP=$NODE_IP CDN_OPERATOR_IMAGE=$IMAGE CDN_NODE_DIR=$dir
  if [ "$#" -gt 0 ]; then
    "$@"
  else
    # Detached (`up`): keep the mount namespace alive until `down` kills everything in it.
    exec sleep infinity
  fi
}

# Tears down clusters whose owner died without cleaning up (SIGKILL, machine reset of a CI
# step): the owner's pid is in the state file; a detached `up` cluster is owned by `current`.
sweep_stale() {
  local state dir owner current
  current=$(readlink "$(state_link)" 2>/dev/null || true)
  for state in /tmp/cdn-node.*/state; do
    [ -f "$state" ] || continue
    dir=$(dirname "$state")
    [ "$dir" = "$current" ] && continue
    owner=$(sed -n 's/^OWNER=//p' "$state")
    [ -n "$owner" ] && kill -0 "$owner" 2>/dev/null && continue
    log "removing a stale cluster left in $dir"
    teardown "$dir"
  done
}

run() {
  [ "${1:-}" = "--" ] && shift
  require_tools
  sweep_stale
  resolve_binaries
  local dir id status=0
  dir=$(mktemp -d /tmp/cdn-node.XXXXXX)
  id="cdn-node-${dir##*.}"
  # A global: the EXIT trap runs after run() returned and its locals are gone.
  RUN_DIR=$dir
  trap 'teardown "$RUN_DIR"' EXIT
  trap 'exit 130' INT TERM
  # For the caller's teardown check (hack/node/test-incluster.sh: `leftovers`).
  [ -z "${CDN_NODE_ID_FILE:-}" ] || echo "$id" >"$CDN_NODE_ID_FILE"
  setup_host "$dir" "$id"
  build_images "$dir"
  enter "$dir" "$0" __inner "$dir" "$@" || status=$?
  return "$status"
}

state_link() { echo "$cache/node/current"; }

up() {
  require_tools
  resolve_binaries
  local link dir id
  link=$(state_link)
  if [ -f "$link/ready" ] && [ -n "$(ip netns pids "$(sed -n 's/^NS=//p' "$link/state")" 2>/dev/null)" ]; then
    log "already running: hack/node/cluster.sh exec -- kubectl get nodes"
    return 0
  fi
  down
  mkdir -p "$cache/node"
  dir=$(mktemp -d /tmp/cdn-node.XXXXXX)
  id="cdn-node-${dir##*.}"
  ln -sfn "$dir" "$link"
  setup_host "$dir" "$id"
  build_images "$dir" || { down; return 1; }
  setsid "$0" __enter_detached "$dir" </dev/null >"$dir/up.log" 2>&1 &
  local deadline=$((SECONDS + 600))
  until [ -f "$dir/ready" ]; do
    if [ $SECONDS -ge $deadline ] || ! kill -0 "$!" 2>/dev/null; then
      cat "$dir/up.log" >&2
      down
      echo "cannot start the node, see above" >&2
      return 1
    fi
    sleep 1
  done
  printf 'Single-node cluster %s Ready (node %s at %s)\n  hack/node/cluster.sh exec -- kubectl get pods -A\n  KUBECONFIG=%s (reachable inside the namespace only)\nStop it with: make cluster-down NODE=1\n' \
    "$id" "$NODE_NAME" "$NODE_IP" "$dir/kubeconfig"
}

down() {
  local link
  link=$(state_link)
  [ -L "$link" ] || return 0
  local dir
  dir=$(readlink "$link")
  [ -d "$dir" ] && teardown "$dir"
  rm -f "$link"
}

# Prints what a torn-down cluster left on the host, one line each (nothing when clean): its
# directory, network namespace, cgroups, processes, mounts, and iptables rules of the node's
# address ranges in the host's own tables (the node's rules live in its namespace).
leftovers() {
  local id=$1 dir d p
  dir="/tmp/cdn-node.${id#cdn-node-}"
  [ -e "$dir" ] && echo "directory $dir"
  ip netns list 2>/dev/null | grep -qw "$id" && echo "network namespace $id"
  for d in $(cgroup_dirs "$id"); do
    [ -d "$d" ] && echo "cgroup $d"
  done
  for p in /proc/[0-9]*; do
    grep -qF "$dir" "$p/cmdline" 2>/dev/null && echo "process ${p#/proc/} $(tr '\0' ' ' <"$p/cmdline" | cut -c1-120)"
  done
  grep -F "$dir" /proc/self/mountinfo | awk '{print "mount " $5}' || true
  iptables-save 2>/dev/null | grep -E "10\.244\.0\.|10\.213\.0\.|10\.0\.0\.1/|$id" | sed 's/^/iptables rule /' || true
  return 0
}

stop_all() {
  down
  sweep_stale
}

exec_in() {
  [ "${1:-}" = "--" ] && shift
  local dir
  dir=$(readlink "$(state_link)" 2>/dev/null) || { echo "cannot exec: no node is up (make cluster-up NODE=1)" >&2; exit 1; }
  [ -f "$dir/ready" ] || { echo "cannot exec: the node in $dir is not ready" >&2; exit 1; }
  local pid
  pid=$(cat "$dir/pids/kubelet")
  KUBECONFIG="$dir/kubeconfig" CDN_NODE_IP=$NODE_IP CDN_OPERATOR_IMAGE=$IMAGE CDN_NODE_DIR=$dir \
    nsenter --target "$pid" --net --mount -- "$@"
}

case "${1:-}" in
  run) shift; run "$@" ;;
  up) up ;;
  down) stop_all ;;
  exec) shift; exec_in "$@" ;;
  leftovers) shift; leftovers "$1" ;;
  check) reason=$(preflight); [ -z "$reason" ] || { echo "cannot start the node: $reason" >&2; exit 1; } ;;
  __inner) shift; inner "$@" ;;
  __enter_detached) shift; enter "$1" "$0" __inner "$1" ;;
  *) echo "usage: hack/node/cluster.sh run -- CMD... | up | down | exec -- CMD... | check" >&2; exit 2 ;;
esac
