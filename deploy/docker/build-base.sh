#!/usr/bin/env bash
# Builds a Debian base image with Node.js for the Dockerfile's BASE_IMAGE, for hosts that can reach Debian's
# package archive but no container registry: debootstrap makes a minimal Debian, and this host's Node.js (node and
# npm) is copied in, laid out as in the official Node.js images (/usr/local/bin). Prints the image's tag.
#
# The tag is a hash of this script, the Node.js version and the architecture, so a second run finds the image (or
# the root file system saved in TASMAN_BASE_CACHE) and builds nothing. Needs root, debootstrap and docker.
set -euo pipefail

suite="${DEBIAN_SUITE:-bookworm}"
cache="${TASMAN_BASE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tasman-docker}"
node_bin="$(readlink -f "$(command -v node)")"
npm_dir="$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)"
node_version="$("$node_bin" --version)"
local_cas=(/usr/local/share/ca-certificates/*.crt)
[ -e "${local_cas[0]}" ] || local_cas=()
key="$( { cat "$0" "${local_cas[@]}"; echo "$suite $node_version $(uname -m) ${DEBIAN_MIRROR:-}"; } | sha256sum | cut -c1-16)"
tag="tasman-base:$key"
say() { echo "build-base: $*" >&2; }
import_base() {
  docker import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' --change 'CMD ["node"]' "$archive" "$tag" >/dev/null
}

if docker image inspect "$tag" >/dev/null 2>&1; then
  say "$tag is built already"
  echo "$tag"
  exit 0
fi
archive="$cache/base-$key.tar"
if [ -s "$archive" ]; then
  say "importing $tag from $archive"
  import_base
  echo "$tag"
  exit 0
fi

[ "$(id -u)" = 0 ] || { say "debootstrap needs root"; exit 1; }
command -v debootstrap >/dev/null || { say "debootstrap is not installed (apt-get install debootstrap)"; exit 1; }

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
say "debootstrap $suite (Node.js $node_version from this host)"
# minbase: dpkg, apt and the essential tools; tini reaps orphans and passes signals on as process 1.
# shellcheck disable=SC2086
debootstrap --variant=minbase --include=ca-certificates,libstdc++6,tini "$suite" "$root" ${DEBIAN_MIRROR:-} >&2

# The host's own certificate authorities (a company's TLS-inspecting proxy, say), so that npm in the image's build
# reaches its registry as it does from the host; Node reads the system's store (NODE_EXTRA_CA_CERTS below).
if [ ${#local_cas[@]} -gt 0 ]; then
  cp "${local_cas[@]}" "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates >&2
fi

install -D -m 0755 "$node_bin" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

# What an image needs no copy of: package lists and archives, documentation, locales.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
  "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/* \
  "$root"/var/log/*.log "$root"/tmp/*

mkdir -p "$cache"
tar -C "$root" --numeric-owner -cf "$archive.part" .
mv "$archive.part" "$archive"
# One base is kept: earlier ones (another script or Node.js version) are not used again.
find "$cache" -maxdepth 1 -name 'base-*.tar' ! -name "base-$key.tar" -delete
import_base
say "built $tag"
echo "$tag"
