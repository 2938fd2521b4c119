import Synchronization

/// The Unicode classes of `\p{...}`: general categories (`L`, `Lu`, `Nd`...), computed once from
/// Swift's Unicode properties, and the common scripts by their blocks.
enum UnicodeClasses {
    private static let cache = Mutex<[String: CharacterClass]>([:])

    static func named(_ name: String) -> CharacterClass? {
        if let cached = cache.withLock({ $0[name] }) { return cached }
        guard let computed = compute(name) else { return nil }
        cache.withLock { $0[name] = computed }
        return computed
    }

    private static func categories(_ name: String) -> Set<String>? {
        let all = [
            "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po",
            "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn",
        ]
        if name.count == 1 {
            let matching = all.filter { $0.hasPrefix(name) }
            return matching.isEmpty ? nil : Set(matching)
        }
        return all.contains(name) ? [name] : nil
    }

    private static func code(_ category: Unicode.GeneralCategory) -> String {
        switch category {
        case .uppercaseLetter: "Lu"
        case .lowercaseLetter: "Ll"
        case .titlecaseLetter: "Lt"
        case .modifierLetter: "Lm"
        case .otherLetter: "Lo"
        case .nonspacingMark: "Mn"
        case .spacingMark: "Mc"
        case .enclosingMark: "Me"
        case .decimalNumber: "Nd"
        case .letterNumber: "Nl"
        case .otherNumber: "No"
        case .connectorPunctuation: "Pc"
        case .dashPunctuation: "Pd"
        case .openPunctuation: "Ps"
        case .closePunctuation: "Pe"
        case .initialPunctuation: "Pi"
        case .finalPunctuation: "Pf"
        case .otherPunctuation: "Po"
        case .mathSymbol: "Sm"
        case .currencySymbol: "Sc"
        case .modifierSymbol: "Sk"
        case .otherSymbol: "So"
        case .spaceSeparator: "Zs"
        case .lineSeparator: "Zl"
        case .paragraphSeparator: "Zp"
        case .control: "Cc"
        case .format: "Cf"
        case .surrogate: "Cs"
        case .privateUse: "Co"
        case .unassigned: "Cn"
        @unknown default: "Cn"
        }
    }

    static let scripts: [String: [ClosedRange<UInt32>]] = [
        "Latin": [
            0x41...0x5A, 0x61...0x7A, 0xAA...0xAA, 0xBA...0xBA, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2B8, 0x2E0...0x2E4,
            0x1D00...0x1D25, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xFF21...0xFF3A, 0xFF41...0xFF5A,
        ],
        "Greek": [0x370...0x373, 0x375...0x377, 0x37A...0x37D, 0x37F...0x3FF, 0x1F00...0x1FFF],
        "Cyrillic": [0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F],
        "Armenian": [0x531...0x58A],
        "Hebrew": [0x591...0x5F4, 0xFB1D...0xFB4F],
        "Arabic": [0x600...0x6FF, 0x750...0x77F, 0x8A0...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF],
        "Devanagari": [0x900...0x97F, 0xA8E0...0xA8FF],
        "Thai": [0xE01...0xE5B],
        "Georgian": [0x10A0...0x10FF],
        "Hangul": [0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF],
        "Hiragana": [0x3041...0x309F],
        "Katakana": [0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D],
        "Han": [0x2E80...0x2FD5, 0x3005...0x3007, 0x3021...0x3029, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
            0x20000...0x2FA1F],
    ]

    private static func compute(_ name: String) -> CharacterClass? {
        if name == "Any" { return CharacterClass([0...CharacterClass.maxScalar]) }
        if let script = scripts[name] { return CharacterClass(script) }
        guard let wanted = categories(name) else { return nil }
        var ranges: [ClosedRange<UInt32>] = []
        var start: UInt32?
        for value in UInt32(0)...CharacterClass.maxScalar {
            let matches: Bool
            if let scalar = Unicode.Scalar(value) {
                matches = wanted.contains(code(scalar.properties.generalCategory))
            } else {
                matches = wanted.contains("Cs")
            }
            if matches {
                if start == nil { start = value }
            } else if let first = start {
                ranges.append(first...(value - 1))
                start = nil
            }
        }
        if let first = start { ranges.append(first...CharacterClass.maxScalar) }
        return CharacterClass(ranges)
    }
}
