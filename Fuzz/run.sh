#!/usr/bin/env bash
# Builds the ModuleHost fuzzer with libFuzzer and AddressSanitizer and runs it for N minutes.
#
#   Fuzz/run.sh [minutes] [extra libFuzzer flags...]      (default: 10 minutes)
#
# New inputs go to Fuzz/work-corpus (a git-ignored working copy that persists between runs); the committed
# seeds in Fuzz/corpus are only read. Crashes, timeouts, OOMs and leaks are written to Fuzz/artifacts
# (git-ignored). Exits 1 if this run produced any artifact (or libFuzzer failed), 0 otherwise.
# Environment: SWIFT (the swift driver, default: swift on PATH), FUZZ_JOBS (parallel workers, default 1).
set -uo pipefail

minutes="${1:-10}"
shift $(( $# > 0 ? 1 : 0 ))
case "$minutes" in
    ''|*[!0-9]*) echo "usage: $0 [minutes] [libFuzzer flags...]" >&2; exit 2 ;;
esac

here="$(cd "$(dirname "$0")" && pwd)"
swift="${SWIFT:-swift}"
jobs="${FUZZ_JOBS:-1}"
# lld instead of the default gold, which warns "Cannot export local symbol __asan_extra_spill_area".
build=("$swift" build -c release --package-path "$here" -Xswiftc -sanitize=fuzzer,address -Xswiftc -g -Xswiftc -use-ld=lld)

"${build[@]}" || { echo "fuzz: build failed" >&2; exit 2; }
binary="$("${build[@]}" --show-bin-path)/FuzzTarget"

work="$here/work-corpus"
artifacts="$here/artifacts"
mkdir -p "$work" "$artifacts"
marker="$(mktemp)"
trap 'rm -f "$marker"' EXIT

flags=(
    -max_total_time=$(( minutes * 60 ))
    -max_len=65536          # manifests are small; 64 KiB leaves room for deep nesting and long lists
    -rss_limit_mb=2048
    -timeout=10             # one input taking 10 s is a denial-of-service bug
    -dict="$here/manifest.dict"
    -print_final_stats=1
    -artifact_prefix="$artifacts/"
)
if (( jobs > 1 )); then
    flags+=(-fork="$jobs")
fi

echo "fuzz: running $binary for $minutes minute(s); corpus $work (+ seeds $here/corpus), artifacts $artifacts"
"$binary" "${flags[@]}" "$@" "$work" "$here/corpus"
status=$?

found=$(find "$artifacts" -type f -newer "$marker" | sort)
if [[ -n "$found" ]]; then
    echo "fuzz: this run found:" >&2
    echo "$found" | sed 's/^/  /' >&2
    echo "fuzz: replay one with: $binary <file>   (MODULEHOST_FUZZ_VERBOSE=1 prints the diagnostics)" >&2
    exit 1
fi
if (( status != 0 )); then
    echo "fuzz: libFuzzer exited with status $status" >&2
    exit 1
fi
echo "fuzz: no crash, timeout or OOM in $minutes minute(s)"
