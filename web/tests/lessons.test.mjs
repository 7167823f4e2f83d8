// Browser test of a lesson in the playground (issue 19): a gallery lesson opened from the
// lesson list shows its story and failing goals beside the cluster; editing the scenario in the
// editor until the engine says the goals pass; hints revealed one at a time; the progress kept
// over a reload and reset; share links of the attempt and of the exercise; "Show solution" as
// an undoable edit; the goals in an 800×500 embed. Screenshots at 1440×900 and 1280×800. Every
// wait is for a condition, never for a duration.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { start, stop, newPage, noErrors, shot, ready, nextRun, runId, pause, savedParts, replaceEditorText, SHOTS } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

const TOLERATION = "  tolerations: [{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}]\n";

/** Whether the exercise on screen's goals all pass ("true"/"false"), once the run has verdicts. */
const waitGoals = (page, pass) => page.waitForFunction((p) => document.querySelector(".lesson-panel .lesson-goals")?.dataset.pass === p, String(pass));
const progressLine = async (page) => (await page.textContent(".lesson-progress .progress-line")).trim();
const hints = (page) => page.locator(".lesson-panel .hint").count();

async function openFromList(page) {
  await page.click("button:has-text('Lessons')");
  await page.waitForSelector(".lesson-list[role=dialog]");
  const groups = await page.$$eval(".lesson-group h3", (hs) => hs.map((h) => h.textContent));
  assert.ok(groups.length >= 3, `grouped by topic: ${groups}`);
  assert.ok((await page.locator(".lesson-row").count()) >= 15, "the gallery");
  await page.click(".lesson-row[data-lesson=taints] .lesson-open");
  await page.waitForSelector(".lesson-panel .lesson-title");
}

test("a lesson from failing goals to passing ones, hints, progress, share links, solution and undo", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  const first = await runId(page);
  await openFromList(page);
  await nextRun(page, first);
  await pause(page);
  assert.equal((await page.textContent(".lesson-panel .lesson-title")).trim(), "A node reserved with a taint");
  assert.match(await page.textContent(".lesson-story"), /taint on a node repels pods/);
  assert.equal(await page.locator(".lesson-story strong", { hasText: "taint" }).count(), 1, "the story's Markdown is rendered");
  await waitGoals(page, false);
  const failing = await page.$$eval(".lesson-panel .goal.fail .goal-name", (g) => g.map((e) => e.textContent));
  assert.deepEqual(failing, ["pod trainer runs on node gpu-1"], "web already stays off gpu-1");
  assert.match(await page.textContent(".lesson-panel .goal.fail .goal-reason"), /trainer/);
  await shot(page, "lesson-1440x900");

  // Hints, one at a time.
  assert.equal(await hints(page), 0);
  await page.click(".lesson-actions button:has-text('Show a hint (1 of 2)')");
  await page.waitForFunction(() => document.querySelectorAll(".lesson-panel .hint").length === 1);
  await page.click(".lesson-actions button:has-text('Next hint (2 of 2)')");
  await page.waitForFunction(() => document.querySelectorAll(".lesson-panel .hint").length === 2);
  assert.equal(await page.locator(".lesson-actions button:has-text('hint')").count(), 0, "no hint left to show");

  // The learner edits trainer in the Pods tab: the goals pass on the next run.
  await page.click("#tab-pods");
  const pods = (await savedParts(page)).pods;
  assert.ok(pods.includes("  nodeSelector: {accelerator: gpu}\n"));
  const before = await runId(page);
  await replaceEditorText(page, pods.replace("  nodeSelector: {accelerator: gpu}\n", "  nodeSelector: {accelerator: gpu}\n" + TOLERATION));
  await nextRun(page, before);
  await waitGoals(page, true);
  assert.equal(await page.locator(".lesson-panel .goal.fail").count(), 0);
  await page.waitForFunction(() => document.querySelector(".exercise-tabs .tab.active")?.textContent.includes("✓"));
  assert.equal(await progressLine(page), "Progress: 1 of 2 passed · 2 hints used");
  await shot(page, "lesson-1440x900-passing");

  // A reload keeps the progress (and the edit).
  await page.reload();
  await ready(page);
  await waitGoals(page, true);
  assert.equal(await progressLine(page), "Progress: 1 of 2 passed · 2 hints used");
  assert.equal(await hints(page), 2);
  await page.click("button:has-text('All lessons')");
  assert.equal((await page.textContent(".lesson-row[data-lesson=taints] .lesson-row-progress")).trim(), "1/2 passed · 2 hints");
  await page.click(".lesson-list button[aria-label=Close]");

  // Share links: the attempt carries the edit; the exercise, the lesson as shipped.
  await page.click("button[aria-label='Copy a share link']");
  await page.waitForSelector(".share-popover .share-what");
  assert.ok(await page.isChecked(".share-choice:has-text('My attempt') input"), "the attempt by default");
  const attempt = await page.inputValue(".share-url");
  await page.check(".share-choice:has-text('The exercise') input");
  await page.waitForFunction((a) => document.querySelector(".share-url")?.value !== a, attempt);
  const exercise = await page.inputValue(".share-url");
  assert.ok(await page.isChecked(".share-choice:has-text('The exercise') input"));
  await page.click(".share-popover button[aria-label=Close]");
  for (const [url, pass] of [[attempt, true], [exercise, false]]) {
    const other = await newPage(env);
    await other.goto(url);
    await ready(other);
    await waitGoals(other, pass);
    assert.equal((await savedParts(other)).pods.includes(TOLERATION), pass, url);
    // Another browser keeps its own progress: the attempt passes there too, no hint was used.
    assert.equal(await progressLine(other), `Progress: ${pass ? 1 : 0} of 2 passed · 0 hints used`);
    noErrors(other);
    await other.context().close();
  }

  // Reset: nothing passed, no hint shown; after a reload the hints stay hidden, and the attempt
  // on screen, which passes, counts again.
  await page.click(".lesson-progress button:has-text('Reset progress')");
  assert.equal(await progressLine(page), "Progress: 0 of 2 passed · 0 hints used");
  assert.equal(await hints(page), 0);
  await page.reload();
  await ready(page);
  await waitGoals(page, true);
  await page.waitForFunction(() => document.querySelector(".lesson-progress .progress-line")?.textContent.includes("1 of 2"));
  assert.equal(await progressLine(page), "Progress: 1 of 2 passed · 0 hints used");
  assert.equal(await hints(page), 0);

  // Show solution of the second exercise, then undo it: on the lesson opened afresh (with the
  // first exercise's edit in the text, the second's goals fail as outside its edit scope).
  let r = await runId(page);
  await openFromList(page);
  await nextRun(page, r);
  await page.click(".exercise-tabs .tab:has-text('2.')");
  await waitGoals(page, false);
  r = await runId(page);
  await page.click(".lesson-actions button:has-text('Show solution')");
  await nextRun(page, r);
  await waitGoals(page, true);
  assert.ok((await savedParts(page)).pods.includes("kubernetes.io/hostname: spare-1"), "the solution is in the editor");
  assert.match(await progressLine(page), /^Progress: 1 of 2 passed/, "the solved exercise is not counted as passed");
  r = await runId(page);
  await page.click("button[aria-label=Undo]");
  await nextRun(page, r);
  await waitGoals(page, false);
  assert.ok(!(await savedParts(page)).pods.includes("kubernetes.io/hostname: spare-1"), "undone");
  noErrors(page);
  await page.context().close();
});

test("the lesson view at 1280×800, and its goals in an 800×500 embed", async () => {
  const page = await newPage(env, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.url}?lesson=taints`);
  await ready(page);
  await pause(page);
  await waitGoals(page, false);
  await page.click(".lesson-actions button:has-text('Show a hint')");
  await shot(page, "lesson-1280x800");
  // Nothing of the lesson panel overflows sideways.
  // The top bar, with its Lessons button, still fits.
  const help = await page.$eval("button[aria-label='Keyboard shortcuts']", (b) => b.getBoundingClientRect().right);
  assert.ok(help <= 1280, `the top bar's last button is in view (${help})`);
  const tabs = await page.$eval(".exercise-tabs", (t) => t.getBoundingClientRect().height);
  assert.ok(tabs >= 20, `the exercise switcher is not squeezed (${tabs}px)`);
  const wide = await page.$$eval(".lesson-panel *", (els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === "visible").map((e) => e.className));
  assert.deepEqual(wide, []);
  noErrors(page);

  const host = env.url.replace("127.0.0.1", "localhost") + "__host.html";
  const q = new URLSearchParams({ src: `${env.url}?embed&lesson=taints&autoplay=0`, w: "800", h: "500", top: "0" });
  await page.goto(`${host}?${q}`);
  const el = await page.waitForSelector("#embed", { state: "attached" });
  const frame = await el.contentFrame();
  await frame.waitForFunction(() => document.querySelector(".embed-lesson .lesson-goals")?.dataset.pass === "false", null, { polling: 100 });
  assert.match(await frame.textContent(".embed-lesson"), /A node reserved with a taint/);
  assert.ok((await frame.locator(".embed-lesson .goal").count()) >= 2, "the goals are visible");
  await frame.waitForFunction(() => document.querySelectorAll(".node-card").length > 0, null, { polling: 100 });
  await el.screenshot({ path: join(SHOTS, "lesson-embed-800x500.png") });
  await page.context().close();
});
