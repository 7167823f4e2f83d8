# Sourced by the web scripts: tools on PATH for Trunk (wasm-bindgen from cargo, wasm-opt 132 from
# npm's binaryen — Debian's wasm-opt 108 produces a bundle that fails in the browser), and no
# downloads by Trunk itself.
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$repo/web/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_OFFLINE=true
