# lib.sh — shared by plots/draw and plots/article (sourced, POSIX sh).
#
# chart SCRIPT DATA OUT [ARGS...]
#   Runs "gnuplot -c plots/SCRIPT.gp DATA OUT.tmp ARGS..." and renames the
#   result to OUT only if gnuplot succeeded and wrote a real PNG (the 8-byte
#   signature, and more than MIN_PNG bytes: an empty frame is ~2 kB), so a
#   failed chart never leaves a file that looks like a chart.
#   Counts into DRAWN and FAILED.

GNUPLOT=${GNUPLOT:-gnuplot}
# the charts are UTF-8 (set encoding utf8): without any locale (a bare
# system, cron) gnuplot warns on every chart that it cannot convert
if [ -z "${LC_ALL:-}${LC_CTYPE:-}${LANG:-}" ]; then
    LC_ALL=C.UTF-8
    export LC_ALL
fi
MIN_PNG=${MIN_PNG:-6000}
DRAWN=0
FAILED=0
HERE=$(cd "$(dirname "$0")" && pwd)

have_gnuplot() {
    command -v "$GNUPLOT" >/dev/null 2>&1
}

# true when FILE starts with the PNG signature \211PNG\r\n\032\n
is_png() {
    [ "$(od -An -tx1 -N8 "$1" 2>/dev/null | tr -d ' \n')" = "89504e470d0a1a0a" ]
}

chart() {
    script=$1; data=$2; out=$3; shift 3
    tmp="$out.tmp.$$"
    if ! (cd "$HERE/.." && "$GNUPLOT" -c "plots/$script.gp" "$data" "$tmp" "$@") </dev/null; then
        echo "plots: $out: gnuplot plots/$script.gp failed on $data" >&2
        rm -f "$tmp"; FAILED=$((FAILED + 1)); return 1
    fi
    size=$(wc -c < "$tmp" 2>/dev/null || echo 0)
    if ! is_png "$tmp" || [ "$size" -lt "$MIN_PNG" ]; then
        echo "plots: $out: not a real chart ($size bytes)" >&2
        rm -f "$tmp"; FAILED=$((FAILED + 1)); return 1
    fi
    mv -f "$tmp" "$out"
    DRAWN=$((DRAWN + 1))
}

# absolute path of a file, so gnuplot can run from the project root
abspath() {
    case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$(pwd)" "$1" ;; esac
}
