// Opens the built book in headless Chromium, presses each demo's run button and checks the result
// box. Fails on a wrong result, a missing file (any HTTP 404) or a JavaScript error.
// Usage: node demo_test.mjs <book/build/html> <screenshot.png> [chromium]
// Prints one JSON line on success: the browser's version and what each demo reported.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import puppeteer from "puppeteer-core";

const [htmlDir, screenshot, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
if (!htmlDir || !screenshot) {
  console.error("usage: node demo_test.mjs <book/build/html> <screenshot.png> [chromium]");
  process.exit(2);
}
const DEMOS = [{ page: "m0_introduction/first_gpu_program.html", box: "#demo-vector-add" }];
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm",
  ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png", ".woff2": "font/woff2" };

const problems = [];
// A plain static server over the built book: ES modules and wasm need http, not file://.
const server = http.createServer((req, res) => {
  const rel = decodeURIComponent(new URL(req.url, "http://x").pathname);
  const file = path.join(htmlDir, path.normalize(rel).replace(/^(\.\.[/\\])+/, ""));
  fs.readFile(file, (err, data) => {
    if (err) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    res.end(data);
  });
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = "http://127.0.0.1:" + server.address().port + "/";

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  // SwiftShader gives WebGPU on a machine without a GPU; unsafe-webgpu turns WebGPU on for it.
  args: ["--no-sandbox", "--enable-unsafe-webgpu", "--enable-unsafe-swiftshader"],
});
const results = [];
try {
  for (const demo of DEMOS) {
    const page = await browser.newPage();
    page.on("pageerror", (e) => problems.push(demo.page + ": JavaScript error: " + e.message));
    page.on("console", (m) => { if (m.type() === "error") problems.push(demo.page + ": console error: " + m.text()); });
    page.on("response", (r) => { if (r.status() >= 400) problems.push(demo.page + ": " + r.status() + " for " + r.url()); });
    page.on("requestfailed", (r) => problems.push(demo.page + ": request failed: " + r.url()));
    await page.goto(base + demo.page, { waitUntil: "load" });
    await page.click(demo.box + " button");
    await page.waitForFunction(
      (sel) => ["done", "wrong", "error", "no-webgpu"].includes(document.querySelector(sel).dataset.demoState),
      { timeout: 180000 }, demo.box);
    const r = await page.$eval(demo.box, (el) => ({ state: el.dataset.demoState,
      adapter: el.dataset.adapter ?? "", mismatches: el.dataset.mismatches ?? "", text: el.querySelector("output").textContent }));
    if (r.state !== "done" || r.mismatches !== "0") problems.push(demo.page + ": the demo reported: " + r.text);
    if (results.length === 0) {
      const el = await page.$(demo.box);
      await el.screenshot({ path: screenshot });
    }
    results.push({ page: demo.page, ...r });
  }
  const version = await browser.version();
  if (problems.length === 0) console.log(JSON.stringify({ browser: version, demos: results }));
} finally {
  await browser.close();
  server.close();
}
if (problems.length > 0) {
  console.error("browser test failed:\n  " + problems.join("\n  "));
  process.exit(1);
}
