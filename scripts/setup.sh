#!/usr/bin/env bash
# Brings what is missing, and nothing else (safe to run any number of times).
#   scripts/setup.sh run    Node 24, npm packages, the MongoDB-compatible dev server,
#                           the web client's build (client/dist)
#   scripts/setup.sh test   all of the above plus Redis, NATS, MinIO and Chromium
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

profile="${1:-run}"
case "$profile" in run | test) ;; *) fail "unknown profile '$profile' (expected run or test)" ;; esac

ensure_node() {
  use_project_node
  local major
  major="$(node_major node)"
  if [ "$major" -ge 22 ]; then
    say "Node.js $(node -v) found"
    return
  fi
  command -v npm >/dev/null || fail "neither Node.js >= 22 nor npm found: install Node.js 24"
  say "system Node.js is v$major; installing Node.js $IM_NODE_MAJOR into $IM_CACHE/node"
  mkdir -p "$IM_CACHE/node"
  npm install --global --no-fund --no-audit --loglevel=error --prefix "$IM_CACHE/node" "node@$IM_NODE_MAJOR" >/dev/null ||
    fail "could not install node@$IM_NODE_MAJOR from the npm registry"
  use_project_node
  [ "$(node_major node)" -ge 22 ] || fail "Node.js $IM_NODE_MAJOR was installed but $(command -v node) is $(node -v)"
  say "Node.js $(node -v) ready"
}

ensure_npm_packages() {
  local stamp="$IM_ROOT/node_modules/.setup-stamp" want
  want="$(cat "$IM_ROOT/package.json" "$IM_ROOT/package-lock.json" 2>/dev/null | sha256sum | cut -c1-16)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    say "npm packages up to date"
    return
  fi
  say "installing npm packages"
  (cd "$IM_ROOT" && npm ci --no-fund --no-audit --loglevel=error) || fail "npm ci failed (see the npm output above)"
  echo "$want" >"$stamp"
}

# Paths (from the repository root) of everything the web client's build
# depends on: its config and manifest files, the lock file, every file under
# client/src and client/public.
web_client_sources() {
  cd "$IM_ROOT" || return 1
  local f d
  for f in client/index.html client/vite.config.ts client/tsconfig*.json client/package.json package-lock.json; do
    if [ -f "$f" ]; then printf '%s\n' "$f"; fi
  done
  for d in client/src client/public; do
    if [ -d "$d" ]; then find "$d" -type f; fi
  done
}

# Vite builds the web client into client/dist (which the gateway serves) when
# its sources changed since the last build; client/dist/.build-stamp holds the
# hash of the sources that build came from.
ensure_web_client() {
  local dist="$IM_ROOT/client/dist" want log started
  if [ ! -f "$IM_ROOT/client/index.html" ]; then
    say "web client: no client/index.html yet, nothing to build (the gateway answers / with a 'not built' page)"
    return
  fi
  want="$( (web_client_sources | LC_ALL=C sort | tr '\n' '\0' | xargs -0 sha256sum | sha256sum | cut -c1-16) )" ||
    fail "could not hash the web client's sources"
  if [ -f "$dist/.build-stamp" ] && [ -f "$dist/index.html" ] && [ "$(cat "$dist/.build-stamp")" = "$want" ]; then
    say "web client build up to date (client/dist)"
    return
  fi
  say "building the web client into client/dist (npm run build -w @im/client)"
  log="$(mktemp)"
  started=$SECONDS
  if ! (cd "$IM_ROOT" && npm run build -w @im/client) >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    fail "the web client build failed (output above); fix it, or run 'npm run build -w @im/client' to see it again"
  fi
  rm -f "$log"
  [ -f "$dist/index.html" ] || fail "the web client build finished but wrote no client/dist/index.html"
  echo "$want" >"$dist/.build-stamp"
  say "web client built in $((SECONDS - started)) s"
}

ensure_chromium() {
  ensure_debian_binary chromium chromium
  # Reactions are emoji: without a colour emoji font the browser tests' screenshots show empty boxes.
  [ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || apt_install fonts-noto-color-emoji
  say "Chromium present ($(command -v chromium || echo /usr/bin/chromium)) for the browser tests"
}

ensure_java() {
  if command -v java >/dev/null && command -v javac >/dev/null && command -v mvn >/dev/null; then
    return
  fi
  say "Java 17 and Maven are needed for the MongoDB-compatible dev server"
  apt_install openjdk-17-jdk-headless maven
}

# mongo-java-server speaks the MongoDB wire protocol, in memory (tests) or in
# a file through its H2 backend (the single instance's default database). Its
# jars have no main class, so a small launcher is compiled beside them; both
# are fetched again when the launcher or its pom changes (a stamp of the two).
ensure_mongo_dev_server() {
  if [ -n "${MONGO_URL:-}" ] || command -v mongod >/dev/null; then
    say "MongoDB: using ${MONGO_URL:-mongod on PATH}"
    return
  fi
  local src="$IM_ROOT/packages/dev-servers/java"
  local dir="$IM_CACHE/mongo-java-server/$IM_MONGO_JAVA_SERVER_VERSION"
  local stamp
  stamp="$(cat "$src/pom.xml" "$src/MongoDevServer.java" | sha256sum | cut -d' ' -f1)"
  if [ -f "$dir/classes/MongoDevServer.class" ] && [ "$(cat "$dir/.stamp" 2>/dev/null)" = "$stamp" ]; then
    say "MongoDB-compatible dev server (mongo-java-server $IM_MONGO_JAVA_SERVER_VERSION) cached"
    return
  fi
  ensure_java
  say "fetching mongo-java-server $IM_MONGO_JAVA_SERVER_VERSION (memory and H2 backends) from Maven Central"
  rm -rf "$dir"
  mkdir -p "$dir/lib" "$dir/classes"
  mvn -q -B -f "$src/pom.xml" -Dmongo-java-server.version="$IM_MONGO_JAVA_SERVER_VERSION" \
    dependency:copy-dependencies -DoutputDirectory="$dir/lib" -DincludeScope=runtime ||
    fail "could not fetch de.bwaldvogel:mongo-java-server:$IM_MONGO_JAVA_SERVER_VERSION from Maven Central"
  javac -nowarn -d "$dir/classes" -cp "$dir/lib/*" "$src/MongoDevServer.java" ||
    fail "could not compile the mongo-java-server launcher"
  echo "$stamp" >"$dir/.stamp"
  say "mongo-java-server ready in $dir"
}

ensure_debian_binary() { # binary package
  if command -v "$1" >/dev/null || [ -x "/usr/sbin/$1" ] || [ -x "/usr/bin/$1" ]; then return; fi
  apt_install "$2"
  command -v "$1" >/dev/null || [ -x "/usr/sbin/$1" ] || [ -x "/usr/bin/$1" ] || fail "$2 installed but $1 not found"
}

ensure_redis_nats() {
  ensure_debian_binary redis-server redis-server
  ensure_debian_binary nats-server nats-server
  # The packages start system services we do not use; tests start their own.
  if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
    as_root systemctl disable --now redis-server nats-server >/dev/null 2>&1 || true
  fi
  say "redis-server and nats-server present"
}

# MinIO ships no Debian package and there is no download here but the Go
# module proxy, so it is built from source once (about 5 minutes on 2 cores)
# and the binary is kept in the cache.
ensure_minio() {
  if command -v minio >/dev/null; then
    say "MinIO found at $(command -v minio)"
    return
  fi
  command -v go >/dev/null || fail "MinIO is built with Go, and no 'go' was found: install Go >= 1.24"
  say "building MinIO with go install (first time only, several minutes)"
  mkdir -p "$IM_CACHE/bin"
  GOBIN="$IM_CACHE/bin" GOFLAGS=-trimpath go install "github.com/minio/minio@${IM_MINIO_VERSION:-latest}" ||
    fail "could not build MinIO with 'go install github.com/minio/minio@${IM_MINIO_VERSION:-latest}'"
  use_project_node
  say "MinIO built: $IM_CACHE/bin/minio"
}

# LiveKit (the media server for calls) has no Debian package either: built
# from its Go module once (about 2 minutes) into the cache, as
# livekit-server. Pinned to the 1.9 line: later releases' go.mod replaces
# pion with LiveKit's own forks, which the module proxy refuses to build.
# Skipped when LIVEKIT_URL names a server or VOICE=off. $1: fail (the tests
# need it) or warn (the platform runs without calls).
ensure_livekit() {
  local bin="$IM_CACHE/bin/livekit-server" want="${IM_LIVEKIT_VERSION#v}" tmp
  if [ -n "${LIVEKIT_URL:-}" ] || [ "${VOICE:-on}" = off ]; then
    say "LiveKit: not needed (LIVEKIT_URL or VOICE=off set)"
    return
  fi
  if [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -qF "version $want"; then
    say "livekit-server $want cached"
    return
  fi
  if ! command -v go >/dev/null; then
    [ "$1" = warn ] || fail "livekit-server is built with Go, and no 'go' was found: install Go >= 1.24"
    say "warning: no 'go' to build livekit-server with: calls (voice and video) stay off until it is built"
    return
  fi
  say "building livekit-server $IM_LIVEKIT_VERSION with go install (first time only, about 2 minutes)"
  tmp="$(mktemp -d)"
  if ! GOBIN="$tmp" GOFLAGS=-trimpath go install "github.com/livekit/livekit-server/cmd/server@$IM_LIVEKIT_VERSION"; then
    rm -rf "$tmp"
    [ "$1" = warn ] || fail "could not build livekit-server with 'go install github.com/livekit/livekit-server/cmd/server@$IM_LIVEKIT_VERSION'"
    say "warning: could not build livekit-server: calls (voice and video) stay off"
    return
  fi
  mkdir -p "$IM_CACHE/bin"
  mv "$tmp/server" "$bin"
  rm -rf "$tmp"
  say "livekit-server built: $bin"
}

# Builds the command at Go package PACKAGE (module MODULE, VERSION) into the
# cache as $IM_CACHE/bin/NAME, once per version. A source build reports no
# release of its own (or only the minor one): the module version recorded in
# the binary is what is compared. Usage: go_tool NAME MODULE PACKAGE VERSION [about]
go_tool() {
  local name="$1" module="$2" package="$3" version="$4" about="${5:-seconds}" bin="$IM_CACHE/bin/$1" tmp
  if [ -x "$bin" ] && go version -m "$bin" 2>/dev/null | grep -qE "mod\s+$module\s+$version\b"; then
    say "$name $version cached"
    return
  fi
  command -v go >/dev/null || fail "$name is built with Go, and no 'go' was found: install Go >= 1.24"
  say "building $name $version with go install (first time only, $about)"
  tmp="$(mktemp -d)"
  if ! GOBIN="$tmp" GOFLAGS=-trimpath go install "$package@$version"; then
    rm -rf "$tmp"
    fail "could not build $name with 'go install $package@$version'"
  fi
  mkdir -p "$IM_CACHE/bin"
  mv "$tmp/${package##*/}" "$bin"
  rm -rf "$tmp"
  say "$name built: $bin"
}

# The cluster fault tests run each part of a cluster in its own network
# namespace (iproute2), drop packets with nftables and add latency with
# Toxiproxy, which has no Debian package.
ensure_fault_tools() {
  ensure_debian_binary ip iproute2
  ensure_debian_binary nft nftables
  go_tool toxiproxy-server github.com/Shopify/toxiproxy/v2 github.com/Shopify/toxiproxy/v2/cmd/server "$IM_TOXIPROXY_VERSION"
}

# helm: the chart's lint and template checks in the test suite.
ensure_helm() {
  go_tool helm helm.sh/helm/v3 helm.sh/helm/v3/cmd/helm "$IM_HELM_VERSION" "about 2 minutes"
}

# compose-spec: the Compose Specification's own validator (compose-go, the
# loader docker compose is built on; it checks against the schema). The suite
# checks docker-compose.yml with it; no Docker engine is needed.
ensure_compose_spec() {
  go_tool compose-spec github.com/compose-spec/compose-go/v2 github.com/compose-spec/compose-go/v2/cmd "$IM_COMPOSE_GO_VERSION"
}

# schemathesis (PyPI) checks the API document against the running server in
# the test suite; it lives in a virtualenv of its own in the cache.
ensure_schemathesis() {
  local dir="$IM_CACHE/schemathesis/$IM_SCHEMATHESIS_VERSION"
  if [ -x "$dir/bin/st" ]; then
    say "schemathesis $IM_SCHEMATHESIS_VERSION cached"
    return
  fi
  command -v python3 >/dev/null || apt_install python3
  say "installing schemathesis $IM_SCHEMATHESIS_VERSION from PyPI into $dir"
  rm -rf "$dir"
  if ! python3 -m venv "$dir" >/dev/null 2>&1; then
    # Debian's python3 keeps venv in a package of its own.
    rm -rf "$dir"
    apt_install python3-venv
    python3 -m venv "$dir" || fail "could not make a Python virtualenv in $dir"
  fi
  "$dir/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$IM_SCHEMATHESIS_VERSION" ||
    fail "could not install schemathesis==$IM_SCHEMATHESIS_VERSION from PyPI"
  [ -x "$dir/bin/st" ] || fail "schemathesis was installed but $dir/bin/st is missing"
  say "schemathesis ready: $dir/bin/st"
}

ensure_node
if [ "$profile" = test ]; then
  ensure_redis_nats
  ensure_minio
  ensure_livekit fail
  ensure_fault_tools
  ensure_helm
  ensure_compose_spec
  ensure_chromium
  ensure_schemathesis
else
  ensure_livekit warn
fi
ensure_mongo_dev_server
ensure_npm_packages
ensure_web_client
say "setup ($profile) done"
