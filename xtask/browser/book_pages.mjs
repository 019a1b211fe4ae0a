// What the two browser tests share: the boxes of the built book, a static server over it, and
// headless Chromium with WebGPU on SwiftShader (a CPU), so the tests need no GPU.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import puppeteer from "puppeteer-core";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm",
  ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png", ".woff2": "font/woff2",
  ".json": "application/json" };

// Every box `<… class="<boxClass>" <attribute>="id">` in the built book's pages (print.html is
// left out: it repeats them all), as { page, id }.
export function boxesInBook(htmlDir, boxClass, attribute, rel = "") {
  const found = [];
  const pattern = new RegExp("class=\"" + boxClass + "\" " + attribute + "=\"([^\"]+)\"", "g");
  for (const entry of fs.readdirSync(path.join(htmlDir, rel), { withFileTypes: true })) {
    const name = path.join(rel, entry.name);
    if (entry.isDirectory()) found.push(...boxesInBook(htmlDir, boxClass, attribute, name));
    else if (name.endsWith(".html") && name !== "print.html") {
      const text = fs.readFileSync(path.join(htmlDir, name), "utf8");
      for (const m of text.matchAll(pattern)) found.push({ page: name, id: m[1] });
    }
  }
  return found;
}

// A plain static server over the built book on a free local port (ES modules and wasm need
// http, not file://). Resolves to the server (close it when done) and its base URL.
export async function serveBook(htmlDir) {
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
  return { server, base: "http://127.0.0.1:" + server.address().port + "/" };
}

// Headless Chromium; with `webgpu`, WebGPU turned on for SwiftShader (off: what a reader whose
// browser has no WebGPU sees).
export function launchChromium(executablePath, webgpu = true) {
  const args = ["--no-sandbox"];
  if (webgpu) args.push("--enable-unsafe-webgpu", "--enable-unsafe-swiftshader");
  return puppeteer.launch({ executablePath, headless: true, args });
}
