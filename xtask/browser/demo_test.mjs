// Opens the built book in headless Chromium, presses every demo box's run button and checks what
// each box reports. Fails on a wrong result, a box that ends in an error or without WebGPU, a
// missing file (any HTTP 404), a JavaScript error, or a box in the book that this list does not
// test. Usage: node demo_test.mjs <book/build/html> <screenshot.png> [chromium]
// Prints one JSON line on success: the browser's version and what each box reported.
import { boxesInBook, launchChromium, serveBook } from "./book_pages.mjs";

const [htmlDir, screenshot, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
if (!htmlDir || !screenshot) {
  console.error("usage: node demo_test.mjs <book/build/html> <screenshot.png> [chromium]");
  process.exit(2);
}
// Every box, with the smallest choices (SwiftShader is a CPU); the histogram twice, because its
// two inputs stress the kernels differently. `rows`: the results the box must show.
const DEMOS = [
  { page: "m0_introduction/first_gpu_program.html", demo: "vector_add", choices: {}, rows: 1 },
  { page: "m1_memory_and_graphs/graphs/matmul_ladder.html", demo: "matmul_ladder", choices: { size: "64" }, rows: 8 },
  { page: "m1_memory_and_graphs/graphs/closing_remarks.html", demo: "graph_modes", choices: { size: "64" }, rows: 4 },
  { page: "m2_parallelism_and_guis/parallelism/gpu_histogram.html", demo: "gpu_histogram", choices: { mib: "1", pattern: "random" }, rows: 2 },
  { page: "m2_parallelism_and_guis/parallelism/gpu_histogram.html", demo: "gpu_histogram", choices: { mib: "1", pattern: "constant" }, rows: 2 },
  { page: "m3_types_and_quantization/quantization.html", demo: "number_formats", choices: { size: "512" }, rows: 4 },
];
const problems = [];

// Every box in the built book must be in DEMOS.
for (const box of boxesInBook(htmlDir, "demo-box", "data-demo")) {
  if (!DEMOS.some((d) => d.page === box.page && d.demo === box.id)) {
    problems.push(box.page + ": the box \"" + box.id + "\" is not tested: add it to DEMOS in demo_test.mjs");
  }
}

const { server, base } = await serveBook(htmlDir);
const browser = await launchChromium(chromium);
const results = [];
try {
  for (const demo of DEMOS) {
    const where = demo.page + " [" + demo.demo + " " + JSON.stringify(demo.choices) + "]";
    const page = await browser.newPage();
    page.on("pageerror", (e) => problems.push(where + ": JavaScript error: " + e.message));
    page.on("console", (m) => { if (m.type() === "error") problems.push(where + ": console error: " + m.text()); });
    page.on("response", (r) => { if (r.status() >= 400) problems.push(where + ": " + r.status() + " for " + r.url()); });
    page.on("requestfailed", (r) => problems.push(where + ": request failed: " + r.url()));
    await page.goto(base + demo.page, { waitUntil: "load" });
    const box = ".demo-box[data-demo=\"" + demo.demo + "\"]";
    const count = await page.$$eval(box, (els) => els.length);
    if (count !== 1) {
      problems.push(where + ": expected one box, found " + count);
      await page.close();
      continue;
    }
    // The box's script marks it ready once its button is wired.
    await page.waitForFunction((sel) => document.querySelector(sel).dataset.demoState === "ready", { timeout: 30000 }, box);
    for (const [name, value] of Object.entries(demo.choices)) {
      const picked = await page.$eval(box + " select[name=\"" + name + "\"]", (s, v) => {
        s.value = v;
        return s.value === v;
      }, value);
      if (!picked) problems.push(where + ": the box offers no " + name + " = " + value);
    }
    const started = Date.now();
    await page.click(box + " button");
    await page.waitForFunction(
      (sel) => ["done", "wrong", "error", "no-webgpu"].includes(document.querySelector(sel).dataset.demoState),
      { timeout: 240000 }, box);
    const seconds = (Date.now() - started) / 1000;
    const r = await page.$eval(box, (el) => ({
      state: el.dataset.demoState,
      adapter: el.dataset.adapter ?? "",
      text: el.querySelector("output").textContent,
      rows: [...el.querySelectorAll("tr[data-row]")].map((tr) => ({
        key: tr.dataset.row, ok: tr.dataset.ok ?? "missing", added: tr.dataset.added === "true",
        yours: tr.querySelector(".yours")?.textContent ?? "", check: tr.querySelector(".check")?.textContent ?? "",
      })),
    }));
    if (r.state !== "done") problems.push(where + ": the box ended in state " + r.state + ": " + r.text);
    if (r.rows.length !== demo.rows) problems.push(where + ": " + r.rows.length + " result rows, expected " + demo.rows);
    for (const row of r.rows) {
      if (row.ok !== "true") problems.push(where + ": row " + row.key + " is not correct (" + row.ok + "): " + row.check);
      if (row.added) problems.push(where + ": row " + row.key + " is missing from the page's table");
    }
    if (results.length === 0) {
      const el = await page.$(box);
      await el.screenshot({ path: screenshot });
    }
    results.push({ page: demo.page, demo: demo.demo, choices: demo.choices, seconds, ...r });
    await page.close();
  }
  const version = await browser.version();
  const withoutWebGpu = await pressWithoutWebGpu();
  if (problems.length === 0) console.log(JSON.stringify({ browser: version, demos: results, withoutWebGpu }));
} finally {
  await browser.close();
  server.close();
}

// A browser that offers no WebGPU adapter (no SwiftShader flags): the box must say so and what
// to try, with no JavaScript error. (A browser with WebGPU on by default may run it instead.)
async function pressWithoutWebGpu() {
  const plain = await launchChromium(chromium, false);
  const where = "without WebGPU";
  try {
    const page = await plain.newPage();
    page.on("pageerror", (e) => problems.push(where + ": JavaScript error: " + e.message));
    await page.goto(base + DEMOS[0].page, { waitUntil: "load" });
    const box = ".demo-box[data-demo=\"" + DEMOS[0].demo + "\"]";
    await page.waitForFunction((sel) => document.querySelector(sel).dataset.demoState === "ready", { timeout: 30000 }, box);
    await page.click(box + " button");
    await page.waitForFunction(
      (sel) => ["done", "wrong", "error", "no-webgpu"].includes(document.querySelector(sel).dataset.demoState),
      { timeout: 240000 }, box);
    const r = await page.$eval(box, (el) => ({ state: el.dataset.demoState, text: el.querySelector("output").textContent }));
    const explained = r.state === "no-webgpu" && r.text.includes("113") && r.text.includes("Safari 26");
    if (!explained && r.state !== "done") problems.push(where + ": the box ended in state " + r.state + ": " + r.text);
    return r.state;
  } finally {
    await plain.close();
  }
}
if (problems.length > 0) {
  console.error("browser test failed:\n  " + problems.join("\n  "));
  process.exit(1);
}
