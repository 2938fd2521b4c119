// Firestore values: their types, one-line summaries, the typed value editor, and field paths
// with the writes that change one field.

import { api, button, dbName, docsUrl, enc, formatTime, h, labelled, links } from "./core.js";

// ---- Values -----------------------------------------------------------------------------

const TYPES = [
  ["string", "string"], ["integer", "integer"], ["double", "double"], ["boolean", "boolean"],
  ["timestamp", "timestamp"], ["null", "null"], ["map", "map"], ["array", "array"],
  ["geopoint", "geo point"], ["reference", "reference"], ["bytes", "bytes"], ["vector", "vector"],
];
export const typeLabel = (type) => (TYPES.find((t) => t[0] === type) || [type, type])[1];
function isVector(value) {
  const fields = value.mapValue && value.mapValue.fields;
  return !!(fields && fields.__type__ && fields.__type__.stringValue === "__vector__");
}
export function typeOf(value) {
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
export const arrayItems = (value) => (value.arrayValue && value.arrayValue.values) || [];
export const mapFields = (value) => (value.mapValue && value.mapValue.fields) || {};
const vectorItems = (value) => arrayItems(mapFields(value).value || {}).map((v) => Number(v.doubleValue ?? v.integerValue ?? 0));
export const sortedKeys = (fields) => Object.keys(fields).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
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
export function summary(value) {
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
export function valueCell(value) {
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

// The typed editor: a type select and the inputs for that type; read() gives a Firestore value.
// A map or an array is edited as its fields or elements, each with an editor of its own, so a
// timestamp, a reference or a 64-bit integer deep inside keeps its type and its value.
export function valueEditor(initial, context) {
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
      const entries = entriesEditor(type, sameType(type) ? initial : null, context);
      inputs.append(entries.element);
      read = entries.read;
    }
  }
  typeSelect.addEventListener("change", build);
  build();
  return { element: h("div", { class: "value-editor" }, labelled("Type", typeSelect), inputs), read: () => read(), typeSelect };
}

// The fields of a map or the elements of an array, each in a fieldset with its own typed editor
// (a field's name too), with buttons to add and remove entries.
function entriesEditor(type, initial, context) {
  const isMap = type === "map";
  const noun = isMap ? "field" : "element";
  const list = h("div", { class: "entries" });
  const empty = h("p", { class: "hint" }, isMap ? "An empty map until a field is added." : "An empty array until an element is added.");
  const entries = [];
  const renumber = () => {
    empty.hidden = entries.length > 0;
    entries.forEach((entry, index) => {
      entry.legend.textContent = `${isMap ? "Field" : "Element"} ${index + 1}`;
      entry.remove.setAttribute("aria-label", `Remove ${noun} ${index + 1}`);
    });
  };
  function add(key, value) {
    const editor = valueEditor(value, context);
    const name = isMap ? h("input", { type: "text", "data-role": "key", autocomplete: "off", spellcheck: "false" }) : null;
    if (name) name.value = key;
    const entry = { editor, name, legend: h("legend", {}) };
    entry.remove = button("Remove", () => {
      entries.splice(entries.indexOf(entry), 1);
      entry.element.remove();
      renumber();
      addButton.focus();
    }, { class: "link small danger-text" });
    entry.element = h("fieldset", { class: "entry" }, entry.legend, name ? labelled("Name", name) : null, editor.element, entry.remove);
    entries.push(entry);
    list.append(entry.element);
    renumber();
    return entry;
  }
  const addButton = button(isMap ? "Add a field" : "Add an element", () => {
    const entry = add("", null);
    (entry.name || entry.editor.typeSelect).focus();
  }, { class: "secondary small", "data-role": "add-entry" });
  if (initial && isMap) for (const key of sortedKeys(mapFields(initial))) add(key, mapFields(initial)[key]);
  if (initial && !isMap) for (const item of arrayItems(initial)) add("", item);
  renumber();
  const read = () => {
    const values = entries.map((entry, index) => {
      const what = isMap ? `field ${JSON.stringify(entry.name.value)}` : `element ${index + 1}`;
      if (isMap && !entry.name.value) throw new Error(`Field ${index + 1} has no name.`);
      let value;
      try { value = entry.editor.read(); } catch (error) { throw new Error(`In ${what}: ${error.message}`); }
      if (!isMap && typeOf(value) === "array") throw new Error(`Element ${index + 1} is an array: an array cannot hold another array directly (put it in a map).`);
      return value;
    });
    if (!isMap) return { arrayValue: { values } };
    const names = new Set();
    for (const entry of entries) {
      if (names.has(entry.name.value)) throw new Error(`Two fields are named ${JSON.stringify(entry.name.value)}.`);
      names.add(entry.name.value);
    }
    // fromEntries makes every name an own property, "__proto__" too.
    return { mapValue: { fields: Object.fromEntries(entries.map((entry, index) => [entry.name.value, values[index]])) } };
  };
  return { element: h("div", { class: "entries-editor" }, empty, list, addButton), read };
}

// ---- Field paths ------------------------------------------------------------------------

// A path into a document: string segments are map keys, numbers are array indexes.
export const displayPath = (path) => path.map((s, i) => (typeof s === "number" ? `[${s}]` : (i ? "." : "") + s)).join("");
const quoteSegment = (s) => (/^[A-Za-z_][A-Za-z_0-9]*$/.test(s) ? s : "`" + s.replace(/\\/g, "\\\\").replace(/`/g, "\\`") + "`");
const fieldPath = (keys) => keys.map(quoteSegment).join(".");
export function valueAt(fields, path) {
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
export async function writeField(ctx, segments, fields, path, newValue) {
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
