// Browser test of the top bar's Export menu (docs/export.md): each entry downloads a file
// (playwright's download event). The configuration and the manifests are the CLI's
// `schedlab export` of the same scenario, byte for byte (the worker runs the same engine code);
// the SVGs parse as XML and name what is on screen; the PNGs are PNGs twice the SVG's size.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { start, stop, newPage, noErrors, shot, ready, gotoPhase, savedParts, joinParts, ROOT, SHOTS, PAGE_VERSION } from "./helpers.mjs";

const CLI = process.env.SCHEDLAB_CLI || join(ROOT, "target", "debug", "schedlab");

/** `schedlab export` of a scenario text at the page's Kubernetes version. */
function cliExport(text, args) {
  const f = join(mkdtempSync(join(tmpdir(), "schedlab-export-")), "scenario.yaml");
  writeFileSync(f, text);
  return execFileSync(CLI, ["export", f, ...args, "--kubernetes-version", PAGE_VERSION], { maxBuffer: 64 << 20 }).toString();
}

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

/** Opens the menu, picks entry `id` and returns the download's name and bytes. */
async function download(page, id) {
  await page.click(".export-menu > button");
  await page.waitForSelector(`.export-list [data-export="${id}"]`);
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click(`.export-list [data-export="${id}"]`)]);
  const path = await dl.path();
  return { name: dl.suggestedFilename(), bytes: readFileSync(path) };
}

/** Parses an SVG in the page (the browser's XML parser); its size and its texts. */
async function parseSvg(page, svg) {
  return page.evaluate((s) => {
    const doc = new DOMParser().parseFromString(s, "image/svg+xml");
    const err = doc.querySelector("parsererror");
    const root = doc.documentElement;
    return {
      error: err ? err.textContent : null,
      root: root.nodeName,
      width: Number(root.getAttribute("width")),
      height: Number(root.getAttribute("height")),
      texts: [...doc.querySelectorAll("text")].map((t) => t.textContent),
    };
  }, svg);
}

function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "PNG signature");
  assert.equal(bytes.subarray(12, 16).toString("latin1"), "IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test("Export downloads the configuration, the manifests and the pictures", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await gotoPhase(page, 1, "Filter");
  const text = joinParts(await savedParts(page));

  await page.click(".export-menu > button");
  await page.waitForSelector(".export-list");
  await shot(page, "export-menu");
  await page.click(".export-menu > button");

  const config = await download(page, "config");
  assert.match(config.name, /^schedlab-.*-config\.yaml$/);
  assert.equal(config.bytes.toString(), cliExport(text, ["--what", "config"]));
  assert.match(config.bytes.toString(), /^# kube-scheduler v1\.34's configuration/);

  const manifests = await download(page, "manifests");
  assert.equal(manifests.bytes.toString(), cliExport(text, ["--what", "manifests"]));
  assert.doesNotMatch(manifests.bytes.toString(), /kwok/);
  const kwok = await download(page, "kwok");
  assert.equal(kwok.bytes.toString(), cliExport(text, ["--what", "manifests", "--kwok"]));
  assert.match(kwok.bytes.toString(), /kwok\.x-k8s\.io\/node: fake/);

  const nodes = await page.$$eval(".node-card:not(.absent)", (els) => els.map((e) => e.dataset.node));
  assert.ok(nodes.length > 0);
  const cluster = await download(page, "cluster-svg");
  assert.match(cluster.name, /-cluster\.svg$/);
  const c = await parseSvg(page, cluster.bytes.toString());
  assert.equal(c.error, null);
  assert.equal(c.root, "svg");
  for (const n of nodes) assert.ok(c.texts.some((t) => t.startsWith(n)), `node ${n} in the cluster SVG`);

  const cycle = await download(page, "cycle-svg");
  assert.match(cycle.name, /-cycle-1\.svg$/);
  const y = await parseSvg(page, cycle.bytes.toString());
  assert.equal(y.error, null);
  assert.ok(y.texts.some((t) => t.includes("cycle 1: ")), y.texts.join("|"));

  for (const [id, svg] of [["cluster-png", c], ["cycle-png", y]]) {
    const png = await download(page, id);
    assert.match(png.name, /\.png$/);
    assert.deepEqual(pngSize(png.bytes), { width: 2 * svg.width, height: 2 * svg.height }, id);
    writeFileSync(join(SHOTS, `export-${id}.png`), png.bytes);
  }
  noErrors(page);
});

test("the Export menu fits the top bar at 1280 x 800", async () => {
  const page = await newPage(env, { viewport: { width: 1280, height: 800 } });
  await page.goto(env.url);
  await ready(page);
  await page.click(".export-menu > button");
  await page.waitForSelector(".export-list");
  const box = await page.locator(".export-list").boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 1280, JSON.stringify(box));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.equal(overflow, 0, "no sideways scroll");
  await shot(page, "export-menu-1280");
  noErrors(page);
});
