#!/usr/bin/env bash
# runpath_test.sh BINARY... — no binary that gets installed searches the working directory for
# libraries: every element of its RUNPATH is absolute or relative to the binary ($ORIGIN), and the
# loader, run from an empty folder, tries no file by a relative name.
set -euo pipefail
status=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for bin in "$@"; do
  runpath=$(readelf -d "$bin" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p; s/.*(RPATH).*\[\(.*\)\]/\1/p')
  [ -n "$runpath" ] || continue
  IFS=: read -r -a parts <<< "$runpath:"  # read drops one trailing empty field: this one
  for p in "${parts[@]}"; do
    case "$p" in
      /*|'$ORIGIN'*) ;;
      *) echo "FAIL: $bin: RUNPATH element '$p' (of '$runpath') is searched relative to the working directory"; status=1 ;;
    esac
  done
done
# The tool itself, started from an empty folder: the loader must try no relative file name.
tool=$(realpath "$1")
tried=$(cd "$scratch" && LD_DEBUG=libs "$tool" --help 2>&1 >/dev/null | sed -n 's/.*trying file=//p')
if [ -z "$tried" ]; then
  echo "FAIL: LD_DEBUG=libs showed no library search for $tool; the check cannot see what the loader does"
  status=1
fi
relative=$(printf '%s\n' "$tried" | grep -v '^/' || true)
if [ -n "$relative" ]; then
  echo "FAIL: started from $scratch, the loader tried files relative to it:"
  printf '%s\n' "$relative"
  status=1
fi
[ "$status" -eq 0 ] && echo "ok: $# binaries, RUNPATH absolute or \$ORIGIN-relative; no relative library file tried"
exit "$status"
