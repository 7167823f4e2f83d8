// Trunk's post_build hook (Trunk.toml): gives every file of the site but index.html a name that
// carries a hash of its content, and rewrites the references to it, so that a browser or a CDN
// holding a previous release never pairs an old file with a new one (an old schedlab-web.js with
// a new wasm, an old worker loader with a new worker). Trunk's own `filehash` cannot do it: it
// leaves the worker's files, copied files and wasm-bindgen's snippets under fixed names.
//
// Files are renamed leaves first, so a file's hash covers the names of everything it loads:
// wasm, CSS and snippets; then the JS that loads them (the page's and the worker's bindings, the
// CodeMirror bundle); then the workers' loaders (the light engine's and the full one's), which
// name the workers' files. index.html keeps its name (it is the one file a host must serve
// fresh: docs/hosting.md) and names the loaders in `window.schedlabWorkerUrl` and
// `window.schedlabFullWorkerUrl`, which the page reads (crates/web/src/bridge.rs).
//
// Usage: node web/hash-names.mjs [DIR] (default: $TRUNK_STAGING_DIR, as Trunk runs it).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const files = (d) =>
  readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? files(join(d, n)) : [join(d, n)]));
export const TEXT = new Set([".html", ".js", ".mjs", ".css"]);
/** A content-hashed name, as hashNames gives it. */
export const HASHED = /-[0-9a-f]{16}(_bg)?\.[a-z]+$/;

/** Renames every file of `dir` but index.html after its content and rewrites the references. */
export function hashNames(dir) {
  const rel = (p) => relative(dir, p).split("\\").join("/");

  // Files in renaming order; a file's references are rewritten before it is hashed.
  const rank = (p) => {
    const name = basename(p);
    if (name === "index.html") return 9;
    if (name === "schedlab-worker_loader.js" || name === "schedlab-worker-full_loader.js") return 3;
    if (extname(name) === ".js" && !rel(p).startsWith("snippets/")) return 2;
    return 1;
  };
  const all = files(dir).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  if (!all.some((p) => basename(p) === "schedlab-worker_loader.js")) throw new Error("hash-names: no schedlab-worker_loader.js");

  // Every text file (index.html included) whose references are rewritten as files are renamed.
  const texts = new Map(all.filter((p) => TEXT.has(extname(p))).map((p) => [p, readFileSync(p, "utf8")]));
  const hashed = HASHED;

  for (const path of all) {
    if (basename(path) === "index.html") continue;
    if (hashed.test(basename(path))) throw new Error(`hash-names: ${rel(path)} is already hashed`);
    const body = texts.has(path) ? Buffer.from(texts.get(path)) : readFileSync(path);
    if (texts.has(path)) writeFileSync(path, body);
    const hash = createHash("sha256").update(body).digest("hex").slice(0, 16);
    const ext = extname(path);
    const stem = basename(path, ext);
    const name = stem.endsWith("_bg") ? `${stem.slice(0, -3)}-${hash}_bg${ext}` : `${stem}-${hash}${ext}`;
    const next = join(dirname(path), name);
    renameSync(path, next);
    if (texts.has(path)) {
      texts.set(next, texts.get(path));
      texts.delete(path);
    }
    // References: the file's path from the site's root, or its bare name (wasm-bindgen's default
    // URL of the wasm, relative to its JS), each between quotes or after "./" or "/".
    const from = rel(path);
    const to = rel(next);
    const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // The bare name only when no other file has it (presets/drain.yaml, lessons/drain.yaml).
    const alone = all.filter((p) => basename(p) === basename(path)).length === 1;
    const names = alone ? `${esc(from)}|${esc(basename(from))}` : esc(from);
    const pattern = new RegExp(`(["'/])(${names})(?=["'?#)])`, "g");
    for (const [p, text] of texts) {
      if (p === next) continue;
      texts.set(p, text.replace(pattern, (_, lead, name) => lead + (name === from ? to : basename(to))));
    }
  }

  const index = all.find((p) => rel(p) === "index.html");
  if (index) writeFileSync(index, texts.get(index));
  for (const path of files(dir)) {
    if (basename(path) !== "index.html" && !hashed.test(basename(path))) throw new Error(`hash-names: ${rel(path)} kept its name`);
  }
  return files(dir).length - 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR;
  if (!dir) throw new Error("hash-names: no directory (argument or TRUNK_STAGING_DIR)");
  console.log(`hash-names: ${hashNames(dir)} files renamed in ${dir}`);
}
