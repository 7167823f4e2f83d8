// Shared set-up for the browser tests: a static server for dist/, headless Chromium through
// playwright-core, console-error collection, screenshots, and the engine's CLI as the oracle.
//
// No test depends on timing: they wait for conditions (a frame on screen, a new run, an
// attribute), never for a fixed time, and assert no durations. Timeouts are generous, for a
// busy 2-core machine; they bound a hang, they are not expectations.

import { chromium } from "playwright-core";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./server.mjs";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const SHOTS = join(ROOT, "web", "screenshots");
mkdirSync(SHOTS, { recursive: true });

const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

export async function start() {
  const server = await serve(join(ROOT, process.env.DIST || "dist"), 0);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  return { server, url, browser };
}

export async function stop(env) {
  await env.browser.close();
  env.server.close();
}

/** Playwright's wait for any condition not given its own timeout. */
export const TIMEOUT = 120000;

/** A fresh page (own storage) with console errors and warnings collected in page.errors. */
export async function newPage(env, opts = {}) {
  const context = await env.browser.newContext({
    viewport: opts.viewport || { width: 1440, height: 900 },
    reducedMotion: opts.reducedMotion || "no-preference",
    colorScheme: opts.colorScheme || "light",
    permissions: ["clipboard-read", "clipboard-write"],
  });
  context.setDefaultTimeout(TIMEOUT);
  const page = await context.newPage();
  page.errors = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") page.errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => page.errors.push(`pageerror: ${e.message}`));
  if (opts.init) await page.addInitScript(opts.init);
  return page;
}

/** Asserts that the page logged no console errors or warnings (collected by newPage). */
export function noErrors(page) {
  assert.deepEqual(page.errors, [], "no console errors or warnings");
}

/**
 * Waits until the page's finite animations (rows revealed, chips moving) have finished, and two
 * frames more, for a steady screenshot. Bounded: `page.evaluate` has no timeout of its own, and
 * once a fresh-clone CI run hung here for over 15 minutes (the only pending Playwright call was
 * this evaluate, after the page had shown what the test waited for), so a promise that never
 * settles (an animation's `finished`, a frame that never comes) ends the wait after 5 s instead
 * of stalling the suite.
 */
export async function settle(page) {
  await page.evaluate(async () => {
    const within = (p, ms) => Promise.race([p, new Promise((ok) => setTimeout(ok, ms))]);
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await within(Promise.all(finite.map((a) => a.finished.catch(() => {}))), 5000);
    await within(new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))), 1000);
  });
}

export async function shot(page, name) {
  await settle(page);
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Waits until the frame on screen is the playhead's (the worker answered the last request). */
export async function frameShown(page) {
  await page.waitForFunction(() => {
    const label = document.querySelector(".stage-label");
    const range = document.querySelector(".timeline input[type=range]");
    return label && range && label.dataset.stop === range.value;
  });
}

/** Waits for the stage `want` to be on screen at the playhead. */
export async function waitStage(page, want) {
  await page.waitForFunction((w) => {
    const label = document.querySelector(".stage-label");
    const range = document.querySelector(".timeline input[type=range]");
    return label && range && label.dataset.stop === range.value && label.textContent.trim() === w;
  }, want);
}

/** Waits for the app to have run a scenario and shown the frame at the playhead. */
export async function ready(page) {
  await page.waitForFunction(() => {
    const s = document.querySelector(".status");
    return s && /\d+ nodes?\b/.test(s.textContent) && s.getAttribute("data-busy") === "false";
  }, null, { timeout: 300000 });
  await frameShown(page);
}

/** The number of the run on screen (it grows with every successful load). */
export async function runId(page) {
  return Number(await page.getAttribute(".status", "data-run"));
}

/** Waits for a run newer than `after` (see runId) to be on screen, and its frame. */
export async function nextRun(page, after) {
  await page.waitForFunction((a) => {
    const s = document.querySelector(".status");
    return s && Number(s.getAttribute("data-run")) > a && s.getAttribute("data-busy") === "false";
  }, after, { timeout: 300000 });
  await frameShown(page);
}

export async function pause(page) {
  const playing = await page.getAttribute("button.play", "aria-pressed");
  if (playing === "true") await page.click("button.play");
  await page.waitForFunction(() => document.querySelector("button.play").getAttribute("aria-pressed") === "false");
}

/** Opens the "Generate a large cluster" dialog and fills in its sizes; the caller clicks
 * "Generate and schedule" (after whatever it starts measuring). */
export async function fillGenerator(page, nodes, pods, zones = 3) {
  await page.click('button[aria-label="Generate a large cluster"]');
  await page.fill('input[name="nodes"]', String(nodes));
  await page.fill('input[name="pods"]', String(pods));
  await page.fill('input[name="zones"]', String(zones));
}

/** Waits for an attribute of the first element matching `sel` to have `value`. */
export async function waitAttr(page, sel, attr, value) {
  await page.waitForFunction(([s, a, v]) => document.querySelector(s)?.getAttribute(a) === v, [sel, attr, value]);
}

export async function stage(page) {
  return (await page.textContent(".stage-label")).trim();
}

/** The playhead (stop index) from the timeline's range input. */
export async function playhead(page) {
  return Number(await page.inputValue(".timeline input[type=range]"));
}

/** Jumps to a cycle (through the cycle box) and steps with → until `want` is the phase. */
export async function gotoPhase(page, cycle, want) {
  await pause(page);
  await page.fill(".cycle-jump input", String(cycle));
  await page.press(".cycle-jump input", "Enter");
  await page.locator(".cycle-jump input").blur();
  await page.waitForFunction((c) => (document.querySelector(".cycle-title")?.textContent || "").includes(`cycle ${c} `), cycle);
  for (let i = 0; i < 20; i++) {
    await frameShown(page);
    if ((await stage(page)) === want) return;
    const before = await playhead(page);
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((b) => Number(document.querySelector(".timeline input[type=range]").value) !== b, before);
  }
  throw new Error(`phase ${want} not reached in cycle ${cycle} (at ${await stage(page)})`);
}

/** The scenario parts as the app saved them. */
export async function savedParts(page) {
  // The autosave runs in a task of its own shortly after a change: wait until none is waiting.
  await page.waitForFunction(() => document.documentElement.getAttribute("data-saving") !== "true");
  return page.evaluate(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts);
}

/** The scenario text the app runs (its parts joined as the app joins them). */
export function joinParts(parts) {
  let out = "";
  for (const k of ["other", "nodes", "pods", "config", "timeline"]) {
    const t = parts[k] || "";
    if (!t.trim()) continue;
    out += "---\n" + t + (t.endsWith("\n") ? "" : "\n");
  }
  return out;
}

const CLI = process.env.SCHEDLAB_CLI || join(ROOT, "target", "debug", "schedlab");

/** The Kubernetes version the page runs its presets and the scenarios saved without one at
 * (crates/web/src/scenario.rs `PRESET_VERSION`); the CLI's default is the newest, so the oracle
 * names it. */
export const PAGE_VERSION = "1.34";

/** A KubeSchedulerConfiguration whose only change is NodeResourcesFit's MostAllocated scoring
 * (the compare tests' "other configuration"). */
export const MOST_ALLOCATED = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
`;

/** Runs the engine natively on a scenario text: the oracle for the page's numbers. */
export function cli(text, output = "json") {
  const dir = mkdtempSync(join(tmpdir(), "schedlab-web-"));
  const f = join(dir, "scenario.yaml");
  writeFileSync(f, text);
  return JSON.parse(
    execFileSync(CLI, ["run", f, "--output", output, "--kubernetes-version", PAGE_VERSION], { maxBuffer: 256 << 20 }).toString(),
  );
}

/** `schedlab explain FILE --check` on a scenario text (controllers on, as the page runs it):
 * every cell of every cycle explained natively and held against the trace. Returns the CLI's
 * exit status and its output. */
export function cliExplainCheck(text, seed = 1) {
  const dir = mkdtempSync(join(tmpdir(), "schedlab-web-"));
  const f = join(dir, "scenario.yaml");
  writeFileSync(f, text);
  const r = spawnSync(CLI, ["explain", f, "--check", "--seed", String(seed), "--kubernetes-version", PAGE_VERSION], {
    maxBuffer: 256 << 20,
  });
  return { status: r.status, out: r.stdout.toString() + r.stderr.toString() };
}

/** Replaces the text of the visible editor tab as a user would (select all, paste). */
export async function replaceEditorText(page, text) {
  await page.click(".editor-host .cm-content");
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
}
