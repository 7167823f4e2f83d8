#!/usr/bin/env bash
# Builds the playground's release site into OUT (default dist/): static files for any static
# host (docs/hosting.md). Every file but index.html has a content-hashed name (web/hash-names.mjs),
# so a cached earlier release never mixes with this one. Prints each file's size and gzip -9 size,
# then what a visitor downloads: the playground all of it, an embed (?embed) all but CodeMirror's
# editor bundle.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
scripts/setup-web.sh
source scripts/web-env.sh

echo "== trunk build --release (into $out)"
trunk build --release --dist "$out"

echo "== sizes (bytes, gzip -9)"
all=0; editor=0
while IFS= read -r f; do
  gz=$(gzip -9c "$f" | wc -c)
  printf '%-52s %9d %9d\n' "${f#"$out"/}" "$(stat -c%s "$f")" "$gz"
  all=$((all + gz))
  case "$(basename "$f")" in editor-*.js) editor=$gz ;; esac
done < <(find "$out" -type f | sort)
echo "playground downloads (file by file, gzip): $all (budget 1,600,000)"
echo "an embed downloads (all but the editor):   $((all - editor)) (budget 1,450,000)"
