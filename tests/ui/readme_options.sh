#!/bin/sh
# The README's viewer synopsis (the code block line that starts with "stackline [" and the lines
# under it) names exactly the options of stackline --help (but --help, --help-all, --version).
# usage: readme_options.sh README STACKLINE
set -eu
synopsis=$(sed -n '/^    stackline \[/,/^$/p' "$1")
shown=$(printf '%s\n' "$synopsis" | grep -o -- '--[a-z][a-z-]*' | sort -u)
offered=$("$2" --help | grep -o -- '^ *\(-[a-zA-Z], \)\?--[a-z][a-z-]*' | grep -o -- '--[a-z-]*' |
    grep -vx -- '--help\|--help-all\|--version' | sort -u)
if [ "$shown" != "$offered" ]; then
    echo "README.md's viewer synopsis and stackline --help differ (< README, > --help):"
    printf '%s\n' "$shown" >"${TMPDIR:-/tmp}/readme_options.$$"
    printf '%s\n' "$offered" | diff "${TMPDIR:-/tmp}/readme_options.$$" - || true
    rm -f "${TMPDIR:-/tmp}/readme_options.$$"
    exit 1
fi
echo "README.md's viewer synopsis: the $(printf '%s\n' "$shown" | wc -l) options of stackline --help"
