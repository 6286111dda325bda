#!/usr/bin/env bash
# Builds the Greeter plugin against a host's ModuleHost and copies libGreeterPlugin.so (or .dylib) into a folder.
#
#   Examples/GreeterPlugin/build.sh [DEST]             build app-shell (debug) first, then the plugin; DEST defaults to ./plugins
#   MODULEHOST_MODULES=<dir> build.sh DEST             use an already built host's module folder (its bin path + /Modules)
#
# A plugin must be rebuilt whenever the host's ModuleHost changes: it uses the host's copy of ModuleHost.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
destination=${1:-$root/plugins}
configuration=${CONFIGURATION:-debug}
if [ -z "${MODULEHOST_MODULES:-}" ]; then
    swift build --package-path "$root" -c "$configuration" --product app-shell
    MODULEHOST_MODULES="$(swift build --package-path "$root" -c "$configuration" --show-bin-path)/Modules"
fi
export MODULEHOST_MODULES
scratch=${PLUGIN_SCRATCH:-$here/.build}
swift build --package-path "$here" --scratch-path "$scratch" -c "$configuration" --product GreeterPlugin
bin=$(swift build --package-path "$here" --scratch-path "$scratch" -c "$configuration" --show-bin-path)
library=""
for candidate in "$bin/libGreeterPlugin.so" "$bin/libGreeterPlugin.dylib"; do
    if [ -f "$candidate" ]; then library=$candidate; fi
done
if [ -z "$library" ]; then echo "no libGreeterPlugin in $bin" >&2; exit 1; fi
mkdir -p "$destination"
cp "$library" "$destination/"
chmod go-w "$destination/$(basename "$library")"
echo "$destination/$(basename "$library")"
