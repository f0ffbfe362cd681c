#!/bin/sh
# The README promises no command or option that stackline-cli lacks: its synopsis is the usage
# lines of stackline-cli --help, word for word; every "stackline-cli COMMAND" it shows is one of
# them, and every --option written after it on the same line (up to a closing backtick) is in
# "stackline-cli COMMAND --help".
# usage: readme_commands.sh README CLI [EMULATOR...]
set -eu
readme=$1
shift
usage=$("$@" --help)
status=0
# The synopsis: each usage line, indented as a code block, is a line of the README.
printf '%s\n' "$usage" | sed -n '2,/^$/p' | sed '/^$/d' | while IFS= read -r line; do
    grep -qxF "  $line" "$readme" || { echo "README.md's synopsis lacks: $line"; exit 1; }
done || status=1
uses=$(grep -o 'stackline-cli [a-z][a-z-]*[^`]*' "$readme" | sort -u)
commands=0
options=0
IFS='
'
for use in $uses; do
    command=$(printf '%s' "$use" | cut -d' ' -f2)
    if ! printf '%s\n' "$usage" | grep -q "^  stackline-cli $command "; then
        echo "README.md shows stackline-cli $command, which stackline-cli --help lacks"
        status=1
        continue
    fi
    commands=$((commands + 1))
    help=$("$@" "$command" --help)
    for flag in $(printf '%s' "$use" | grep -o -- '--[a-z][a-z-]*' || true); do
        options=$((options + 1))
        printf '%s' "$help" | grep -q -e "[^a-z-]$flag\([^a-z-]\|$\)" || {
            echo "README.md shows stackline-cli $command $flag, which its --help lacks"
            status=1
        }
    done
done
echo "README.md: $commands uses of stackline-cli commands, $options of their options"
exit $status
