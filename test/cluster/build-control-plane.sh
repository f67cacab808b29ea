#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kube-scheduler and kubectl from Debian
# bookworm's `kubernetes` source package (Kubernetes 1.20.2), and installs etcd from Debian.
# The result is cached under $KS_CACHE (default ~/.cache/kruise-serverless), keyed by version,
# so only the first run on a machine pays for the build (~7-10 minutes on 2 cores).
set -euo pipefail

K8S_VERSION=1.20.2
CACHE=${KS_CACHE:-$HOME/.cache/kruise-serverless}
OUT=$CACHE/k8s-$K8S_VERSION
BINS=(kube-apiserver kube-controller-manager kube-scheduler kubectl)

log() { printf '[control-plane build] %s\n' "$*" >&2; }

have_all() {
  for b in "${BINS[@]}"; do [ -x "$OUT/bin/$b" ] || return 1; done
  command -v etcd >/dev/null
}

if have_all; then
  log "cached in $OUT/bin"
  exit 0
fi

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

apt_install() {
  local missing=()
  for p in "$@"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >&2
}

# deb-src for bookworm main, so `apt-get source` can find the kubernetes source package.
SRC_LIST=/etc/apt/sources.list.d/kruise-serverless-src.sources
if [ ! -f "$SRC_LIST" ]; then
  log "adding deb-src entry $SRC_LIST"
  $SUDO tee "$SRC_LIST" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  STAMP_UPDATE=1
fi
if [ "${STAMP_UPDATE:-0}" = 1 ] || [ ! -d /var/lib/apt/lists ] || ! ls /var/lib/apt/lists/*bookworm*Sources* >/dev/null 2>&1; then
  log "apt-get update"
  $SUDO apt-get update >&2
fi

apt_install etcd-server golang-go rsync dpkg-dev make \
  golang-github-modern-go-reflect2-dev golang-github-json-iterator-go-dev

if have_all; then exit 0; fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ks-k8s-build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
log "fetching kubernetes source package into $WORK"
apt-get source --download-only kubernetes >&2
dpkg-source --no-check -x kubernetes_*.dsc src >&2

# The vendored reflect2 1.0.1 faults under Go >= 1.18 (map iteration on watch-heavy requests).
# Debian ships fixed versions of it and json-iterator: swap them in.
log "replacing vendored reflect2 and json-iterator"
for pair in "github.com/modern-go/reflect2" "github.com/json-iterator/go"; do
  rm -rf "src/vendor/$pair"
  mkdir -p "src/vendor/$pair"
  cp -a "/usr/share/gocode/src/$pair/." "src/vendor/$pair/"
  find "src/vendor/$pair" -name '*_test.go' -delete
done

mkdir -p .go/src/k8s.io
ln -s "$WORK/src" .go/src/k8s.io/kubernetes
cd .go/src/k8s.io/kubernetes
log "building ${BINS[*]} (takes several minutes)"
export GOPATH="$WORK/.go" GO111MODULE=off CGO_ENABLED=0 GOFLAGS= GOCACHE="$WORK/.gocache"
export KUBE_GIT_VERSION="v$K8S_VERSION" KUBE_GIT_TREE_STATE=clean
make WHAT="cmd/kube-apiserver cmd/kube-controller-manager cmd/kube-scheduler cmd/kubectl" >&2

mkdir -p "$OUT/bin.tmp"
for b in "${BINS[@]}"; do
  cp "_output/local/bin/linux/amd64/$b" "$OUT/bin.tmp/$b" 2>/dev/null || cp "$(find _output -type f -name "$b" | head -1)" "$OUT/bin.tmp/$b"
done
rm -rf "$OUT/bin"
mv "$OUT/bin.tmp" "$OUT/bin"
log "built into $OUT/bin"
