// Ad-hoc: open the built app and take a screenshot. node web/tests/shot.mjs [out.png] [ms]
import { chromium } from "playwright-core";
import { serve } from "./server.mjs";
const server = await serve(new URL("../../dist", import.meta.url).pathname, 0);
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
page.on("console", (m) => console.log(`[${m.type()}] ${m.text()}`));
page.on("pageerror", (e) => console.log(`[pageerror] ${e.message}`));
await page.goto(url);
await page.waitForTimeout(Number(process.argv[3] || 4000));
await page.screenshot({ path: process.argv[2] || "/tmp/shot.png" });
await browser.close();
server.close();
