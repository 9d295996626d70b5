#!/usr/bin/env bash
# pack_baseline.sh BUILD — run HERE after pack.sh: puts another build's tool and library (BUILD:
# the build folder of, say, the commit before a change) into .gpu/baseline, beside the pack of
# the current build, whose other libraries it shares. compare.sh runs both on the same card.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:?usage: pack_baseline.sh BUILD_FOLDER}
PACK=${PACK:-.gpu}
[ -d "$PACK/lib" ] || { echo "run pack.sh first ($PACK/lib is missing)"; exit 1; }
rm -rf "$PACK/baseline" && mkdir -p "$PACK/baseline/bin" "$PACK/baseline/lib"
cp "$BUILD/clgemm" "$PACK/baseline/bin/"
cp -L "$BUILD/libclgemm.so.0" "$PACK/baseline/lib/"
git -C "$(dirname "$BUILD")" log -1 --format='%h %s' > "$PACK/baseline/commit.txt" 2>/dev/null || true
du -sh "$PACK/baseline"
