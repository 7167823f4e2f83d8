#!/usr/bin/env bash
# Builds the playground's release site into OUT (default dist/): static files for any static
# host (docs/hosting.md). Every file but index.html has a content-hashed name (web/hash-names.mjs),
# so a cached earlier release never mixes with this one. Prints each file's size and gzip -9 size,
# then what a visitor downloads: the playground all of it, an embed (?embed) all but CodeMirror's
# editor bundle; both without the full engine worker (schedlab-worker-full*: with CEL), which is
# fetched only for a scenario that holds CEL (docs/hosting.md).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
scripts/setup-web.sh
source scripts/web-env.sh

echo "== trunk build --release (into $out)"
trunk build --release --dist "$out"

echo "== sizes (bytes, gzip -9)"
all=0; editor=0; full=0; light=0
while IFS= read -r f; do
  gz=$(gzip -9c "$f" | wc -c)
  printf '%-52s %9d %9d\n' "${f#"$out"/}" "$(stat -c%s "$f")" "$gz"
  case "$(basename "$f")" in
    editor-*.js) editor=$gz ;;
    schedlab-worker-full*) full=$((full + gz)); continue ;;
    schedlab-worker-*_bg.wasm) light=$gz ;;
  esac
  all=$((all + gz))
done < <(find "$out" -type f | sort)
echo "engine worker wasm (gzip): light $light (what the page starts), full $(gzip -9c "$out"/schedlab-worker-full-*_bg.wasm | wc -c) (with CEL)"
echo "playground downloads at start (file by file, gzip): $all (budget 1,600,000)"
echo "an embed downloads at start (all but the editor):   $((all - editor)) (budget 1,450,000)"
echo "fetched on demand, for a scenario with CEL (the full worker, gzip): $full"
