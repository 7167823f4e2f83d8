// A release replaced under a browser that cached the previous one: served as a real host would
// (index.html revalidated on every visit, every other file cached for a year as immutable:
// docs/hosting.md), release A is loaded, the host switches to release B, the page reloads. The
// page must run B and only B: every file it uses is B's, byte for byte (a cached file of A under
// a name B also uses, with other content, would be a mixed release), and nothing fails.
//
// B is A with both wasm modules changed (a custom section appended, as a rebuild with another
// constant changes them), renamed by the build's own hook (web/hash-names.mjs): A's files are
// given back their plain names first, the way Trunk leaves them in its staging folder.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, extname, join, relative } from "node:path";
import { chromium } from "playwright-core";
import { ROOT, newPage, noErrors, ready } from "./helpers.mjs";
import { HASHED, TEXT, files, hashNames } from "../hash-names.mjs";

const DIST = join(ROOT, process.env.DIST || "dist");
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };

/** dist/ with Trunk's plain names (the staging folder before the hook), in a new folder. */
function unhashed() {
  const dir = mkdtempSync(join(tmpdir(), "schedlab-update-"));
  cpSync(DIST, dir, { recursive: true });
  const renames = [];
  for (const path of files(dir)) {
    const name = basename(path);
    if (!HASHED.test(name)) continue;
    const plain = name.replace(/-[0-9a-f]{16}(_bg)?(\.[a-z]+)$/, "$1$2");
    renameSync(path, join(dirname(path), plain));
    renames.push([name, plain]);
  }
  for (const path of files(dir).filter((p) => TEXT.has(extname(p)))) {
    let text = readFileSync(path, "utf8");
    for (const [from, to] of renames) text = text.split(from).join(to);
    writeFileSync(path, text);
  }
  return dir;
}

/** A custom wasm section ("schedlab-build", `payload`): a valid module with other bytes. */
function customSection(payload) {
  const name = Buffer.from("schedlab-build");
  const body = Buffer.concat([Buffer.from([name.length]), name, Buffer.from(payload)]);
  assert.ok(body.length < 128);
  return Buffer.concat([Buffer.from([0, body.length]), body]);
}

/** Release B: A with both wasm modules changed, hashed by the build's hook. */
function releaseB() {
  const dir = unhashed();
  for (const path of files(dir).filter((p) => p.endsWith(".wasm"))) {
    writeFileSync(path, Buffer.concat([readFileSync(path), customSection("release B")]));
  }
  hashNames(dir);
  return dir;
}

let server, url, browser, A, B;
let root;
before(async () => {
  A = DIST;
  B = releaseB();
  root = A;
  server = createServer((req, res) => {
    const path = new URL(req.url, "http://localhost").pathname;
    const file = join(root, path === "/" ? "index.html" : decodeURIComponent(path.slice(1)));
    let body;
    try {
      body = readFileSync(file);
    } catch {
      res.writeHead(404).end();
      return;
    }
    const html = file.endsWith(".html");
    res.writeHead(200, {
      "content-type": TYPES[extname(file)] || "application/octet-stream",
      "cache-control": html ? "no-cache" : "public, max-age=31536000, immutable",
    });
    res.end(body);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  url = `http://127.0.0.1:${server.address().port}/`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
});
after(async () => {
  await browser?.close();
  server?.close();
  if (B) rmSync(B, { recursive: true, force: true });
});

/** The site's files by path from its root. */
function site(dir) {
  return new Map(files(dir).map((p) => [relative(dir, p).split("\\").join("/"), readFileSync(p)]));
}

test("a reload after a new release runs the new release's files only, the cached old ones unused", async () => {
  const a = site(A);
  const b = site(B);
  const wasm = (m) => [...m.keys()].filter((p) => p.endsWith(".wasm")).sort();
  assert.equal(wasm(a).length, 3, "the page, the light engine worker and the full one");
  assert.equal(wasm(b).filter((p) => a.has(p)).length, 0, "B's wasm modules have new names");

  const page = await newPage({ browser }, { viewport: { width: 1280, height: 800 } });
  const context = page.context();
  // Every response the page and its worker used, from the network or from the cache.
  let used = [];
  page.on("response", (r) => used.push(r));
  context.on("serviceworker", () => assert.fail("no service worker"));

  await page.goto(url);
  await ready(page);
  const paths = (rs) => rs.map((r) => new URL(r.url()).pathname.slice(1) || "index.html");
  assert.ok(paths(used).some((p) => wasm(a).includes(p)), "release A's files were loaded");
  noErrors(page);

  // The host now serves B; the browser keeps A's files in its cache.
  root = B;
  used = [];
  await page.reload();
  await ready(page);
  const seen = paths(used);
  // The page's and the light engine's wasm; the full engine's (CEL) only for a scenario with CEL.
  for (const p of wasm(b).filter((p) => !p.startsWith("schedlab-worker-full-"))) assert.ok(seen.includes(p), `B's ${p} was loaded`);
  for (const r of used) {
    const p = new URL(r.url()).pathname.slice(1) || "index.html";
    assert.ok(b.has(p), `${p} is a file of release B`);
    assert.ok((await r.body()).equals(b.get(p)), `${p} has release B's content`);
  }
  noErrors(page);
  await context.close();
});
