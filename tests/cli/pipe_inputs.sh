#!/bin/sh
# pipe_inputs.sh CLI OUT TRACE.json KINFO
# Traces from pipes, as a user streams them: `-` (standard input, plain and gzip), a FIFO, and a
# FIFO fed by gzip -dc (what a shell's <(gzip -dc t.gz) is). Checks that
#  - summary --json and annotate -o OUT give the bytes the file gives;
#  - a gzip stream on a pipe is inflated;
#  - a character device (/dev/zero) is refused at once, naming it, with status 2;
#  - annotate --in-place with `-` is refused, with status 2.
set -eu
cli=$1
out=$2
trace=$3
kinfo=$4
rm -rf "$out"
mkdir -p "$out"
gzip -c "$trace" >"$out/trace.json.gz"
"$cli" summary --json "$trace" --kernel-info "$kinfo" >"$out/file.json"
"$cli" annotate "$trace" --kernel-info "$kinfo" -o "$out/file.annotated.json" 2>/dev/null

same() {
    cmp "$out/file.json" "$out/$1.json" || {
        echo "summary --json of $1 differs from the file's"
        exit 1
    }
}
"$cli" summary --json - --kernel-info "$kinfo" <"$trace" >"$out/redirected.json"
same redirected
cat "$trace" | "$cli" summary --json - --kernel-info "$kinfo" >"$out/stdin.json"
same stdin
gzip -dc "$out/trace.json.gz" | "$cli" summary --json - --kernel-info "$kinfo" >"$out/zcat.json"
same zcat
cat "$out/trace.json.gz" | "$cli" summary --json - --kernel-info "$kinfo" >"$out/gzip_stream.json"
same gzip_stream
mkfifo "$out/fifo"
cat "$trace" >"$out/fifo" &
"$cli" summary --json "$out/fifo" --kernel-info "$kinfo" >"$out/fifo.json"
wait
same fifo
mkfifo "$out/substituted"
gzip -dc "$out/trace.json.gz" >"$out/substituted" &
"$cli" summary --json "$out/substituted" --kernel-info "$kinfo" >"$out/substituted.json"
wait
same substituted

gzip -dc "$out/trace.json.gz" |
    "$cli" annotate - --kernel-info "$kinfo" -o "$out/stdin.annotated.json" 2>/dev/null
cmp "$out/file.annotated.json" "$out/stdin.annotated.json" || {
    echo "annotate - -o OUT differs from the file's"
    exit 1
}

refused() {  # refused WHAT EXPECTED-TEXT COMMAND...
    what=$1
    text=$2
    shift 2
    status=0
    "$@" >/dev/null 2>"$out/error.txt" || status=$?
    if [ "$status" != 2 ] || ! grep -q "$text" "$out/error.txt"; then
        echo "$what: status $status, message: $(cat "$out/error.txt")"
        exit 1
    fi
}
refused /dev/zero "/dev/zero: is a character device" timeout 10 "$cli" summary /dev/zero
refused "- from /dev/zero" "standard input: is a character device" \
    sh -c 'timeout 10 "$1" summary - </dev/zero' sh "$cli"
refused "annotate - --in-place" "in-place" \
    sh -c '"$1" annotate - --kernel-info "$2" -o "$3" --in-place <"$4"' sh "$cli" "$kinfo" \
    "$out/in_place.json" "$trace"
echo "summary and annotate of -, a FIFO and a gzip stream equal the file's; devices refused"
