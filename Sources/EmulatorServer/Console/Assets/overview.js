// The overview page: projects, their databases with document counts, rules status.

import {
  ago, api, button, confirmDialog, emulatorUrl, errorBox, fill, h, isCurrent, links, main, state, stream,
  toast, view
} from "./core.js";
import { explorer } from "./data.js";
import { loadOverview, render, updateChrome } from "./main.js";

// ---- Overview ---------------------------------------------------------------------------

export async function overviewPage(route, token) {
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
export function statusBadge(status) {
  const text = { loaded: "loaded", error: "error", none: "none (everything allowed)" }[status] || status;
  return h("span", { class: "badge status-" + status }, text);
}
export async function clearAllData(project, database) {
  const done = await confirmDialog(`Clear all data of ${project}?`,
    `Every document and collection of the database ${database} of ${project} is deleted. This cannot be undone.`,
    "Clear all data", () => api("DELETE", emulatorUrl(project, database)));
  if (!done) return;
  toast(`Cleared ${project} ${database}`);
  explorer.reset();
  state.overview = null;
  render({ keepFocus: true });
}
