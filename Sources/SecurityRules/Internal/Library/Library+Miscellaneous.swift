import DocumentModel
import Foundation

extension Library {
    static func diff(_ value: RValue) -> RMapDiff {
        if case .mapDiff(let diff) = value { return diff }
        return RMapDiff(added: [], removed: [], changed: [], unchanged: [])
    }

    static func keySet(_ keys: [String]) -> RValue { .set(RSet(keys.map(RValue.string))) }

    static let miscellaneousMethods: [Method] = [
        // MapDiff
        Method("addedKeys", on: "map_diff") { receiver, _, _, _ in keySet(diff(receiver).added) },
        Method("removedKeys", on: "map_diff") { receiver, _, _, _ in keySet(diff(receiver).removed) },
        Method("changedKeys", on: "map_diff") { receiver, _, _, _ in keySet(diff(receiver).changed) },
        Method("unchangedKeys", on: "map_diff") { receiver, _, _, _ in keySet(diff(receiver).unchanged) },
        Method("affectedKeys", on: "map_diff") { receiver, _, _, _ in
            let d = diff(receiver)
            return keySet(d.added + d.removed + d.changed)
        },
        // Bytes
        Method("size", on: "bytes") { receiver, _, _, _ in
            guard case .bytes(let bytes) = receiver else { return .null }
            return .int(Int64(bytes.count))
        },
        Method("toBase64", on: "bytes") { receiver, _, _, _ in
            guard case .bytes(let bytes) = receiver else { return .null }
            return .string(base64URL(bytes))
        },
        Method("toHexString", on: "bytes") { receiver, _, _, _ in
            guard case .bytes(let bytes) = receiver else { return .null }
            let digits = Array("0123456789ABCDEF".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 15)])
            }
            return .string(String(decoding: text, as: UTF8.self))
        },
        // LatLng
        Method("latitude", on: "latlng") { receiver, _, _, _ in
            guard case .latlng(let point) = receiver else { return .null }
            return .float(point.latitude)
        },
        Method("longitude", on: "latlng") { receiver, _, _, _ in
            guard case .latlng(let point) = receiver else { return .null }
            return .float(point.longitude)
        },
        Method("distance", on: "latlng", [["latlng"]]) { receiver, arguments, _, _ in
            guard case .latlng(let a) = receiver, case .latlng(let b) = arguments[0] else { return .null }
            return .float(haversine(a, b))
        },
        // Path
        Method("bind", on: "path", [["map"]]) { receiver, arguments, _, call in
            guard case .path(let path) = receiver else { return .null }
            return bind(path, map(arguments[0]), span: call.span)
        },
        Method("segments", on: "path") { receiver, _, _, _ in
            guard case .path(let path) = receiver else { return .null }
            return .list(path.segments.map(RValue.string))
        },
    ]

    /// The variable of a template segment (`{x}` or `{x=**}`) of a path made by `path()`.
    static func templateVariable(_ segment: String) -> (name: String, glob: Bool)? {
        guard segment.hasPrefix("{"), segment.hasSuffix("}"), segment.count > 2 else { return nil }
        let inner = segment.dropFirst().dropLast()
        if inner.hasSuffix("=**") { return (String(inner.dropLast(3)), true) }
        return (String(inner), false)
    }

    /// `path.bind(map)`: fills the template's variables.
    static func bind(_ path: RPath, _ values: RMap, span: SourceSpan) -> RValue {
        let variables = path.segments.compactMap { templateVariable($0)?.name }
        let unknown = values.keys.filter { !variables.contains($0) }
        if !unknown.isEmpty {
            return RError.value(
                "Variable(s) \(unknown.joined(separator: ", ")) do not exist in the path template.", span: span)
        }
        var segments: [String] = []
        for segment in path.segments {
            guard let (name, glob) = templateVariable(segment), let value = values[name] else {
                segments.append(segment)
                continue
            }
            if glob {
                guard case .path(let inner) = value else {
                    return RError.typeError(received: value.typeName, expected: "path", span: span)
                }
                segments += inner.segments
            } else {
                guard case .string(let text) = Conversions.toString(value, span: span) else {
                    return Conversions.toString(value, span: span)
                }
                if text.isEmpty {
                    return RError.value("Cannot bind empty value to path template variable \(name).", span: span)
                }
                segments.append(text)
            }
        }
        return .path(RPath(segments: segments))
    }

    /// Base64 with the URL-safe alphabet and padding, as `bytes.toBase64()` gives it.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(triple >> 18 & 63)])
            output.append(alphabet[Int(triple >> 12 & 63)])
            output.append(index + 1 < bytes.count ? alphabet[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
            output.append(index + 2 < bytes.count ? alphabet[Int(triple & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The great-circle distance in meters (haversine), on a sphere of the radius Google's
    /// runtime uses, 6,371,009 m.
    static func haversine(_ a: RLatLng, _ b: RLatLng) -> Double {
        let radius = 6_371_009.0
        let toRadians = Double.pi / 180
        let lat1 = a.latitude * toRadians
        let lat2 = b.latitude * toRadians
        let dLat = lat2 - lat1
        let dLng = b.longitude * toRadians - a.longitude * toRadians
        let sinLat = sin(dLat / 2)
        let sinLng = sin(dLng / 2)
        let h = sinLat * sinLat + cos(lat1) * cos(lat2) * (sinLng * sinLng)
        return 2 * radius * atan2(h.squareRoot(), (1 - h).squareRoot())
    }
}
