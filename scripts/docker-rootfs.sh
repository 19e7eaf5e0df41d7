#!/usr/bin/env bash
# Lays out the container's root file system for a built dynapage binary, for an image FROM scratch:
#   DIR/usr/local/bin/dynapage       the binary, stripped
#   DIR/lib..., DIR/usr/lib...       the shared libraries it loads (ldd: the C library and the dynamic loader;
#                                    none for the static binary of the default build)
#   DIR/etc/passwd, DIR/etc/group    the non-root user dynamodblocal (uid and gid 1000), as DynamoDB Local's image
#   DIR/home/dynamodblocal/data      the working directory and the documented volume (owned by that user in the
#                                    image: the Dockerfile copies it with --chown)
#   DIR/tmp
#
#   bash scripts/docker-rootfs.sh BINARY DIR
# Used by the Dockerfile's build stage and by scripts/docker-test.sh (which reuses the binary CI built).
set -euo pipefail
binary=$1
root=$2
mkdir -p "$root/usr/local/bin" "$root/etc" "$root/home/dynamodblocal/data" "$root/tmp"
strip --strip-all -o "$root/usr/local/bin/dynapage" "$binary"
for library in $(ldd "$binary" 2>/dev/null | grep -o '/[^ ]*'); do
  mkdir -p "$root$(dirname "$library")"
  cp -L "$library" "$root$library"
done
printf 'root:x:0:0:root:/root:/nonexistent\ndynamodblocal:x:1000:1000:dynapage:/home/dynamodblocal:/nonexistent\n' \
  >"$root/etc/passwd"
printf 'root:x:0:\ndynamodblocal:x:1000:\n' >"$root/etc/group"
chmod 1777 "$root/tmp"
