// The data page: collections, a collection's documents with paging and a live listener, and
// the open document's fields with their editors.

import {
  PAGE_SIZE, api, button, confirmDialog, dbName, docsUrl, emulatorUrl, enc, errorBox, formatTime, h,
  isCurrent, labelled, links, liveBadge, main, openDialog, timings, toast, view
} from "./core.js";
import {
  arrayItems, displayPath, mapFields, sortedKeys, summary, typeLabel, typeOf, valueAt, valueCell,
  valueEditor, writeField
} from "./values.js";
import { clearAllData } from "./overview.js";
import { navigate } from "./main.js";

// ---- Data -------------------------------------------------------------------------------

// The collection pane's state lives across navigations inside one collection: the page of
// documents, the stack of page tokens (previous/next) and the listener. That one listener
// (one EventSource per tab: browsers allow six connections to a host) also feeds the open
// document, through `onDocument`; `badges` show its status.
export const explorer = {
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

export async function dataPage(route, token) {
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
export function fieldTree(fields, prefix, ctx, docPath, editable, depth = 0) {
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
