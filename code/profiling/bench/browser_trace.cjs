// Records what Chrome's Performance panel records (a DevTools trace) while the book's first demo
// (vector addition, in "A first GPU program") runs twice in headless Chromium, and sums the
// trace by thread and by event name for each press of the button.
//
//   NODE_PATH=xtask/browser/node_modules node code/profiling/bench/browser_trace.cjs \
//       book/build/html OUT_DIR [chromium]
//
// Writes OUT_DIR/browser_trace_summary.csv (press, thread, event, count, total_ms),
// OUT_DIR/browser_trace_press2.svg (the second press as a timeline of the page's and the GPU
// process's main threads), OUT_DIR/browser_trace_press2.trace.json (those two threads during the
// second press: small enough to commit, Perfetto opens it) and OUT_DIR/browser_trace.json
// (sidecar: browser, adapter, whether it offers timestamp-query, what each press reported).
// Then it opens the page with ?timestamps=1 once in this browser and once in a browser started
// with WebGPU's developer features (full-precision timestamps), and records what the demo
// reported. The whole trace, OUT_DIR/browser_trace.trace.json, is large: open it in DevTools
// (Performance panel, "Load trace", "Load profile…" in older versions) or Perfetto.
"use strict";
const http = require("node:http");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const puppeteer = require("puppeteer-core");
const { stringify } = require("csv-stringify/sync");
const { lanes: lanesOf, timelineSvg, trimTrace } = require("./trace_timeline.cjs");

const [htmlDir, outDir, chromium = "/usr/bin/chromium"] = process.argv.slice(2);
if (!htmlDir || !outDir) {
  console.error("usage: node browser_trace.cjs <book/build/html> <out dir> [chromium]\n" +
    "       node browser_trace.cjs --analyse <out dir of a recording>  (derives the CSV, SVG, trimmed trace\n" +
    "       and round trips again from its browser_trace.trace.json, and updates its sidecar)");
  process.exit(2);
}
const PAGE = "m0_introduction/first_gpu_program.html";
if (htmlDir === "--analyse") {
  const sidecarPath = path.join(outDir, "browser_trace.json");
  const sidecar = JSON.parse(fs.readFileSync(sidecarPath, "utf8"));
  const trace = JSON.parse(fs.readFileSync(path.join(outDir, "browser_trace.trace.json"), "utf8"));
  sidecar.press2_round_trips = analyse(trace, outDir, { browserVersion: sidecar.browser,
    adapter: sidecar.reports?.[1]?.adapter, cpus: Number(/(\d+) logical CPUs/.exec(sidecar.machine)?.[1] ?? 0) });
  const state = gitState();
  sidecar.analysis = { commit: state.commit, dirty: state.dirty, date: new Date().toISOString(),
    command: "node code/profiling/bench/browser_trace.cjs --analyse <out>" };
  fs.writeFileSync(sidecarPath, JSON.stringify(sidecar, null, 2) + "\n");
  console.log(JSON.stringify(sidecar.press2_round_trips));
  process.exit(0);
}
const BOX = '.demo-box[data-demo="vector_add"]';
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm",
  ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png", ".woff2": "font/woff2" };
if (!fs.existsSync(path.join(htmlDir, PAGE))) {
  console.error(`${path.join(htmlDir, PAGE)} is missing: build the book first (cargo xtask book)`);
  process.exit(1);
}

// ES modules and wasm need http, not file://: a static server over the built book.
const server = http.createServer((req, res) => {
  const rel = decodeURIComponent(new URL(req.url, "http://x").pathname);
  const file = path.join(htmlDir, path.normalize(rel).replace(/^(\.\.[/\\])+/, ""));
  fs.readFile(file, (err, data) => {
    if (err) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    res.end(data);
  });
});

// Complete events ("X") summed per press, thread and name; a press is the span between the
// User Timing marks "press N" (the click) and "done N" (the result shown) that this script has
// the page put on its timeline.
function summarize(trace) {
  const events = trace.traceEvents ?? trace;
  const threads = new Map();
  for (const e of events) {
    if (e.ph === "M" && e.name === "thread_name") threads.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const marks = new Map(events.filter((e) => e.cat?.includes("blink.user_timing") && /^(press|done) \d$/.test(e.name))
    .map((e) => [e.name, e.ts]));
  const rows = new Map();
  for (let n = 1; marks.has(`press ${n}`) && marks.has(`done ${n}`); n++) {
    const [from, to] = [marks.get(`press ${n}`), marks.get(`done ${n}`)];
    rows.set(`${n} wall`, { press: n, thread: "-", event: "press to result (wall)", count: 1, total_ms: (to - from) / 1000 });
    for (const e of events) {
      if (e.ph !== "X" || e.ts < from || e.ts > to || !e.dur) continue;
      const thread = threads.get(`${e.pid}:${e.tid}`) ?? "?";
      const key = `${n}|${thread}|${e.name}`;
      const row = rows.get(key) ?? { press: n, thread, event: e.name, count: 0, total_ms: 0 };
      row.count += 1;
      row.total_ms += e.dur / 1000;
      rows.set(key, row);
    }
  }
  return [...rows.values()];
}

const ARGS = ["--no-sandbox", "--enable-unsafe-webgpu", "--enable-unsafe-swiftshader"];
// Chrome's switch for chrome://flags/#enable-webgpu-developer-features: timestamps unrounded.
const DEVELOPER_FEATURES = "--enable-webgpu-developer-features";

// Does the browser's adapter offer timestamp queries (WebGPU's optional feature)?
const hasTimestampQuery = (page) => page.evaluate(async () => {
  const adapter = await navigator.gpu?.requestAdapter();
  return adapter ? adapter.features.has("timestamp-query") : null;
});

// Presses the box's button once and waits for its result; returns what the box shows.
async function press(page) {
  await page.click(`${BOX} button`);
  await page.waitForFunction((sel) => ["done", "wrong", "error", "no-webgpu"]
    .includes(document.querySelector(sel).dataset.demoState), { timeout: 120000 }, BOX);
  return page.$eval(BOX, (el) => ({ state: el.dataset.demoState,
    adapter: el.dataset.adapter ?? "", text: el.querySelector("output").textContent.trim(),
    rows: [...el.querySelectorAll("tr[data-row]")].map((tr) => tr.textContent.trim()) }));
}

// Puts "press N" on the page's timeline when the button's click event arrives, and "done N"
// when the box's state turns final (a MutationObserver runs right after the change), so that
// the press spans the demo alone, not the automation around it.
const markPress = (page, n) => page.evaluate((sel, n) => {
  const box = document.querySelector(sel);
  box.querySelector("button").addEventListener("click", () => performance.mark(`press ${n}`),
    { once: true, capture: true });
  const watch = new MutationObserver(() => {
    if (["done", "wrong", "error", "no-webgpu"].includes(box.dataset.demoState)) {
      performance.mark(`done ${n}`);
      watch.disconnect();
    }
  });
  watch.observe(box, { attributes: true, attributeFilter: ["data-demo-state"] });
}, BOX, n);

// The round trips of one press on the trace. Each starts with a long GPUTask (at least 1 ms: the
// GPU process uploading and submitting). After it, before the next one, the GPU process's main
// thread runs one long task (the longest of its RunTasks that start there, at least 1 ms, not
// holding a long GPUTask): a delayed task that finds the submitted work done and completes the
// map. Before that task neither main thread does more than short checks while SwiftShader's own
// threads run the pass.
// The page's continuation (the longest microtask that starts from that task on, before the next
// long GPUTask) reads the result back and starts the next round trip. A long GPUTask with no
// such task after it (the device's set-up) is not a round trip.
function roundTrips(trace, from, to) {
  const events = trace.traceEvents ?? trace;
  const { page, gpu } = lanesOf(events, "press 2");
  const on = (thread, name) => events.filter((e) => e.ph === "X" && `${e.pid}:${e.tid}` === thread
    && e.name === name && e.ts >= from && e.ts <= to).sort((a, b) => a.ts - b.ts);
  const longest = (list) => list.reduce((a, e) => (!a || e.dur > a.dur ? e : a), null);
  const micro = on(page, "RunMicrotasks");
  const tasks = on(gpu, "GPUTask").filter((t) => t.dur >= 1000);
  const gpuRuns = on(gpu, "RunTask").filter((r) => r.dur >= 1000
    && !tasks.some((t) => t.ts >= r.ts && t.ts < r.ts + r.dur)); // not a GPUTask's own
  const ms = (us) => Math.round(us) / 1000;
  return tasks.flatMap((t, i) => {
    const [end, until] = [t.ts + t.dur, tasks[i + 1]?.ts ?? to];
    const map = longest(gpuRuns.filter((r) => r.ts >= end && r.ts < until));
    if (!map) return [];
    // On a loaded machine the page may resume before the task ends (a negative distance).
    const next = longest(micro.filter((m) => m.ts >= map.ts && m.ts < until));
    return [{ gpu_task_start_ms: ms(t.ts - from), gpu_task_ms: ms(t.dur),
      quiet_ms: ms(map.ts - end), map_task_ms: ms(map.dur),
      map_task_to_page_ms: next ? ms(next.ts - map.ts - map.dur) : null,
      gpu_task_to_page_ms: next ? ms(next.ts - end) : null,
      page_microtask_ms: next ? ms(next.dur) : null }];
  });
}

// What is derived from the trace alone: the summary CSV, the second press as an SVG timeline and
// as a trimmed trace, and the second press's round trips (returned, for the sidecar).
function analyse(trace, outDir, { browserVersion, adapter, cpus }) {
  const events = trace.traceEvents ?? trace;
  const markTs = (name) => events.find((e) => e.name === name && e.cat?.includes("blink.user_timing"))?.ts;
  const [from, to] = [markTs("press 2"), markTs("done 2")];
  fs.writeFileSync(path.join(outDir, "browser_trace_press2.svg"), timelineSvg(trace, {
    from, to, pageMark: "press 2", marks: [["press 2", from], ["done 2", to]],
    title: "The vector-addition demo's second press, from a DevTools trace",
    subtitle: `${browserVersion}, headless, WebGPU on ${adapter || "?"}; ${cpus} logical CPUs`,
  }));
  fs.writeFileSync(path.join(outDir, "browser_trace_press2.trace.json"),
    JSON.stringify(trimTrace(trace, { from, to, pageMark: "press 2" })) + "\n");
  const rows = summarize(trace)
    .filter((r) => r.total_ms >= 0.5)
    .sort((a, b) => a.press - b.press || b.total_ms - a.total_ms);
  const csv = stringify(rows.map((r) => ({ ...r, total_ms: r.total_ms.toFixed(2) })),
    { header: true, columns: ["press", "thread", "event", "count", "total_ms"] });
  fs.writeFileSync(path.join(outDir, "browser_trace_summary.csv"), csv);
  return roundTrips(trace, from, to);
}

// Opens the page with ?timestamps=1 in a fresh tab and presses once.
async function timestampsRun(browser, base) {
  const page = await browser.newPage();
  await page.goto(base + PAGE + "?timestamps=1", { waitUntil: "load" });
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.demoState === "ready",
    { timeout: 30000 }, BOX);
  const report = await press(page);
  return { timestamp_query: await hasTimestampQuery(page), report };
}

// Is the tree the trace ran from clean? COURSE_COMMIT ends in -dirty when it was not.
function gitState() {
  const given = process.env.COURSE_COMMIT;
  if (given) return { commit: given.replace(/-dirty$/, ""), dirty: given.endsWith("-dirty") };
  try {
    const git = (...a) => execFileSync("git", a, { encoding: "utf8" }).trim();
    return { commit: git("rev-parse", "HEAD"),
      dirty: git("status", "--porcelain", "--untracked-files=no") !== "" };
  } catch {
    return { commit: "unknown", dirty: null };
  }
}

(async () => {
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ARGS });
  const tracePath = path.join(outDir, "browser_trace.trace.json");
  const reports = [];
  let code = 0;
  try {
    fs.mkdirSync(outDir, { recursive: true });
    const page = await browser.newPage();
    await page.goto(base + PAGE, { waitUntil: "load" });
    await page.waitForFunction((sel) => document.querySelector(sel).dataset.demoState === "ready",
      { timeout: 30000 }, BOX);
    const timestampQuery = await hasTimestampQuery(page);
    const loadAtStart = os.loadavg();
    await page.tracing.start({ path: tracePath }); // the Performance panel's default categories
    for (const n of [1, 2]) {
      await markPress(page, n);
      reports.push(await press(page));
      // The button is enabled again once the box has shown its result.
      await page.waitForFunction((sel) => !document.querySelector(`${sel} button`).disabled, {}, BOX);
    }
    await page.tracing.stop();
    const trace = JSON.parse(fs.readFileSync(tracePath, "utf8"));
    const press2RoundTrips = analyse(trace, outDir, { browserVersion: await browser.version(),
      adapter: reports[1]?.adapter, cpus: os.cpus().length });
    const timestamps = { plain: await timestampsRun(browser, base) };
    const developer = await puppeteer.launch({ executablePath: chromium, headless: true,
      args: [...ARGS, DEVELOPER_FEATURES] });
    try {
      timestamps.developer_features = { switch: DEVELOPER_FEATURES, ...await timestampsRun(developer, base) };
    } finally {
      await developer.close();
    }
    const sidecar = {
      figure: "browser_trace",
      description: "A DevTools performance trace of the vector-addition demo, pressed twice, summed per press, thread and event",
      program: "code/profiling/bench/browser_trace.cjs",
      machine: `${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.cpus().length} logical CPUs`,
      adapter: reports[0]?.adapter || null,
      timestamp_query: timestampQuery,
      browser: await browser.version(),
      page: PAGE,
      reports,
      press2_round_trips: press2RoundTrips,
      timestamps,
      ...gitState(),
      command: ["node", ...process.argv.slice(1).map((a) => path.relative(process.cwd(), a) || a)].join(" "),
      date: new Date().toISOString(),
      load_average: loadAtStart,
      files: ["browser_trace_summary.csv", "browser_trace_press2.svg", "browser_trace_press2.trace.json"],
    };
    fs.writeFileSync(path.join(outDir, "browser_trace.json"), JSON.stringify(sidecar, null, 2) + "\n");
    console.log(JSON.stringify({ reports, timestamps }, null, 1));
  } catch (e) {
    console.error(String(e));
    code = 1;
  } finally {
    await browser.close();
    server.close();
  }
  process.exit(code);
})();
