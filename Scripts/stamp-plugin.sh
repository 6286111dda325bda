#!/usr/bin/env bash
# Stamps a plugin library with the ABI mark its own code carries, and verifies the stamp.
#
#   Scripts/stamp-plugin.sh <library> [--interface <modules>]
#   Scripts/stamp-plugin.sh --interface-mark <modules>        print the mark of the ModuleHost interface in <modules>
#   Scripts/stamp-plugin.sh --interface-digest <modules>      print a digest of every mark in <modules> (ModuleHost's
#                                                             and each other module's), for -DMODULEHOST_ABI_<digest>
#   Scripts/stamp-plugin.sh --mark-file <file> <library>      (macOS) only write the library's mark to <file>
#
# The mark is "MHABI2 <source digest> <target triple> <compiler version>". ModuleHost's build generates it
# (Plugins/ABIIdentityGenerator) from the sources, compiler and target it is compiled from, and compiles it into
# its interface as ModuleProtocol._moduleHostABIMark, which is emitted into the code of every module type a
# plugin declares. So the library carries the mark of the interface it was really compiled against, and this
# script only copies that mark into a section the host reads without running the library. It never takes an
# identity from anywhere else: a library that was not recompiled keeps its old mark, and the host refuses it.
#
# --interface <modules>: the folder of the host's ModuleHost.swiftmodule, the one the plugin was compiled with
# (-I). The library must carry that interface's mark, or the script refuses to stamp it and exits 1: it was not
# recompiled (SwiftPM does not track an interface that comes in through -I; build.sh passes
# -DMODULEHOST_ABI_<--interface-digest> so that any changed module in the folder recompiles the plugin).
# The section then also records, one line each after the mark, "MHMOD <module> <digest>" for every other module in
# that folder the library takes symbols from and whose build generated an identity (ModuleHostState,
# ModuleHostRouting, the app's interface targets); the host refuses the library if any differs from its own.
# These lines come from the folder, not from the library's code: build against the folder you stamp with. A library
# already stamped with another identity of one of those modules is refused (it was not rebuilt since).
#
# Linux (ELF): adds (or replaces) a non-loaded, read-only section named modulehost_abi holding the mark:
#   objcopy --add-section modulehost_abi=<mark> --set-section-flags modulehost_abi=readonly,contents <library>
# then checks it with readelf. Stamp the copy you ship, after the build, and compute the manifest's "sha256"
# after stamping: stamping changes the file.
#
# macOS (Mach-O): a section cannot be added after linking; link the mark in as section __DATA,__modulehost_abi:
#   Scripts/stamp-plugin.sh --mark-file .build/modulehost_abi <library>
#   swift build ... -Xlinker -sectcreate -Xlinker __DATA -Xlinker __modulehost_abi -Xlinker .build/modulehost_abi
# and then run this script on the library, which verifies the section (otool) instead of adding it.
set -euo pipefail
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit "${1:-2}"; }
pattern='MHABI2 [0-9a-f]{64} [!-~]+ [ -~]+'
# The distinct marks in a file's bytes, one a line.
marks_in() { LC_ALL=C grep -aoE "$pattern" "$@" 2>/dev/null | LC_ALL=C sort -u || true; }
# The names a library's undefined symbols write, demangled (one symbol a line); the mangled names themselves when
# the demangler cannot be run.
symbols_used() {
    local names
    if [ "$(uname -s)" = "Darwin" ]; then names=$(nm -u "$1" 2>/dev/null || true); else names=$(nm -D --undefined-only "$1" 2>/dev/null | awk '{ print $NF }' || true); fi
    printf '%s\n' "$names" | swift demangle --compact 2>/dev/null || printf '%s\n' "$names"
}
# The "MHMOD <module> <digest>" lines for the modules of <modules> (a folder) that have an ABI identity and that
# <library> uses: a module is used when a demangled symbol names it before a "." or a ")" (an entity of it, or an
# extension in it), whatever the mangling's word substitutions.
module_lines() {
    local library=$1 modules=$2 used file module found
    used=$(symbols_used "$library")
    for file in "$modules"/*.swiftmodule; do
        [ -e "$file" ] || continue
        module=$(basename "$file" .swiftmodule)
        [ "$module" != ModuleHost ] || continue
        found=$(find "$file" -type f -print0 | xargs -0 cat | LC_ALL=C grep -aoE "MHMOD $module [0-9a-f]{64}" | LC_ALL=C sort -u || true)
        [ -n "$found" ] || continue
        [ "$(printf '%s\n' "$found" | wc -l)" -eq 1 ] || { echo "stamp-plugin: more than one ABI mark in $file" >&2; exit 2; }
        if printf '%s\n' "$used" | LC_ALL=C grep -qE "(^|[^A-Za-z0-9_])$module[.)]"; then printf '%s\n' "$found"; fi
    done
}
# The "MHMOD" lines of the section a library already carries (none when it has no section).
stamped_module_lines() {
    [ "$(uname -s)" != "Darwin" ] || return 0
    objcopy --dump-section modulehost_abi="$scratch/old" "$1" "$scratch/old-copy" 2>/dev/null || return 0
    # objcopy succeeds without writing the file when there is no such section: a first stamp.
    [ -f "$scratch/old" ] || return 0
    LC_ALL=C grep -aoE 'MHMOD [A-Za-z0-9_]+ [0-9a-f]{64}' "$scratch/old" || true
}
interface_mark() {
    local modules=$1 found
    [ -e "$modules/ModuleHost.swiftmodule" ] || { echo "stamp-plugin: no ModuleHost.swiftmodule in $modules" >&2; exit 2; }
    found=$(find "$modules/ModuleHost.swiftmodule" -type f -print0 | xargs -0 cat | marks_in -)
    [ -n "$found" ] && [ "$(printf '%s\n' "$found" | wc -l)" -eq 1 ] \
        || { echo "stamp-plugin: no single ABI mark in $modules/ModuleHost.swiftmodule; is it a ModuleHost built by its package?" >&2; exit 2; }
    printf '%s\n' "$found"
}

# A digest of every mark in <modules>: a compilation condition that changes whenever any of them does.
interface_digest() {
    local sha=sha256sum
    command -v sha256sum >/dev/null 2>&1 || sha="shasum -a 256"
    { interface_mark "$1"
      find "$1" -name '*.swiftmodule' -print0 | xargs -0 -I{} find {} -type f -print0 | xargs -0 cat \
          | LC_ALL=C grep -aoE 'MHMOD [A-Za-z0-9_]+ [0-9a-f]{64}' | LC_ALL=C sort -u || true
    } | $sha | cut -c1-64
}

mark_file="" interface=""
case "${1:-}" in
    --interface-mark) [ -n "${2:-}" ] || usage; interface_mark "$2"; exit 0 ;;
    --interface-digest) [ -n "${2:-}" ] || usage; interface_digest "$2"; exit 0 ;;
    --mark-file) mark_file=${2:-}; [ -n "$mark_file" ] || usage; shift 2 ;;
    -h|--help) usage 0 ;;
    ""|-*) usage ;;
esac
library=${1:-}; [ -n "$library" ] || usage; shift
if [ "$#" -gt 0 ]; then
    [ "$1" = "--interface" ] && [ -n "${2:-}" ] && [ "$#" -eq 2 ] || { echo "stamp-plugin: unexpected arguments: $*" >&2; usage; }
    interface=$2
fi
[ -f "$library" ] || { echo "stamp-plugin: no file $library" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/stamp-plugin.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# The mark of the library's code: read from a copy without the section, so an earlier stamp is not counted.
cp "$library" "$scratch/code"
if [ "$(uname -s)" != "Darwin" ]; then objcopy --remove-section modulehost_abi "$scratch/code" 2>/dev/null || true; fi
found=$(marks_in "$scratch/code")
if [ -z "$found" ]; then
    echo "stamp-plugin: $library carries no ModuleHost ABI mark in its code: it declares no ModuleProtocol type, or was compiled" >&2
    echo "  against a ModuleHost whose build does not generate one; rebuild it against the host's ModuleHost.swiftmodule" >&2
    exit 1
fi
if [ "$(printf '%s\n' "$found" | wc -l)" -ne 1 ]; then
    echo "stamp-plugin: $library was compiled against more than one ModuleHost (some of its objects were not recompiled):" >&2
    printf '  %s\n' "$found" >&2
    echo "  rebuild it from clean (remove its .build folder)" >&2
    exit 1
fi
mark=$found
if [ -n "$interface" ]; then
    expected=$(interface_mark "$interface")
    # In the library the mark is a NUL-terminated string; in the serialized module other printable bytes could
    # follow it, so the interface's text need only start with the library's mark.
    if [ "${expected#"$mark"}" = "$expected" ]; then
        echo "stamp-plugin: $library was not compiled against the ModuleHost in $interface, so it is not stamped:" >&2
        echo "  the library carries  $mark" >&2
        echo "  the interface is     $expected" >&2
        echo "  rebuild it against that interface: compile it with -DMODULEHOST_ABI_<that interface's digest> so that a changed" >&2
        echo "  interface recompiles it (see Writing a plugin; Examples/GreeterPlugin/build.sh does), or remove its .build folder" >&2
        exit 1
    fi
fi

if [ -n "$interface" ]; then
    lines=$(module_lines "$scratch/code" "$interface")
    # A library stamped before against other modules was not rebuilt since: its code was compiled against those.
    for old in $(stamped_module_lines "$library" | awk '{ print $2 "=" $3 }'); do
        now=$(printf '%s\n' "$lines" | awk -v m="${old%%=*}" '$2 == m { print $3 }')
        if [ -n "$now" ] && [ "$now" != "${old#*=}" ]; then
            echo "stamp-plugin: $library was stamped against another ${old%%=*} (ABI ${old#*=}) than the one in $interface ($now):" >&2
            echo "  it was not rebuilt since, so it is not stamped; rebuild it against that folder" >&2
            exit 1
        fi
    done
    [ -z "$lines" ] || mark=$(printf '%s\n%s' "$mark" "$lines")
fi

if [ -n "$mark_file" ]; then printf '%s' "$mark" > "$mark_file"; echo "$mark_file: $mark"; exit 0; fi

if [ "$(uname -s)" = "Darwin" ]; then
    section=$(otool -s __DATA __modulehost_abi "$library" 2>/dev/null | tail -n +3 | awk '{ for (i = 2; i <= NF; i++) printf "%s", $i }' \
        | xxd -r -p 2>/dev/null || true)
    if [ "$section" != "$mark" ]; then
        echo "stamp-plugin: $library does not carry the section __DATA,__modulehost_abi with \"$mark\"." >&2
        echo "  On macOS the mark is linked in: Scripts/stamp-plugin.sh --mark-file <file> <library> then relink with" >&2
        echo "  -Xlinker -sectcreate -Xlinker __DATA -Xlinker __modulehost_abi -Xlinker <file>" >&2
        exit 1
    fi
    echo "$library: $mark"; exit 0
fi

printf '%s' "$mark" > "$scratch/mark"
readelf -h "$library" >/dev/null 2>&1 || { echo "stamp-plugin: $library is not an ELF file" >&2; exit 1; }
if readelf -S -W "$library" | grep -qw modulehost_abi; then
    objcopy --update-section modulehost_abi="$scratch/mark" "$library"
else
    objcopy --add-section modulehost_abi="$scratch/mark" --set-section-flags modulehost_abi=readonly,contents "$library"
fi
# Verify: exactly one section of that name, and its bytes are the mark.
count=$(readelf -S -W "$library" | grep -cw modulehost_abi || true)
objcopy --dump-section modulehost_abi="$scratch/written" "$library" "$scratch/dumped" 2>/dev/null || true
if [ "$count" != 1 ] || ! cmp -s "$scratch/mark" "$scratch/written"; then
    echo "stamp-plugin: $library: the section modulehost_abi does not hold \"$mark\" after stamping" >&2; exit 1
fi
echo "$library: $mark"
