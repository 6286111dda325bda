#!/usr/bin/env bash
# Stamps a plugin library with the ABI identity of the ModuleHost it was built against, and verifies the stamp.
#
#   Scripts/stamp-plugin.sh <library> [<host-root>]
#   Scripts/stamp-plugin.sh --mark-file <file> [<host-root>]     (macOS, at link time) only write the mark to <file>
#
# <host-root> is the root of the ModuleHost package the plugin was compiled against (default: this repository);
# its identity is read from <host-root>/Sources/ModuleHost/Plugins/ABIIdentity.swift (Scripts/abi-identity.sh).
# The mark is the ASCII text "MHABI1 " followed by the 64 hex digits, with no terminator.
#
# Linux (ELF): adds (or replaces) a non-loaded, read-only section named modulehost_abi holding the mark:
#   objcopy --add-section modulehost_abi=<mark> --set-section-flags modulehost_abi=readonly,contents <library>
# then checks it with readelf. Stamp the copy you ship, after the build, and compute the manifest's
# "sha256" after stamping: stamping changes the file.
#
# macOS (Mach-O): a section cannot be added after linking; link the mark in as section __DATA,__modulehost_abi:
#   Scripts/stamp-plugin.sh --mark-file .build/modulehost_abi [<host-root>]
#   swift build ... -Xlinker -sectcreate -Xlinker __DATA -Xlinker __modulehost_abi -Xlinker .build/modulehost_abi
# and then run this script on the library, which verifies the section (otool) instead of adding it.
set -euo pipefail
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit 2; }
mark_only=""
if [ "${1:-}" = "--mark-file" ]; then mark_only=${2:-}; [ -n "$mark_only" ] || usage; shift 2
else library=${1:-}; [ -n "$library" ] || usage; shift; fi
host=$(cd "${1:-$(dirname "$0")/..}" && pwd)
generated="$host/Sources/ModuleHost/Plugins/ABIIdentity.swift"
[ -f "$generated" ] || { echo "stamp-plugin: no $generated; is $host a ModuleHost package?" >&2; exit 2; }
identity=$(sed -n 's/^ *package static let current = "\([0-9a-f]\{64\}\)".*$/\1/p' "$generated")
[ ${#identity} -eq 64 ] || { echo "stamp-plugin: no identity in $generated" >&2; exit 2; }
mark="MHABI1 $identity"

if [ -n "$mark_only" ]; then printf '%s' "$mark" > "$mark_only"; echo "$mark_only: $mark"; exit 0; fi
[ -f "$library" ] || { echo "stamp-plugin: no file $library" >&2; exit 2; }

if [ "$(uname -s)" = "Darwin" ]; then
    found=$(otool -s __DATA __modulehost_abi "$library" 2>/dev/null | tail -n +3 | awk '{ for (i = 2; i <= NF; i++) printf "%s", $i }' \
        | xxd -r -p 2>/dev/null || true)
    if [ "$found" != "$mark" ]; then
        echo "stamp-plugin: $library does not carry the section __DATA,__modulehost_abi with \"$mark\"." >&2
        echo "  On macOS the mark is linked in: Scripts/stamp-plugin.sh --mark-file <file> then link with" >&2
        echo "  -Xlinker -sectcreate -Xlinker __DATA -Xlinker __modulehost_abi -Xlinker <file>" >&2
        exit 1
    fi
    echo "$library: $mark"; exit 0
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/stamp-plugin.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
printf '%s' "$mark" > "$scratch/mark"
readelf -h "$library" >/dev/null 2>&1 || { echo "stamp-plugin: $library is not an ELF file" >&2; exit 1; }
if readelf -S -W "$library" | grep -qw modulehost_abi; then
    objcopy --update-section modulehost_abi="$scratch/mark" "$library"
else
    objcopy --add-section modulehost_abi="$scratch/mark" --set-section-flags modulehost_abi=readonly,contents "$library"
fi
# Verify: exactly one section of that name, and its bytes are the mark.
count=$(readelf -S -W "$library" | grep -cw modulehost_abi || true)
hex=$(readelf -x modulehost_abi "$library" 2>/dev/null | sed -n 's/^  0x[0-9a-f]\{8\} \(\([0-9a-f]\{2,8\} \)\{1,4\}\).*$/\1/p' | tr -d ' \n' || true)
found=""
for ((i = 0; i < ${#hex}; i += 2)); do printf -v byte "\\x${hex:i:2}"; printf -v byte "$byte"; found+=$byte; done
if [ "$count" != 1 ] || [ "$found" != "$mark" ]; then
    echo "stamp-plugin: $library: the section modulehost_abi does not hold \"$mark\" after stamping" >&2; exit 1
fi
echo "$library: $mark"
