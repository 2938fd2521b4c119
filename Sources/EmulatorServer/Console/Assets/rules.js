// The rules page (the rules source with diagnostics and the coverage heat map) and the
// numbered rules source the requests page shows too.

import {
  ago, api, button, enc, errorBox, fill, formatTime, h, isCurrent, liveBadge, main, state, stream, view
} from "./core.js";
import { statusBadge } from "./overview.js";

// The rules source as numbered lines; evaluated lines carry rule-line-true/false/error and
// their outcomes as text, coverage lines a heat class and counts.
export function rulesSource(lines, { evaluations = [], coverage = null, diagnostics = [] }) {
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

export async function rulesPage(route, token) {
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
