// Ad-hoc screenshots at several sizes (not a test).
import { start, stop, newPage, ready, pause, gotoPhase, shot } from "./helpers.mjs";
const env = await start();
for (const [w, h, theme] of [[1280, 720, "light"], [1920, 1080, "dark"]]) {
  const page = await newPage(env, { viewport: { width: w, height: h }, colorScheme: theme });
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  await gotoPhase(page, 2, "NormalizeScore");
  await shot(page, `x-${w}-score`);
  await gotoPhase(page, 6, "FailedScheduling");
  await shot(page, `x-${w}-failed`);
  await page.hover(".reasons li");
  await shot(page, `x-${w}-reason-hover`);
  console.log(w, page.errors);
}
await stop(env);
