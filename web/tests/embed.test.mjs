// Browser tests of the embedded playground (?embed) in an iframe of a docs-like page (served by
// the test server at /__host.html, on another origin than the playground: localhost vs
// 127.0.0.1): compact layouts without horizontal overflow, the first frame on every load,
// reduced motion, pausing out of view, no toasts, the options in the address, the "Open in
// schedlab" link and the Embed dialog's snippet.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { start, stop, newPage, noErrors, shot, ready, gotoPhase, SHOTS } from "./helpers.mjs";

let env;
let host;
before(async () => {
  env = await start();
  // The host page on another origin, as a docs site would be.
  host = env.url.replace("127.0.0.1", "localhost") + "__host.html";
});
after(async () => {
  await stop(env);
});

/** The address of an embed of the tour (a preset: no link payload) with these options. */
function embedUrl(options = "") {
  return `${env.url}?embed&preset=tour${options ? "&" + options : ""}`;
}

/** Opens the host page with the embed at `src` in an iframe of w×h; returns its frame. */
async function openHost(page, src, w, h, top = 0, at = host) {
  const q = new URLSearchParams({ src, w: String(w), h: String(h), top: String(top) });
  await page.goto(`${at}?${q}`);
  const el = await page.waitForSelector("#embed", { state: "attached" });
  const frame = await el.contentFrame();
  assert.ok(frame, "the iframe has a frame");
  return { el, frame };
}

/** Waits for the embed's first frame: a phase in the transport and the cycle (or its summary). */
async function firstFrame(frame, timeout = 30000) {
  await frame.waitForFunction(
    () => {
      const s = document.querySelector(".stage-label");
      const t = s ? s.textContent.trim() : "";
      const loading = [...document.querySelectorAll(".placeholder, .embed-summary")].some((e) => e.textContent.includes("Loading…"));
      return t !== "" && t !== "—" && !loading && document.querySelectorAll(".node-card").length > 0;
    },
    null,
    // Polled on a timer: an iframe out of view gets no animation frames.
    { timeout, polling: 100 },
  );
}

/** Waits until the embed plays (or not). */
async function waitPlaying(frame, on) {
  await frame.waitForFunction((on) => document.querySelector("button.play").getAttribute("aria-pressed") === String(on), on, { polling: 100 });
}

/** What overflows sideways in the frame (the document, or any panel, card or bar). */
async function overflows(frame) {
  return frame.evaluate(() => {
    const out = [];
    const de = document.documentElement;
    if (de.scrollWidth > de.clientWidth) out.push(`document ${de.scrollWidth} > ${de.clientWidth}`);
    if (document.body.scrollWidth > document.body.clientWidth) out.push(`body ${document.body.scrollWidth} > ${document.body.clientWidth}`);
    const sel =
      ".embed-bar, .workspace, .panel, .cluster-body, .zones, .zone, .nodes, .node-card, .bars, .badges, .pods, .compact-cycle, .embed-summary, .summary-line, .transport, .pipeline, .queue-strip, .events, .lower, .cycle-grid";
    for (const el of document.querySelectorAll(sel)) {
      if (el.scrollWidth > el.clientWidth + 1) out.push(`${el.className} ${el.scrollWidth} > ${el.clientWidth}`);
    }
    return out;
  });
}

async function frameShot(el, name) {
  await el.screenshot({ path: join(SHOTS, `${name}.png`) });
}

async function playing(frame) {
  return (await frame.getAttribute("button.play", "aria-pressed")) === "true";
}

async function playheadOf(frame) {
  return Number(await frame.inputValue(".timeline input[type=range]"));
}

for (const [w, h] of [
  [800, 500],
  [720, 450],
  [480, 360],
]) {
  for (const theme of ["light", "dark"]) {
    test(`an embed at ${w}×${h} (${theme}) fits: no sideways overflow, the cluster and the cycle readable`, async () => {
      const page = await newPage(env, { viewport: { width: 1000, height: 800 } });
      // At the tour's first cycle (api finds no node: Filter, then preemption), paused.
      const { el, frame } = await openHost(page, embedUrl(`autoplay=0&cycle=1&phase=Filter&theme=${theme}`), w, h);
      await firstFrame(frame);
      assert.equal(await frame.textContent(".stage-label"), "Filter");
      assert.deepEqual(await overflows(frame), [], "nothing overflows sideways");
      // Every node is shown, and the cycle (its summary at this size).
      assert.equal(await frame.locator(".node-card").count(), 5);
      assert.ok(await frame.locator(".cluster-panel").isVisible());
      const summary = frame.locator("[data-testid=cycle-summary]");
      assert.ok(await summary.isVisible(), "the cycle's summary");
      assert.match(await summary.textContent(), /api/);
      assert.match(await summary.textContent(), /Filter ✗ 0\/5 feasible/);
      await frameShot(el, `embed-${w}x${h}${theme === "dark" ? "-dark" : ""}`);
      // Later in the cycle: the preemption and the FailedScheduling message fit too.
      const url = embedUrl(`autoplay=0&cycle=1&phase=PostFilter&theme=${theme}&panels=cluster,queue,cycle`);
      await frame.goto(url);
      await firstFrame(frame);
      assert.equal(await frame.textContent(".stage-label"), "PostFilter");
      assert.deepEqual(await overflows(frame), []);
      assert.ok(await frame.locator(".queue-strip").isVisible(), "the queue in one line");
      await frameShot(el, `embed-${w}x${h}-postfilter${theme === "dark" ? "-dark" : ""}`);
      // The attempt's end: the FailedScheduling message, kept to a few lines.
      await frame.goto(embedUrl(`autoplay=0&cycle=1&phase=FailedScheduling&theme=${theme}`));
      await firstFrame(frame);
      assert.equal(await frame.textContent(".stage-label"), "FailedScheduling");
      assert.match(await frame.textContent(".summary-msg"), /0\/5 nodes are available/);
      assert.deepEqual(await overflows(frame), []);
      await frameShot(el, `embed-${w}x${h}-failed${theme === "dark" ? "-dark" : ""}`);
      noErrors(page);
    });
  }
}

test("an embed at 1000×640 shows the full cycle panel with its tables", async () => {
  const page = await newPage(env, { viewport: { width: 1100, height: 800 } });
  const { el, frame } = await openHost(page, embedUrl("autoplay=0&cycle=2&phase=Score"), 1000, 640);
  await firstFrame(frame);
  assert.equal(await frame.getAttribute(".app", "data-size"), "full");
  await frame.waitForSelector(".score-box");
  assert.ok(await frame.locator(".queue-panel").isVisible());
  assert.deepEqual(await overflows(frame), []);
  await frameShot(el, "embed-1000x640");
  noErrors(page);
});

test("an embed reaches its first frame in each of 50 loads in a row", async () => {
  // The link the Embed dialog gives (the scenario in the address's hash), as in a docs page.
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await page.click('button[aria-label="Embed"]');
  await page.waitForFunction(() => document.querySelector("#embed-snippet")?.value.replace(/&amp;/g, "&").includes("#v=2&s="));
  const snippet = await page.locator("#embed-snippet").inputValue();
  const src = snippet.match(/src="([^"]+)"/)[1].replace(/&amp;/g, "&");
  assert.match(src, /\?embed.*#v=2&s=/);
  const host = await newPage(env, { viewport: { width: 900, height: 700 } });
  const failed = [];
  for (let i = 0; i < 50; i++) {
    const { frame } = await openHost(host, src, 800, 500);
    try {
      await firstFrame(frame, 20000);
    } catch {
      failed.push({ load: i, stage: await frame.textContent(".stage-label").catch(() => "?") });
    }
  }
  assert.deepEqual(failed, [], "every load shows its first frame");
  noErrors(host);
  noErrors(page);
});

test("with reduced motion an embed does not autoplay (it does without)", async () => {
  const calm = await newPage(env, { reducedMotion: "reduce" });
  const a = await openHost(calm, embedUrl(), 800, 500);
  await firstFrame(a.frame);
  assert.equal(await playing(a.frame), false, "no autoplay with prefers-reduced-motion");
  assert.equal(await playheadOf(a.frame), 0);
  const moving = await newPage(env);
  const b = await openHost(moving, embedUrl(), 800, 500);
  await firstFrame(b.frame);
  await waitPlaying(b.frame, true);
  noErrors(calm);
  noErrors(moving);
});

test("an embed out of view does not play; in view it starts, and pauses again when scrolled away", async () => {
  const page = await newPage(env, { viewport: { width: 1000, height: 700 } });
  const { frame } = await openHost(page, embedUrl(), 800, 500, 3000);
  await firstFrame(frame);
  assert.equal(await playing(frame), false, "out of view: not playing");
  assert.equal(await playheadOf(frame), 0, "out of view: not advancing");
  // Scrolled into view, it plays (autoplay was asked for) and advances.
  await page.locator("#embed").scrollIntoViewIfNeeded();
  await waitPlaying(frame, true);
  await frame.waitForFunction(() => Number(document.querySelector(".timeline input[type=range]").value) > 0, null, { polling: 100 });
  // Scrolled away, it pauses; back in view, it resumes.
  await page.evaluate(() => window.scrollTo(0, 0));
  await waitPlaying(frame, false);
  await page.locator("#embed").scrollIntoViewIfNeeded();
  await waitPlaying(frame, true);
  // A visitor's pause sticks: scrolling away and back does not restart it.
  await frame.click("button.play");
  await waitPlaying(frame, false);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator("#embed").scrollIntoViewIfNeeded();
  await frame.waitForFunction(() => document.querySelector(".stage-label").textContent !== "—", null, { polling: 100 });
  assert.equal(await playing(frame), false, "paused by the visitor, stays paused");
  noErrors(page);
});

test("an embed shows no toasts, even for a link it cannot read, and leaves the visitor's autosave alone", async () => {
  const page = await newPage(env);
  const { frame } = await openHost(page, `${env.url}?embed#s=not-a-payload`, 800, 500);
  await firstFrame(frame);
  assert.equal(await frame.locator(".toast").count(), 0, "no toast element");
  // On a page of the playground's own site (where the embed shares the visitor's storage; a
  // cross-site iframe gets none here), the visitor's own scenario stays as it was.
  const mine = JSON.stringify({ parts: { nodes: "# mine\n", pods: "", other: "", config: "" }, seed: 7 });
  const same = await newPage(env);
  await same.goto(env.url + "__host.html");
  await same.evaluate((mine) => localStorage.setItem("schedlab.scenario.v1", mine), mine);
  const b = await openHost(same, embedUrl("autoplay=1"), 800, 500, 0, env.url + "__host.html");
  await firstFrame(b.frame);
  await waitPlaying(b.frame, true);
  assert.equal(await b.frame.locator(".toast").count(), 0);
  assert.equal(await same.evaluate(() => localStorage.getItem("schedlab.scenario.v1")), mine, "the visitor's autosave is untouched");
  assert.equal(await same.evaluate(() => localStorage.getItem("schedlab.recent.v1")), null);
  noErrors(same);
  noErrors(page);
});

test("the options in the address take effect: start cycle and phase, panels, theme, speed", async () => {
  const page = await newPage(env, { viewport: { width: 1000, height: 800 } });
  const { el, frame } = await openHost(page, embedUrl("autoplay=0&cycle=4&phase=Score&panels=cluster,events&theme=dark&speed=4"), 800, 500);
  await firstFrame(frame);
  assert.equal(await frame.textContent(".stage-label"), "Score");
  assert.match(await frame.getAttribute(".timeline input[type=range]", "aria-valuetext"), /^cycle 4, Score$/);
  assert.equal(await frame.getAttribute("html", "data-theme"), "dark");
  assert.equal(await frame.locator(".queue-panel").count(), 0, "no queue");
  assert.equal(await frame.locator(".compact-cycle, .cycle").count(), 0, "no cycle");
  assert.ok(await frame.locator(".events").isVisible(), "the events");
  assert.ok(await frame.locator(".cluster-panel").isVisible());
  assert.equal(await playing(frame), false);
  assert.deepEqual(await overflows(frame), []);
  await frameShot(el, "embed-800x500-events-dark");
  // The speed: 16× is the fourth speed (checked where the transport shows it, at full size).
  const full = await openHost(page, embedUrl("autoplay=0&speed=4"), 1000, 640);
  await firstFrame(full.frame);
  assert.equal(await full.frame.getAttribute('.speeds button[aria-checked="true"]', "title"), "Speed 16× (key 4)");
  noErrors(page);
});

test("\"Open in schedlab ↗\" is a real link to the full playground at the same scenario and playhead", async () => {
  const page = await newPage(env, { viewport: { width: 1000, height: 800 } });
  const { frame } = await openHost(page, embedUrl("autoplay=0&cycle=3&phase=Filter"), 800, 500);
  await firstFrame(frame);
  const link = frame.locator('a[aria-label="Open this scenario in the full playground"]');
  await frame.waitForFunction(() => document.querySelector("a.open-full").getAttribute("href").includes("#v=2&s="));
  assert.equal(await link.getAttribute("target"), "_blank");
  assert.match(await link.getAttribute("rel"), /noopener/);
  const href = await link.getAttribute("href");
  assert.match(href, /cycle=3&phase=Filter/);
  assert.doesNotMatch(href, /embed/);
  const [popup] = await Promise.all([page.context().waitForEvent("page"), link.click()]);
  await popup.waitForLoadState();
  await ready(popup);
  assert.equal(await popup.locator(".editor-panel").count(), 1, "the full playground");
  assert.equal(await popup.locator(".node-card").count(), 5);
  await popup.waitForFunction(() => (document.querySelector(".cycle-title")?.textContent || "").includes("cycle 3 "));
  assert.equal((await popup.textContent(".stage-label")).trim(), "Filter");
  assert.equal(await popup.getAttribute("button.play", "aria-pressed"), "false", "opens paused at the playhead");
  noErrors(page);
});

for (const width of [1440, 1280]) {
  test(`the Embed dialog at ${width} px: options, a live preview and a snippet that works`, async () => {
    const page = await newPage(env, { viewport: { width, height: 900 } });
    await page.goto(env.url);
    await ready(page);
    // Paused at cycle 2, Filter: the dialog starts there.
    await gotoPhase(page, 2, "Filter");
    await page.click('button[aria-label="Embed"]');
    const dialog = page.locator('[role="dialog"][aria-label="Embed this scenario"]');
    await dialog.waitFor();
    assert.equal(await dialog.locator('input[aria-label="Start cycle"]').inputValue(), "2");
    assert.equal(await dialog.locator('select[aria-label="Start phase"]').inputValue(), "Filter");
    // Options: no autoplay, 4×, no queue, dark, 480×360.
    await dialog.locator("label.check", { hasText: "Play on open" }).locator("input").uncheck();
    await dialog.locator('select[aria-label="Speed"]').selectOption("3");
    await dialog.locator("label.check", { hasText: "queue" }).locator("input").uncheck();
    await dialog.locator('select[aria-label="Theme"]').selectOption("dark");
    await dialog.locator('button[role="radio"]', { hasText: "480 × 360" }).click();
    await page.waitForFunction(() => {
      const v = document.querySelector("#embed-snippet").value.replace(/&amp;/g, "&");
      return v.includes("#v=2&s=") && v.includes('width="480"') && v.includes("theme=dark");
    });
    const snippet = await dialog.locator("#embed-snippet").inputValue();
    assert.match(snippet, /^<iframe src="[^"]+" title="[^"]+" width="480" height="360" style="border:0[^"]*" loading="lazy"><\/iframe>$/);
    const src = snippet.match(/src="([^"]+)"/)[1].replace(/&amp;/g, "&");
    for (const part of ["autoplay=0", "speed=3", "cycle=2", "phase=Filter", "panels=cluster,cycle", "theme=dark", "height=360"]) {
      assert.ok(src.includes(part), `${part} in ${src}`);
    }
    // The live preview is that iframe, at that size.
    const preview = dialog.locator('iframe[title="Preview of the embedded playground"]');
    assert.equal(await preview.getAttribute("width"), "480");
    assert.equal(await preview.getAttribute("height"), "360");
    const pframe = await (await preview.elementHandle()).contentFrame();
    await pframe.waitForFunction(() => document.querySelector(".stage-label")?.textContent === "Filter");
    await shot(page, `embed-dialog-${width}`);
    // Copy puts the snippet on the clipboard.
    await dialog.locator('button[aria-label="Copy the embed code"]').click();
    await page.waitForFunction(async () => (await navigator.clipboard.readText()).startsWith("<iframe"));
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet);
    // Pasted into a docs page, the snippet works: the scenario at cycle 2, Filter, dark, paused.
    const docs = await newPage(env, { viewport: { width: 1000, height: 800 } });
    await docs.goto(host);
    await docs.setContent(`<!doctype html><h1>Docs</h1>${snippet}`);
    const frame = await (await docs.waitForSelector("iframe")).contentFrame();
    await firstFrame(frame);
    assert.equal(await frame.textContent(".stage-label"), "Filter");
    assert.match(await frame.getAttribute(".timeline input[type=range]", "aria-valuetext"), /^cycle 2, Filter$/);
    assert.equal(await frame.getAttribute("html", "data-theme"), "dark");
    assert.equal(await frame.locator(".queue-panel, .queue-strip").count(), 0);
    assert.equal(await playing(frame), false);
    assert.deepEqual(await overflows(frame), []);
    // Escape closes the dialog.
    await dialog.locator("#embed-snippet").focus();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    noErrors(page);
    noErrors(docs);
  });
}

// CodeMirror's bundle, under its content-hashed name (web/hash-names.mjs).
const EDITOR = /\/editor-[0-9a-f]{16}\.js$/;

test("an embed never downloads the editor's bundle, even when it opens a shared link; the playground does", async () => {
  const page = await newPage(env);
  const asked = [];
  page.on("request", (r) => asked.push(new URL(r.url()).pathname));
  // Another scenario than the embed's default (the tour): its nodes are node-cpu, node-mem…
  await page.goto(env.url + "?preset=reasons");
  await ready(page);
  await page.waitForSelector(".editor-host .cm-editor");
  assert.ok(asked.some((p) => EDITOR.test(p)), "the playground loads CodeMirror");
  await page.waitForFunction(() => location.hash.includes("&s="));
  const hash = await page.evaluate(() => location.hash);

  const docs = await newPage(env);
  const embedAsked = [];
  docs.on("request", (r) => embedAsked.push(new URL(r.url()).pathname));
  const { frame } = await openHost(docs, `${env.url}?embed&autoplay=0${hash}`, 800, 500);
  await firstFrame(frame);
  // The link's scenario, read by the page's own codec (crates/web/js/link_codec.js).
  await frame.waitForSelector(".node-card:has-text('node-cpu')");
  assert.ok(embedAsked.some((p) => p.endsWith(".wasm")), "the embed's requests were seen");
  assert.deepEqual(embedAsked.filter((p) => EDITOR.test(p)), [], "no CodeMirror in an embed");
  noErrors(page);
  noErrors(docs);
});
