#!/bin/sh
# Runs every bundle under DIR (bench/device.ts bundles DIR) with the native host on this machine:
# builds native/vvision-host.c first (VULKAN_INCLUDE: where vulkan/vulkan.h is, when not installed).
# Usage: native/run-bundles.sh DIR [host options...]
set -e
dir=$1; shift
here=$(dirname "$0")
cc=${CC:-cc}
$cc -O2 -std=c11 -D_GNU_SOURCE ${VULKAN_INCLUDE:+-I$VULKAN_INCLUDE} -o /tmp/vvision-host "$here/vvision-host.c" -ldl
for b in "$dir"/*/bundle; do
  c=$(dirname "$b")
  mkdir -p "$c/out"
  /tmp/vvision-host "$@" "$b" "$c/out" || echo "FAILED: $c"
done
