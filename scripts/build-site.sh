#!/usr/bin/env bash
# Builds the playground's release site into OUT (default dist/): static files for any static
# host (docs/hosting.md). Every file but index.html has a content-hashed name (web/hash-names.mjs),
# so a cached earlier release never mixes with this one. Prints each file's size and gzip -9 size,
# then what a visitor downloads at start: the playground all of it but the files fetched on
# demand (the presets' and lessons' texts, each when it is opened; the full engine worker
# schedlab-worker-full*, with CEL and the importer, only for a scenario that holds CEL or an import: docs/hosting.md; both
# listed apart); an embed (?embed) the same but CodeMirror's editor bundle.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
scripts/setup-web.sh
source scripts/web-env.sh

echo "== trunk build --release (into $out)"
trunk build --release --dist "$out"

echo "== sizes (bytes, gzip -9)"
all=0; editor=0; light=0; later=0; later_list=""
while IFS= read -r f; do
  gz=$(gzip -9c "$f" | wc -c)
  printf '%-52s %9d %9d\n' "${f#"$out"/}" "$(stat -c%s "$f")" "$gz"
  case "${f#"$out"/}" in
    # Fetched on demand: a preset's or lesson's text when the visitor opens one
    # (web/index.html: schedlabFetchText), the full worker for a scenario with CEL or an import.
    presets/*|lessons/*|schedlab-worker-full*) later=$((later + gz)); later_list+="  ${f#"$out"/} $gz"$'\n'; continue ;;
    editor-*.js) editor=$gz ;;
    schedlab-worker-*_bg.wasm) light=$gz ;;
  esac
  all=$((all + gz))
done < <(find "$out" -type f | sort)
echo "engine worker wasm (gzip): light $light (what the page starts), full $(gzip -9c "$out"/schedlab-worker-full-*_bg.wasm | wc -c) (with CEL and import)"
echo "playground downloads at start (file by file, gzip): $all (budget 1,600,000)"
echo "an embed downloads at start (all but the editor):   $((all - editor)) (budget 1,450,000)"
echo "fetched on demand, each when needed (gzip, $later in all):"
printf '%s' "$later_list"
