// Hearth Console: one page, routed on location.pathname (see Docs/Console.md). No framework:
// `h` builds elements, each page renders into <main>, and everything it opens (EventSources,
// timers) is closed by the view's cleanup when the route changes. This module is the entry: it
// routes, renders the page for the route, and closes streams when the tab is left or hidden.

import {
  api, databaseSelect, dialog, errorBox, h, links, main, parseRoute, projectSelect, state, timings, view
} from "./core.js";
import { overviewPage } from "./overview.js";
import { dataPage, explorer } from "./data.js";
import { requestsPage } from "./requests.js";
import { rulesPage } from "./rules.js";

export function navigate(url, { replace = false, keepFocus = false } = {}) {
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

export async function loadOverview() {
  try {
    state.overview = await api("GET", "/ui/api/overview");
  } catch (error) {
    state.overview = state.overview || { projects: [] };
    throw error;
  }
  return state.overview;
}

export function updateChrome(route) {
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

export async function render({ keepFocus = false, initial = false } = {}) {
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
