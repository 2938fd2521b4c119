"use strict";
// Hearth Console: one page, routed on location.pathname (see Docs/Console.md). No framework:
// `h` builds elements, each page renders into <main>, and everything it opens (EventSources,
// timers) is closed by the view's cleanup when the route changes.
(() => {
  const PAGE_SIZE = 50;
  const REQUEST_ROWS = 500;
  // New requests reach the table in batches at most this often: laying out a 500-row table at
  // every frame under 1,000 requests/s took the CPU a 2-core machine's server needed.
  const FLUSH_MS = 250;
  const main = document.getElementById("main");
  const dialog = document.getElementById("dialog");
  const toastBox = document.getElementById("toast");
  const projectSelect = document.getElementById("project-select");
  const databaseSelect = document.getElementById("database-select");
  const enc = encodeURIComponent;
  // Timings read by the browser tests and benchmarks.
  const timings = (window.hearthConsole = { firstPage: null, pages: 0, pending: new Set(), suspendAfterMs: 10000 });

  // ---- Elements ---------------------------------------------------------------------------

  function h(tag, attrs, ...children) {
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
  const fill = (el, ...children) => { el.replaceChildren(); return append(el, children); };
  const button = (label, onclick, attrs = {}) =>
    h("button", Object.assign({ type: "button", onclick }, attrs), label);

  function toast(message, kind = "ok") {
    toastBox.replaceChildren(h("div", { class: "toast-item toast-" + kind }, message));
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => toastBox.replaceChildren(), 4000);
  }
  function errorBox(error) {
    return h("div", { class: "error-box", role: "alert" }, error && error.message ? error.message : String(error));
  }
  function formatTime(iso) {
    if (!iso) return "—";
    const date = new Date(iso);
    if (isNaN(date)) return iso;
    return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
  }
  function clockTime(iso) {
    const date = new Date(iso);
    if (isNaN(date)) return iso || "";
    const pad = (n, w = 2) => String(n).padStart(w, "0");
    return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
  }
  function ago(iso) {
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
  async function api(method, url, body) {
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
  const dbName = (p, d) => `projects/${p}/databases/${d}`;
  const docsUrl = (p, d, segments = []) =>
    `/v1/projects/${enc(p)}/databases/${enc(d)}/documents` + segments.map((s) => "/" + enc(s)).join("");
  const emulatorUrl = (p, d, segments = []) =>
    `/emulator/v1/projects/${enc(p)}/databases/${enc(d)}/documents` + segments.map((s) => "/" + enc(s)).join("");

  // An EventSource that the view closes; `onStatus` hears "live" / "reconnecting".
  function stream(url, handlers, onStatus) {
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
  function liveBadge() {
    const badge = h("span", { class: "live-badge", "data-status": "connecting" }, "Connecting…");
    badge.set = (status) => {
      badge.dataset.status = status;
      badge.textContent = status === "live" ? "Live" : status === "closed" ? "Not live" : "Reconnecting…";
    };
    return badge;
  }

  // ---- Routing ----------------------------------------------------------------------------

  const links = {
    overview: () => "/ui/",
    data: (p, d, segments = []) =>
      `/ui/firestore/${enc(p)}/${enc(d)}/data` + segments.map((s) => "/" + enc(s)).join(""),
    requests: (p, d, id) => `/ui/firestore/${enc(p)}/${enc(d)}/requests` + (id ? `?id=${enc(id)}` : ""),
    rules: (p) => `/ui/rules/${enc(p)}`,
  };
  function decode(segment) {
    try { return decodeURIComponent(segment); } catch (_) { return segment; }
  }
  function parseRoute() {
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

  const state = { overview: null, project: null, database: "(default)" };
  const view = { cleanups: [], token: 0, page: null };

  function navigate(url, { replace = false, keepFocus = false } = {}) {
    if (url === location.pathname + location.search && !replace) return;
    history[replace ? "replaceState" : "pushState"](null, "", url);
    render({ keepFocus });
  }
  document.addEventListener("click", (event) => {
    const a = event.target.closest("a[href]");
    if (!a || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith("/ui") || a.target || a.hasAttribute("download")) return;
    if (url.pathname.startsWith("/ui/api/") || url.pathname.startsWith("/ui/assets/")) return;
    event.preventDefault();
    navigate(url.pathname + url.search, { keepFocus: a.hasAttribute("data-keep-focus") });
  });
  window.addEventListener("popstate", () => render({ keepFocus: true }));

  async function loadOverview() {
    try {
      state.overview = await api("GET", "/ui/api/overview");
    } catch (error) {
      state.overview = state.overview || { projects: [] };
      throw error;
    }
    return state.overview;
  }

  function updateChrome(route) {
    const p = state.project, d = state.database;
    const nav = {
      "nav-overview": [links.overview(), route.page === "overview"],
      "nav-data": [p ? links.data(p, d) : "/ui/", route.page === "data"],
      "nav-requests": [p ? links.requests(p, d) : "/ui/", route.page === "requests"],
      "nav-rules": [p ? links.rules(p) : "/ui/", route.page === "rules"],
    };
    for (const [id, [href, current]] of Object.entries(nav)) {
      const a = document.getElementById(id);
      a.href = href;
      if (current) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
    }
    const projects = (state.overview && state.overview.projects) || [];
    const projectIds = projects.map((x) => x.id);
    if (p && !projectIds.includes(p)) projectIds.push(p);
    projectSelect.replaceChildren(...projectIds.map((id) => h("option", { value: id, selected: id === p }, id)));
    const project = projects.find((x) => x.id === p);
    const databaseIds = project ? project.databases.map((x) => x.id) : [];
    if (!databaseIds.includes(d)) databaseIds.push(d);
    databaseSelect.replaceChildren(...databaseIds.map((id) => h("option", { value: id, selected: id === d }, id)));
    databaseSelect.disabled = route.page === "rules" || route.page === "overview";
  }
  function switchContext() {
    const route = parseRoute();
    const p = projectSelect.value;
    const d = databaseSelect.value || "(default)";
    if (route.page === "requests") navigate(links.requests(p, d));
    else if (route.page === "rules") navigate(links.rules(p));
    else navigate(links.data(p, d));
  }
  projectSelect.addEventListener("change", () => { databaseSelect.value = "(default)"; switchContext(); });
  databaseSelect.addEventListener("change", switchContext);

  async function render({ keepFocus = false, initial = false } = {}) {
    const route = parseRoute();
    // On the requests page a change of ?id= only opens (or closes) a request: the log stays.
    if (view.page === "requests" && route.page === "requests" && view.onRequestsRoute &&
        route.project === state.project && route.database === state.database) {
      const detail = document.getElementById("request-detail");
      if (route.id) { view.onRequestsRoute(route); return; }
      if (detail) {
        detail.hidden = true;
        detail.replaceChildren();
        for (const tr of document.querySelectorAll("#requests-table tr.selected")) tr.classList.remove("selected");
        const heading = main.querySelector("h1");
        if (heading && !keepFocus) heading.focus();
        return;
      }
    }
    view.onRequestsRoute = null;
    view.reloadDocument = null;
    const previousPage = view.page;
    const focusKey = keepFocus && document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.focusKey : null;
    for (const cleanup of view.cleanups.splice(0)) { try { cleanup(); } catch (_) { /* closed */ } }
    const token = ++view.token;
    view.page = route.page;
    if (route.project) state.project = route.project;
    if (route.database) state.database = route.database;
    // The overview (project list, document counts) is awaited only where it is needed: counting
    // a large database's documents must not hold up the data, requests or rules pages.
    if (!state.overview && (route.page === "overview" || !state.project)) {
      try { await loadOverview(); } catch (_) { /* shown by the page */ }
    } else if (!state.overview) {
      loadOverview().then(() => { if (token === view.token) updateChrome(route); }, () => {});
    }
    if (token !== view.token) return;
    if (!state.project && state.overview) {
      const first = state.overview.projects[0];
      state.project = first ? first.id : null;
    }
    updateChrome(route);
    const pages = { overview: overviewPage, data: dataPage, requests: requestsPage, rules: rulesPage, notFound: notFoundPage };
    if (route.page !== "data") explorer.reset();
    try {
      await pages[route.page](route, token);
    } catch (error) {
      if (token !== view.token) return;
      main.replaceChildren(h("h1", { tabindex: "-1" }, "Something went wrong"), errorBox(error));
    }
    if (token !== view.token) return;
    const focusTarget = focusKey && main.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    if (focusTarget) focusTarget.focus();
    else if (!initial && (previousPage !== route.page || !keepFocus || !main.contains(document.activeElement))) {
      const heading = main.querySelector("h1");
      if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus({ preventScroll: false }); }
    }
  }
  const isCurrent = (token) => token === view.token;

  // ---- Dialogs ----------------------------------------------------------------------------

  // A modal form: `body` elements, a submit button; `onSubmit` may throw (shown in the dialog).
  function openDialog({ title, body, submitLabel, danger = false, onSubmit, wide = false }) {
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
  function confirmDialog(title, message, submitLabel, action) {
    return openDialog({ title, body: [h("p", {}, message)], submitLabel, danger: true, onSubmit: action });
  }
  let fieldIds = 0;
  function labelled(labelText, control, hint) {
    const id = control.id || (control.id = "f" + ++fieldIds);
    return h("div", { class: "form-row" }, h("label", { for: id }, labelText), control,
      hint ? h("p", { class: "hint", id: id + "-hint" }, hint) : null);
  }

  // ---- Values -----------------------------------------------------------------------------

  const TYPES = [
    ["string", "string"], ["integer", "integer"], ["double", "double"], ["boolean", "boolean"],
    ["timestamp", "timestamp"], ["null", "null"], ["map", "map"], ["array", "array"],
    ["geopoint", "geo point"], ["reference", "reference"], ["bytes", "bytes"], ["vector", "vector"],
  ];
  const typeLabel = (type) => (TYPES.find((t) => t[0] === type) || [type, type])[1];
  function isVector(value) {
    const fields = value.mapValue && value.mapValue.fields;
    return !!(fields && fields.__type__ && fields.__type__.stringValue === "__vector__");
  }
  function typeOf(value) {
    if (!value || typeof value !== "object") return "null";
    if ("nullValue" in value) return "null";
    if ("booleanValue" in value) return "boolean";
    if ("integerValue" in value) return "integer";
    if ("doubleValue" in value) return "double";
    if ("timestampValue" in value) return "timestamp";
    if ("stringValue" in value) return "string";
    if ("bytesValue" in value) return "bytes";
    if ("referenceValue" in value) return "reference";
    if ("geoPointValue" in value) return "geopoint";
    if ("arrayValue" in value) return "array";
    if ("mapValue" in value) return isVector(value) ? "vector" : "map";
    return "null";
  }
  const arrayItems = (value) => (value.arrayValue && value.arrayValue.values) || [];
  const mapFields = (value) => (value.mapValue && value.mapValue.fields) || {};
  const vectorItems = (value) => arrayItems(mapFields(value).value || {}).map((v) => Number(v.doubleValue ?? v.integerValue ?? 0));
  const sortedKeys = (fields) => Object.keys(fields).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  function formatDouble(v) {
    if (typeof v === "string") return v; // NaN, Infinity, -Infinity
    return Number.isInteger(v) ? v.toFixed(1) : String(v);
  }
  // A reference's deep link: projects/p/databases/d/documents/a/b -> /ui/firestore/p/d/data/a/b.
  function referenceLink(name) {
    const match = /^projects\/([^/]+)\/databases\/([^/]+)\/documents\/(.+)$/.exec(name || "");
    return match ? links.data(match[1], match[2], match[3].split("/")) : null;
  }
  function base64Length(text) {
    const clean = (text || "").replace(/=+$/, "");
    return Math.floor((clean.length * 3) / 4);
  }
  // The one-line text of a value (previews and the value column).
  function summary(value) {
    switch (typeOf(value)) {
      case "null": return "null";
      case "boolean": return String(value.booleanValue);
      case "integer": return String(value.integerValue);
      case "double": return formatDouble(value.doubleValue);
      case "timestamp": return value.timestampValue;
      case "string": return JSON.stringify(value.stringValue);
      case "bytes": return `${value.bytesValue} (${base64Length(value.bytesValue)} bytes)`;
      case "reference": return value.referenceValue.replace(/^projects\/[^/]+\/databases\/[^/]+\/documents\//, "");
      case "geopoint": {
        const g = value.geoPointValue || {};
        return `${Number(g.latitude || 0)}, ${Number(g.longitude || 0)}`;
      }
      case "array": { const n = arrayItems(value).length; return `[${n} element${n === 1 ? "" : "s"}]`; }
      case "map": { const n = Object.keys(mapFields(value)).length; return `{${n} field${n === 1 ? "" : "s"}}`; }
      case "vector": return `[${vectorItems(value).join(", ")}]`;
    }
    return "";
  }
  function valueCell(value) {
    const type = typeOf(value);
    if (type === "reference") {
      const href = referenceLink(value.referenceValue);
      return href ? h("a", { href, class: "value-reference" }, summary(value)) : h("span", {}, summary(value));
    }
    if (type === "timestamp") {
      return h("time", { datetime: value.timestampValue, title: formatTime(value.timestampValue) }, value.timestampValue);
    }
    return h("span", { class: "value-" + type }, summary(value));
  }

  // Plain JSON (for map and array editors) <-> Firestore values.
  function fromPlain(x) {
    if (x === null) return { nullValue: null };
    if (typeof x === "boolean") return { booleanValue: x };
    if (typeof x === "number") return Number.isInteger(x) ? { integerValue: String(x) } : { doubleValue: x };
    if (typeof x === "string") return { stringValue: x };
    if (Array.isArray(x)) return { arrayValue: { values: x.map(fromPlain) } };
    const fields = {};
    for (const [k, v] of Object.entries(x)) fields[k] = fromPlain(v);
    return { mapValue: { fields } };
  }
  function toPlain(value) {
    switch (typeOf(value)) {
      case "null": return null;
      case "boolean": return value.booleanValue;
      case "integer": return Number(value.integerValue);
      case "double": return typeof value.doubleValue === "string" ? value.doubleValue : value.doubleValue;
      case "array": return arrayItems(value).map(toPlain);
      case "map": { const o = {}; for (const [k, v] of Object.entries(mapFields(value))) o[k] = toPlain(v); return o; }
      case "vector": return vectorItems(value);
      case "geopoint": return { latitude: value.geoPointValue.latitude || 0, longitude: value.geoPointValue.longitude || 0 };
      default: return value[Object.keys(value)[0]];
    }
  }

  // The typed editor: a type select and the inputs for that type; read() gives a Firestore value.
  function valueEditor(initial, context) {
    const initialType = initial ? typeOf(initial) : "string";
    const typeSelect = h("select", { "data-role": "type" }, TYPES.map(([value, label]) =>
      h("option", { value, selected: value === initialType }, label)));
    const inputs = h("div", { class: "value-inputs" });
    let read = () => ({ nullValue: null });
    const sameType = (type) => initial && typeOf(initial) === type;
    function build() {
      const type = typeSelect.value;
      inputs.replaceChildren();
      if (type === "null") {
        inputs.append(h("p", { class: "hint" }, "A null value has nothing to enter."));
        read = () => ({ nullValue: null });
      } else if (type === "boolean") {
        const select = h("select", { "data-role": "value" },
          h("option", { value: "true", selected: sameType("boolean") && initial.booleanValue }, "true"),
          h("option", { value: "false", selected: sameType("boolean") && !initial.booleanValue }, "false"));
        inputs.append(labelled("Value", select));
        read = () => ({ booleanValue: select.value === "true" });
      } else if (type === "string") {
        const area = h("textarea", { "data-role": "value", rows: 3, spellcheck: "false" });
        area.value = sameType("string") ? initial.stringValue : "";
        area.addEventListener("keydown", (e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); area.form.requestSubmit(); }
        });
        inputs.append(labelled("Value", area, "Ctrl+Enter saves."));
        read = () => ({ stringValue: area.value });
      } else if (type === "integer" || type === "double") {
        const input = h("input", { type: "text", inputmode: type === "integer" ? "numeric" : "decimal", "data-role": "value", autocomplete: "off" });
        if (sameType("integer")) input.value = initial.integerValue;
        else if (sameType("double")) input.value = String(initial.doubleValue);
        else input.value = "0";
        inputs.append(labelled("Value", input, type === "double" ? "A number; NaN, Infinity and -Infinity too." : "A whole number (64-bit)."));
        read = () => {
          const text = input.value.trim();
          if (type === "integer") {
            if (!/^[+-]?\d+$/.test(text)) throw new Error("An integer is a whole number, like 42 or -7.");
            const big = BigInt(text);
            if (big > 9223372036854775807n || big < -9223372036854775808n) throw new Error("The integer is out of the 64-bit range.");
            return { integerValue: big.toString() };
          }
          if (text === "NaN" || text === "Infinity" || text === "-Infinity") return { doubleValue: text };
          const n = Number(text);
          if (text === "" || !isFinite(n)) throw new Error("A double is a number, like 3.14.");
          return { doubleValue: n };
        };
      } else if (type === "timestamp") {
        const input = h("input", { type: "text", "data-role": "value", autocomplete: "off", placeholder: "2026-01-31T12:00:00.000Z" });
        input.value = sameType("timestamp") ? initial.timestampValue : new Date().toISOString();
        const now = button("Now", () => { input.value = new Date().toISOString(); input.focus(); }, { class: "secondary small", "aria-label": "Set the timestamp to now" });
        inputs.append(labelled("Value (RFC 3339, UTC)", input), now);
        read = () => {
          const text = input.value.trim();
          if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/.test(text) && !isNaN(Date.parse(text.replace(/(\.\d{3})\d+/, "$1")))) return { timestampValue: text };
          const date = new Date(text);
          if (!text || isNaN(date)) throw new Error("A timestamp looks like 2026-01-31T12:00:00Z.");
          return { timestampValue: date.toISOString() };
        };
      } else if (type === "bytes") {
        const input = h("input", { type: "text", "data-role": "value", autocomplete: "off", spellcheck: "false" });
        input.value = sameType("bytes") ? initial.bytesValue : "";
        inputs.append(labelled("Value (base64)", input));
        read = () => {
          const text = input.value.trim();
          if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) throw new Error("Bytes are written in base64, like aGk=.");
          return { bytesValue: text };
        };
      } else if (type === "reference") {
        const input = h("input", { type: "text", "data-role": "value", autocomplete: "off", spellcheck: "false", placeholder: "users/alice" });
        input.value = sameType("reference") ? summary(initial) : "";
        inputs.append(labelled("Document path", input, "A path like users/alice, in this database."));
        read = () => {
          let text = input.value.trim().replace(/^\/+|\/+$/g, "");
          if (/^projects\//.test(text)) return { referenceValue: text };
          const segments = text.split("/");
          if (!text || segments.length % 2 !== 0 || segments.some((s) => !s)) throw new Error("A reference is a document path: an even number of segments, like users/alice.");
          return { referenceValue: `${dbName(context.project, context.database)}/documents/${text}` };
        };
      } else if (type === "geopoint") {
        const g = sameType("geopoint") ? initial.geoPointValue : { latitude: 0, longitude: 0 };
        const lat = h("input", { type: "text", inputmode: "decimal", "data-role": "latitude", autocomplete: "off", value: String(g.latitude || 0) });
        const lng = h("input", { type: "text", inputmode: "decimal", "data-role": "longitude", autocomplete: "off", value: String(g.longitude || 0) });
        inputs.append(h("div", { class: "form-pair" }, labelled("Latitude", lat), labelled("Longitude", lng)));
        read = () => {
          const latitude = Number(lat.value), longitude = Number(lng.value);
          if (lat.value.trim() === "" || !(latitude >= -90 && latitude <= 90)) throw new Error("The latitude is between -90 and 90.");
          if (lng.value.trim() === "" || !(longitude >= -180 && longitude <= 180)) throw new Error("The longitude is between -180 and 180.");
          return { geoPointValue: { latitude, longitude } };
        };
      } else if (type === "vector") {
        const input = h("input", { type: "text", "data-role": "value", autocomplete: "off", placeholder: "1.0, 2.5, 3" });
        input.value = sameType("vector") ? vectorItems(initial).join(", ") : "";
        inputs.append(labelled("Values (numbers, comma-separated)", input));
        read = () => {
          const parts = input.value.split(",").map((s) => s.trim()).filter((s) => s !== "");
          const numbers = parts.map(Number);
          if (!parts.length || numbers.some((n) => !isFinite(n))) throw new Error("A vector is one or more numbers, like 1, 2.5, 3.");
          return { mapValue: { fields: { __type__: { stringValue: "__vector__" }, value: { arrayValue: { values: numbers.map((n) => ({ doubleValue: n })) } } } } };
        };
      } else {
        // map and array: plain JSON; typed values inside are added field by field.
        const area = h("textarea", { "data-role": "value", rows: 5, spellcheck: "false", class: "code" });
        area.value = sameType(type) ? JSON.stringify(toPlain(initial), null, 2) : type === "map" ? "{}" : "[]";
        inputs.append(labelled(type === "map" ? "Value (a JSON object)" : "Value (a JSON array)", area,
          "JSON numbers, strings, booleans, null, arrays and objects. For timestamps, references and other types inside, add them one by one with the field's Add button."));
        read = () => {
          let parsed;
          try { parsed = JSON.parse(area.value); } catch (e) { throw new Error("That is not valid JSON: " + e.message); }
          if (type === "map" && (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))) throw new Error("A map is a JSON object, like {\"a\": 1}.");
          if (type === "array" && !Array.isArray(parsed)) throw new Error("An array is a JSON array, like [1, 2].");
          return fromPlain(parsed);
        };
      }
    }
    typeSelect.addEventListener("change", build);
    build();
    return { element: h("div", { class: "value-editor" }, labelled("Type", typeSelect), inputs), read: () => read(), typeSelect };
  }

  // ---- Field paths ------------------------------------------------------------------------

  // A path into a document: string segments are map keys, numbers are array indexes.
  const displayPath = (path) => path.map((s, i) => (typeof s === "number" ? `[${s}]` : (i ? "." : "") + s)).join("");
  const quoteSegment = (s) => (/^[A-Za-z_][A-Za-z_0-9]*$/.test(s) ? s : "`" + s.replace(/\\/g, "\\\\").replace(/`/g, "\\`") + "`");
  const fieldPath = (keys) => keys.map(quoteSegment).join(".");
  function valueAt(fields, path) {
    let value = { mapValue: { fields } };
    for (const s of path) {
      if (!value) return undefined;
      value = typeof s === "number" ? arrayItems(value)[s] : mapFields(value)[s];
    }
    return value;
  }
  function clone(x) { return JSON.parse(JSON.stringify(x)); }
  // The write for setting (or, with `undefined`, deleting) the value at `path`: arrays are
  // written whole, so the written field is the path up to the first array index.
  function planWrite(fields, path, newValue) {
    const cut = path.findIndex((s) => typeof s === "number");
    const keys = cut < 0 ? path : path.slice(0, cut - 0);
    if (cut < 0) return { keys, value: newValue };
    const arrayKeys = path.slice(0, cut);
    const array = clone(valueAt(fields, arrayKeys));
    let container = array, rest = path.slice(cut);
    while (rest.length > 1) {
      const s = rest[0];
      container = typeof s === "number" ? container.arrayValue.values[s] : container.mapValue.fields[s];
      rest = rest.slice(1);
    }
    const last = rest[0];
    if (typeof last === "number") {
      container.arrayValue = container.arrayValue || {};
      container.arrayValue.values = container.arrayValue.values || [];
      if (newValue === undefined) container.arrayValue.values.splice(last, 1);
      else container.arrayValue.values[last] = newValue;
    } else {
      container.mapValue = container.mapValue || {};
      container.mapValue.fields = container.mapValue.fields || {};
      if (newValue === undefined) delete container.mapValue.fields[last];
      else container.mapValue.fields[last] = newValue;
    }
    return { keys: arrayKeys, value: array };
  }
  async function writeField(ctx, segments, fields, path, newValue) {
    const plan = planWrite(fields, path, newValue);
    let body = {};
    if (plan.value !== undefined) {
      body = plan.value;
      for (let i = plan.keys.length - 1; i >= 0; i--) body = { mapValue: { fields: { [plan.keys[i]]: body } } };
      body = { fields: body.mapValue.fields };
    }
    const url = docsUrl(ctx.project, ctx.database, segments) + "?updateMask.fieldPaths=" + enc(fieldPath(plan.keys));
    return api("PATCH", url, body);
  }

  // ---- Overview ---------------------------------------------------------------------------

  async function overviewPage(route, token) {
    document.title = "Overview · Hearth Console";
    const content = h("div", { class: "overview" });
    main.replaceChildren(h("div", { class: "page-head" }, h("h1", {}, "Overview")), content);
    const draw = () => {
      const o = state.overview;
      const host = o.host ? `${o.host.includes(":") ? `[${o.host}]` : o.host}:${o.port}` : location.host;
      fill(content,
        h("section", { class: "card connect", "aria-labelledby": "connect-title" },
          h("h2", { id: "connect-title" }, "Connect"),
          h("p", {}, "Point the Firebase SDKs and the official clients at this emulator:"),
          h("div", { class: "copy-line" }, h("code", { id: "emulator-host" }, `export FIRESTORE_EMULATOR_HOST=${host}`),
            button("Copy", async () => {
              try { await navigator.clipboard.writeText(`export FIRESTORE_EMULATOR_HOST=${host}`); toast("Copied"); } catch (_) { toast("Copy failed: select the text instead", "error"); }
            }, { class: "secondary small", "aria-label": "Copy the export line" })),
          h("p", { class: "muted" }, "The console acts as the owner: rules don't apply to what you do here.")),
        o.projects.length ? o.projects.map(projectCard) : h("p", { class: "empty" }, "No projects yet: write a document, or start Hearth with a rules file."));
    };
    const projectCard = (project) => {
      const rules = project.rules || { status: "none" };
      const titleId = "project-" + project.id;
      return h("section", { class: "card project", "aria-labelledby": titleId },
        h("h2", { id: titleId }, project.id),
        h("table", { class: "grid" },
          h("caption", { class: "visually-hidden" }, `Databases of ${project.id}`),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Database"), h("th", { scope: "col", class: "num" }, "Documents"), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions")))),
          h("tbody", {}, project.databases.map((db) => h("tr", {},
            h("th", { scope: "row" }, h("a", { href: links.data(project.id, db.id), "aria-label": `Data of ${project.id} ${db.id}` }, db.id)),
            h("td", { class: "num", "data-documents": db.id }, Number(db.documents).toLocaleString()),
            h("td", { class: "row-actions" },
              h("a", { href: links.requests(project.id, db.id), "aria-label": `Requests to ${project.id} ${db.id}` }, "Requests"),
              button("Clear all data", () => clearAllData(project.id, db.id), { class: "danger-link", "aria-label": `Clear all data of ${project.id} ${db.id}` })))))),
        h("div", { class: "rules-summary" },
          h("span", {}, "Rules: "),
          statusBadge(rules.status),
          rules.fileName ? h("code", {}, rules.fileName) : null,
          rules.loadedAt ? h("span", { class: "muted" }, ` loaded ${ago(rules.loadedAt)}`) : null,
          rules.diagnostics && rules.diagnostics.length ? h("span", { class: "muted" }, ` · ${rules.diagnostics.length} diagnostic${rules.diagnostics.length === 1 ? "" : "s"}`) : null,
          h("a", { href: links.rules(project.id), class: "push-right" }, `Rules of ${project.id}`)));
    };
    try { await loadOverview(); } catch (error) { if (isCurrent(token)) content.replaceChildren(errorBox(error)); return; }
    if (!isCurrent(token)) return;
    updateChrome(route);
    draw();
    // Counts follow the requests, refreshed at most once a second.
    let pending = null;
    stream("/ui/api/requests/events", {
      request: () => {
        if (pending) return;
        pending = setTimeout(async () => {
          pending = null;
          try { await loadOverview(); if (isCurrent(token)) { updateChrome(route); draw(); } } catch (_) { /* next time */ }
        }, 1000);
      },
    });
    view.cleanups.push(() => clearTimeout(pending));
  }
  function statusBadge(status) {
    const text = { loaded: "loaded", error: "error", none: "none (everything allowed)" }[status] || status;
    return h("span", { class: "badge status-" + status }, text);
  }
  async function clearAllData(project, database) {
    const done = await confirmDialog(`Clear all data of ${project}?`,
      `Every document and collection of the database ${database} of ${project} is deleted. This cannot be undone.`,
      "Clear all data", () => api("DELETE", emulatorUrl(project, database)));
    if (!done) return;
    toast(`Cleared ${project} ${database}`);
    explorer.reset();
    state.overview = null;
    render({ keepFocus: true });
  }

  // ---- Data -------------------------------------------------------------------------------

  // The collection pane's state lives across navigations inside one collection: the page of
  // documents, the stack of page tokens (previous/next) and the listener. That one listener
  // (one EventSource per tab: browsers allow six connections to a host) also feeds the open
  // document, through `onDocument`; `badges` show its status.
  const explorer = {
    key: null, collection: null, tokens: [""], index: 0, docs: [], next: "", loaded: false, suspended: false,
    reset() {
      if (this.close) this.close();
      Object.assign(this, { key: null, collection: null, tokens: [""], index: 0, docs: [], next: "", loaded: false,
        close: null, onChange: null, onDocument: null, onReady: null, status: null, badges: [], suspended: false, loading: null });
    },
    setStatus(value) {
      this.status = value;
      this.badges = this.badges.filter((badge) => badge.isConnected);
      for (const badge of this.badges) badge.set(value);
    },
    addBadge(badge) { this.badges.push(badge); badge.set(this.status || "connecting"); },
  };
  explorer.reset();

  async function dataPage(route, token) {
    const { project, database } = route;
    const path = route.path;
    const ctx = { project, database };
    const isDoc = path.length > 0 && path.length % 2 === 0;
    const collectionPath = path.length === 0 ? null : isDoc ? path.slice(0, -1) : path;
    const parentDoc = collectionPath ? collectionPath.slice(0, -1) : [];
    document.title = `${path.length ? path[path.length - 1] : "Data"} · ${project} · Hearth Console`;

    // Breadcrumbs
    const crumbs = [h("a", { href: links.data(project, database), "data-focus-key": "crumb-root" }, database)];
    path.forEach((segment, i) => {
      const href = links.data(project, database, path.slice(0, i + 1));
      crumbs.push(h("span", { class: "sep", "aria-hidden": "true" }, "/"));
      crumbs.push(i === path.length - 1 ? h("span", { "aria-current": "page" }, segment) : h("a", { href, "data-focus-key": "crumb-" + i }, segment));
    });
    const head = h("div", { class: "page-head" },
      h("h1", {}, path.length ? (isDoc ? "Document " : "Collection ") + path[path.length - 1] : "Data"),
      h("nav", { class: "breadcrumbs", "aria-label": "Path" }, crumbs),
      h("div", { class: "head-actions" },
        button("Clear all data", () => clearAllData(project, database), { class: "danger-link", "aria-label": `Clear all data of ${project} ${database}` })));

    const collectionsPane = h("section", { class: "pane pane-collections", "aria-labelledby": "collections-title" });
    const documentsPane = h("section", { class: "pane pane-documents", "aria-labelledby": "documents-title" });
    const documentPane = h("section", { class: "pane pane-document", "aria-labelledby": "document-title" });
    main.replaceChildren(head, h("div", { class: "explorer" }, collectionsPane, documentsPane, documentPane));

    const work = [renderCollections(collectionsPane, ctx, parentDoc, collectionPath ? collectionPath[collectionPath.length - 1] : null, token)];
    if (collectionPath) work.push(renderDocuments(documentsPane, ctx, collectionPath, isDoc ? path[path.length - 1] : null, token));
    else {
      explorer.reset();
      documentsPane.append(h("div", { class: "pane-head" }, h("h2", { id: "documents-title" }, "Documents")), h("p", { class: "empty" }, "Choose a collection."));
    }
    if (isDoc) work.push(renderDocument(documentPane, ctx, path, token));
    else documentPane.append(h("div", { class: "pane-head" }, h("h2", { id: "document-title" }, "Document")), h("p", { class: "empty" }, collectionPath ? "Choose a document." : "Choose a collection, then a document."));
    await Promise.all(work);
  }

  async function listCollectionIds(ctx, docSegments) {
    const url = docsUrl(ctx.project, ctx.database, docSegments) + ":listCollectionIds";
    const result = await api("POST", url, { pageSize: 300 });
    return (result && result.collectionIds) || [];
  }

  async function renderCollections(pane, ctx, parentDoc, selected, token) {
    const title = parentDoc.length ? `Collections in ${parentDoc[parentDoc.length - 1]}` : "Collections";
    const list = h("ul", { class: "nav-list", id: "collections", "aria-busy": "true" });
    pane.replaceChildren(h("div", { class: "pane-head" }, h("h2", { id: "collections-title" }, title),
      button("Start collection", () => startCollection(ctx, parentDoc), { class: "secondary small", "aria-label": parentDoc.length ? `Start a collection in ${parentDoc[parentDoc.length - 1]}` : "Start a collection" })), list);
    let ids;
    try { ids = await listCollectionIds(ctx, parentDoc); } catch (error) { if (isCurrent(token)) list.replaceWith(errorBox(error)); return; }
    if (!isCurrent(token)) return;
    list.removeAttribute("aria-busy");
    if (selected && !ids.includes(selected)) ids.push(selected);
    list.replaceChildren(...ids.map((id) => h("li", {}, h("a", {
      href: links.data(ctx.project, ctx.database, [...parentDoc, id]), "data-focus-key": "collection-" + id, "data-collection-id": id,
      "aria-current": id === selected ? "true" : null, "data-keep-focus": true,
    }, id))));
    if (!ids.length) list.replaceWith(h("p", { class: "empty" }, "No collections yet."));
  }

  async function startCollection(ctx, parentDoc) {
    const idInput = h("input", { type: "text", autocomplete: "off", spellcheck: "false", autofocus: true });
    const docInput = h("input", { type: "text", autocomplete: "off", spellcheck: "false", placeholder: "automatic" });
    const done = await openDialog({
      title: "Start a collection", submitLabel: "Create",
      body: [labelled("Collection ID", idInput), labelled("First document ID", docInput, "Leave empty for an automatic ID.")],
      onSubmit: async () => {
        const id = idInput.value.trim();
        if (!id || id.includes("/")) throw new Error("A collection ID is a non-empty name without '/'.");
        return createDocument(ctx, [...parentDoc, id], docInput.value.trim(), {});
      },
    });
    if (done && done.name) navigate(links.data(ctx.project, ctx.database, relativeSegments(done.name)));
  }
  const relativeSegments = (name) => name.replace(/^projects\/[^/]+\/databases\/[^/]+\/documents\/?/, "").split("/").filter(Boolean);
  const docId = (doc) => doc.name.slice(doc.name.lastIndexOf("/") + 1);
  async function createDocument(ctx, collectionSegments, id, fields) {
    if (id.includes("/")) throw new Error("A document ID cannot contain '/'.");
    const url = docsUrl(ctx.project, ctx.database, collectionSegments) + (id ? "?documentId=" + enc(id) : "");
    return api("POST", url, { fields });
  }

  async function loadPage(ctx, collectionPath, index) {
    const url = docsUrl(ctx.project, ctx.database, collectionPath) + `?pageSize=${PAGE_SIZE}&showMissing=true` +
      (explorer.tokens[index] ? "&pageToken=" + enc(explorer.tokens[index]) : "");
    const result = (await api("GET", url)) || {};
    return { docs: result.documents || [], next: result.nextPageToken || "" };
  }

  async function renderDocuments(pane, ctx, collectionPath, selectedId, token) {
    const key = [ctx.project, ctx.database, ...collectionPath].join("\u0000");
    const name = collectionPath[collectionPath.length - 1];
    const list = h("ul", { class: "nav-list doc-list", id: "documents", "aria-busy": "true", "aria-label": `Documents in ${name}` });
    const status = liveBadge();
    const pageLabel = h("span", { id: "page-label", class: "page-label", "aria-live": "polite" });
    const prev = button("Previous", () => go(explorer.index - 1), { id: "pager-prev", class: "secondary small", "aria-label": "Previous page", "data-focus-key": "pager-prev" });
    const next = button("Next", () => go(explorer.index + 1), { id: "pager-next", class: "secondary small", "aria-label": "Next page", "data-focus-key": "pager-next" });
    const problems = h("div");
    pane.replaceChildren(
      h("div", { class: "pane-head" }, h("h2", { id: "documents-title" }, name), status),
      h("div", { class: "pane-tools" },
        button("Add document", () => addDocument(ctx, collectionPath), { class: "primary small", "data-focus-key": "add-document" }),
        button("Delete collection", () => deleteCollection(ctx, collectionPath), { class: "danger-link small", "aria-label": `Delete collection ${name}` })),
      problems, list, h("div", { class: "pager" }, prev, pageLabel, next));

    const draw = (flash) => {
      const focusKey = document.activeElement && list.contains(document.activeElement) ? document.activeElement.dataset.focusKey : null;
      list.removeAttribute("aria-busy");
      list.dataset.state = "ready";
      if (!explorer.docs.length) {
        list.replaceChildren(h("li", { class: "empty" }, explorer.index ? "No more documents." : "No documents."));
      } else {
        list.replaceChildren(...explorer.docs.map((doc) => {
          const id = docId(doc);
          const missing = !doc.createTime;
          const preview = missing ? "no fields; has subcollections" : previewFields(doc.fields || {});
          return h("li", { class: flash && flash.has(doc.name) ? "flash" : null }, h("a", {
            href: links.data(ctx.project, ctx.database, [...collectionPath, id]), "data-doc-id": id, "data-focus-key": "doc-" + id,
            "aria-current": id === selectedId ? "true" : null, "data-keep-focus": true, class: missing ? "missing" : null,
          }, h("span", { class: "doc-id" }, id), h("span", { class: "doc-preview", "aria-hidden": "true" }, preview)));
        }));
      }
      pageLabel.textContent = `Page ${explorer.index + 1}` + (explorer.docs.length ? ` · ${docId(explorer.docs[0])} – ${docId(explorer.docs[explorer.docs.length - 1])}` : "");
      prev.disabled = explorer.index === 0;
      next.disabled = !explorer.next;
      if (focusKey) { const again = list.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`); if (again) again.focus(); }
    };
    async function go(index) {
      if (index < 0 || index >= explorer.tokens.length + (explorer.next ? 1 : 0)) return;
      const started = performance.now();
      list.setAttribute("aria-busy", "true");
      try {
        if (index === explorer.tokens.length) explorer.tokens.push(explorer.next);
        const page = await loadPage(ctx, collectionPath, index);
        explorer.index = index;
        explorer.docs = page.docs;
        explorer.next = page.next;
        explorer.tokens.length = Math.max(index + 1, 1);
        problems.replaceChildren();
        draw();
        timings.pages++;
        timings.lastPage = performance.now() - started;
        const focus = index > 0 && !next.disabled ? null : index === 0 ? next : prev;
        if (focus && document.activeElement && (document.activeElement === prev || document.activeElement === next) && document.activeElement.disabled) focus.focus();
      } catch (error) {
        problems.replaceChildren(errorBox(error));
      }
    }

    if (explorer.key !== key) {
      explorer.reset();
      explorer.key = key;
      explorer.collection = collectionPath;
      explorer.loading = openCollection(ctx, collectionPath, key, 0);
    } else if (explorer.suspended) {
      // Back in a tab that was hidden: the same page again, and the listener.
      explorer.suspended = false;
      explorer.loading = openCollection(ctx, collectionPath, key, explorer.index);
    }
    try { await explorer.loading; } catch (error) {
      if (isCurrent(token)) problems.replaceChildren(errorBox(error));
      if (explorer.key === key) explorer.reset();
      return;
    }
    if (!isCurrent(token) || explorer.key !== key) return;
    const first = timings.firstPage === null;
    draw();
    if (first) timings.firstPage = performance.now();
    explorer.onChange = (changed) => { if (list.isConnected) draw(changed ? new Set([changed]) : null); };
    explorer.addBadge(status);
  }
  // The first page of a collection and its listener (kept while the view stays in the collection).
  async function openCollection(ctx, collectionPath, key, index) {
      const started = performance.now();
      const page = await loadPage(ctx, collectionPath, index);
      if (explorer.key !== key) return;
      explorer.docs = page.docs;
      explorer.next = page.next;
      explorer.loaded = true;
      timings.lastPage = performance.now() - started;
      // Live: a listener inside the server over Server-Sent Events.
      const source = new EventSource(`/ui/api/listen?database=${enc(dbName(ctx.project, ctx.database))}&path=${enc(collectionPath.join("/"))}`);
      let ready = 0;
      const setStatus = (value) => explorer.setStatus(value);
      source.addEventListener("open", () => setStatus("live"));
      source.addEventListener("error", () => setStatus(source.readyState === 2 ? "closed" : "reconnecting"));
      source.addEventListener("ready", async (event) => {
        if (explorer.onReady) explorer.onReady();
        if (ready++ === 0) {
          // The listener's first 50 documents are the first page as of now: whatever was
          // written between the page's fetch and the listener's start shows.
          let data;
          try { data = JSON.parse(event.data); } catch (_) { return; }
          if (explorer.index !== 0) return;
          const changed = new Set();
          for (const doc of (data && data.documents) || []) { const name = applyChange({ document: doc }); if (name) changed.add(name); }
          if (changed.size && explorer.onChange) explorer.onChange();
          return;
        }
        try { // after a reconnect: the page again, since changes may have been missed
          const page = await loadPage(ctx, collectionPath, explorer.index);
          explorer.docs = page.docs; explorer.next = page.next;
          if (explorer.onChange) explorer.onChange();
        } catch (_) { /* the badge says reconnecting */ }
      });
      source.addEventListener("change", (event) => {
        let data;
        try { data = JSON.parse(event.data); } catch (_) { return; }
        if (explorer.onDocument) explorer.onDocument(data);
        const changed = applyChange(data);
        if (changed && explorer.onChange) explorer.onChange(changed);
      });
      explorer.close = () => source.close();
  }
  // A listener's change on the open page: in place, or inserted when it sorts inside the page.
  function applyChange(data) {
    const docs = explorer.docs;
    if (data.deleted) {
      const i = docs.findIndex((d) => d.name === data.deleted);
      if (i < 0) return null;
      docs.splice(i, 1);
      return data.deleted;
    }
    const doc = data.document;
    if (!doc || !doc.name) return null;
    const parent = doc.name.slice(0, doc.name.lastIndexOf("/"));
    if (docs.length && docs[0].name.slice(0, docs[0].name.lastIndexOf("/")) !== parent) return null;
    const i = docs.findIndex((d) => d.name === doc.name);
    if (i >= 0) { docs[i] = doc; return doc.name; }
    const id = docId(doc);
    const after = explorer.index === 0 || (docs.length && docId(docs[0]) < id);
    const before = !explorer.next || (docs.length && id < docId(docs[docs.length - 1]));
    if (!after || !before) return null;
    let at = docs.findIndex((d) => id < docId(d));
    if (at < 0) at = docs.length;
    docs.splice(at, 0, doc);
    return doc.name;
  }
  function previewFields(fields) {
    const keys = sortedKeys(fields).slice(0, 3);
    const text = keys.map((k) => `${k}: ${summary(fields[k])}`).join(", ");
    return text.length > 90 ? text.slice(0, 89) + "…" : text;
  }

  async function addDocument(ctx, collectionPath) {
    const idInput = h("input", { type: "text", autocomplete: "off", spellcheck: "false", placeholder: "automatic", autofocus: true });
    const nameInput = h("input", { type: "text", autocomplete: "off", spellcheck: "false", placeholder: "optional" });
    const editor = valueEditor(null, ctx);
    const done = await openDialog({
      title: `Add a document to ${collectionPath[collectionPath.length - 1]}`, submitLabel: "Save document", wide: true,
      body: [labelled("Document ID", idInput, "Leave empty for an automatic ID."),
        h("fieldset", {}, h("legend", {}, "First field (optional)"), labelled("Field name", nameInput), editor.element)],
      onSubmit: async () => {
        const fields = {};
        const fieldName = nameInput.value.trim();
        if (fieldName) fields[fieldName] = editor.read();
        return createDocument(ctx, collectionPath, idInput.value.trim(), fields);
      },
    });
    if (done && done.name) {
      toast(`Created ${docId(done)}`);
      navigate(links.data(ctx.project, ctx.database, relativeSegments(done.name)));
    }
  }
  async function deleteCollection(ctx, collectionPath) {
    const name = collectionPath[collectionPath.length - 1];
    const done = await confirmDialog(`Delete collection ${name}?`,
      `Every document of ${collectionPath.join("/")} and of its subcollections is deleted. This cannot be undone.`,
      "Delete collection", () => api("DELETE", emulatorUrl(ctx.project, ctx.database, collectionPath)));
    if (!done) return;
    toast(`Deleted ${name}`);
    explorer.reset();
    navigate(links.data(ctx.project, ctx.database, collectionPath.slice(0, -1)));
  }

  const expanded = new Set();
  async function renderDocument(pane, ctx, path, token) {
    const id = path[path.length - 1];
    const body = h("div", { class: "doc-body", "aria-busy": "true" });
    const status = liveBadge();
    pane.replaceChildren(h("div", { class: "pane-head" }, h("h2", { id: "document-title" }, id), status), body);
    let doc = null;
    const load = async () => {
      try { return await api("GET", docsUrl(ctx.project, ctx.database, path)); } catch (error) {
        if (error.status === 404) return null;
        throw error;
      }
    };
    try { doc = await load(); } catch (error) { if (isCurrent(token)) body.replaceChildren(errorBox(error)); return; }
    if (!isCurrent(token)) return;
    const subcollections = h("div", { class: "subcollections" });
    const draw = (changedNote) => {
      const focusKey = document.activeElement && body.contains(document.activeElement) ? document.activeElement.dataset.focusKey : null;
      body.removeAttribute("aria-busy");
      const fields = (doc && doc.fields) || {};
      const actions = h("div", { class: "pane-tools" },
        button(doc ? "Add field" : "Add a field (creates it)", () => editField(ctx, path, fields, [], null, true), { class: "primary small", "data-focus-key": "add-field", "aria-label": "Add field" }),
        doc ? button("Delete document", () => deleteDocument(ctx, path), { class: "danger-link small", "aria-label": `Delete document ${id}` }) : null,
        button("Copy path", async () => {
          try { await navigator.clipboard.writeText(path.join("/")); toast("Path copied"); } catch (_) { toast("Copy failed", "error"); }
        }, { class: "secondary small", "aria-label": "Copy document path" }));
      const meta = doc ? h("dl", { class: "doc-meta" },
        h("dt", {}, "Path"), h("dd", {}, h("code", {}, path.join("/"))),
        h("dt", {}, "Created"), h("dd", {}, h("time", { datetime: doc.createTime, title: doc.createTime }, formatTime(doc.createTime))),
        h("dt", {}, "Updated"), h("dd", {}, h("time", { datetime: doc.updateTime, title: doc.updateTime }, formatTime(doc.updateTime))))
        : h("p", { class: "empty", id: "document-missing" }, "No document here" + (changedNote === "deleted" ? ": it was just deleted." : ". It may have subcollections; adding a field creates it."));
      view.currentFields = fields;
      const tree = doc ? fieldTree(fields, [], ctx, path, true) : null;
      body.replaceChildren(actions, meta, tree || "", doc && !Object.keys(fields).length ? h("p", { class: "empty" }, "No fields.") : "", subcollections);
      body.dataset.state = "ready";
      if (changedNote === "changed") { pane.classList.remove("flash-pane"); void pane.offsetWidth; pane.classList.add("flash-pane"); }
      if (focusKey) { const again = body.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`); if (again) again.focus(); }
    };
    draw();
    renderSubcollections(subcollections, ctx, path, token);
    view.reloadDocument = async () => { try { doc = await load(); if (isCurrent(token)) draw(); } catch (_) { /* the listener catches up */ } };
    // Live through the collection's listener: its changes cover every document of the collection.
    const name = `${dbName(ctx.project, ctx.database)}/documents/${path.join("/")}`;
    explorer.onDocument = (data) => {
      if (!isCurrent(token)) return;
      if (data.deleted === name) { doc = null; draw("deleted"); }
      else if (data.document && data.document.name === name) { doc = data.document; draw("changed"); }
    };
    // A listener's (re)start may follow a change this page missed: the document again.
    explorer.onReady = () => { if (isCurrent(token)) view.reloadDocument(); };
    explorer.addBadge(status);
  }
  async function renderSubcollections(box, ctx, path, token) {
    let ids;
    try { ids = await listCollectionIds(ctx, path); } catch (error) { box.replaceChildren(errorBox(error)); return; }
    if (!isCurrent(token)) return;
    box.replaceChildren(h("h3", {}, "Subcollections"),
      ids.length ? h("ul", { class: "chips" }, ids.map((id) => h("li", {}, h("a", { href: links.data(ctx.project, ctx.database, [...path, id]), "data-subcollection-id": id }, id)))) : h("p", { class: "muted" }, "None."),
      button("Start subcollection", () => startCollection(ctx, path), { class: "secondary small", "aria-label": "Start a subcollection" }));
  }
  async function deleteDocument(ctx, path) {
    const id = path[path.length - 1];
    const done = await confirmDialog(`Delete document ${id}?`,
      `The document ${path.join("/")} is deleted; its subcollections stay.`, "Delete document",
      () => api("DELETE", docsUrl(ctx.project, ctx.database, path)));
    if (!done) return;
    toast(`Deleted ${id}`);
    navigate(links.data(ctx.project, ctx.database, path.slice(0, -1)));
  }

  // The fields of a map (or array) as a nested list; `editable` adds the edit buttons.
  function fieldTree(fields, prefix, ctx, docPath, editable, depth = 0) {
    const entries = Array.isArray(fields) ? fields.map((v, i) => [i, v]) : sortedKeys(fields).map((k) => [k, fields[k]]);
    return h("ul", { class: "fields" + (depth === 0 ? " fields-root" : ""), id: depth === 0 && editable ? "fields" : null },
      entries.map(([key, value]) => {
        const path = [...prefix, key];
        const shown = displayPath(path);
        const type = typeOf(value);
        const nested = type === "map" || type === "array";
        const children = type === "map" ? mapFields(value) : type === "array" ? arrayItems(value) : null;
        const count = nested ? (Array.isArray(children) ? children.length : Object.keys(children).length) : 0;
        const open = nested && count > 0 && (expanded.has(shown) || (depth === 0 && count <= 20 && !expanded.has("-" + shown)));
        const root = editable ? docPath.join("/") : null;
        const toggle = nested && count > 0
          ? button(open ? "▾" : "▸", (event) => {
            const key2 = shown;
            if (open) { expanded.delete(key2); expanded.add("-" + key2); } else { expanded.add(key2); expanded.delete("-" + key2); }
            const li = event.target.closest("li.field");
            const replacement = fieldTree(Array.isArray(fields) ? fields : { [key]: value }, prefix, ctx, docPath, editable, depth).firstChild;
            if (Array.isArray(fields)) {
              // rebuild just this element of an array
              const again = fieldTree(fields, prefix, ctx, docPath, editable, depth).children[key];
              li.replaceWith(again);
              again.querySelector(".toggle").focus();
            } else {
              li.replaceWith(replacement);
              replacement.querySelector(".toggle").focus();
            }
          }, { class: "toggle", "aria-expanded": String(open), "aria-label": `${open ? "Collapse" : "Expand"} ${shown}`, "data-focus-key": "toggle-" + root + shown })
          : h("span", { class: "toggle-space", "aria-hidden": "true" });
        const actions = editable ? h("span", { class: "field-actions" },
          button("Edit", () => editField(ctx, docPath, rootFields(), path, value, false), { class: "link small", "aria-label": `Edit field ${shown}`, "data-focus-key": "edit-" + shown }),
          type === "map" ? button("Add", () => editField(ctx, docPath, rootFields(), path, null, true), { class: "link small", "aria-label": `Add a field to ${shown}` }) : null,
          type === "array" ? button("Add", () => addElement(ctx, docPath, rootFields(), path), { class: "link small", "aria-label": `Add an element to ${shown}` }) : null,
          button("Delete", () => deleteField(ctx, docPath, rootFields(), path), { class: "link small danger-text", "aria-label": `Delete field ${shown}` })) : null;
        return h("li", { class: "field", "data-path": shown, "data-type": type },
          h("div", { class: "field-row" },
            toggle,
            h("span", { class: "field-name" }, typeof key === "number" ? String(key) : key),
            h("span", { class: "field-type type-" + type }, typeLabel(type)),
            h("span", { class: "field-value" }, valueCell(value)),
            actions),
          open ? fieldTree(children, path, ctx, docPath, editable, depth + 1) : null);
      }));
    function rootFields() { return view.currentFields || {}; }
  }

  async function editField(ctx, docPath, fields, path, value, adding) {
    fields = fields || currentDocFields();
    const where = path.length ? displayPath(path) : null;
    const nameInput = adding ? h("input", { type: "text", autocomplete: "off", spellcheck: "false", autofocus: true }) : null;
    const editor = valueEditor(adding ? null : value, ctx);
    const done = await openDialog({
      title: adding ? (where ? `Add a field to ${where}` : "Add a field") : `Edit ${where}`,
      submitLabel: adding ? "Add field" : "Save", wide: true,
      body: [nameInput ? labelled("Field name", nameInput) : null, editor.element],
      onSubmit: async () => {
        const newValue = editor.read();
        let target = path;
        if (adding) {
          const name = nameInput.value.trim();
          if (!name) throw new Error("Enter a field name.");
          target = [...path, name];
          if (valueAt(fields, target) !== undefined) throw new Error(`The field ${displayPath(target)} exists already: edit it instead.`);
        }
        return writeField(ctx, docPath, fields, target, newValue);
      },
    });
    if (done) { toast("Saved"); if (view.reloadDocument) view.reloadDocument(); }
  }
  async function addElement(ctx, docPath, fields, path) {
    const editor = valueEditor(null, ctx);
    const done = await openDialog({
      title: `Add an element to ${displayPath(path)}`, submitLabel: "Add element", wide: true, body: [editor.element],
      onSubmit: () => writeField(ctx, docPath, fields, [...path, arrayItems(valueAt(fields, path)).length], editor.read()),
    });
    if (done) { toast("Saved"); if (view.reloadDocument) view.reloadDocument(); }
  }
  async function deleteField(ctx, docPath, fields, path) {
    const done = await confirmDialog(`Delete ${displayPath(path)}?`, `The field ${displayPath(path)} is removed from the document.`,
      "Delete field", () => writeField(ctx, docPath, fields, path, undefined));
    if (done) { toast("Deleted"); if (view.reloadDocument) view.reloadDocument(); }
  }
  function currentDocFields() { return view.currentFields || {}; }

  // ---- Requests ---------------------------------------------------------------------------

  const identity = (caller) => caller === "owner" ? "owner" : caller === "unauthenticated" ? "nobody" : !caller || caller === "-" ? "—" : caller;
  const identityTitle = (caller) => caller === "owner" ? "The owner (admin credentials, rules skipped)" : caller === "unauthenticated" ? "No credentials" : !caller || caller === "-" ? "Not applicable" : `Signed-in user ${caller}`;
  const verdictText = { admin: "admin", allowed: "allowed", denied: "denied", "-": "—" };

  async function requestsPage(route, token) {
    const { project, database } = route;
    document.title = `Requests · ${project} · Hearth Console`;
    const log = [];
    const seen = new Set();
    let queued = [];
    let frame = 0;
    const methods = new Set();
    let paused = false, floor = 0;
    const pathFilter = h("input", { type: "search", id: "filter-path", placeholder: "users/alice", autocomplete: "off", spellcheck: "false" });
    const verdictFilter = h("select", { id: "filter-verdict" }, ["", "denied", "allowed", "admin", "-"].map((v) => h("option", { value: v }, v === "" ? "Any" : verdictText[v])));
    const methodFilter = h("select", { id: "filter-method" }, h("option", { value: "" }, "Any"));
    const onlyHere = h("input", { type: "checkbox", id: "filter-database", checked: true });
    const pause = button("Pause", () => {
      paused = !paused;
      pause.setAttribute("aria-pressed", String(paused));
      pause.textContent = paused ? "Resume" : "Pause";
      if (!paused) redraw();
    }, { class: "secondary small", "aria-pressed": "false", id: "requests-pause" });
    const clear = button("Clear view", () => { floor = log.length ? log[log.length - 1].id : floor; redraw(); }, { class: "secondary small", id: "requests-clear" });
    const status = liveBadge();
    const count = h("p", { class: "muted count", "aria-live": "polite", id: "requests-count" });
    // A click anywhere on a row opens it (the path's link is the keyboard's way in).
    const tbody = h("tbody", {
      onclick: (event) => {
        if (event.target.closest("a, button") || String(window.getSelection())) return;
        const link = event.target.closest("tr") && event.target.closest("tr").querySelector("td.path a");
        if (link) link.click();
      },
    });
    const table = h("table", { class: "grid requests", id: "requests-table" },
      h("caption", { class: "visually-hidden" }, "Requests, newest first"),
      h("thead", {}, h("tr", {}, ["Time", "Protocol", "Method", "Path", "Identity", "Verdict", "Status", "Latency"].map((c) =>
        h("th", { scope: "col", class: "col-" + c.toLowerCase() + (c === "Latency" ? " num" : "") }, c)))),
      tbody);
    const detail = h("section", { class: "request-detail", id: "request-detail", "aria-labelledby": "request-title", hidden: true });
    const filters = h("form", { class: "filters", role: "search", "aria-label": "Filter requests", onsubmit: (e) => e.preventDefault() },
      labelled("Path contains", pathFilter), labelled("Verdict", verdictFilter), labelled("Method", methodFilter),
      h("div", { class: "form-row checkbox" }, onlyHere, h("label", { for: "filter-database" }, `Only ${project} · ${database}`)));
    main.replaceChildren(
      h("div", { class: "page-head" }, h("h1", {}, "Requests"), status, h("div", { class: "head-actions" }, pause, clear)),
      filters, count,
      h("div", { class: "requests-layout" }, h("div", { class: "table-wrap" }, table), detail));
    const scope = dbName(project, database);
    const matches = (entry) => {
      if (entry.id <= floor) return false;
      if (onlyHere.checked && entry.path && entry.path.includes("projects/") && !entry.path.includes(scope + "/") && !entry.path.endsWith(scope)) return false;
      const text = pathFilter.value.trim();
      if (text && !(entry.path || "").includes(text)) return false;
      if (verdictFilter.value && entry.verdict !== verdictFilter.value) return false;
      if (methodFilter.value && entry.method !== methodFilter.value) return false;
      return true;
    };
    const row = (entry) => {
      const href = links.requests(project, database, entry.id);
      const failed = entry.status && entry.status !== "OK";
      return h("tr", { "data-id": entry.id, class: (failed ? "failed " : "") + (String(entry.id) === String(parseRoute().id) ? "selected" : "") },
        h("td", { class: "time" }, h("time", { datetime: entry.time, title: entry.time }, clockTime(entry.time))),
        h("td", { class: "col-protocol" }, entry.protocol),
        h("td", { class: "method" }, entry.method),
        h("td", { class: "path" }, h("a", { href, "data-keep-focus": true, "data-focus-key": "request-" + entry.id, "aria-label": `Request ${entry.id}: ${entry.method} ${entry.path || ""}` }, shortPath(entry.path)),
          entry.hasEvaluation ? h("span", { class: "badge eval", title: "Rules decided this request" }, "rules") : null),
        h("td", { title: identityTitle(entry.caller), class: "identity" }, identity(entry.caller)),
        h("td", {}, h("span", { class: "badge verdict-" + (entry.verdict === "-" ? "none" : entry.verdict) }, verdictText[entry.verdict] || entry.verdict)),
        h("td", { class: failed ? "status-failed" : "status-ok" }, entry.status),
        h("td", { class: "num col-latency" }, typeof entry.latencyMs === "number" ? entry.latencyMs.toFixed(entry.latencyMs < 10 ? 2 : 1) + " ms" : ""));
    };
    let matching = 0; // entries of the log that match the filters
    const countText = () => `${matching.toLocaleString()} request${matching === 1 ? "" : "s"}` +
      (matching > REQUEST_ROWS ? `, the newest ${REQUEST_ROWS} shown` : "") + (paused ? " · paused" : "");
    const redraw = () => {
      queued = [];
      const rows = [];
      let total = 0;
      for (let i = log.length - 1; i >= 0; i--) {
        if (!matches(log[i])) continue;
        total++;
        if (rows.length < REQUEST_ROWS) rows.push(row(log[i]));
      }
      const focusKey = document.activeElement && tbody.contains(document.activeElement) ? document.activeElement.dataset.focusKey : null;
      tbody.replaceChildren(...rows);
      if (!rows.length) tbody.append(h("tr", {}, h("td", { colspan: 8, class: "empty" }, log.length ? "No request matches the filters." : "No requests yet: they appear here as they arrive.")));
      matching = total;
      count.textContent = countText();
      if (focusKey) { const again = tbody.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`); if (again) again.focus(); }
    };
    const updateMethods = () => {
      const chosen = methodFilter.value;
      methodFilter.replaceChildren(h("option", { value: "" }, "Any"), ...[...methods].sort().map((m) => h("option", { value: m, selected: m === chosen }, m)));
    };

    const flush = () => {
      frame = 0;
      if (paused) return;
      const fresh = queued.filter(matches);
      queued = [];
      if (!fresh.length) return;
      const placeholder = tbody.querySelector("td.empty");
      if (placeholder) placeholder.parentElement.remove();
      const fragment = document.createDocumentFragment();
      for (let i = fresh.length - 1; i >= 0; i--) fragment.append(row(fresh[i]));
      tbody.prepend(fragment);
      while (tbody.rows.length > REQUEST_ROWS) tbody.lastElementChild.remove();
      count.textContent = countText();
    };
    const add = (entry, live) => {
      if (!entry || seen.has(entry.id)) return;
      seen.add(entry.id);
      log.push(entry);
      if (live && matches(entry)) matching++;
      if (log.length > 11000) { // the server keeps 10,000: so does the page, trimmed in batches
        for (const old of log.splice(0, log.length - 10000)) {
          seen.delete(old.id);
          if (live && matches(old)) matching--;
        }
      }
      if (entry.method && !methods.has(entry.method)) { methods.add(entry.method); if (live) updateMethods(); }
      if (live && !paused) { queued.push(entry); if (!frame) frame = setTimeout(flush, FLUSH_MS); }
      else if (live && paused) count.textContent = countText();
    };
    for (const control of [pathFilter, verdictFilter, methodFilter, onlyHere]) control.addEventListener("input", redraw);
    verdictFilter.addEventListener("change", redraw);
    methodFilter.addEventListener("change", redraw);
    onlyHere.addEventListener("change", redraw);
    // The stream first, buffered until the log is loaded, so nothing falls between the two.
    let buffer = [];
    stream("/ui/api/requests/events", { request: (entry) => (buffer ? buffer.push(entry) : add(entry, true)) }, (s) => status.set(s));
    view.cleanups.push(() => clearTimeout(frame));
    try {
      const result = await api("GET", "/ui/api/requests?limit=10000");
      if (!isCurrent(token)) return;
      for (const entry of (result && result.entries) || []) add(entry, false);
    } catch (error) {
      if (!isCurrent(token)) return;
      count.replaceWith(errorBox(error));
    }
    log.sort((a, b) => a.id - b.id);
    for (const entry of buffer) add(entry, false);
    buffer = null;
    updateMethods();
    redraw();
    tbody.dataset.state = "ready";
    if (route.id) showRequest(detail, route, tbody, token);
    view.onRequestsRoute = (again) => showRequest(detail, again, tbody, token);
  }
  // A request's path without its database: "users/alice", or "(database)" for a request on the
  // database itself (a commit, a batch get), "-" when there is none.
  function shortPath(path) {
    if (!path || path === "-") return "—";
    const rest = path.replace(/^\/?(v1\/|emulator\/v1\/)?projects\/[^/]+\/databases\/[^/:]+(\/documents)?\/?/, "");
    return rest === "" ? "(database)" : rest;
  }

  async function showRequest(detail, route, tbody, token) {
    detail.hidden = false;
    detail.replaceChildren(h("p", { class: "muted" }, "Loading…"));
    for (const tr of tbody.querySelectorAll("tr.selected")) tr.classList.remove("selected");
    const tr = tbody.querySelector(`tr[data-id="${CSS.escape(String(route.id))}"]`);
    if (tr) tr.classList.add("selected");
    let entry;
    try { entry = await api("GET", `/ui/api/requests/${enc(route.id)}`); } catch (error) {
      if (isCurrent(token)) detail.replaceChildren(h("h2", { id: "request-title", tabindex: "-1" }, `Request ${route.id}`), errorBox(error));
      return;
    }
    if (!isCurrent(token)) return;
    const close = h("a", { href: links.requests(route.project, route.database), class: "close-link", "aria-label": "Close request details", "data-keep-focus": true }, "Close");
    const ev = entry.evaluation;
    fill(detail, 
      h("div", { class: "detail-head" }, h("h2", { id: "request-title", tabindex: "-1" }, `${entry.method} · request ${entry.id}`), close),
      h("dl", { class: "facts" },
        h("dt", {}, "Time"), h("dd", {}, h("time", { datetime: entry.time }, entry.time)),
        h("dt", {}, "Path"), h("dd", {}, h("code", {}, entry.path || "—")),
        h("dt", {}, "Protocol"), h("dd", {}, entry.protocol),
        h("dt", {}, "Identity"), h("dd", {}, identity(entry.caller), " ", h("span", { class: "muted" }, `(${identityTitle(entry.caller)})`)),
        h("dt", {}, "Verdict"), h("dd", {}, h("span", { class: "badge verdict-" + (entry.verdict === "-" ? "none" : entry.verdict) }, verdictText[entry.verdict] || entry.verdict)),
        h("dt", {}, "Status"), h("dd", { class: entry.status === "OK" ? "status-ok" : "status-failed" }, entry.status),
        h("dt", {}, "Latency"), h("dd", {}, typeof entry.latencyMs === "number" ? entry.latencyMs.toFixed(2) + " ms" : "—")),
      entry.message && entry.message.trim() ? h("div", { class: entry.status === "OK" ? "note" : "error-box", id: "request-message" }, entry.message.trim()) : null,
      ev ? evaluationView(ev, route) : h("p", { class: "muted" }, entry.verdict === "admin" ? "The owner's requests skip the rules." : "No rules evaluation was recorded for this request."));
    const heading = detail.querySelector("h2");
    if (document.activeElement === document.body || !document.activeElement || !main.contains(document.activeElement) || document.activeElement.closest(".requests")) heading.focus();
  }
  function evaluationView(ev, route) {
    const decisions = ev.decisions || [];
    const lines = (ev.source || "").split("\n");
    return h("div", { class: "evaluation" },
      h("p", { class: "muted" }, `Rules of ${ev.project}${ev.fileName ? " from " + ev.fileName : ""}: ${decisions.length} decision${decisions.length === 1 ? "" : "s"}.`),
      decisions.map((decision, i) => h("details", { class: "decision", open: i === 0 },
        h("summary", {}, h("span", { class: "badge " + (decision.allowed ? "verdict-allowed" : "verdict-denied") }, decision.allowed ? "allowed" : "denied"),
          " ", h("strong", {}, decision.method), " ", h("code", {}, decision.path)),
        h("div", { class: "decision-body" },
          h("h3", {}, "Rules"),
          rulesSource(lines, { evaluations: decision.evaluations || [] }),
          (decision.evaluations || []).filter((e) => e.outcome === "error" && e.message).map((e) =>
            h("div", { class: "error-box" }, `Line ${e.line}: ${e.message}`)),
          h("div", { class: "decision-values" },
            valueBlock("request.auth", decision.auth, "auth"),
            valueBlock("request.resource.data", decision.requestResourceData, "fields"),
            valueBlock("resource.data", decision.resourceData, "fields"))))));
  }
  function valueBlock(title, value, kind) {
    let content;
    if (value === null || value === undefined) content = h("p", { class: "muted" }, "null");
    else if (kind === "auth") {
      // {"uid": "bob", "token": {REST mapValue fields}}
      const token = value.token && typeof value.token === "object" ? (value.token.fields || value.token) : {};
      content = h("div", {},
        h("p", { class: "auth-uid" }, "uid: ", h("code", {}, value.uid === undefined ? "—" : String(value.uid))),
        Object.keys(token).length ? [h("p", { class: "muted" }, "token:"), fieldTree(token, ["token"], null, null, false, 1)] : null);
    }
    else {
      const fields = value.fields || (value.mapValue && value.mapValue.fields) || value;
      content = Object.keys(fields).length ? fieldTree(fields, [], null, null, false) : h("p", { class: "muted" }, "{} (no fields)");
    }
    return h("section", { class: "value-block" }, h("h3", {}, h("code", {}, title)), content);
  }
  // The rules source as numbered lines; evaluated lines carry rule-line-true/false/error and
  // their outcomes as text, coverage lines a heat class and counts.
  function rulesSource(lines, { evaluations = [], coverage = null, diagnostics = [] }) {
    const byLine = new Map();
    for (const e of evaluations) {
      if (!byLine.has(e.line)) byLine.set(e.line, []);
      byLine.get(e.line).push(e);
    }
    const diagnosticsByLine = new Map();
    for (const d of diagnostics) {
      if (!diagnosticsByLine.has(d.line)) diagnosticsByLine.set(d.line, []);
      diagnosticsByLine.get(d.line).push(d);
    }
    const rows = lines.map((text, i) => {
      const n = i + 1;
      const outcomes = byLine.get(n) || [];
      const classes = ["rule-line"];
      const distinct = [...new Set(outcomes.map((e) => e.outcome))];
      for (const o of distinct) classes.push("rule-line-" + o);
      let marker = null;
      if (distinct.length) {
        marker = h("span", { class: "outcome" }, outcomes.map((e) => `${e.method ? e.method + ": " : ""}${e.outcome}`).join(", "));
      }
      let heat = null;
      if (coverage) {
        const c = coverage.get(n);
        if (c) {
          classes.push(c.evaluations ? "heat-" + heatLevel(c.evaluations, coverage.max) : "heat-none");
          heat = h("span", { class: "heat", title: `${c.evaluations} evaluations: ${c.trueCount} true, ${c.falseCount} false, ${c.errorCount} errors` },
            c.evaluations ? `${c.evaluations}×` : "0×");
          if (c.evaluations) heat.append(h("span", { class: "visually-hidden" }, ` (${c.trueCount} true, ${c.falseCount} false, ${c.errorCount} errors)`));
        } else heat = h("span", { class: "heat" });
      }
      let counts = null;
      if (coverage && coverage.get(n) && coverage.get(n).evaluations) {
        const c = coverage.get(n);
        const parts = [[c.trueCount, "true"], [c.falseCount, "false"], [c.errorCount, c.errorCount === 1 ? "error" : "errors"]]
          .filter(([k]) => k > 0).map(([k, label]) => `${k} ${label}`);
        counts = h("span", { class: "cov-detail", "aria-hidden": "true" }, parts.join(" · "));
      }
      const diags = diagnosticsByLine.get(n) || [];
      if (diags.length) classes.push("diagnostic-" + (diags.some((d) => d.severity === "error") ? "error" : "warning"));
      return h("tr", { class: classes.join(" "), id: "L" + n, "data-line": n },
        h("td", { class: "line-no" }, String(n)),
        coverage ? h("td", { class: "heat-cell" }, heat) : null,
        h("td", { class: "line-text" }, h("code", {}, text || " "), marker, counts,
          diags.map((d) => h("span", { class: "diag-inline " + d.severity }, `${d.severity}: ${d.message}`))));
    });
    return h("div", { class: "rules-source-wrap", tabindex: "0", role: "region", "aria-label": "Rules source" },
      h("table", { class: "rules-source" }, h("tbody", {}, rows)));
  }
  function heatLevel(count, max) {
    if (max <= 1) return 5;
    const level = Math.ceil((Math.log(count + 1) / Math.log(max + 1)) * 5);
    return Math.min(5, Math.max(1, level));
  }

  // ---- Rules ------------------------------------------------------------------------------

  async function rulesPage(route, token) {
    const project = route.project || state.project;
    document.title = `Rules · ${project || ""} · Hearth Console`;
    const content = h("div", { class: "rules-page" });
    const status = liveBadge();
    main.replaceChildren(h("div", { class: "page-head" }, h("h1", {}, `Rules of ${project || "…"}`), status,
      h("div", { class: "head-actions" }, button("Refresh", () => load(), { class: "secondary small", id: "rules-refresh" }))), content);
    if (!project) { content.append(h("p", { class: "empty" }, "No project yet.")); return; }
    const load = async () => {
      let rules;
      try { rules = await api("GET", `/ui/api/rules/${enc(project)}`); } catch (error) {
        if (isCurrent(token)) content.replaceChildren(errorBox(error));
        return;
      }
      if (!isCurrent(token)) return;
      const coverage = new Map();
      let max = 0, covered = 0;
      for (const c of rules.coverage || []) {
        const current = coverage.get(c.startLine);
        if (c.evaluations) covered++;
        max = Math.max(max, c.evaluations);
        const span = (c.endLine - c.startLine) * 10000 + (c.endColumn - c.startColumn);
        if (!current || c.evaluations > current.evaluations || (c.evaluations === current.evaluations && span > current.span)) coverage.set(c.startLine, Object.assign({ span }, c));
      }
      coverage.max = max;
      const total = (rules.coverage || []).length;
      const diagnostics = rules.diagnostics || [];
      // With "error" the source is the last good rules, still in force, and the diagnostics are
      // the failed file's: they are listed, not placed on the lines shown.
      const failed = rules.status === "error";
      const focusKey = document.activeElement && content.contains(document.activeElement) ? document.activeElement.dataset.focusKey : null;
      fill(content,
        h("dl", { class: "facts" },
          h("dt", {}, "File"), h("dd", {}, rules.fileName ? h("code", {}, rules.fileName) : "—"),
          h("dt", {}, "Status"), h("dd", {}, statusBadge(rules.status)),
          h("dt", {}, "Loaded"), h("dd", {}, rules.loadedAt ? [h("time", { datetime: rules.loadedAt }, formatTime(rules.loadedAt)), h("span", { class: "muted" }, ` (${ago(rules.loadedAt)})`)] : "—"),
          h("dt", {}, "Coverage"), h("dd", { id: "coverage-summary" }, total ? `${covered} of ${total} expressions evaluated` : "no expressions")),
        diagnostics.length ? h("section", { class: "diagnostics", "aria-labelledby": "diagnostics-title" },
          h("h2", { id: "diagnostics-title" }, `Diagnostics (${diagnostics.length})`),
          failed ? h("p", { class: "note" }, "The file has errors, so it was not loaded: the last good rules, below, stay in force.") : null,
          h("ul", {}, diagnostics.map((d) => h("li", { class: "diag " + d.severity },
            d.line && !failed ? h("a", { href: `#L${d.line}`, "data-focus-key": `diag-${d.line}-${d.column}`, onclick: (e) => { e.preventDefault(); const row = document.getElementById("L" + d.line); if (row) { row.scrollIntoView({ block: "center" }); row.classList.add("flash"); } } }, `Line ${d.line}:${d.column}`)
              : h("span", {}, d.line ? `Line ${d.line}:${d.column}` : "File"),
            " ", h("span", { class: "badge severity-" + d.severity }, d.severity), " ", d.message)))) : null,
        rules.status === "none" && !rules.source
          ? h("p", { class: "empty" }, "No rules file: every request is allowed, as in Google's emulator. Start Hearth with --rules to load one.")
          : [h("div", { class: "legend", "aria-hidden": "true" }, "Evaluations per line: ", [1, 2, 3, 4, 5].map((l) => h("span", { class: "swatch heat-" + l }, " ")), " · ", h("span", { class: "swatch heat-none" }, " "), " never evaluated"),
            rulesSource((rules.source || "").split("\n"), { coverage, diagnostics: failed ? [] : diagnostics })]);
      if (focusKey) { const again = content.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`); if (again) again.focus(); }
      content.dataset.state = "ready";
    };
    await load();
    // Coverage follows the requests: reloaded at most once a second while requests arrive.
    let pending = null;
    stream("/ui/api/requests/events", {
      request: () => { if (!pending) pending = setTimeout(() => { pending = null; load(); }, 1000); },
    }, (s) => status.set(s));
    view.cleanups.push(() => clearTimeout(pending));
  }

  async function notFoundPage() {
    document.title = "Not found · Hearth Console";
    main.replaceChildren(h("h1", {}, "Not found"), h("p", {}, "There is no console page here. ", h("a", { href: "/ui/" }, "Go to the overview"), "."));
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !dialog.open && parseRoute().page === "requests" && parseRoute().id) {
      const route = parseRoute();
      navigate(links.requests(route.project, route.database), { keepFocus: false });
    }
  });

  // Leaving the page (a reload, another site, the back/forward cache) closes every stream:
  // an EventSource left open in a cached page holds one of the browser's six connections to
  // the server until the cache evicts the page. Coming back from the cache opens them again.
  window.addEventListener("pagehide", () => {
    for (const cleanup of view.cleanups.splice(0)) { try { cleanup(); } catch (_) { /* closed */ } }
    if (explorer.close) { explorer.close(); explorer.close = null; explorer.suspended = true; }
    view.page = null;
    view.token++;
  });
  window.addEventListener("pageshow", (event) => { if (event.persisted) render({ keepFocus: true }); });
  // A tab hidden for a while closes its streams too (several console tabs would otherwise use up
  // the six connections); shown again, it draws the same view afresh and listens again.
  let hiddenTimer = 0, suspended = false;
  document.addEventListener("visibilitychange", () => {
    clearTimeout(hiddenTimer);
    if (document.hidden) {
      hiddenTimer = setTimeout(() => {
        if (dialog.open) return;
        suspended = true;
        for (const cleanup of view.cleanups.splice(0)) { try { cleanup(); } catch (_) { /* closed */ } }
        if (explorer.close) { explorer.close(); explorer.close = null; explorer.suspended = true; explorer.setStatus("closed"); }
      }, timings.suspendAfterMs);
    } else if (suspended) {
      suspended = false;
      render({ keepFocus: true, initial: true });
    }
  });

  render({ initial: true });
})();
