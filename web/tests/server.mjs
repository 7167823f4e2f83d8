// A tiny static file server for the built site (dist/): no dependencies, correct MIME types
// (application/wasm matters for streaming compilation). Usage: node server.mjs DIR PORT
import { createServer } from "node:http";
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

export function serve(dir, port = 0) {
  const root = resolve(dir);
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
      const body = await readFile(path);
      res.writeHead(200, { "content-type": TYPES[extname(path)] || "application/octet-stream", "cache-control": "no-store" });
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
