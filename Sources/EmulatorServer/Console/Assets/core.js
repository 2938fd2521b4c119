// The console's shared parts: constants, element building, the server's API and event
// streams, the route and view state every page reads, and dialogs. Imports nothing.

export const PAGE_SIZE = 50;
export const REQUEST_ROWS = 500;
// New requests reach the table in batches at most this often: laying out a 500-row table at
// every frame under 1,000 requests/s took the CPU a 2-core machine's server needed.
export const FLUSH_MS = 250;
export const main = document.getElementById("main");
export const dialog = document.getElementById("dialog");
const toastBox = document.getElementById("toast");
export const projectSelect = document.getElementById("project-select");
export const databaseSelect = document.getElementById("database-select");
export const enc = encodeURIComponent;
// Timings read by the browser tests and benchmarks.
export const timings = (window.hearthConsole = { firstPage: null, pages: 0, pending: new Set(), suspendAfterMs: 10000 });

// ---- Elements ---------------------------------------------------------------------------

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else if (key in el && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  append(el, children);
  return el;
}
function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}
export const fill = (el, ...children) => { el.replaceChildren(); return append(el, children); };
export const button = (label, onclick, attrs = {}) =>
  h("button", Object.assign({ type: "button", onclick }, attrs), label);

export function toast(message, kind = "ok") {
  toastBox.replaceChildren(h("div", { class: "toast-item toast-" + kind }, message));
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => toastBox.replaceChildren(), 4000);
}
export function errorBox(error) {
  return h("div", { class: "error-box", role: "alert" }, error && error.message ? error.message : String(error));
}
export function formatTime(iso) {
  if (!iso) return "—";
  const date = new Date(iso);
  if (isNaN(date)) return iso;
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}
export function clockTime(iso) {
  const date = new Date(iso);
  if (isNaN(date)) return iso || "";
  const pad = (n, w = 2) => String(n).padStart(w, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}
export function ago(iso) {
  const seconds = Math.round((Date.now() - new Date(iso)) / 1000);
  if (!isFinite(seconds)) return "";
  if (seconds < 5) return "just now";
  if (seconds < 90) return seconds + " s ago";
  if (seconds < 5400) return Math.round(seconds / 60) + " min ago";
  return Math.round(seconds / 3600) + " h ago";
}

// ---- Server -----------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}
export async function api(method, url, body) {
  const init = { method, headers: { Authorization: "Bearer owner" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  const pending = `${method} ${url}`;
  timings.pending.add(pending);
  try { response = await fetch(url, init); } catch (error) {
    throw new ApiError(0, "Cannot reach Hearth: is it still running?");
  } finally { timings.pending.delete(pending); }
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (_) { /* not JSON */ }
  if (!response.ok) {
    const message = (json && json.error && json.error.message) || text || response.statusText;
    throw new ApiError(response.status, `${message} (HTTP ${response.status})`);
  }
  return json;
}
export const dbName = (p, d) => `projects/${p}/databases/${d}`;
export const docsUrl = (p, d, segments = []) =>
  `/v1/projects/${enc(p)}/databases/${enc(d)}/documents` + segments.map((s) => "/" + enc(s)).join("");
export const emulatorUrl = (p, d, segments = []) =>
  `/emulator/v1/projects/${enc(p)}/databases/${enc(d)}/documents` + segments.map((s) => "/" + enc(s)).join("");

// An EventSource that the view closes; `onStatus` hears "live" / "reconnecting".
export function stream(url, handlers, onStatus) {
  const source = new EventSource(url);
  for (const [name, handler] of Object.entries(handlers)) {
    source.addEventListener(name, (event) => {
      let data;
      try { data = JSON.parse(event.data); } catch (_) { return; }
      handler(data, event);
    });
  }
  if (onStatus) {
    source.addEventListener("open", () => onStatus("live"));
    source.addEventListener("error", () => onStatus(source.readyState === 2 ? "closed" : "reconnecting"));
  }
  view.cleanups.push(() => source.close());
  return source;
}
export function liveBadge() {
  const badge = h("span", { class: "live-badge", "data-status": "connecting" }, "Connecting…");
  badge.set = (status) => {
    badge.dataset.status = status;
    badge.textContent = status === "live" ? "Live" : status === "closed" ? "Not live" : "Reconnecting…";
  };
  return badge;
}

// ---- Routing ----------------------------------------------------------------------------

export const links = {
  overview: () => "/ui/",
  data: (p, d, segments = []) =>
    `/ui/firestore/${enc(p)}/${enc(d)}/data` + segments.map((s) => "/" + enc(s)).join(""),
  requests: (p, d, id) => `/ui/firestore/${enc(p)}/${enc(d)}/requests` + (id ? `?id=${enc(id)}` : ""),
  rules: (p) => `/ui/rules/${enc(p)}`,
};
function decode(segment) {
  try { return decodeURIComponent(segment); } catch (_) { return segment; }
}
export function parseRoute() {
  const segments = location.pathname.replace(/^\/ui\/?/, "").split("/").filter((s) => s !== "").map(decode);
  const params = new URLSearchParams(location.search);
  if (segments.length === 0) return { page: "overview" };
  if (segments[0] === "firestore" && segments.length >= 3) {
    const route = { project: segments[1], database: segments[2] };
    if (segments.length === 3 || segments[3] === "data") return Object.assign(route, { page: "data", path: segments.slice(4) });
    if (segments[3] === "requests") return Object.assign(route, { page: "requests", id: params.get("id") });
  }
  if (segments[0] === "rules") return { page: "rules", project: segments[1] || null };
  return { page: "notFound" };
}

export const state = { overview: null, project: null, database: "(default)" };
export const view = { cleanups: [], token: 0, page: null };
export const isCurrent = (token) => token === view.token;

// ---- Dialogs ----------------------------------------------------------------------------

// A modal form: `body` elements, a submit button; `onSubmit` may throw (shown in the dialog).
export function openDialog({ title, body, submitLabel, danger = false, onSubmit, wide = false }) {
  return new Promise((resolve) => {
    const error = h("div", { class: "dialog-error", role: "alert" });
    const submit = h("button", { type: "submit", class: danger ? "danger" : "primary" }, submitLabel);
    const form = h("form", { class: "dialog-form", novalidate: true },
      h("h2", { id: "dialog-title" }, title),
      h("div", { class: "dialog-body" }, body),
      error,
      h("div", { class: "dialog-actions" },
        button("Cancel", () => dialog.close("cancel"), { class: "secondary" }), submit));
    let result = null;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      error.replaceChildren();
      submit.disabled = true;
      try {
        result = await onSubmit();
        dialog.close("done");
      } catch (e) {
        error.replaceChildren(e && e.message ? e.message : String(e));
        submit.disabled = false;
      }
    });
    const opener = document.activeElement;
    dialog.className = wide ? "wide" : "";
    dialog.replaceChildren(form);
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "done" ? result || true : null);
      if (opener && opener.isConnected) opener.focus();
      else { const heading = main.querySelector("h1"); if (heading) heading.focus(); }
    }, { once: true });
    dialog.returnValue = "";
    dialog.showModal();
    // A confirmation starts on Cancel: Enter alone never deletes.
    const first = form.querySelector("[autofocus]") || form.querySelector("input, select, textarea") ||
      (danger ? form.querySelector(".dialog-actions button.secondary") : submit);
    first.focus();
  });
}
export function confirmDialog(title, message, submitLabel, action) {
  return openDialog({ title, body: [h("p", {}, message)], submitLabel, danger: true, onSubmit: action });
}
let fieldIds = 0;
export function labelled(labelText, control, hint) {
  const id = control.id || (control.id = "f" + ++fieldIds);
  return h("div", { class: "form-row" }, h("label", { for: id }, labelText), control,
    hint ? h("p", { class: "hint", id: id + "-hint" }, hint) : null);
}
