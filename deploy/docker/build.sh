#!/usr/bin/env bash
# Builds Tasman's container image from this checkout, tagged tasman:<version from package.json> and tasman:latest
# (or the tag given as the first argument). The base is BASE_IMAGE when set (any Debian-based image with Node.js
# 20.19 or later, e.g. node:20-bookworm-slim), else the Debian base build-base.sh makes on this host. The build's
# containers use the host's network (--network host), so npm reaches its registry without a bridge network.
set -euo pipefail
cd "$(dirname "$0")/../.."
version="$(node -p "require('./package.json').version")"
tag="${1:-tasman:$version}"
base="${BASE_IMAGE:-$(deploy/docker/build-base.sh)}"
# Without the buildx plugin the classic builder runs; the Dockerfile needs nothing more.
docker buildx version >/dev/null 2>&1 || export DOCKER_BUILDKIT=0
echo "build: $tag on $base" >&2
# The dependencies' stage is tagged too, so pruning untagged images keeps it for the next build while the lock file
# is unchanged.
docker build --network host --build-arg BASE_IMAGE="$base" --target deps -t tasman-build-deps:latest . >&2
docker build --network host --build-arg BASE_IMAGE="$base" -t "$tag" . >&2
[ $# -gt 0 ] || docker tag "$tag" tasman:latest >&2
echo "$tag"
