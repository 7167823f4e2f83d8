// Runs against a development build (`trunk build --dist dist-dev`, scripts/test-web.sh): only
// there does Leptos warn about a signal read outside a reactive tracking context, a write to a
// disposed signal, and the like. A flow through the page's dialogs and views must log none.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, stop, newPage, ready, pause, gotoPhase, frameShown } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

test("no framework warnings through Share, Embed…, the playhead, an explanation and the menus (development build)", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  assert.equal(
    await page.getAttribute("html", "data-debug-build"),
    "true",
    "this test needs a development build (DIST=dist-dev: scripts/test-web.sh builds it)",
  );
  await pause(page);

  // Share, then Esc.
  await page.click('button:has-text("Share")');
  await page.waitForSelector(".share-popover");
  await page.keyboard.press("Escape");
  await page.waitForSelector(".share-popover", { state: "detached" });

  // Embed…: its preview and snippet, then closed.
  await page.click('button:has-text("Embed…")');
  await page.waitForFunction(() => (document.querySelector("#embed-snippet")?.value || "").includes("<iframe"));
  await page.click('.embed-dialog button[aria-label="Close"]');
  await page.waitForSelector(".embed-dialog", { state: "detached" });

  // The playhead: step, jump to a cycle's phases, the end and back.
  for (const key of ["ArrowRight", "ArrowRight", "Shift+ArrowRight", "End", "Home"]) {
    await page.keyboard.press(key);
    await frameShown(page);
  }

  // An explanation of a filter cell, then of a score cell.
  await gotoPhase(page, 1, "Filter");
  await page.click("table.matrix td.cell .cell-btn");
  await page.waitForSelector("aside.explain");
  await gotoPhase(page, 2, "NormalizeScore");
  await page.click("table.scores td.cell .cell-btn");
  await page.waitForSelector("aside.explain");
  await page.keyboard.press("Escape");

  // A node's menu and a pod's menu.
  await page.click(".node-card .node-menu");
  await page.waitForSelector(".action-menu .menu-items");
  await page.keyboard.press("Escape");
  await page.click(".node-card button.chip");
  await page.waitForSelector(".action-menu .menu-items");
  await page.keyboard.press("Escape");

  // Play a little, and the lower panel's other tabs.
  await page.click('button[role="tab"]:has-text("Events")');
  await page.click('button[role="tab"]:has-text("Profiles")');
  await page.keyboard.press("Home");
  await page.click("button.play");
  await page.waitForFunction(() => Number(document.querySelector(".timeline input[type=range]").value) >= 3);
  await pause(page);

  const leptos = page.errors.filter((e) => /reactive|ReadSignal|WriteSignal|Memo|disposed|leptos|tachys|reactive_graph/i.test(e));
  assert.deepEqual(leptos, [], "no Leptos warnings");
  assert.deepEqual(page.errors, [], "no console errors or warnings at all");
});
