#!/usr/bin/env bash
# The hedgebench SSH test lab: three hosts (target, loadgen, redis) as network namespaces on one Linux box.
#
#   scripts/lab.sh up     [DIR]   create the hosts, start an sshd in each, write DIR/hosts.json and DIR/ssh_config
#   scripts/lab.sh down   [DIR]   stop everything the lab started, delete namespaces, links, bridge and keys
#   scripts/lab.sh status [DIR]   say what exists and whether each sshd answers
#
# DIR defaults to .lab/ in the repository (git-ignored); when the checkout sits below a folder others can write
# to (e.g. /tmp), where sshd refuses keys, to /var/lib/hedgebench-lab/<hash of the checkout path>, and says so.
# Root on Linux with `ip netns` is required.
# Each host is a namespace joined by a veth pair to a bridge in the root namespace; the only route in a host is
# the lab's /24 (no default route, nothing forwarded: net.ipv4.ip_forward is left as it is), so nothing started
# in the lab can reach anything but the other lab hosts and the bridge address this machine has on the /24.
#
# Redis speaks TLS only (rediss://, certificate verified): `up` makes a CA for this lab alone, signs the Redis
# host's certificate with it, deletes the CA's key, and names the files in hosts.json (redis.tls). HB_LAB_TLS=0
# makes a lab whose Redis speaks plain TCP.
#
# HB_LAB_ID=N (0..254, default 0) makes a separate lab: names hbN-*, subnet 198.18.N.0/24. Id 0 is the
# documented one: hb-target/hb-loadgen/hb-redis, bridge hb-br0, 198.18.0.0/24. Tests use their own id, so a
# user's lab and test labs never collide. `down` and `status` read the id from DIR/lab.env when it exists.
#
# HB_LAB_TARGETS=N (1..16, default 1) makes N target hosts, one per replica of a matrix with `replicas`: the
# first is hb-target (.2) as always, replica r is hb-target<r> at .(4+r); hosts.json then lists them all under
# "target". With the default, everything (hosts.json included) is exactly the one-target lab.
#
# HB_LAB_LANES=N (1..8, default 1) makes N lanes, each a target host and a load-generator host of its own, for a
# run that measures N points at a time: lane 0 is hb-target/hb-loadgen as always, lane l is hb-tgt<l> at
# .(20+2l) and hb-gen<l> at .(21+2l); hosts.json then lists them under "lanes" (Redis stays one host). One
# target per lane: HB_LAB_LANES and HB_LAB_TARGETS do not combine. All lanes share this machine's cores.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-}
dir_arg=${2:-$repo/.lab}
ROLES=(target loadgen redis)

say() { printf 'lab: %s\n' "$*"; }
die() {
  printf 'lab: error: %s\n' "$*" >&2
  exit 1
}

usage() {
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

[ -n "$cmd" ] || usage
case $cmd in up | down | status) ;; -h | --help | help) usage ;; *) die "unknown command '$cmd'; use up, down or status" ;; esac

# The first folder above $1 that others can write to (mode & 022, or not owned by root), if any. sshd
# (StrictModes) refuses keys below such a folder, e.g. a checkout under /tmp.
shared_ancestor() {
  local d m
  d=$(dirname "$1")
  while :; do
    if [ -e "$d" ]; then
      m=$(stat -c '%a %u' "$d")
      if [ "${m#* }" != 0 ] || [ $((8#${m% *} & 8#022)) -ne 0 ]; then
        printf '%s (mode %s, owner uid %s)' "$d" "${m% *}" "${m#* }"
        return 0
      fi
    fi
    [ "$d" = / ] && return 1
    d=$(dirname "$d")
  done
}

# Without DIR, a checkout whose .lab/ would sit below such a folder uses a root-only folder in /var/lib named
# after the checkout (what the tests do), so `up`, `status` and `down` agree on it and two checkouts never share one.
if [ -z "${2:-}" ] && shared="$(shared_ancestor "$repo/.lab")"; then
  dir_arg=/var/lib/hedgebench-lab/$(printf '%s' "$repo" | sha256sum | cut -c1-12)
  printf 'lab: %s is inside %s, where sshd refuses keys; using %s instead\n' "$repo/.lab" "$shared" "$dir_arg"
fi

# DIR ends up in hosts.json as part of every workDir, so it must pass the same safe-path check the schema applies.
DIR=$(realpath -m -- "$dir_arg")
[[ $DIR =~ ^/[A-Za-z0-9._+@,:/-]+$ ]] || die "DIR '$DIR' may contain only letters, digits and . _ + @ , : / - (no spaces); choose another folder"
[ "$DIR" != / ] || die "DIR must not be /"

# Root, Linux and `ip netns` are the whole requirement; say which one is missing.
[ "$(uname -s)" = Linux ] || die "the lab needs Linux network namespaces; this is $(uname -s)"
[ "$(id -u)" -eq 0 ] || die "the lab needs root (it creates network namespaces and a bridge); run: sudo $0 $cmd${2:+ $2}"
command -v ip >/dev/null || die "'ip' (iproute2) is missing; install it: apt-get install iproute2"
ip netns list >/dev/null 2>&1 || die "'ip netns' does not work here (no network-namespace support or no permission); the lab cannot run on this machine"

# Lab identity: from DIR/lab.env when the lab was made with this DIR, else from HB_LAB_ID.
lab_id=${HB_LAB_ID:-0}
if [ "$cmd" != up ] && [ -f "$DIR/lab.env" ]; then
  lab_id=$(sed -n 's/^HB_LAB_ID=\([0-9]\{1,3\}\)$/\1/p' "$DIR/lab.env")
fi
[[ $lab_id =~ ^[0-9]{1,3}$ ]] && [ "$lab_id" -le 254 ] || die "HB_LAB_ID must be a number from 0 to 254, got '$lab_id'"
lab_tls=${HB_LAB_TLS:-1}
[[ $lab_tls =~ ^[01]$ ]] || die "HB_LAB_TLS must be 1 (Redis over TLS, the default) or 0 (plain TCP), got '$lab_tls'"
if [ "$lab_id" -eq 0 ]; then prefix=hb; else prefix="hb$lab_id"; fi
lab_targets=${HB_LAB_TARGETS:-1}
if [ "$cmd" != up ] && [ -f "$DIR/lab.env" ]; then
  lab_targets=$(sed -n 's/^HB_LAB_TARGETS=\([0-9]\{1,2\}\)$/\1/p' "$DIR/lab.env")
  lab_targets=${lab_targets:-1}
fi
[[ $lab_targets =~ ^[0-9]{1,2}$ ]] && [ "$lab_targets" -ge 1 ] && [ "$lab_targets" -le 16 ] || die "HB_LAB_TARGETS must be a number of target hosts from 1 to 16, got '$lab_targets'"
# Replica r > 0 runs on host target<r>; its veth names stay within the kernel's 15 characters up to hb254v-target16.
for ((r = 1; r < lab_targets; r++)); do ROLES+=("target$r"); done
lab_lanes=${HB_LAB_LANES:-1}
if [ "$cmd" != up ] && [ -f "$DIR/lab.env" ]; then
  lab_lanes=$(sed -n 's/^HB_LAB_LANES=\([0-9]\)$/\1/p' "$DIR/lab.env")
  lab_lanes=${lab_lanes:-1}
fi
[[ $lab_lanes =~ ^[1-8]$ ]] || die "HB_LAB_LANES must be a number of lanes from 1 to 8, got '$lab_lanes'"
[ "$lab_lanes" -eq 1 ] || [ "$lab_targets" -eq 1 ] || die "HB_LAB_LANES=$lab_lanes with HB_LAB_TARGETS=$lab_targets: a lab makes several lanes or several targets, not both; choose one"
for ((l = 1; l < lab_lanes; l++)); do ROLES+=("tgt$l" "gen$l"); done
net="198.18.$lab_id"
bridge="$prefix-br0"
ns_of() { echo "$prefix-$1"; }
veth_of() { echo "${prefix}v-$1"; }
addr_of() {
  case $1 in
  target) echo "$net.2" ;; loadgen) echo "$net.3" ;; redis) echo "$net.4" ;;
  target*) echo "$net.$((4 + ${1#target}))" ;; tgt*) echo "$net.$((20 + 2 * ${1#tgt}))" ;; gen*) echo "$net.$((21 + 2 * ${1#gen}))" ;;
  esac
}

ns_exists() { ip netns list | awk '{print $1}' | grep -qx "$1"; }
link_exists() { ip link show dev "$1" >/dev/null 2>&1; }

# Kills every process inside a namespace (sshd, and any agent a run left behind), TERM first then KILL.
kill_ns_pids() {
  local ns=$1 pids i
  pids=$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ') || true
  [ -n "${pids// /}" ] || return 0
  say "stopping processes in $ns: $pids"
  # shellcheck disable=SC2086
  kill -TERM $pids 2>/dev/null || true
  for i in $(seq 1 50); do
    pids=$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ') || true
    [ -n "${pids// /}" ] || return 0
    sleep 0.1
  done
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null || true
  sleep 0.2
}

# Target hosts of a bigger lab whose lab.env is gone: found by their namespace names, so `down` misses none.
add_found_targets() {
  local ns role
  for ns in $(ip netns list | awk '{print $1}'); do
    role=${ns#"$prefix-"}
    [[ $ns == "$prefix-$role" && $role =~ ^(target|tgt|gen)[0-9]+$ ]] || continue
    [[ " ${ROLES[*]} " == *" $role "* ]] || ROLES+=("$role")
  done
}

lab_down() {
  local role ns veth pidfile pid
  add_found_targets
  for role in "${ROLES[@]}"; do
    ns=$(ns_of "$role")
    veth=$(veth_of "$role")
    pidfile="$DIR/hosts/$ns/sshd.pid"
    if [ -f "$pidfile" ]; then
      pid=$(cat "$pidfile" 2>/dev/null || true)
      if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
        say "stopping sshd of $ns (pid $pid)"
        kill -TERM "$pid" 2>/dev/null || true
      fi
    fi
    if ns_exists "$ns"; then
      kill_ns_pids "$ns"
      ip netns del "$ns"
      say "deleted namespace $ns"
    fi
    # Deleting the namespace destroys its veth pair asynchronously; delete our end too if it is still there.
    if link_exists "$veth"; then
      ip link del "$veth" 2>/dev/null || true
      say "deleted link $veth"
    fi
  done
  if link_exists "$bridge"; then
    ip link del "$bridge" 2>/dev/null || true
    say "deleted bridge $bridge"
  fi
  for role in "${ROLES[@]}"; do
    ! link_exists "$(veth_of "$role")" || die "link $(veth_of "$role") is still there after down; delete it with: ip link del $(veth_of "$role")"
  done
  ! link_exists "$bridge" || die "bridge $bridge is still there after down; delete it with: ip link del $bridge"
  # Only the files the lab wrote; DIR itself goes only when nothing else is left in it.
  if [ -d "$DIR" ]; then
    rm -rf -- "$DIR/keys" "$DIR/tls" "$DIR/hosts" "$DIR/hosts.json" "$DIR/ssh_config" "$DIR/known_hosts" "$DIR/lab.env"
    rmdir -- "$DIR" 2>/dev/null || true
    say "removed keys, configs and host folders from $DIR"
  fi
  say "down: lab $prefix ($net.0/24) is gone"
}

lab_exists() {
  local role
  link_exists "$bridge" && return 0
  for role in "${ROLES[@]}"; do
    ns_exists "$(ns_of "$role")" && return 0
    link_exists "$(veth_of "$role")" && return 0
  done
  [ -e "$DIR/lab.env" ] || [ -e "$DIR/keys" ]
}

write_sshd_config() {
  local role=$1 ns addr hostdir
  ns=$(ns_of "$role")
  addr=$(addr_of "$role")
  hostdir="$DIR/hosts/$ns"
  # PATH for sessions: the default plus the folder of this machine's node (the namespaces share the file system).
  local node_dir=/usr/bin
  node_dir=$(dirname "$(command -v node 2>/dev/null || echo /usr/bin/node)")
  cat >"$hostdir/sshd_config" <<EOF
# sshd of lab host $ns, written by scripts/lab.sh; listens only on $addr.
ListenAddress $addr
Port 22
AddressFamily inet
HostKey $DIR/keys/${ns}_host_ed25519
PidFile $hostdir/sshd.pid
AuthorizedKeysFile $DIR/keys/authorized_keys
AllowUsers root
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes yes
X11Forwarding no
AllowTcpForwarding no
AllowAgentForwarding no
PermitTunnel no
PermitUserEnvironment no
PrintMotd no
UseDNS no
# Multiplexed clients open many sessions on one connection; the orchestrator may run several at once.
MaxSessions 64
MaxStartups 64:30:128
LogLevel VERBOSE
# SHLVL=1 tells bash it is not the first shell, so it skips ~/.bashrc for ssh commands: this box's root
# dotfiles (pyenv init, ~0.1-0.5 s) would otherwise be the cost of every remote command, not ssh itself.
SetEnv PATH=$node_dir:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin SHLVL=1
Subsystem sftp internal-sftp
EOF
}

# The Redis host's certificate and the lab's own CA (scripts/redis-tls.sh).
make_redis_tls() {
  "$repo/scripts/redis-tls.sh" "$DIR/tls" "$(addr_of redis)" || die "could not make the Redis certificates (see above); or make a plain-Redis lab with HB_LAB_TLS=0"
  say "made a CA for this lab and a certificate for the Redis host $(addr_of redis) in $DIR/tls (the CA's key is deleted)"
}

lab_up() {
  local role ns veth addr hostdir pid i shared r
  command -v ssh-keygen >/dev/null || die "ssh-keygen is missing; install openssh-client: apt-get install openssh-client"
  [ -x /usr/sbin/sshd ] || die "/usr/sbin/sshd is missing; install Debian's openssh-server: apt-get install openssh-server"
  # sshd (StrictModes) refuses an authorized_keys file below a folder others can write to, such as /tmp.
  if shared="$(shared_ancestor "$DIR")"; then
    die "DIR $DIR is inside $shared, which others can write to; sshd refuses keys there. Use a folder whose every parent is owned by root and not group/world-writable, e.g. /var/lib/hedgebench-lab (or leave DIR out: the lab then chooses such a folder itself)"
  fi
  if [ -f "$DIR/lab.env" ] && ! grep -qx "HB_LAB_ID=$lab_id" "$DIR/lab.env"; then
    die "$DIR holds another lab ($(cat "$DIR/lab.env")); take it down first: $0 down $DIR"
  fi
  if lab_exists; then
    say "a lab $prefix (or part of one) exists; taking it down first"
    lab_down
  fi
  umask 022
  trap 'printf "lab: up failed part-way; remove what it made with: %s down %s\n" "$0" "$DIR" >&2' ERR

  mkdir -p "$DIR/keys" "$DIR/hosts"
  chmod 700 "$DIR/keys"
  printf 'HB_LAB_ID=%s\n' "$lab_id" >"$DIR/lab.env"
  [ "$lab_targets" -eq 1 ] || printf 'HB_LAB_TARGETS=%s\n' "$lab_targets" >>"$DIR/lab.env"
  [ "$lab_lanes" -eq 1 ] || printf 'HB_LAB_LANES=%s\n' "$lab_lanes" >>"$DIR/lab.env"

  # Keys for this lab alone: one client key (authorised for root) and a host key per host.
  ssh-keygen -q -t ed25519 -N '' -C "hedgebench-lab-client" -f "$DIR/keys/client_ed25519"
  cp "$DIR/keys/client_ed25519.pub" "$DIR/keys/authorized_keys"
  chmod 600 "$DIR/keys/authorized_keys"
  : >"$DIR/known_hosts"
  say "generated client key $DIR/keys/client_ed25519"

  # /run/sshd is sshd's privilege-separation directory (compiled into Debian's sshd); it may not exist here.
  if [ ! -d /run/sshd ]; then
    mkdir -p /run/sshd
    chmod 755 /run/sshd
    say "created /run/sshd (sshd privilege separation)"
  fi

  ip link add "$bridge" type bridge
  ip addr add "$net.1/24" dev "$bridge"
  echo 1 >"/proc/sys/net/ipv6/conf/$bridge/disable_ipv6" 2>/dev/null || true
  ip link set "$bridge" up
  say "created bridge $bridge with $net.1/24 in the root namespace"

  for role in "${ROLES[@]}"; do
    ns=$(ns_of "$role")
    veth=$(veth_of "$role")
    addr=$(addr_of "$role")
    hostdir="$DIR/hosts/$ns"
    mkdir -p "$hostdir/work"

    ip netns add "$ns"
    ip link add "$veth" type veth peer name "${prefix}p-$role"
    ip link set "${prefix}p-$role" netns "$ns"
    ip -n "$ns" link set "${prefix}p-$role" name eth0
    ip netns exec "$ns" sh -c 'echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6' 2>/dev/null || true
    ip -n "$ns" addr add "$addr/24" dev eth0
    ip -n "$ns" link set lo up
    ip -n "$ns" link set eth0 up
    ip link set "$veth" master "$bridge"
    ip link set "$veth" up
    # The only route is the connected /24: refuse to continue if anything else appeared.
    if ip -n "$ns" route show | grep -q '^default'; then die "namespace $ns unexpectedly has a default route"; fi
    say "created host $ns at $addr (veth $veth on $bridge, no default route), workDir $hostdir/work"

    ssh-keygen -q -t ed25519 -N '' -C "hedgebench-lab-$ns" -f "$DIR/keys/${ns}_host_ed25519"
    printf '%s %s\n' "$addr" "$(cut -d' ' -f1,2 "$DIR/keys/${ns}_host_ed25519.pub")" >>"$DIR/known_hosts"
    write_sshd_config "$role"
    /usr/sbin/sshd -t -f "$hostdir/sshd_config" || die "sshd rejected $hostdir/sshd_config (see above)"
    ip netns exec "$ns" /usr/sbin/sshd -f "$hostdir/sshd_config" -E "$hostdir/sshd.log"
    for i in $(seq 1 50); do
      [ -s "$hostdir/sshd.pid" ] && break
      sleep 0.1
    done
    pid=$(cat "$hostdir/sshd.pid" 2>/dev/null || true)
    [ -n "$pid" ] || die "sshd of $ns did not start; see $hostdir/sshd.log"
    say "started sshd in $ns on $addr:22 (pid $pid, log $hostdir/sshd.log)"
  done

  cat >"$DIR/ssh_config" <<EOF
# ssh client settings for the hedgebench lab $prefix ($net.0/24), written by scripts/lab.sh.
Host $net.*
  User root
  IdentityFile $DIR/keys/client_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $DIR/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  PasswordAuthentication no
  KbdInteractiveAuthentication no
  BatchMode yes
EOF
  chmod 600 "$DIR/ssh_config"

  local redis_tls=''
  if [ "$lab_tls" = 1 ]; then
    make_redis_tls
    redis_tls=', "tls": { "ca": "tls/ca.crt", "cert": "tls/redis.crt", "key": "tls/redis.key" }'
  else
    say "HB_LAB_TLS=0: Redis speaks plain TCP in this lab"
  fi
  local target_json="{ \"ssh\": \"root@$net.2\", \"workDir\": \"$DIR/hosts/$prefix-target/work\", \"address\": \"$net.2\", \"port\": 7400 }"
  if [ "$lab_targets" -gt 1 ]; then
    target_json="[
    $target_json"
    for ((r = 1; r < lab_targets; r++)); do
      addr=$(addr_of "target$r")
      target_json="$target_json,
    { \"ssh\": \"root@$addr\", \"workDir\": \"$DIR/hosts/$prefix-target$r/work\", \"address\": \"$addr\", \"port\": 7400 }"
    done
    target_json="$target_json
  ]"
  fi
  local loadgen_json="{ \"ssh\": \"root@$net.3\", \"workDir\": \"$DIR/hosts/$prefix-loadgen/work\", \"address\": \"$net.3\" }"
  local roles_json="\"target\": $target_json,
  \"loadgen\": $loadgen_json,"
  if [ "$lab_lanes" -gt 1 ]; then
    roles_json="\"lanes\": [
    { \"target\": $target_json, \"loadgen\": $loadgen_json }"
    for ((l = 1; l < lab_lanes; l++)); do
      local ta ga
      ta=$(addr_of "tgt$l")
      ga=$(addr_of "gen$l")
      roles_json="$roles_json,
    { \"target\": { \"ssh\": \"root@$ta\", \"workDir\": \"$DIR/hosts/$prefix-tgt$l/work\", \"address\": \"$ta\", \"port\": 7400 },
      \"loadgen\": { \"ssh\": \"root@$ga\", \"workDir\": \"$DIR/hosts/$prefix-gen$l/work\", \"address\": \"$ga\" } }"
    done
    roles_json="$roles_json
  ],"
  fi
  cat >"$DIR/hosts.json" <<EOF
{
  "sshConfig": "$DIR/ssh_config",
  "connectTimeoutSeconds": 5,
  $roles_json
  "redis": { "ssh": "root@$net.4", "workDir": "$DIR/hosts/$prefix-redis/work", "address": "$net.4", "port": 6379$redis_tls }
}
EOF
  say "wrote $DIR/hosts.json and $DIR/ssh_config (known_hosts pre-trusted, StrictHostKeyChecking yes)"
  say "try: ssh -F $DIR/ssh_config root@$net.2 hostname -I"
  say "up: lab $prefix ready; remove it with: $0 down${2:+ $2}"
}

lab_status() {
  local role ns veth addr pid state rc=0
  if link_exists "$bridge"; then say "bridge $bridge: $(ip -br addr show dev "$bridge" | awk '{print $2, $3}')"; else
    say "bridge $bridge: absent"
    rc=1
  fi
  for role in "${ROLES[@]}"; do
    ns=$(ns_of "$role")
    veth=$(veth_of "$role")
    addr=$(addr_of "$role")
    if ! ns_exists "$ns"; then
      say "$ns: absent"
      rc=1
      continue
    fi
    pid=$(cat "$DIR/hosts/$ns/sshd.pid" 2>/dev/null || true)
    if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then state="sshd pid $pid"; else
      state="sshd not running"
      rc=1
    fi
    if [ -f "$DIR/ssh_config" ] && ssh -F "$DIR/ssh_config" -o ConnectTimeout=3 "root@$addr" true </dev/null 2>/dev/null; then
      state="$state, ssh ok"
    else
      state="$state, ssh FAILS"
      rc=1
    fi
    say "$ns: $addr via $veth, $state, processes: $(ip netns pids "$ns" | wc -l)"
  done
  [ -f "$DIR/hosts.json" ] && say "hosts file: $DIR/hosts.json"
  return $rc
}

case $cmd in
up) lab_up "$@" ;;
down) lab_down ;;
status) lab_status ;;
esac
