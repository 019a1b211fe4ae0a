// The book's "Run it on your GPU" boxes: one script for every box (head.hbs loads it on every
// page; it does nothing where there is no box). A box is
//
//   <div class="demo-box" data-demo="NAME">  with a <button>, optional <select name="…">
//   choices, an optional <table> whose rows carry data-row="KEY" and cells .yours and .check,
//   and an <output> for messages.
//
// Nothing is downloaded and nothing runs until the reader presses the button. The demos come
// from ../demos/ (code/book_demos compiled to WebAssembly); every failure ends as a message in
// the box, never as a broken page. The box's state is in data-demo-state, which the browser
// test reads: ready, running, done, wrong, error or no-webgpu.
//
// A page opened with ?timestamps=1 passes timestamps: "1" to every demo; the vector addition
// then also times its compute pass with WebGPU timestamp queries, where the device has them
// (every demo's device asks for timestamp-query where the adapter offers it), and says so in its
// notes where it does not.

const DEMOS = new URL("../demos/book_demos.js", import.meta.url);

export const NO_WEBGPU =
  "This browser offers no WebGPU adapter, so the demo cannot run here (the rest of the page is " +
  "unaffected). WebGPU is on by default in Chrome and Edge 113+ on Windows, macOS and ChromeOS, " +
  "Chrome 121+ on Android 12+, Firefox 141+ on Windows (145+ on Apple-silicon Macs with macOS 26) " +
  "and Safari 26+. On Linux, Chrome enables it for recent Intel and NVIDIA GPUs; elsewhere try " +
  "chrome://flags/#enable-unsafe-webgpu. A browser may also turn WebGPU off for a GPU or driver " +
  "it does not trust: updating the driver can help.";

let loading = null;

// The demo module, loaded once per page, on the first press of any box's button.
function load() {
  loading ??= import(DEMOS.href)
    .then(async (demos) => {
      await demos.default();
      return demos;
    })
    .catch((e) => {
      loading = null;
      throw e;
    });
  return loading;
}

function show(box, state, text) {
  box.dataset.demoState = state;
  box.querySelector("output").textContent = text;
}

// What the browser tells about its adapter (it may hide details, for privacy).
async function browserAdapterName() {
  try {
    const info = (await navigator.gpu.requestAdapter({ powerPreference: "high-performance" }))?.info;
    return info ? [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(" ") : "";
  } catch {
    return "";
  }
}

function fillRow(box, row) {
  let tr = [...box.querySelectorAll("tr[data-row]")].find((t) => t.dataset.row === row.key);
  if (!tr) {
    // A row the page's table does not list: show it anyway, marked for the browser test.
    tr = document.createElement("tr");
    tr.dataset.row = row.key;
    tr.dataset.added = "true";
    tr.innerHTML = "<td></td><td class=\"yours\"></td><td class=\"check\"></td>";
    tr.firstElementChild.textContent = row.key;
    (box.querySelector("tbody") ?? box.querySelector("table") ?? box).append(tr);
  }
  tr.dataset.ok = String(row.ok);
  tr.querySelector(".yours").textContent = row.yours;
  tr.querySelector(".check").textContent = (row.ran ? (row.ok ? "✓ " : "✗ ") : "") + row.check;
}

const TIMESTAMPS = new URLSearchParams(location.search).get("timestamps") === "1";

function choices(box) {
  const params = TIMESTAMPS ? { timestamps: "1" } : {};
  for (const select of box.querySelectorAll("select[name]")) params[select.name] = select.value;
  return params;
}

async function run(box, button) {
  button.disabled = true;
  try {
    if (!("gpu" in navigator)) {
      show(box, "no-webgpu", NO_WEBGPU);
      return;
    }
    show(box, "running", "Loading the demo and running it…");
    let demos;
    try {
      demos = await load();
    } catch (e) {
      const where = location.protocol === "file:"
        ? " A page opened from a file cannot load them: serve the book (cargo xtask book --serve) and open it from there."
        : " This copy of the book may have been built without them.";
      show(box, "error", "The demo's files could not be loaded." + where + " (" + e + ")");
      return;
    }
    if (!(await demos.webgpu_available())) {
      show(box, "no-webgpu", NO_WEBGPU);
      return;
    }
    for (const tr of box.querySelectorAll("tr[data-row]")) {
      delete tr.dataset.ok;
      for (const cell of tr.querySelectorAll(".yours, .check")) cell.textContent = "";
    }
    const answer = JSON.parse(await demos.run_demo(box.dataset.demo, JSON.stringify(choices(box))));
    for (const row of answer.rows) fillRow(box, row);
    const adapter = (await browserAdapterName()) || answer.adapter || "(the browser does not name it)";
    box.dataset.adapter = adapter;
    const failed = answer.rows.filter((r) => !r.ok).length;
    show(box, answer.passed ? "done" : "wrong",
      "Adapter: " + adapter + " (WebGPU)\n" +
      "Check against the CPU: " +
      (answer.passed ? "every result correct" : failed + " of " + answer.rows.length + " results wrong") + "\n" +
      answer.notes.join("\n"));
  } catch (e) {
    show(box, "error", "The demo stopped with an error: " + (e?.message ?? e));
  } finally {
    button.disabled = false;
  }
}

for (const box of document.querySelectorAll(".demo-box[data-demo]")) {
  const button = box.querySelector("button");
  button.addEventListener("click", () => run(box, button));
  box.dataset.demoState = "ready";
}
