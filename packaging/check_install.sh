#!/bin/sh
# Installs the Stackline package on this machine and checks that double-click opening works:
#   - xdg-mime query filetype x.pt.trace.json / x.pt.trace.json.gz name Stackline's types;
#   - xdg-mime query default / gio mime name io.github.stackline.Stackline.desktop;
#   - under Xvfb, `gio open x.pt.trace.json` starts /usr/bin/stackline on that file (absolute
#     path) and it shows a window; a screenshot of the screen is saved.
# Needs root (apt-get install). Changes the system: the package stays installed unless --remove.
#
# usage: packaging/check_install.sh (DEB | BUILD_DIR) [--screenshot PNG] [--remove]
# Debian packages used: xvfb xauth xdotool imagemagick xdg-utils libfile-mimeinfo-perl
#                       libglib2.0-bin shared-mime-info desktop-file-utils
set -eu

[ $# -ge 1 ] || { sed -n '2,12p' "$0"; exit 2; }
target=$1; shift
shot="" remove=0
while [ $# -gt 0 ]; do
    case $1 in
        --screenshot) shot=$2; shift 2 ;;
        --remove) remove=1; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

app_id=io.github.stackline.Stackline
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }
[ "$(id -u)" = 0 ] || fail "run as root (it installs the package with apt-get)"
for tool in Xvfb xdotool import gio xdg-mime xdpyinfo; do
    command -v $tool >/dev/null 2>&1 || fail "$tool not found (see the package list in this script)"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/stackline-install.XXXXXX")
xvfb_pid="" app_pid=""
cleanup() {
    [ -z "$app_pid" ] || kill "$app_pid" 2>/dev/null || true
    [ -z "$xvfb_pid" ] || kill "$xvfb_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

if [ -d "$target" ]; then
    (cd "$target" && cpack -G DEB -B "$work/out" --config "$target/CPackConfig.cmake") >"$work/cpack.log" 2>&1 \
        || { cat "$work/cpack.log" >&2; fail "cpack"; }
    set -- "$work"/out/stackline_*.deb
    deb=$1
else
    deb=$(readlink -f "$target")
fi
[ -f "$deb" ] || fail "no package $deb"

# ---- install ----
apt-get install -y --reinstall "$deb" >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get install $deb"; }
grep -q "Processing triggers for shared-mime-info" "$work/apt.log" || echo "note: no shared-mime-info trigger ran"
grep -q "Processing triggers for desktop-file-utils" "$work/apt.log" || echo "note: no desktop-file-utils trigger ran"
ok "installed $(dpkg-query -W -f '${Package} ${Version}' stackline)"

# ---- trace files, as a user has them: kernel information beside the trace ----
mkdir -p "$work/traces"
ex=/usr/share/stackline/example
cp "$ex/example.pt.trace.json" "$work/traces/x.pt.trace.json"
cp "$ex/example.pt.trace.kernel_info.json" "$work/traces/x.pt.trace.kernel_info.json"
gzip -c "$ex/example.pt.trace.json" >"$work/traces/y.pt.trace.json.gz"
cp "$ex/example.pt.trace.kernel_info.json" "$work/traces/y.pt.trace.kernel_info.json"

# ---- xdg-mime / gio ----
ft=$(xdg-mime query filetype "$work/traces/x.pt.trace.json")
ftgz=$(xdg-mime query filetype "$work/traces/y.pt.trace.json.gz")
echo "xdg-mime query filetype: x.pt.trace.json -> $ft; y.pt.trace.json.gz -> $ftgz"
if ! command -v mimetype >/dev/null 2>&1; then
    echo "note: without libfile-mimeinfo-perl, xdg-utils 1.1.3 on no detected desktop falls back to 'file --mime-type'"
fi
[ "$ft" = application/x-stackline-trace ] || fail "xdg-mime filetype of .pt.trace.json is $ft"
[ "$ftgz" = application/x-stackline-trace-gzip ] || fail "xdg-mime filetype of .pt.trace.json.gz is $ftgz"
for t in application/x-stackline-trace application/x-stackline-trace-gzip; do
    d=$(xdg-mime query default "$t")
    [ "$d" = "$app_id.desktop" ] || fail "xdg-mime query default $t is '$d'"
    gio mime "$t" | grep -q "$app_id.desktop" || fail "gio mime $t"
done
ok "xdg-mime: both types detected, default application $app_id.desktop"

# ---- gio open under Xvfb ----
display=:$(( 90 + $$ % 100 ))
Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
export DISPLAY=$display
i=0
until xdpyinfo >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -lt 100 ] || fail "Xvfb did not start"; sleep 0.1
done
export XDG_RUNTIME_DIR="$work/runtime"; mkdir -p "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"

trace=$work/traces/x.pt.trace.json
gio open "$trace" || fail "gio open returned $?"
# gio launches the app detached; find the new /usr/bin/stackline process (by its executable).
i=0
while [ -z "$app_pid" ]; do
    for p in $(ls /proc | grep -E '^[0-9]+$'); do
        [ "$(readlink "/proc/$p/exe" 2>/dev/null)" = /usr/bin/stackline ] || continue
        tr '\0' '\n' <"/proc/$p/cmdline" 2>/dev/null | grep -qx "$trace" && app_pid=$p && break
    done
    i=$((i + 1)); [ $i -lt 100 ] || fail "no /usr/bin/stackline process with argument $trace after gio open"
    [ -n "$app_pid" ] || sleep 0.1
done
ok "gio open started /usr/bin/stackline (pid $app_pid): $(tr '\0' ' ' <"/proc/$app_pid/cmdline")"
wid=$(timeout 20 xdotool search --sync --onlyvisible --pid "$app_pid" | head -n 1) || true
[ -n "$wid" ] || fail "no visible Stackline window"
sleep 2
title=$(xdotool getwindowname "$wid")
ok "window $wid: $title"
if [ -n "$shot" ]; then
    import -window root "$shot"
    ok "screenshot $shot"
fi
kill "$app_pid"; app_pid=""

if [ "$remove" = 1 ]; then
    apt-get remove -y stackline >/dev/null 2>&1 || fail "apt-get remove"
    ok "removed stackline"
fi
echo PASS
