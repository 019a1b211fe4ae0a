// The book's GPU puzzles: an editor with the puzzle's WGSL stub, and Run / Reset / Hint buttons
// that compile the reader's code with the puzzle's harness, run it on the reader's GPU through
// WebGPU and judge it against the CPU reference, as code/gpu_puzzles does natively (read limit
// first, then every output element, padding included). head.hbs loads this on every page; it
// does nothing where there is no puzzle. A box is
//
//   <div class="puzzle-box" data-puzzle="ID"><script type="application/json">…</script></div>
//
// with the JSON of code/gpu_puzzles/book_data/ID.json. State in data-puzzle-state (read by the
// browser test): ready, running, passed, failed, compile-error, error or no-webgpu; a failure's
// kind in data-failure: mismatch, reads or compile. Progress is kept in localStorage.

import { NO_WEBGPU } from "./demo-box.js";

const STORE = "gpu-puzzles:";
// CodeMirror 6 with a WGSL mode, bundled by `cargo xtask book` (xtask/editor/); a book built
// without it gets the plain editor below.
const CODEMIRROR = new URL("../puzzle-editor/editor.js", import.meta.url);

// ---- the plain editor: a textarea over a highlighted copy of its text, with line numbers ----

const KEYWORDS = new Set(["fn", "let", "var", "const", "if", "else", "for", "loop", "while", "return",
  "break", "continue", "struct", "true", "false", "switch", "case", "default", "override"]);
const TYPES = /^(f32|f16|u32|i32|bool|vec[234]|mat[234]x[234]|array|atomic|ptr)$/;
const BUILTINS = new Set(["workgroupBarrier", "storageBarrier", "atomicAdd", "atomicSub", "atomicMax",
  "atomicMin", "atomicLoad", "atomicStore", "atomicExchange", "exp", "log", "max", "min", "select",
  "abs", "sqrt", "clamp", "floor", "ceil", "dot", "arrayLength"]);
const TOKEN = /(\/\/[^\n]*)|(@[A-Za-z_]\w*)|(\b\d+(?:\.\d*)?(?:e[+-]?\d+)?[uif]?\b)|([A-Za-z_]\w*)|([^\w@/]+|\/)/g;

function escape(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function highlight(code) {
  return code.replace(TOKEN, (all, comment, attribute, number, word) => {
    let cls = null;
    if (comment) cls = "pz-comment";
    else if (attribute) cls = "pz-attribute";
    else if (number) cls = "pz-number";
    else if (word && KEYWORDS.has(word)) cls = "pz-keyword";
    else if (word && TYPES.test(word)) cls = "pz-type";
    else if (word && BUILTINS.has(word)) cls = "pz-builtin";
    return cls ? "<span class=\"" + cls + "\">" + escape(all) + "</span>" : escape(all);
  });
}

function makeEditor(parent, text, onChange) {
  const root = document.createElement("div");
  root.className = "pz-editor";
  root.innerHTML = "<pre class=\"pz-gutter\" aria-hidden=\"true\"></pre>" +
    "<div class=\"pz-code\"><pre class=\"pz-highlight\" aria-hidden=\"true\"><code></code></pre>" +
    "<textarea spellcheck=\"false\" autocapitalize=\"off\" autocomplete=\"off\" aria-label=\"WGSL code\"></textarea></div>";
  parent.append(root);
  const gutter = root.querySelector(".pz-gutter");
  const code = root.querySelector("code");
  const area = root.querySelector("textarea");
  let marked = new Set();
  const render = () => {
    const lines = area.value.split("\n").length;
    gutter.innerHTML = Array.from({ length: lines }, (_, i) =>
      marked.has(i + 1) ? "<span class=\"pz-error-line\">" + (i + 1) + "</span>" : String(i + 1)).join("\n");
    // The trailing newline keeps the copy as tall as the textarea when the text ends in one.
    code.innerHTML = highlight(area.value) + "\n";
    area.style.height = "0";
    area.style.height = area.scrollHeight + "px";
  };
  area.addEventListener("input", () => { marked = new Set(); render(); onChange(area.value); });
  area.addEventListener("scroll", () => { code.parentElement.scrollLeft = area.scrollLeft; });
  area.addEventListener("keydown", (e) => {
    if (e.key !== "Tab" || e.shiftKey) return;
    e.preventDefault();
    area.setRangeText("    ", area.selectionStart, area.selectionEnd, "end");
    area.dispatchEvent(new Event("input"));
  });
  area.value = text;
  render();
  return {
    get value() { return area.value; },
    set value(v) { area.value = v; marked = new Set(); render(); onChange(v); },
    markLines(lines) { marked = new Set(lines); render(); },
    textarea: area,
  };
}

// ---- running and judging ----

function typed(elem, data) {
  return elem === "u32" ? Uint32Array.from(data) : Float32Array.from(data);
}

function close(expected, got, tolerance) {
  return Math.abs(got - expected) <= tolerance * Math.max(1, Math.abs(expected)); // NaN: false
}

function number(x) {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(7)));
}

// The same verdict as code/gpu_puzzles/src/check.rs.
export function judge(data, output, reads) {
  if (data.read_limit !== null && data.read_limit !== undefined) {
    let thread = 0;
    for (let i = 1; i < reads.length; i++) if (reads[i] > reads[thread]) thread = i;
    if (reads[thread] > data.read_limit) {
      return { failure: "reads", text: "thread " + thread + " read global memory " + reads[thread] +
        " times; this puzzle allows " + data.read_limit + " per thread" };
    }
  }
  const wrong = [];
  data.expected.forEach((e, i) => { if (!close(e, output[i], data.tolerance)) wrong.push(i); });
  if (wrong.length === 0) return { failure: null, text: "passed: every element matches the CPU reference" };
  return { failure: "mismatch", count: wrong.length,
    rows: wrong.slice(0, 5).map((i) => ({ index: i, expected: data.expected[i], got: output[i], past: i >= data.output.len })),
    text: wrong.length + " element(s) differ from the CPU reference" };
}

let devicePromise = null;

async function gpuDevice() {
  devicePromise ??= (async () => {
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) return null;
    const timestamps = adapter.features.has("timestamp-query");
    const device = await adapter.requestDevice({ requiredFeatures: timestamps ? ["timestamp-query"] : [] });
    device.lost.then(() => { devicePromise = null; });
    return { device, timestamps };
  })().catch((e) => { devicePromise = null; throw e; });
  return devicePromise;
}

function layoutFor(device, data) {
  const entries = data.inputs.map((_, i) => ({ binding: i, visibility: GPUShaderStage.COMPUTE, buffer: { type: "read-only-storage" } }));
  const n = data.inputs.length;
  entries.push({ binding: n, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } });
  entries.push({ binding: n + 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } });
  return device.createBindGroupLayout({ entries });
}

function storage(device, array) {
  const buffer = device.createBuffer({ size: Math.max(4, array.byteLength), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(buffer, 0, array);
  return buffer;
}

async function readBack(device, encoder, buffer, size) {
  const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, size);
  return staging;
}

// Compiles and runs the reader's code once; returns { compile: [...] } or { output, reads, time }.
async function runOnGpu(gpu, data, code) {
  const { device, timestamps } = gpu;
  const codeLines = code.split("\n").length;
  const module = device.createShaderModule({ code: code + "\n" + data.harness });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === "error").map((m) => ({
    line: m.lineNum, column: m.linePos, message: m.message, harness: m.lineNum > codeLines,
  }));
  if (errors.length) return { compile: errors };
  const layout = layoutFor(device, data);
  device.pushErrorScope("validation");
  let pipeline;
  try {
    pipeline = await device.createComputePipelineAsync({
      layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
      compute: { module, entryPoint: "main" },
    });
  } catch (e) {
    await device.popErrorScope();
    return { compile: [{ line: 0, column: 0, message: e.message, harness: true }] };
  }
  const scoped = await device.popErrorScope();
  if (scoped) return { compile: [{ line: 0, column: 0, message: scoped.message, harness: true }] };
  const buffers = data.inputs.map((input) => storage(device, typed(input.elem, input.data)));
  const outBytes = data.padded_len * 4;
  const out = storage(device, data.output.elem === "u32" ? new Uint32Array(data.padded_len) : new Float32Array(data.padded_len));
  const reads = storage(device, new Uint32Array(data.threads));
  const bindGroup = device.createBindGroup({ layout, entries: [...buffers, out, reads].map((buffer, binding) => ({ binding, resource: { buffer } })) });
  const encoder = device.createCommandEncoder();
  let querySet = null;
  let queryBuffer = null;
  if (timestamps) {
    querySet = device.createQuerySet({ type: "timestamp", count: 2 });
    queryBuffer = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
  }
  const pass = encoder.beginComputePass(querySet ? { timestampWrites: { querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : {});
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(data.workgroups[0], data.workgroups[1], 1);
  pass.end();
  const outStaging = await readBack(device, encoder, out, outBytes);
  const readsStaging = await readBack(device, encoder, reads, data.threads * 4);
  let timeStaging = null;
  if (querySet) {
    encoder.resolveQuerySet(querySet, 0, 2, queryBuffer, 0);
    timeStaging = await readBack(device, encoder, queryBuffer, 16);
  }
  const started = performance.now();
  device.queue.submit([encoder.finish()]);
  await device.queue.onSubmittedWorkDone();
  const wall = performance.now() - started;
  await Promise.all([outStaging, readsStaging, timeStaging].filter(Boolean).map((b) => b.mapAsync(GPUMapMode.READ)));
  const raw = outStaging.getMappedRange();
  const output = Array.from(data.output.elem === "u32" ? new Uint32Array(raw) : new Float32Array(raw));
  const readCounts = Array.from(new Uint32Array(readsStaging.getMappedRange()));
  let time = "submit to done: " + wall.toFixed(2) + " ms (this browser gives no GPU timestamps)";
  if (timeStaging) {
    const [begin, end] = new BigInt64Array(timeStaging.getMappedRange());
    time = "the kernel on your GPU: " + (Number(end - begin) / 1000).toFixed(1) + " µs (timestamp queries; browsers round them)";
  }
  for (const b of [outStaging, readsStaging, timeStaging, ...buffers, out, reads, queryBuffer].filter(Boolean)) b.destroy();
  querySet?.destroy();
  return { output, reads: readCounts, time };
}

// ---- the box ----

function setState(box, state, failure = "") {
  box.dataset.puzzleState = state;
  box.dataset.failure = failure;
}

function mismatchTable(verdict) {
  const rows = verdict.rows.map((r) => "<tr><td>" + r.index + (r.past ? " (past the end)" : "") + "</td><td>" +
    escape(number(r.expected)) + "</td><td>" + escape(number(r.got)) + "</td></tr>").join("");
  return "<table class=\"pz-mismatches\"><thead><tr><th>index</th><th>expected</th><th>got</th></tr></thead><tbody>" + rows + "</tbody></table>";
}

function solved(id) {
  return localStorage.getItem(STORE + id + ":solved") === "yes";
}

function build(box, codemirror) {
  const data = JSON.parse(box.querySelector("script[type='application/json']").textContent);
  const saved = localStorage.getItem(STORE + data.id + ":code");
  box.insertAdjacentHTML("beforeend",
    "<div class=\"pz-title\"><strong>Puzzle: " + escape(data.title) + "</strong> <span class=\"pz-badge\"></span></div>");
  const remember = (code) => localStorage.setItem(STORE + data.id + ":code", code);
  let editor;
  if (codemirror) {
    const holder = document.createElement("div");
    holder.className = "pz-cm";
    box.append(holder);
    editor = codemirror.createEditor(holder, saved ?? data.stub, remember);
  } else {
    editor = makeEditor(box, saved ?? data.stub, remember);
  }
  box.insertAdjacentHTML("beforeend",
    "<div class=\"pz-buttons\"><button type=\"button\" data-action=\"run\">Run</button> " +
    "<button type=\"button\" data-action=\"reset\">Reset</button> " +
    "<button type=\"button\" data-action=\"hint\">Hint</button>" +
    (data.solution ? " <button type=\"button\" data-action=\"solution\">Solution (teacher's edition)</button>" : "") +
    "</div><p class=\"pz-hint\" hidden></p><output aria-live=\"polite\"></output><div class=\"pz-details\"></div>");
  const badge = box.querySelector(".pz-badge");
  const output = box.querySelector("output");
  const details = box.querySelector(".pz-details");
  const showSolved = () => { badge.textContent = solved(data.id) ? "✓ solved in this browser" : ""; };
  showSolved();
  const say = (state, text, failure = "", html = "") => {
    setState(box, state, failure);
    output.textContent = text;
    details.innerHTML = html;
  };
  box.querySelector("[data-action=reset]").addEventListener("click", () => {
    editor.value = data.stub;
    say("ready", "");
  });
  box.querySelector("[data-action=hint]").addEventListener("click", () => {
    const hint = box.querySelector(".pz-hint");
    hint.textContent = "Hint: " + data.hint;
    hint.hidden = !hint.hidden;
  });
  box.querySelector("[data-action=solution]")?.addEventListener("click", () => { editor.value = data.solution; });
  const run = box.querySelector("[data-action=run]");
  run.addEventListener("click", async () => {
    run.disabled = true;
    try {
      if (!("gpu" in navigator)) return say("no-webgpu", NO_WEBGPU);
      say("running", "Compiling and running on your GPU…");
      const code = editor.value;
      if (code.includes("hidden_")) {
        return say("failed", "Your code names hidden_…, the harness's own buffers: read the inputs through their accessors, e.g. a(i).", "compile");
      }
      const gpu = await gpuDevice();
      if (!gpu) return say("no-webgpu", NO_WEBGPU);
      const result = await runOnGpu(gpu, data, code);
      if (result.compile) {
        const lines = result.compile.filter((e) => !e.harness).map((e) => e.line);
        editor.markLines(lines);
        box.dataset.errorLines = lines.join(",");
        return say("compile-error", "The shader does not compile:\n" + result.compile.map((e) => e.harness
          ? "  in the harness (is fn puzzle(global, local, group) still there, with that signature?): " + e.message
          : "  line " + e.line + ":" + e.column + ": " + e.message).join("\n"), "compile");
      }
      box.dataset.errorLines = "";
      const verdict = judge(data, result.output, result.reads);
      if (!verdict.failure) {
        localStorage.setItem(STORE + data.id + ":solved", "yes");
        showSolved();
        return say("passed", "✓ Passed: every element matches the CPU reference.\nTime, " + result.time + ".");
      }
      if (verdict.failure === "reads") {
        return say("failed", "✗ Too many global reads: " + verdict.text + ". Load once into var<workgroup> memory and share.", "reads");
      }
      say("failed", "✗ " + verdict.text + "; the first:", "mismatch", mismatchTable(verdict));
    } catch (e) {
      say("error", "The puzzle stopped with an error: " + (e?.message ?? e));
    } finally {
      run.disabled = false;
    }
  });
  box.puzzleEditor = editor;
  setState(box, "ready");
}

// The puzzles' overview page lists which puzzles this browser has solved.
function progress(list) {
  for (const li of list.querySelectorAll("[data-puzzle-id]")) {
    li.dataset.solved = String(solved(li.dataset.puzzleId));
    if (solved(li.dataset.puzzleId)) li.insertAdjacentText("beforeend", " ✓");
  }
}

const boxes = document.querySelectorAll(".puzzle-box[data-puzzle]");
const codemirror = boxes.length ? await import(CODEMIRROR.href).catch(() => null) : null;
for (const box of boxes) {
  try {
    build(box, codemirror);
  } catch (e) {
    box.dataset.puzzleState = "error";
    box.append("This puzzle could not be set up: " + (e?.message ?? e));
  }
}
for (const list of document.querySelectorAll(".puzzle-progress")) progress(list);
