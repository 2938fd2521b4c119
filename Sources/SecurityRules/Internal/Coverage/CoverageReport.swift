import DocumentModel
import Foundation

/// Renders coverage counts as the emulator's JSON and as HTML.
struct CoverageReport {
    let store: CoverageStore
    let fileName: String
    let source: String

    func json() -> String {
        let stats = store.snapshot()
        let table = store.table
        var writer = JSONWriter()
        func node(_ id: Int32, depth: Int) {
            let entry = table.entries[Int(id)]
            let entryStats = stats[Int(id)]
            writer.beginObject()
            writer.key("sourcePosition")
            CoverageJSON.writePosition(entry.span, source: store.source, to: &writer)
            if !entryStats.kept.isEmpty || entryStats.otherValues > 0 {
                writer.key("values")
                writer.beginArray()
                for (json, count) in entryStats.valuesByJSON {
                    writer.beginObject()
                    writer.key("value")
                    writer.fragment(json)
                    writer.key("count")
                    writer.number(count)
                    writer.endObject()
                }
                if entryStats.otherValues > 0 {
                    writer.beginObject()
                    writer.key("value")
                    writer.write(.object([JSONValue.Member("otherValues", .object([]))]))
                    writer.key("count")
                    writer.number(entryStats.otherValues)
                    writer.endObject()
                }
                writer.endArray()
            }
            // Like Google's report, expressions never evaluated are listed too, without values.
            let children = entry.children
            if !children.isEmpty && depth < 200 {
                writer.key("children")
                writer.beginArray()
                for child in children { node(child, depth: depth + 1) }
                writer.endArray()
            }
            writer.endObject()
        }
        writer.beginObject()
        writer.key("rules")
        writer.write(
            .object([
                JSONValue.Member(
                    "files",
                    .array([.object([JSONValue.Member("content", .string(source)), JSONValue.Member("name", .string(fileName))])]))
            ]))
        writer.key("report")
        writer.beginArray()
        for root in table.functionRoots + table.conditionRoots { node(root, depth: 0) }
        writer.endArray()
        writer.endObject()
        return writer.output
    }

    static func escapeHTML(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    func html() -> String {
        let stats = store.snapshot()
        let text = store.source
        var byLine: [Int: [(column: Int, snippet: String, stats: CoverageStore.Stats)]] = [:]
        for (index, entry) in store.table.entries.enumerated() {
            let (line, column) = text.lineAndColumn(of: Int(entry.span.start))
            var snippet = text.slice(entry.span).replacingOccurrences(of: "\n", with: " ")
            if snippet.count > 60 { snippet = String(snippet.prefix(57)) + "..." }
            byLine[line, default: []].append((column, snippet, stats[index]))
        }
        var rows = ""
        for line in 1...max(1, text.lineStarts.count) {
            let items = (byLine[line] ?? []).sorted { $0.column < $1.column }
            let status: String
            if items.isEmpty {
                status = ""
            } else if items.allSatisfy({ $0.stats.evaluations > 0 }) {
                status = "covered"
            } else if items.contains(where: { $0.stats.evaluations > 0 }) {
                status = "partial"
            } else {
                status = "missed"
            }
            let notes = items.map { item in
                let s = item.stats
                return "<li><code>\(CoverageReport.escapeHTML(item.snippet))</code> "
                    + "<span class=\"n\">\(s.evaluations)×</span> "
                    + "<span class=\"t\">true \(s.trueCount)</span> <span class=\"f\">false \(s.falseCount)</span> "
                    + "<span class=\"e\">error \(s.errorCount)</span></li>"
            }.joined()
            rows +=
                "<tr class=\"\(status)\"><td class=\"ln\">\(line)</td><td><pre>\(CoverageReport.escapeHTML(text.lineText(line)))</pre>"
                + (notes.isEmpty ? "" : "<ul>\(notes)</ul>") + "</td></tr>\n"
        }
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Rules coverage: \(CoverageReport.escapeHTML(fileName))</title>
            <style>
            body { font-family: -apple-system, sans-serif; margin: 1em; }
            table { border-collapse: collapse; width: 100%; }
            td { vertical-align: top; padding: 0 .5em; }
            td.ln { color: #888; text-align: right; width: 3em; }
            pre { margin: 0; }
            tr.covered { background: #e6f6e6; } tr.partial { background: #fff6d6; } tr.missed { background: #fbe3e3; }
            ul { margin: .2em 0 .4em 1em; padding: 0; font-size: 85%; list-style: none; }
            .t { color: #176f2c; } .f { color: #8a5a00; } .e { color: #b00020; } .n { font-weight: bold; }
            </style></head><body>
            <h1>Rules coverage: \(CoverageReport.escapeHTML(fileName))</h1>
            <table>
            \(rows)</table></body></html>
            """
    }
}
