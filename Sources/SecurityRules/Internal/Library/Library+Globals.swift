import Foundation

extension Library {
    static let conversionGlobals: [String: Global] = Dictionary(uniqueKeysWithValues: [
        global("int", Signature("int", [["int"], ["float"], ["string"]])) { arguments, _, call in
            Conversions.toInt(arguments[0], span: call.span)
        },
        global("float", Signature("float", [["int"], ["float"], ["string"]])) { arguments, _, call in
            Conversions.toFloat(arguments[0], span: call.span)
        },
        global("string", Conversions.stringSignature) { arguments, _, call in
            Conversions.toString(arguments[0], span: call.span)
        },
        global("path", Signature("path", [["string"]])) { arguments, _, call in
            guard case .string(let text) = arguments[0] else { return .null }
            return Conversions.toPath(text, span: call.span)
        },
        global("vector", Signature("vector", [["list"]])) { arguments, _, call in
            var values: [Double] = []
            for element in list(arguments[0]) {
                switch element {
                case .int(let number): values.append(Double(number))
                case .float(let number): values.append(number)
                default: return RError.typeError(received: element.typeName, expected: "float", span: call.span)
                }
            }
            return .vector(values)
        },
        global("debug", Signature("debug", [["any"]])) { arguments, _, _ in arguments[0] },
    ])

    static func number(_ value: RValue) -> Double { Conversions.double(value) }

    static let mathGlobals: [String: Global] = Dictionary(uniqueKeysWithValues: [
        global("math.abs", Signature("math.abs", [["int"], ["float"]])) { arguments, _, call in
            switch arguments[0] {
            case .int(let value):
                return value == .min ? RError.integerOverflow(span: call.span) : .int(abs(value))
            case .float(let value): return .float(abs(value))
            default: return .null
            }
        },
        global("math.ceil", Signature("math.ceil", [["int"], ["float"]])) { arguments, _, _ in
            .float(number(arguments[0]).rounded(.up))
        },
        global("math.floor", Signature("math.floor", [["int"], ["float"]])) { arguments, _, _ in
            .float(number(arguments[0]).rounded(.down))
        },
        global("math.round", Signature("math.round", [["int"], ["float"]])) { arguments, _, _ in
            if case .int = arguments[0] { return arguments[0] }
            // Java's Math.round: the nearest integer, halves up.
            let value = number(arguments[0])
            if value.isNaN { return .int(0) }
            let rounded = (value + 0.5).rounded(.down)
            if rounded >= 0x1p63 { return .int(.max) }
            if rounded < -0x1p63 { return .int(.min) }
            return .int(Int64(rounded))
        },
        global("math.sqrt", Signature("math.sqrt", [["int"], ["float"]])) { arguments, _, _ in
            .float(number(arguments[0]).squareRoot())
        },
        global("math.pow", Signature("math.pow", [["number", "number"]])) { arguments, _, _ in
            .float(pow(number(arguments[0]), number(arguments[1])))
        },
        global("math.isInfinity", Signature("math.isInfinity", [["int"], ["float"]])) { arguments, _, _ in
            .bool(number(arguments[0]).isInfinite)
        },
        global("math.isNaN", Signature("math.isNaN", [["int"], ["float"]])) { arguments, _, _ in
            .bool(number(arguments[0]).isNaN)
        },
    ])

    static func hashInput(_ value: RValue) -> [UInt8] {
        switch value {
        case .string(let text): Array(text.utf8)
        case .bytes(let bytes): bytes
        default: []
        }
    }

    static func hashing(_ name: String, _ function: @escaping @Sendable ([UInt8]) -> [UInt8]) -> (String, Global) {
        global("hashing.\(name)", Signature("hashing.\(name)", [["bytes"], ["string"]])) { arguments, _, _ in
            .bytes(function(hashInput(arguments[0])))
        }
    }

    static let hashingGlobals: [String: Global] = Dictionary(uniqueKeysWithValues: [
        hashing("md5", Hashing.md5),
        hashing("sha256", Hashing.sha256),
        hashing("crc32") { Hashing.littleEndian(Hashing.crc32($0)) },
        hashing("crc32c") { Hashing.littleEndian(Hashing.crc32c($0)) },
    ])
}
