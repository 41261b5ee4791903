#!/usr/bin/env bash
# Makes the build's base image, docker.io/library/node:24-bookworm-slim, on a machine that reaches Debian's mirror and
# the npm registry but no container registry: Debian bookworm from debootstrap, Node 24 from the npm registry's
# node-linux-<arch> package, npm, and user node (uid 1000), as in the official image. Does nothing when the image is
# there (pulled or made before). Needs root, podman and debootstrap (docs/deploy.md, "Building the image without a
# registry").
set -euo pipefail
IMAGE=docker.io/library/node:24-bookworm-slim
NPM_VERSION=11.19.1
if podman image exists "$IMAGE"; then exit 0; fi
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "base image: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac
command -v debootstrap >/dev/null || { echo "base image: debootstrap is not installed (apt-get install debootstrap)" >&2; exit 1; }
# apt's own mirror, so debootstrap goes where apt already goes.
mirror=$( (cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null || true) |
  grep -v '^[[:space:]]*#' | grep -oE 'https?://[^ ]*/debian/?( |$)' | head -1 | tr -d ' ' || true)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "base image: $IMAGE is missing; making it with debootstrap from ${mirror:-the default mirror} (about 2 minutes)"
debootstrap --variant=minbase bookworm "$work/rootfs" ${mirror:+"$mirror"} >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log" >&2; exit 1; }
(cd "$work" && npm pack --silent --loglevel=error "node-linux-$arch@24" "npm@$NPM_VERSION" >/dev/null)
mkdir "$work/node"
tar -xzf "$work"/node-linux-"$arch"-24.*.tgz -C "$work/node" --strip-components=1
install -m 0755 "$work/node/bin/node" "$work/rootfs/usr/local/bin/node"
mkdir -p "$work/rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$work/rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/rootfs/usr/local/bin/npx"
# The host's CA bundle: where HTTPS leaves through an intercepting proxy, `npm ci` in the build needs its CA. It stays
# in the build stages only: the runtime stage copies no CA bundle (Node's own CA list serves it).
mkdir -p "$work/rootfs/etc/ssl/certs"
cp /etc/ssl/certs/ca-certificates.crt "$work/rootfs/etc/ssl/certs/"
chroot "$work/rootfs" groupadd --gid 1000 node
chroot "$work/rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/*
tar -C "$work/rootfs" -c . | podman import --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' - "$IMAGE" >/dev/null
podman run --rm --user node "$IMAGE" node --version
