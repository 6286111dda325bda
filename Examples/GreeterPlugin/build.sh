#!/usr/bin/env bash
# Builds the Greeter plugin against a host's ModuleHost and copies libGreeterPlugin.so (or .dylib) into a folder.
#
#   Examples/GreeterPlugin/build.sh [DEST]             build app-shell (debug) first, then the plugin; DEST defaults to ./plugins
#   MODULEHOST_MODULES=<dir> build.sh DEST             use an already built host's module folder (its bin path + /Modules)
#   MODULEHOST_ROOT=<dir>                              the root of that host's package (default: this repository),
#                                                      whose ABI identity the plugin is stamped with
#
# The copy in DEST is stamped with the host's ABI identity (Scripts/stamp-plugin.sh): the host refuses a plugin
# built against any other ModuleHost. Rebuild the plugin whenever the host's ModuleHost changes.
# The steps are those of Sources/ModuleHost/ModuleHost.docc/WritingAPlugin.md.
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
host_root=${MODULEHOST_ROOT:-$root}
link=()
if [ "$(uname -s)" = "Darwin" ]; then
    # Mach-O: the mark is linked in as section __DATA,__modulehost_abi; stamp-plugin.sh then verifies it.
    mkdir -p "$scratch"
    "$host_root/Scripts/stamp-plugin.sh" --mark-file "$scratch/modulehost_abi" "$host_root" >&2
    link=(-Xlinker -sectcreate -Xlinker __DATA -Xlinker __modulehost_abi -Xlinker "$scratch/modulehost_abi")
fi
swift build --package-path "$here" --scratch-path "$scratch" -c "$configuration" --product GreeterPlugin ${link[@]+"${link[@]}"}
bin=$(swift build --package-path "$here" --scratch-path "$scratch" -c "$configuration" --show-bin-path)
library=""
for candidate in "$bin/libGreeterPlugin.so" "$bin/libGreeterPlugin.dylib"; do
    if [ -f "$candidate" ]; then library=$candidate; fi
done
if [ -z "$library" ]; then echo "no libGreeterPlugin in $bin" >&2; exit 1; fi
mkdir -p "$destination"
cp "$library" "$destination/"
chmod go-w "$destination/$(basename "$library")"
"$host_root/Scripts/stamp-plugin.sh" "$destination/$(basename "$library")" "$host_root" >&2
echo "$destination/$(basename "$library")"
