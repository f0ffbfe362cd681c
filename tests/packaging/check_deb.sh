#!/bin/sh
# Builds the Debian package with cpack in a scratch folder and checks it:
#   control fields (name, version, Depends from dpkg-shlibdeps), file list (binaries, desktop
#   entry, MIME XML, AppStream metainfo, icon, example), desktop-file-validate, appstreamcli
#   validate, the MIME globs (through update-mime-database, and gio when present, including the
#   default application), and that the packaged binaries run.
#
# usage: check_deb.sh BUILD_DIR CPACK SOURCE_DIR EXPECT_GUI(0|1) VERSION
# Exit 77 (CTest SKIP_RETURN_CODE) when a needed tool is missing.
# Debian packages used: dpkg-dev desktop-file-utils appstream shared-mime-info
#                       (+ libglib2.0-bin for the gio checks, optional)
set -eu

build=$1 cpack=$2 src=$3 expect_gui=$4 version=$5
app_id=io.github.stackline.Stackline
t_json=application/x-stackline-trace
t_gz=application/x-stackline-trace-gzip

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }
need() { command -v "$1" >/dev/null 2>&1 || { echo "SKIP: $1 not found (Debian package $2)"; exit 77; }; }
need dpkg-deb dpkg
need dpkg-shlibdeps dpkg-dev
need desktop-file-validate desktop-file-utils
need appstreamcli appstream
need update-mime-database shared-mime-info

work=$(mktemp -d "${TMPDIR:-/tmp}/stackline-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# ---- build the package (-B: output and staging in the scratch folder, not the build folder) ----
if ! (cd "$build" && "$cpack" -G DEB -B "$work/out" --config "$build/CPackConfig.cmake") \
        >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log" >&2
    fail "cpack -G DEB failed"
fi
set -- "$work"/out/stackline_*.deb
[ $# -eq 1 ] && [ -f "$1" ] || fail "expected exactly one stackline_*.deb, got: $*"
deb=$1
ok "built $(basename "$deb") ($(wc -c <"$deb") bytes)"
case $(basename "$deb") in
    "stackline_${version}_$(dpkg --print-architecture).deb") ;;
    *) fail "unexpected file name $(basename "$deb")" ;;
esac

# ---- control fields ----
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = stackline ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), expected $version"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
depends=$(field Depends)
echo "Depends: $depends"
for lib in libc6 libstdc++6; do
    echo "$depends" | grep -q "$lib" || fail "Depends lacks $lib (dpkg-shlibdeps not run?)"
done
if [ "$expect_gui" = 1 ]; then
    for lib in libqt6core6 libqt6gui6 libqt6widgets6; do
        echo "$depends" | grep -q "$lib" || fail "Depends lacks $lib"
    done
fi
field Recommends | grep -q shared-mime-info || fail "Recommends lacks shared-mime-info"
ok "control: Package stackline $version, Depends from dpkg-shlibdeps"

# ---- file list ----
dpkg-deb -c "$deb" >"$work/contents"
has() { grep -q " \\./$1\$" "$work/contents" || fail "package lacks /$1"; }
has_exec() { grep " \\./$1\$" "$work/contents" | grep -q '^-rwxr-xr-x' || fail "/$1 missing or not executable"; }
has_exec usr/bin/stackline-cli
if [ "$expect_gui" = 1 ]; then has_exec usr/bin/stackline; fi
has "usr/share/applications/$app_id.desktop"
has "usr/share/mime/packages/$app_id.xml"
has "usr/share/metainfo/$app_id.metainfo.xml"
has "usr/share/icons/hicolor/scalable/apps/$app_id.svg"
for f in example.pt.trace.json example.pt.trace.kernel_info.json model.py README.md; do
    has "usr/share/stackline/example/$f"
done
outside=$(awk '{print $NF}' "$work/contents" | grep -v -e '^\./$' -e '^\./usr/' || true)
[ -z "$outside" ] || fail "files outside /usr: $outside"
ok "contents: $(grep -c '^-' "$work/contents") files, all under /usr"

dpkg-deb -x "$deb" "$work/root"
share=$work/root/usr/share

# ---- desktop entry ----
desktop=$share/applications/$app_id.desktop
desktop-file-validate "$desktop" >"$work/dfv.log" 2>&1 || { cat "$work/dfv.log" >&2; fail "desktop-file-validate"; }
[ ! -s "$work/dfv.log" ] || { cat "$work/dfv.log" >&2; fail "desktop-file-validate printed hints"; }
grep -qx 'Exec=stackline %F' "$desktop" || fail "desktop entry: Exec is not 'stackline %F'"
grep -qx "Icon=$app_id" "$desktop" || fail "desktop entry: Icon is not $app_id"
mimes=$(sed -n 's/^MimeType=//p' "$desktop")
for t in $t_json $t_gz; do
    echo "$mimes" | tr ';' '\n' | grep -qx "$t" || fail "desktop entry: MimeType lacks $t"
done
ok "desktop entry valid (desktop-file-validate), Exec=stackline %F, MimeType=$mimes"

# ---- AppStream ----
metainfo=$share/metainfo/$app_id.metainfo.xml
appstreamcli validate --no-net "$metainfo" >"$work/as.log" 2>&1 || { cat "$work/as.log" >&2; fail "appstreamcli validate"; }
grep -q "<id>$app_id</id>" "$metainfo" || fail "metainfo id is not $app_id"
grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo" || fail "metainfo launchable"
newest=$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' "$metainfo" | head -n 1)
[ "$newest" = "$version" ] || fail "metainfo: newest <release> is '$newest', project version is $version"
ok "metainfo valid (appstreamcli validate), newest release $newest"

# ---- icon ----
icon=$share/icons/hicolor/scalable/apps/$app_id.svg
head -c 512 "$icon" | grep -q '<svg' || fail "icon is not an SVG"
ok "icon $app_id.svg"

# ---- MIME types ----
mkdir -p "$work/data/mime/packages"
cp "$share/mime/packages/$app_id.xml" "$work/data/mime/packages/"
XDG_DATA_DIRS="$work/data:/usr/share" update-mime-database "$work/data/mime" >"$work/umd.log" 2>&1 || { cat "$work/umd.log" >&2; fail "update-mime-database rejected the XML"; }
[ ! -s "$work/umd.log" ] || { cat "$work/umd.log" >&2; fail "update-mime-database warned"; }
grep -qx "80:$t_json:\*\.pt\.trace\.json" "$work/data/mime/globs2" || fail "globs2 lacks *.pt.trace.json"
grep -qx "80:$t_gz:\*\.pt\.trace\.json\.gz" "$work/data/mime/globs2" || fail "globs2 lacks *.pt.trace.json.gz"
grep -qx "$t_json application/json" "$work/data/mime/subclasses" || fail "$t_json is not a subclass of application/json"
grep -qx "$t_gz application/gzip" "$work/data/mime/subclasses" || fail "$t_gz is not a subclass of application/gzip"
ok "MIME: globs *.pt.trace.json -> $t_json, *.pt.trace.json.gz -> $t_gz (weight 80)"
# The Perfetto protobuf traces' own types, from the format table too.
t_pf=application/x-perfetto-trace
grep -q "^[0-9]*:$t_pf:\*\.pftrace$" "$work/data/mime/globs2" || fail "globs2 lacks *.pftrace"
grep -q "^[0-9]*:$t_pf-gzip:\*\.pftrace\.gz$" "$work/data/mime/globs2" || fail "globs2 lacks *.pftrace.gz"
ok "MIME: globs *.pftrace -> $t_pf, *.pftrace.gz -> $t_pf-gzip"

if command -v gio >/dev/null 2>&1 && command -v update-desktop-database >/dev/null 2>&1; then
    # What a desktop sees after installation: the package's share folder first in XDG_DATA_DIRS.
    cp -r "$work/data/mime" "$share/"
    update-desktop-database "$share/applications"
    mkdir -p "$work/home/data" "$work/home/config" "$work/files"
    cp "$src/resources/example/example.pt.trace.json" "$work/files/x.pt.trace.json"
    gzip -c "$work/files/x.pt.trace.json" >"$work/files/x.pt.trace.json.gz"
    echo '{"a": 1}' >"$work/files/plain.json"
    printf '\n\002\010\001' >"$work/files/x.pftrace"  # a TracePacket's first bytes
    gzip -c "$work/files/x.pftrace" >"$work/files/x.pftrace.gz"
    # The desktop entry's TryExec hides it unless "stackline" is on PATH: use the packaged
    # binary, or a stand-in when the GUI was not built.
    mkdir -p "$work/bin"
    if [ -x "$work/root/usr/bin/stackline" ]; then
        ln -s "$work/root/usr/bin/stackline" "$work/bin/stackline"
    else
        printf '#!/bin/sh\nexit 0\n' >"$work/bin/stackline" && chmod +x "$work/bin/stackline"
    fi
    run_gio() {
        env PATH="$work/bin:$PATH" XDG_DATA_DIRS="$share:/usr/share" XDG_DATA_HOME="$work/home/data" \
            XDG_CONFIG_HOME="$work/home/config" XDG_CONFIG_DIRS="$work/home/config" gio "$@"
    }
    type_of() { run_gio info -a standard::content-type "$1" | sed -n 's/^ *standard::content-type: //p'; }
    [ "$(type_of "$work/files/x.pt.trace.json")" = "$t_json" ] || fail "gio: x.pt.trace.json is $(type_of "$work/files/x.pt.trace.json")"
    [ "$(type_of "$work/files/x.pt.trace.json.gz")" = "$t_gz" ] || fail "gio: x.pt.trace.json.gz is $(type_of "$work/files/x.pt.trace.json.gz")"
    [ "$(type_of "$work/files/plain.json")" = application/json ] || fail "gio: plain.json is $(type_of "$work/files/plain.json")"
    [ "$(type_of "$work/files/x.pftrace.gz")" = "$t_pf-gzip" ] || fail "gio: x.pftrace.gz is $(type_of "$work/files/x.pftrace.gz")"
    for t in $t_json $t_gz $t_pf-gzip; do
        run_gio mime "$t" | grep -q "Default application for .*$t.*: $app_id.desktop" \
            || { run_gio mime "$t" >&2; fail "gio: default application for $t is not $app_id.desktop"; }
    done
    ok "gio: content types detected (.pftrace.gz too), default application $app_id.desktop for each"
else
    echo "note: gio/update-desktop-database not found, content-type checks skipped (libglib2.0-bin, desktop-file-utils)"
fi

# ---- the packaged binaries run ----
cli=$work/root/usr/bin/stackline-cli
"$cli" --help >/dev/null || fail "stackline-cli --help"
"$cli" summary "$share/stackline/example/example.pt.trace.json" >"$work/summary.txt" 2>&1 \
    || { cat "$work/summary.txt" >&2; fail "stackline-cli summary on the packaged example"; }
grep -q '^annotated kernels: *70$' "$work/summary.txt" || { cat "$work/summary.txt" >&2; fail "packaged example: annotated kernels != 70"; }
ok "packaged stackline-cli runs; packaged example: 70 annotated kernels"
if [ "$expect_gui" = 1 ]; then
    mkdir -p "$work/runtime" && chmod 700 "$work/runtime"
    XDG_RUNTIME_DIR="$work/runtime" QT_QPA_PLATFORM=offscreen "$work/root/usr/bin/stackline" --version \
        >"$work/gui.log" 2>&1 || { cat "$work/gui.log" >&2; fail "stackline --version"; }
    ok "packaged stackline runs: $(head -n 1 "$work/gui.log")"
fi
echo "PASS: $(basename "$deb")"
