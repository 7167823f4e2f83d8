// A tiny static file server for the built site (dist/): no dependencies, correct MIME types
// (application/wasm matters for streaming compilation). Usage: node server.mjs DIR PORT
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

// For the embed tests: a docs-like page with the playground in an iframe.
// /__host.html?src=URL&w=800&h=500&top=0 (top: px of text above the iframe, to put it out of
// view); without src, an empty page (a test can write its own content into it).
function hostPage(q) {
  const src = q.get("src");
  const top = Number(q.get("top") || 0);
  const frame = src
    ? `<iframe id="embed" src="${esc(src)}" title="schedlab" width="${esc(q.get("w") || 800)}" height="${esc(q.get("h") || 500)}" style="border:0"></iframe>`
    : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A docs page</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:16px;max-width:960px}</style></head>
<body><h1>A docs page</h1><p>Some text before the demo.</p>
${top > 0 ? `<div id="spacer" style="height:${top}px">Scroll down.</div>` : ""}
${frame}
<p>Some text after the demo.</p>${top > 0 ? `<div style="height:${top}px"></div>` : ""}</body></html>`;
}

// `opts.gzip`: compress each answer (gzip -9) for a client that accepts it, as a real host does
// (the benchmark's throttled-network figure); the tests are served uncompressed.
export function serve(dir, port = 0, opts = {}) {
  const root = resolve(dir);
  const gzipped = new Map(); // path → [mtime, compressed body]: compressed once, as a host would
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, "http://localhost");
      if (url.pathname === "/__host.html") {
        res.writeHead(200, { "content-type": TYPES[".html"], "cache-control": "no-store" });
        res.end(hostPage(url.searchParams));
        return;
      }
      let path = normalize(join(root, decodeURIComponent(url.pathname)));
      if (!path.startsWith(root)) {
        res.writeHead(403).end();
        return;
      }
      const s = await stat(path).catch(() => null);
      if (s && s.isDirectory()) path = join(path, "index.html");
      let body = await readFile(path);
      const headers = { "content-type": TYPES[extname(path)] || "application/octet-stream", "cache-control": "no-store" };
      if (opts.gzip && /\bgzip\b/.test(req.headers["accept-encoding"] || "")) {
        const mtime = (await stat(path)).mtimeMs;
        const hit = gzipped.get(path);
        if (!hit || hit[0] !== mtime) gzipped.set(path, [mtime, gzipSync(body, { level: 9 })]);
        body = gzipped.get(path)[1];
        headers["content-encoding"] = "gzip";
      }
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  return new Promise((ok) => server.listen(port, "127.0.0.1", () => ok(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] || "dist";
  const port = Number(process.argv[3] || 8081);
  serve(dir, port).then((s) => console.log(`serving ${dir} on http://127.0.0.1:${s.address().port}/`));
}
