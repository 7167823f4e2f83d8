// Browser tests of how the engine starts (web/index.html, crates/web/src/bridge.rs): index.html
// starts the light worker while the page's own wasm is still on its way, keeps what the worker
// says before the page listens, and the page takes that worker over: one worker, nothing it said
// lost. The page's wasm is held back in these tests until the worker has spoken, so what it said
// (its `Ready`, or the error of a loader that failed) is always heard late, through the kept
// events.
//
// And the other way: the page does not wait for the worker's `Ready`; the worker's loader keeps
// what the page asks before the engine is up (web/schedlab-worker_loader.js).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, stop, newPage, noErrors, ready, frameShown } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

const PAGE_WASM = /\/schedlab-web-[0-9a-f]{16}_bg\.wasm$/;
const LIGHT_WASM = /\/schedlab-worker-[0-9a-f]{16}_bg\.wasm$/;
const LIGHT_LOADER = /\/schedlab-worker_loader-[0-9a-f]{16}\.js$/;

/** Counts every Worker the page constructs and what each says, from its construction on. */
const COUNT_WORKERS = () => {
  window.__started = [];
  window.__heard = 0;
  window.__failed = 0;
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      window.__started.push(String(args[0]));
      this.addEventListener("message", () => window.__heard++);
      this.addEventListener("error", () => window.__failed++);
    }
    postMessage(...args) {
      window.__asked = (window.__asked || 0) + 1;
      return super.postMessage(...args);
    }
  };
};

/** A page whose wasm is held until `until(page)` holds (or 60 s pass, which the test then
 * reports: the worker never got that far while the page waited). */
async function heldPage(until) {
  const page = await newPage(env, { init: COUNT_WORKERS });
  page.requested = [];
  page.context().on("request", (r) => page.requested.push(new URL(r.url()).pathname));
  page.held = null;
  await page.context().route(PAGE_WASM, async (route) => {
    const deadline = Date.now() + 60000;
    let ok = false;
    while (!ok && Date.now() < deadline) {
      ok = await until(page).catch(() => false);
      if (!ok) await new Promise((r) => setTimeout(r, 50));
    }
    page.held = { ok, requested: [...page.requested] };
    await route.continue();
  });
  return page;
}

test("the engine starts before the page's wasm has loaded, and the page takes it over", async () => {
  const page = await heldPage((p) => p.evaluate(() => window.__heard > 0));
  await page.goto(env.url);
  await ready(page);
  assert.ok(page.held, "the page's wasm was requested");
  assert.ok(page.held.ok, `the worker answered while the page's wasm was held: ${page.held.requested.join(" ")}`);
  assert.ok(
    page.held.requested.some((p) => LIGHT_WASM.test(p)),
    `the light worker's wasm was fetched before the page's wasm arrived: ${page.held.requested.join(" ")}`,
  );
  assert.equal((await page.evaluate(() => window.__started)).length, 1, "one worker is constructed, by index.html");
  assert.equal(await page.evaluate(() => window.__schedlabTest.workers()), 1, "the page's bridge runs that worker");
  assert.equal(await page.evaluate(() => window.__schedlabTest.engine()), "light");
  await frameShown(page);
  noErrors(page);
  await page.context().close();
});

test("a worker that fails before the page listens is heard: the page starts another and runs", async () => {
  let failures = 1;
  const page = await heldPage((p) => p.evaluate(() => window.__failed > 0));
  await page.context().route(LIGHT_LOADER, (route) => (failures-- > 0 ? route.abort("internetdisconnected") : route.continue()));
  await page.goto(env.url);
  await ready(page);
  assert.ok(page.held && page.held.ok, "the first worker failed while the page's wasm was held");
  assert.equal((await page.evaluate(() => window.__started)).length, 2, "the page replaced the failed worker");
  assert.equal(await page.evaluate(() => window.__schedlabTest.workers()), 2);
  await frameShown(page);
  await page.context().close();
});

test("the page asks before the engine is up: the worker's loader keeps the request and the engine answers it", async () => {
  const page = await newPage(env, { init: COUNT_WORKERS });
  let held = null;
  // The light engine's wasm is held until the page has sent the worker something (its first
  // load), so that request always reaches a worker whose engine is not running yet.
  await page.context().route(LIGHT_WASM, async (route) => {
    const deadline = Date.now() + 60000;
    let asked = false;
    while (!asked && Date.now() < deadline) {
      asked = await page.evaluate(() => (window.__asked || 0) > 0).catch(() => false);
      if (!asked) await new Promise((r) => setTimeout(r, 50));
    }
    held = { asked, heard: await page.evaluate(() => window.__heard).catch(() => -1) };
    await route.continue();
  });
  await page.goto(env.url);
  await ready(page);
  assert.ok(held && held.asked, "the page sent its load while the engine's wasm was held");
  assert.equal(held.heard, 0, "the worker had said nothing yet (no Ready) when the page asked");
  assert.equal((await page.evaluate(() => window.__started)).length, 1, "one worker");
  await frameShown(page);
  noErrors(page);
  await page.context().close();
});

test("a worker whose engine cannot be downloaded is reported and replaced", async () => {
  const page = await newPage(env, { init: COUNT_WORKERS });
  // The first worker's download of the engine fails; the next worker's succeeds.
  let failures = 1;
  await page.context().route(LIGHT_WASM, (route) => (failures-- > 0 ? route.abort("internetdisconnected") : route.continue()));
  await page.goto(env.url);
  await ready(page);
  await frameShown(page);
  assert.equal(failures, -1, "two downloads were asked for");
  assert.equal((await page.evaluate(() => window.__started)).length, 2, "the page replaced the worker that could not start");
  await page.context().close();
});
