# shellcheck shell=bash
# Hosts A, B and M as Linux network namespaces (docs/adr/0051-hosts-as-network-namespaces.md).
#
#   machine (root namespace)  hanwiki-br0 198.18.0.1/24  <- tests, operators, make status
#        |-- veth hanwiki-a0 <-> eth0 in netns hanwiki-a   198.18.0.2   host A
#        |-- veth hanwiki-b0 <-> eth0 in netns hanwiki-b   198.18.0.3   host B
#        `-- veth hanwiki-m0 <-> eth0 in netns hanwiki-m   198.18.0.4   host M
#
# Every process runs inside its host's namespace and binds that host's address only, so
# node2 -> primary or Prometheus -> an exporter crosses a real link that `isolate` can cut.
# localhost:$NGINX_PORT on the machine stays the public entry: a forwarder (socat, pid file
# public-entry) relays it to nginx on host A, as a load balancer in front of A would.
# In the local topology (HANWIKI_TOPOLOGY=local) all of this is a no-op.

HOSTS="A B M"
host_lower() { printf '%s\n' "$1" | tr 'A-Z' 'a-z'; }
netns_of() { printf '%s%s\n' "$HOSTS_NETNS_PREFIX" "$(host_lower "$1")"; }
veth_of() { printf '%s%s0\n' "$HOSTS_NETNS_PREFIX" "$(host_lower "$1")"; }
hosts_mode() { [ "$HANWIKI_TOPOLOGY" = hosts ]; }

# on_host HOST: the words that run a command inside HOST (nothing in the local topology).
# `ip netns exec` execs the command, so a pid recorded by start_bg is the process's own.
on_host() { hosts_mode && printf 'ip netns exec %s\n' "$(netns_of "$1")"; return 0; }
# on COMPONENT: on_host for the component's host.
on() { on_host "$(host_of "$1")"; }
# in_host HOST CMD...: runs CMD inside HOST (directly in the local topology).
in_host() { local h="$1"; shift; $(on_host "$h") "$@"; }

netns_exists() { ip netns list 2>/dev/null | awk '{print $1}' | grep -qx "$1"; }

# hosts_up: creates the bridge, the namespaces and their links (idempotent).
hosts_up() {
  hosts_mode || return 0
  command -v ip >/dev/null || die "iproute2 (ip) is missing"
  [ "$(id -u)" -eq 0 ] || die "the host topology needs root (ip netns); HANWIKI_TOPOLOGY=local runs without it"
  if ! ip link show "$HOSTS_BRIDGE" >/dev/null 2>&1; then
    ip link add "$HOSTS_BRIDGE" type bridge
    ip addr add "$HOSTS_GATEWAY_ADDR/$HOSTS_PREFIX_LEN" dev "$HOSTS_BRIDGE"
  fi
  ip link set "$HOSTS_BRIDGE" up
  # The machine owns the whole client range (tests send from any address in it); the hosts
  # route it back through the gateway.
  ip route replace local "$HOSTS_CLIENTS_NET" dev lo table local
  local h ns veth addr
  for h in $HOSTS; do
    ns=$(netns_of "$h"); veth=$(veth_of "$h"); addr=$(host_addr "$h")
    netns_exists "$ns" || ip netns add "$ns"
    if ! ip link show "$veth" >/dev/null 2>&1; then
      ip link add "$veth" type veth peer name eth0 netns "$ns"
      ip link set "$veth" master "$HOSTS_BRIDGE"
      ip -n "$ns" addr add "$addr/$HOSTS_PREFIX_LEN" dev eth0
    fi
    ip -n "$ns" link set lo up
    ip -n "$ns" link set eth0 up
    ip -n "$ns" route replace "$HOSTS_CLIENTS_NET" via "$HOSTS_GATEWAY_ADDR" dev eth0
    # A host left isolated by an earlier run stays isolated until `ctl.sh heal`; a fresh
    # link (no marker) comes up.
    [ -f "$RUN/host-$h.isolated" ] || ip link set "$veth" up
  done
}

# hosts_down: removes exactly what hosts_up made (namespaces, their veths, the bridge).
hosts_down() {
  hosts_mode || return 0
  local h ns
  for h in $HOSTS; do
    ns=$(netns_of "$h")
    # Deleting a namespace deletes its end of the veth pair, and with it our end.
    netns_exists "$ns" && ip netns delete "$ns"
    ip link delete "$(veth_of "$h")" 2>/dev/null || true
    rm -f "$RUN/host-$h.isolated"
  done
  ip link show "$HOSTS_BRIDGE" >/dev/null 2>&1 && ip link delete "$HOSTS_BRIDGE"
  ip route del local "$HOSTS_CLIENTS_NET" dev lo table local 2>/dev/null || true
  return 0
}

# host_isolate HOST / host_heal HOST: cut / restore the host's only link (the processes on it
# keep running and keep talking to themselves over the host's own address).
host_isolate() {
  hosts_mode || die "isolate needs the host topology (HANWIKI_TOPOLOGY=hosts)"
  mkdir -p "$RUN"; touch "$RUN/host-$1.isolated"
  ip link set "$(veth_of "$1")" down
}
host_heal() {
  hosts_mode || die "heal needs the host topology (HANWIKI_TOPOLOGY=hosts)"
  ip link set "$(veth_of "$1")" up
  rm -f "$RUN/host-$1.isolated"
}
host_isolated() { [ -f "$RUN/host-$1.isolated" ]; }

# The public entry on the machine: localhost:$NGINX_PORT -> nginx on its host.
public_entry_start() {
  hosts_mode || return 0
  command -v socat >/dev/null || die "socat is missing (make install)"
  start_bg public-entry $(run_as nobody) socat -b 65536 "TCP-LISTEN:$NGINX_PORT,bind=127.0.0.1,reuseaddr,fork,backlog=1024" \
    "TCP:$NGINX_ADDR:$NGINX_PORT"
}
