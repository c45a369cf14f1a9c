# Shared helpers for the project's shell scripts. Source it; do not run it.
# Everything downloaded lives in one cache directory outside the checkout so a
# fresh clone reuses it, and a missing cache only costs time.

IM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
IM_CACHE="${IM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/im-platform}"
IM_NODE_MAJOR=24
IM_MONGO_JAVA_SERVER_VERSION="${IM_MONGO_JAVA_SERVER_VERSION:-1.47.0}"
IM_SCHEMATHESIS_VERSION=4.32.5
# Kept in step with LIVEKIT_VERSION in packages/dev-servers.
IM_LIVEKIT_VERSION=v1.9.11
# Toxiproxy for the cluster fault tests (latency between hosts).
IM_TOXIPROXY_VERSION=v2.5.0
# helm for the chart's checks in the test suite (deploy/helm).
IM_HELM_VERSION=v3.22.0
# compose-go's validator (the loader docker compose uses) for docker-compose.yml's check.
IM_COMPOSE_GO_VERSION=v2.16.2
export IM_ROOT IM_CACHE

say() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }
fail() {
  printf '\033[31m[setup] error:\033[0m %s\n' "$*" >&2
  exit 1
}

node_major() { "${1:-node}" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

# Puts the project's Node 24 first on PATH when the system Node is too old.
use_project_node() {
  if [ -x "$IM_CACHE/node/bin/node" ]; then
    PATH="$IM_CACHE/node/bin:$PATH"
  fi
  if [ -x "$IM_CACHE/bin/minio" ]; then
    PATH="$PATH:$IM_CACHE/bin"
  fi
  export PATH
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else fail "need root (or sudo) to run: $*"
  fi
}

APT_UPDATED=0
apt_install() {
  command -v apt-get >/dev/null || fail "apt-get not found: install $* by hand"
  if [ "$APT_UPDATED" = 0 ]; then
    say "apt-get update"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null ||
      fail "apt-get update failed (is the Debian package mirror reachable?)"
    APT_UPDATED=1
  fi
  say "apt-get install $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null ||
    fail "could not install Debian package(s): $*"
}
