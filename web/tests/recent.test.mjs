// Browser test of "my scenario is never lost": a scenario of the user's own that an import, a
// second import and a preset replace in turn is kept each time (the last five, each with its
// name and time, in the preset list), the toast says where it went, and the first comes back
// from the list — after a reload too. Every wait is for a condition, never for a duration.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, stop, newPage, noErrors, shot, ready, pause, savedParts } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

const MINE = {
  nodes: "# my first scenario\napiVersion: v1\nkind: Node\nmetadata: {name: mine-node}\nstatus:\n  capacity: {cpu: '2', memory: 4Gi, pods: '110'}\n",
  pods: "apiVersion: v1\nkind: Pod\nmetadata: {name: mine-pod}\nspec:\n  containers: [{name: c, image: x}]\n",
  other: "",
  config: "",
  timeline: "",
};

const cluster = (n) =>
  `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: imported-${n}}\n  status: {capacity: {cpu: '4', memory: 8Gi, pods: '110'}}\n` +
  [1, 2]
    .map((i) => `- apiVersion: v1\n  kind: Pod\n  metadata: {name: job-${n}-${i}}\n  spec: {containers: [{name: c, image: x}]}\n`)
    .join("");

async function importText(page, text, node) {
  await page.click('button[aria-label="Import from a cluster"]');
  await page.waitForSelector('.import-dialog[role="dialog"]');
  await page.fill(".import-text", text);
  await page.click('.import-actions button:has-text("Read it")');
  await page.waitForSelector(".import-report");
  await page.click('.import-actions button:has-text("Replace the scenario")');
  await page.waitForFunction((n) => JSON.parse(localStorage.getItem("schedlab.scenario.v1") || "{}").parts?.nodes.includes(`name: ${n}`), node);
  await ready(page);
}

/** The toast's text once it is about `what`. */
async function toast(page, what) {
  const t = page.locator(".toast", { hasText: what });
  await t.waitFor();
  return (await t.textContent()).trim();
}

/** The recent scenarios the preset list offers, newest first. */
const recent = (page) => page.$$eval("select[aria-label='Preset scenario'] option[data-recent]", (os) => os.map((o) => o.textContent));

test("two imports and a preset keep each replaced scenario; the first comes back", async () => {
  const page = await newPage(env, {
    init: `(() => {
      if (!localStorage.getItem("schedlab.scenario.v1")) {
        localStorage.setItem("schedlab.scenario.v1", JSON.stringify({ parts: ${JSON.stringify(MINE)}, seed: 1 }));
      }
    })()`,
  });
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  assert.deepEqual(await recent(page), [], "nothing kept yet");

  await importText(page, cluster(1), "imported-1");
  assert.match(await toast(page, "Imported"), /^Imported\. Your previous scenario is kept: Preset ▸ “↩ my first scenario”$/);
  await importText(page, cluster(2), "imported-2");
  // The first import is kept in its turn (before this change it replaced "my scenario").
  assert.match(await toast(page, "Imported"), /kept: Preset ▸ “↩ 1 node, 2 pods \(imported-1\)”$/);
  await page.selectOption("select[aria-label='Preset scenario']", "scoring");
  // The preset opens once its text is downloaded: its own toast, not the import's still shown.
  assert.match(await toast(page, /^\s*Your previous scenario is kept/), /^Your previous scenario is kept: Preset ▸ “↩ 1 node, 2 pods \(imported-2\)”$/);
  await ready(page);

  const kept = await recent(page);
  assert.equal(kept.length, 3, kept.join("\n"));
  assert.match(kept[0], /^↩ 1 node, 2 pods \(imported-2\) · \d\d:\d\d$/);
  assert.match(kept[1], /^↩ 1 node, 2 pods \(imported-1\) · \d\d:\d\d$/);
  assert.match(kept[2], /^↩ my first scenario · \d\d:\d\d$/);
  // A native list's popup is not in screenshots: the list is shown open for the picture only.
  const openList = (open) =>
    page.evaluate((open) => {
      const s = document.querySelector("select[aria-label='Preset scenario']");
      if (open) {
        s.size = 12;
        Object.assign(s.style, { position: "absolute", zIndex: 50, height: "auto", top: "6px" });
      } else {
        s.removeAttribute("size");
        s.removeAttribute("style");
      }
    }, open);
  await openList(true);
  await shot(page, "recent-scenarios-1440");
  await openList(false);

  // The first one back, whole.
  await page.selectOption("select[aria-label='Preset scenario']", { label: kept[2] });
  assert.match(await toast(page, "is back"), /^“my first scenario” is back$/);
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts.nodes.includes("mine-node"));
  const parts = await savedParts(page);
  assert.equal(parts.nodes, MINE.nodes);
  assert.equal(parts.pods, MINE.pods);
  await ready(page);
  assert.ok(await page.locator('.node-card[data-node="mine-node"]').count(), "its node is shown");

  // The list is kept in the browser: a reload offers the same scenarios.
  await page.reload();
  await ready(page);
  assert.deepEqual(await recent(page), kept);
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, "recent-scenarios-1280");
  noErrors(page);
});
