// The requests page: the live request log, its filters, and a request's details with the
// rules evaluation behind its verdict.

import {
  FLUSH_MS, REQUEST_ROWS, api, button, clockTime, dbName, enc, errorBox, fill, h, isCurrent, labelled,
  links, liveBadge, main, parseRoute, stream, view
} from "./core.js";
import { fieldTree } from "./data.js";
import { rulesSource } from "./rules.js";

// ---- Requests ---------------------------------------------------------------------------

const identity = (caller) => caller === "owner" ? "owner" : caller === "unauthenticated" ? "nobody" : !caller || caller === "-" ? "—" : caller;
const identityTitle = (caller) => caller === "owner" ? "The owner (admin credentials, rules skipped)" : caller === "unauthenticated" ? "No credentials" : !caller || caller === "-" ? "Not applicable" : `Signed-in user ${caller}`;
const verdictText = { admin: "admin", allowed: "allowed", denied: "denied", "-": "—" };

export async function requestsPage(route, token) {
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
    if (text && !(entry.path || "").includes(text) && !(entry.documents || []).some((name) => name.includes(text))) return false;
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
      h("td", { class: "path" }, h("a", { href, "data-keep-focus": true, "data-focus-key": "request-" + entry.id, "aria-label": `Request ${entry.id}: ${entry.method} ${entry.path || ""}` }, shortPath(entry.path, entry)),
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
// A request's path without its database: "users/alice", "-" when there is none. A request on
// the database itself (a commit, a batch get) shows the first document it named and how many
// more ("users/alice +2"), or "(database)" when it named none.
function shortPath(path, entry) {
  if (!path || path === "-") return "—";
  const rest = path.replace(/^\/?(v1\/|emulator\/v1\/)?projects\/[^/]+\/databases\/[^/:]+(\/documents)?\/?/, "");
  if (rest !== "" && !rest.startsWith(":")) return rest;
  const names = (entry && entry.documents) || [];
  if (!names.length) return rest === "" ? "(database)" : rest;
  const more = (entry.documentCount || names.length) - 1;
  return shortPath(names[0]) + (more > 0 ? ` +${more}` : "");
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
      ...documentFacts(entry),
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
// The documents a request on the database named, as a fact of its details: each one, and how
// many more the log did not keep.
function documentFacts(entry) {
  const names = entry.documents || [];
  if (!names.length) return [];
  const more = (entry.documentCount || names.length) - names.length;
  return [h("dt", {}, "Documents"), h("dd", { id: "request-documents" },
    h("ul", { class: "plain-list" }, ...names.map((name) => h("li", {}, h("code", {}, shortPath(name))))),
    more > 0 ? h("span", { class: "muted" }, `and ${more} more`) : null)];
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
