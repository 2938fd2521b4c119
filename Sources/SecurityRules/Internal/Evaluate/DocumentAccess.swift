import DocumentModel

/// The document reads of one request (`get`, `exists`, `getAfter`, `existsAfter`): cached,
/// counted against the request's access limit.
///
/// Google's runtime counts each function and document pair once (a `get` and an `exists` of
/// one document count twice) and does not count reads of the requested document itself.
final class DocumentAccess {
    enum Function: String {
        case get, exists, getAfter, existsAfter

        var after: Bool { self == .getAfter || self == .existsAfter }
        var returnsDocument: Bool { self == .get || self == .getAfter }
    }

    struct Key: Hashable {
        let function: Function
        let name: DocumentName
    }

    let lookup: any DocumentLookup
    let limit: Int
    let ownDocument: DocumentName?
    let tracker: RulesAccessTracker?
    private var cache: [Key: Document?] = [:]
    private(set) var counted = 0

    init(lookup: any DocumentLookup, limit: Int, ownDocument: DocumentName?, tracker: RulesAccessTracker?) {
        self.lookup = lookup
        self.limit = limit
        self.ownDocument = ownDocument
        self.tracker = tracker
    }

    /// Reads a document for `function`, or returns the evaluation error.
    func read(_ function: Function, _ path: RPath, database: DatabaseID, span: SourceSpan) -> RValue {
        let failure = RError.value(DocumentAccess.serviceCallError(function, path), span: span)
        let segments = path.segments
        guard segments.count >= 5, segments.count % 2 == 1, segments[0] == "databases", segments[2] == "documents",
            let databaseID = try? DatabaseID(project: database.project, database: segments[1]),
            let name = try? DocumentName(databaseID, ResourcePath(segments: Array(segments[3...])))
        else { return failure }
        let key = Key(function: function, name: name)
        let document: Document?
        if let cached = cache[key] {
            document = cached
        } else {
            if name != ownDocument {
                let allowed = tracker?.record("\(function.rawValue) \(name)", limit: limit) ?? (counted < limit)
                guard allowed else { return failure }
                counted += 1
            }
            do {
                document = function.after ? try lookup.documentAfter(name) : try lookup.document(name)
            } catch {
                return failure
            }
            cache[key] = document
        }
        if function.returnsDocument {
            guard let document else { return failure }
            return DocumentObject.value(document)
        }
        return .bool(document != nil)
    }

    /// `Service call error. Function: [get], Argument: [path_value {...}].`, the path written
    /// as a text protocol buffer as Google's runtime writes it.
    static func serviceCallError(_ function: Function, _ path: RPath) -> String {
        var text = "path_value {\n"
        for segment in path.segments {
            text += "  segments {\n    simple: \"\(textProtoEscaped(segment))\"\n  }\n"
        }
        text += "}\n"
        return "Service call error. Function: [\(function.rawValue)], Argument: [\(text)]."
    }

    /// A string as a text protocol buffer writes it: printable ASCII, escapes, octal bytes.
    static func textProtoEscaped(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): result += "\\\""
            case UInt8(ascii: "'"): result += "\\'"
            case UInt8(ascii: "\\"): result += "\\\\"
            case UInt8(ascii: "\n"): result += "\\n"
            case UInt8(ascii: "\r"): result += "\\r"
            case UInt8(ascii: "\t"): result += "\\t"
            case 0x20..<0x7F: result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let octal = String(byte, radix: 8)
                result += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return result
    }
}

extension Library {
    static func document(_ function: DocumentAccess.Function) -> (String, Global) {
        global(function.rawValue, Signature(function.rawValue, [["path"]]), reads: true) { arguments, _, call in
            let context = call.context
            guard context.phase == .second else { return context.unknown(at: call.span) }
            guard case .path(let path) = arguments[0] else { return .null }
            return context.documents.read(function, path, database: context.request.database, span: call.span)
        }
    }

    static let documentGlobals: [String: Global] = Dictionary(uniqueKeysWithValues: [
        document(.get), document(.exists), document(.getAfter), document(.existsAfter),
    ])
}
