#!/usr/bin/env bash
# Builds the Greeter plugin against a host's ModuleHost and copies libGreeterPlugin.so (or .dylib) into a folder.
#
#   Examples/GreeterPlugin/build.sh [DEST]             build app-shell (debug) first, then the plugin; DEST defaults to ./plugins
#   MODULEHOST_MODULES=<dir> build.sh DEST             use an already built host's module folder (its bin path + /Modules)
#   MODULEHOST_ROOT=<dir>                              the ModuleHost repository whose Scripts (and app-shell) to use
#                                                      (default: this one); it plays no part in the plugin's mark
#
# The plugin's mark is the one of the interface it is compiled against: ModuleHost's build generates it into
# ModuleHost.swiftmodule, the plugin's code carries it, and the copy in DEST is stamped with it
# (Scripts/stamp-plugin.sh), which refuses a library that does not carry the mark of MODULEHOST_MODULES.
# The compiler gets -DMODULEHOST_ABI_<digest of every module's mark in MODULEHOST_MODULES>, so a changed host
# module recompiles the plugin (SwiftPM does not track an interface that comes in through -I). The steps are those of
# Sources/ModuleHost/ModuleHost.docc/WritingAPlugin.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "${MODULEHOST_ROOT:-$here/../..}" && pwd)
destination=${1:-$root/plugins}
configuration=${CONFIGURATION:-debug}
if [ -z "${MODULEHOST_MODULES:-}" ]; then
    swift build --package-path "$root" -c "$configuration" --product app-shell
    MODULEHOST_MODULES="$(swift build --package-path "$root" -c "$configuration" --show-bin-path)/Modules"
fi
export MODULEHOST_MODULES
scratch=${PLUGIN_SCRATCH:-$here/.build}
digest=$("$root/Scripts/stamp-plugin.sh" --interface-digest "$MODULEHOST_MODULES")
build=(swift build --package-path "$here" --scratch-path "$scratch" -c "$configuration" -Xswiftc "-DMODULEHOST_ABI_$digest")
"${build[@]}" --product GreeterPlugin
bin=$("${build[@]}" --show-bin-path)
library=""
for candidate in "$bin/libGreeterPlugin.so" "$bin/libGreeterPlugin.dylib"; do
    if [ -f "$candidate" ]; then library=$candidate; fi
done
if [ -z "$library" ]; then echo "no libGreeterPlugin in $bin" >&2; exit 1; fi
if [ "$(uname -s)" = "Darwin" ]; then
    # Mach-O: the mark is linked in as section __DATA,__modulehost_abi (relinked with the library's own mark).
    "$root/Scripts/stamp-plugin.sh" --mark-file "$scratch/modulehost_abi" "$library" --interface "$MODULEHOST_MODULES" >&2
    "${build[@]}" --product GreeterPlugin -Xlinker -sectcreate -Xlinker __DATA -Xlinker __modulehost_abi -Xlinker "$scratch/modulehost_abi"
fi
mkdir -p "$destination"
cp "$library" "$destination/"
chmod go-w "$destination/$(basename "$library")"
"$root/Scripts/stamp-plugin.sh" "$destination/$(basename "$library")" --interface "$MODULEHOST_MODULES" >&2
echo "$destination/$(basename "$library")"
