// Draws one stretch of a Chrome trace (Trace Event format) as an SVG timeline: the page's main
// thread and the GPU process's main thread, one row per kind of event, in the colours a reader
// meets in DevTools' Performance panel (tasks grey, scripting yellow, GPU green), with the page's
// User Timing marks as vertical lines. Used by browser_trace.cjs; no dependencies.
"use strict";

// Rows of the picture: a thread (by name, or the page's own renderer thread) and the events on it.
const ROWS = [
  { lane: "page", label: "Main: tasks", names: ["RunTask"], colour: "#b0b0b0" },
  { lane: "page", label: "Main: microtasks", names: ["RunMicrotasks"], colour: "#c58af9" },
  { lane: "page", label: "Main: function calls", names: ["FunctionCall"], colour: "#f2c94c" },
  { lane: "gpu", label: "GPU: tasks", names: ["RunTask"], colour: "#b0b0b0" },
  { lane: "gpu", label: "GPU: GPUTask", names: ["GPUTask"], colour: "#4caf50" },
];

const escape = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;");

/// The page's renderer main thread is the one that recorded `pageMark`; the GPU process's is
/// the thread named CrGpuMain.
function lanes(events, pageMark) {
  const names = new Map();
  for (const e of events) {
    if (e.ph === "M" && e.name === "thread_name") names.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const mark = events.find((e) => e.name === pageMark && e.cat?.includes("blink.user_timing"));
  const page = mark ? `${mark.pid}:${mark.tid}` : null;
  const gpu = [...names].find(([, n]) => n === "CrGpuMain")?.[0] ?? null;
  return { page, gpu };
}

/// SVG text of the events between `from` and `to` (trace microseconds).
function timelineSvg(trace, { from, to, title, subtitle, pageMark, marks }) {
  const events = trace.traceEvents ?? trace;
  const ids = lanes(events, pageMark);
  const [left, right, top, rowH, gap] = [150, 20, 56, 22, 6];
  const width = 960;
  const plotW = width - left - right;
  const x = (ts) => left + ((ts - from) / (to - from)) * plotW;
  const height = top + ROWS.length * (rowH + gap) + 50;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${width}" height="${height}" fill="white"/>`);
  out.push(`<text x="${left}" y="20" font-size="15" font-weight="bold">${escape(title)}</text>`);
  out.push(`<text x="${left}" y="38" fill="#555">${escape(subtitle)}</text>`);
  ROWS.forEach((row, i) => {
    const y = top + i * (rowH + gap);
    out.push(`<text x="${left - 8}" y="${y + rowH / 2 + 4}" text-anchor="end">${escape(row.label)}</text>`);
    out.push(`<rect x="${left}" y="${y}" width="${plotW}" height="${rowH}" fill="#f6f6f6"/>`);
    const thread = ids[row.lane];
    for (const e of events) {
      if (e.ph !== "X" || !e.dur || `${e.pid}:${e.tid}` !== thread || !row.names.includes(e.name)) continue;
      const [a, b] = [Math.max(e.ts, from), Math.min(e.ts + e.dur, to)];
      if (b <= a) continue;
      const w = Math.max(x(b) - x(a), 0.6);
      out.push(`<rect x="${x(a).toFixed(2)}" y="${y}" width="${w.toFixed(2)}" height="${rowH}" fill="${row.colour}"/>`);
    }
  });
  const axisY = top + ROWS.length * (rowH + gap) + 4;
  const spanMs = (to - from) / 1000;
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500].find((s) => spanMs / s <= 12) ?? 1000;
  out.push(`<line x1="${left}" y1="${axisY}" x2="${left + plotW}" y2="${axisY}" stroke="#333"/>`);
  for (let t = 0; t <= spanMs + 1e-9; t += step) {
    const tx = x(from + t * 1000);
    out.push(`<line x1="${tx}" y1="${axisY}" x2="${tx}" y2="${axisY + 5}" stroke="#333"/>`);
    out.push(`<text x="${tx}" y="${axisY + 18}" text-anchor="middle">${t} ms</text>`);
  }
  for (const [name, ts] of marks) {
    const mx = x(ts);
    out.push(`<line x1="${mx}" y1="${top - 6}" x2="${mx}" y2="${axisY}" stroke="#d32f2f" stroke-dasharray="4 3"/>`);
    const end = mx > left + plotW / 2; // a label near the right edge ends at its line
    out.push(`<text x="${end ? mx - 3 : mx + 3}" y="${top - 8}" fill="#d32f2f" text-anchor="${end ? "end" : "start"}">${escape(name)}</text>`);
  }
  out.push(`<text x="${left}" y="${axisY + 38}" fill="#555">time since the click (User Timing marks in red); each bar is one trace event, at least 0.6 px wide</text>`);
  out.push("</svg>");
  return out.join("\n") + "\n";
}

/// The events of the page's and the GPU process's main threads between `from` and `to`, with
/// the thread names and the marks: a trace small enough to commit, which Perfetto opens.
function trimTrace(trace, { from, to, pageMark }) {
  const events = trace.traceEvents ?? trace;
  const ids = lanes(events, pageMark);
  const keep = new Set([ids.page, ids.gpu]);
  const kept = events.filter((e) => keep.has(`${e.pid}:${e.tid}`) && (e.ph === "M"
    || (e.ts >= from && e.ts <= to && (e.ph !== "X" || (e.dur ?? 0) >= 20))));
  return { traceEvents: kept };
}

module.exports = { lanes, timelineSvg, trimTrace };
