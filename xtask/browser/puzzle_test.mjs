// The book's GPU puzzles in headless Chromium (SwiftShader's WebGPU without a GPU): in every
// puzzle box of the built book, types each run of code/gpu_puzzles/browser_checks.json into the
// editor and presses Run. The reference solution must pass; each wrong solution must fail the
// way the catalogue says (mismatch or reads). Also: a compile error must name its line, and a
// puzzle in the book that has no checks (or checks without a box) fails the test.
// Usage: node puzzle_test.mjs <book/build/html> <browser_checks.json> <screenshot dir> [chromium]
// Prints one JSON line on success; screenshots puzzle_solved.png and puzzle_failed.png.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { boxesInBook, launchChromium, serveBook } from "./book_pages.mjs";

const [htmlDir, checksFile, shotDir, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
if (!htmlDir || !checksFile || !shotDir) {
  console.error("usage: node puzzle_test.mjs <book/build/html> <browser_checks.json> <screenshot dir> [chromium]");
  process.exit(2);
}
const checks = JSON.parse(fs.readFileSync(checksFile, "utf8"));
const problems = [];

// Every puzzle box in the built book: id -> page.
const boxes = new Map(boxesInBook(htmlDir, "puzzle-box", "data-puzzle").map((b) => [b.id, b.page]));
for (const id of boxes.keys()) if (!checks.some((c) => c.id === id)) problems.push(id + ": a puzzle in the book with no checks");
for (const c of checks) if (!boxes.has(c.id)) problems.push(c.id + ": checked, but no page of the built book has its box");

// What a reader downloads: each puzzle page and the scripts it loads, raw and gzipped (what a
// web server sends), with the demos' WebAssembly beside them for comparison.
function sizeOf(rel) {
  const file = path.join(htmlDir, rel);
  if (!fs.existsSync(file)) return null;
  const data = fs.readFileSync(file);
  return { file: rel, bytes: data.length, gzip: zlib.gzipSync(data, { level: 9 }).length };
}
const sizes = [...new Set(boxes.values())].sort()
  .concat(["theme/puzzles.js", "theme/puzzles.css", "puzzle-editor/editor.js", "theme/demo-box.js", "demos/book_demos_bg.wasm", "demos/book_demos.js"])
  .map(sizeOf).filter(Boolean);

const { server, base } = await serveBook(htmlDir);
const browser = await launchChromium(chromium);

// Types `source` into the box's editor, presses Run and returns what the box reports.
async function press(page, id, source) {
  const box = ".puzzle-box[data-puzzle=\"" + id + "\"]";
  // Through the box's editor object: CodeMirror's, or the plain one without it.
  await page.$eval(box, (el, code) => { el.puzzleEditor.value = code; }, source);
  await page.click(box + " button[data-action=run]");
  await page.waitForFunction((sel) => !["ready", "running"].includes(document.querySelector(sel).dataset.puzzleState),
    { timeout: 120000 }, box);
  return page.$eval(box, (el) => ({
    state: el.dataset.puzzleState, failure: el.dataset.failure, text: el.querySelector("output").textContent,
    marked: (el.dataset.errorLines ?? "").split(",").filter(Boolean).map(Number),
    codemirror: el.querySelector(".cm-editor") !== null,
  }));
}

const started = Date.now();
const runs = [];
let shots = 0;
let adapter = null;
let editor = null;
let withoutWebGpu = null;
try {
  const byPage = new Map();
  for (const c of checks) if (boxes.has(c.id)) byPage.set(boxes.get(c.id), [...(byPage.get(boxes.get(c.id)) ?? []), c]);
  for (const [pageName, puzzles] of byPage) {
    const page = await browser.newPage();
    await page.setViewport({ width: 1000, height: 900 });
    page.on("pageerror", (e) => problems.push(pageName + ": JavaScript error: " + e.message));
    page.on("response", (r) => { if (r.status() >= 400) problems.push(pageName + ": " + r.status() + " for " + r.url()); });
    await page.goto(base + pageName, { waitUntil: "load" });
    adapter ??= await page.evaluate(async () => {
      const info = (await navigator.gpu?.requestAdapter())?.info;
      return info ? [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(" ") : "none";
    });
    for (const c of puzzles) {
      const box = ".puzzle-box[data-puzzle=\"" + c.id + "\"]";
      await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.puzzleState === "ready", { timeout: 30000 }, box);
      for (const run of c.runs) {
        const t = Date.now();
        const r = await press(page, c.id, run.source);
        const where = c.id + "/" + run.name;
        const want = run.fails_by === null ? "passed" : "failed";
        if (r.state !== want || (run.fails_by !== null && r.failure !== run.fails_by)) {
          problems.push(where + ": expected " + want + (run.fails_by ? " (" + run.fails_by + ")" : "") + ", got " + r.state + " (" + r.failure + "): " + r.text);
        }
        runs.push({ puzzle: c.id, run: run.name, state: r.state, failure: r.failure, seconds: (Date.now() - t) / 1000, text: r.text.split("\n")[0] });
        // The screenshots: the guards puzzle solved, then failed with its mismatch table.
        if (c.id === "guards" && (run.name === "solution" || run.name === "wrong_off_by_one")) {
          const el = await page.$(box);
          await el.screenshot({ path: path.join(shotDir, run.name === "solution" ? "puzzle_solved.png" : "puzzle_failed.png") });
          shots++;
        }
      }
      if (c.id === "map") {
        const r = await press(page, "map", "fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {\n    out[global.x] = a(global.x) + ;\n}\n");
        if (r.state !== "compile-error" || !r.text.includes("line 2") || !r.marked.includes(2)) {
          problems.push("map: a syntax error on line 2 should be reported and marked on line 2, got " + r.state + ": " + r.text);
        }
        editor ??= r.codemirror ? "CodeMirror" : "plain";
        runs.push({ puzzle: "map", run: "syntax error", state: r.state, failure: r.failure, text: r.text.split("\n").slice(0, 2).join(" ") });
      }
      // Leave the box as a reader would find it, solved.
      await page.$eval(box + " button[data-action=reset]", (b) => b.click());
    }
    await page.close();
  }
  if (shots !== 2) problems.push("the guards puzzle's screenshots were not taken");
  withoutWebGpu = await pressWithoutWebGpu(boxes.get("map"));
  const version = await browser.version();
  if (problems.length === 0) {
    console.log(JSON.stringify({ browser: version, adapter, editor, withoutWebGpu, seconds: (Date.now() - started) / 1000, puzzles: boxes.size, runs, sizes }));
  }
} finally {
  await browser.close();
  server.close();
}
// A browser that offers no WebGPU adapter (no SwiftShader flags): the box must say so, with the
// demos' message, and no JavaScript error. (A browser with WebGPU on by default may run it.)
async function pressWithoutWebGpu(pageName) {
  const plain = await launchChromium(chromium, false);
  try {
    const page = await plain.newPage();
    page.on("pageerror", (e) => problems.push("without WebGPU: JavaScript error: " + e.message));
    await page.goto(base + pageName, { waitUntil: "load" });
    const box = ".puzzle-box[data-puzzle=\"map\"]";
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.puzzleState === "ready", { timeout: 30000 }, box);
    await page.click(box + " button[data-action=run]");
    await page.waitForFunction((sel) => !["ready", "running"].includes(document.querySelector(sel).dataset.puzzleState), { timeout: 60000 }, box);
    const r = await page.$eval(box, (el) => ({ state: el.dataset.puzzleState, text: el.querySelector("output").textContent }));
    const explained = r.state === "no-webgpu" && r.text.includes("113") && r.text.includes("Safari 26");
    if (!explained && !["passed", "failed"].includes(r.state)) problems.push("without WebGPU: the box ended in state " + r.state + ": " + r.text);
    return r.state;
  } finally {
    await plain.close();
  }
}

if (problems.length > 0) {
  console.error("puzzle browser test failed:\n  " + problems.join("\n  "));
  process.exit(1);
}
