/// The Unicode classes of `\p{...}` and the case folding of `(?i)`, from RE2/J's tables
/// (`RE2UnicodeData`, Unicode 6.0) as Google's rules runtime has them.
enum UnicodeClasses {
    /// A range of scalars `first...last` taking every `stride`-th.
    struct StridedRange {
        let first: UInt32
        let last: UInt32
        let stride: UInt32
    }

    struct Tables {
        var classes: [String: [StridedRange]] = [:]
        /// What `(?i)` adds to a class (RE2/J's fold tables), by name.
        var foldAdditions: [String: [StridedRange]] = [:]
        /// The next member of each scalar's case folding orbit.
        var nextFold: [UInt32: UInt32] = [:]
    }

    static let tables: Tables = parse(RE2UnicodeData.text)

    /// The class of a category (`L`, `Lu`...), a script (`Greek`) or `Any`, and what `(?i)`
    /// adds to it; `nil` for other names.
    static func named(_ name: String) -> (set: CharacterClass, foldAdditions: CharacterClass)? {
        if name == "Any" { return (CharacterClass([0...CharacterClass.maxScalar]), CharacterClass([])) }
        guard let strided = tables.classes[name] else { return nil }
        return (expand(strided), expand(tables.foldAdditions[name] ?? []))
    }

    static func expand(_ strided: [StridedRange]) -> CharacterClass {
        var ranges: [ClosedRange<UInt32>] = []
        for range in strided {
            if range.stride == 1 {
                ranges.append(range.first...range.last)
            } else {
                for value in Swift.stride(from: range.first, through: range.last, by: Int(range.stride)) {
                    ranges.append(value...value)
                }
            }
        }
        return CharacterClass(ranges)
    }

    /// The scalars equal to `value` under simple case folding, `value` first.
    static func orbit(_ value: UInt32) -> [UInt32] {
        var result = [value]
        var next = tables.nextFold[value] ?? value
        while next != value, result.count < 8 {
            result.append(next)
            next = tables.nextFold[next] ?? value
        }
        return result
    }

    static func parse(_ text: String) -> Tables {
        var tables = Tables()
        for record in text.split(separator: ";") {
            let fields = record.split(separator: ":", maxSplits: 2)
            guard fields.count == 3 else { continue }
            if fields[0] == "F" {
                var previous: UInt32 = 0
                for item in fields[2].split(separator: ",") {
                    let negative = item.contains("-")
                    let parts = item.split(whereSeparator: { $0 == "+" || $0 == "-" })
                    guard parts.count == 2, let delta = UInt32(parts[0], radix: 36),
                        let offset = UInt32(parts[1], radix: 36)
                    else { continue }
                    let scalar = previous + delta
                    tables.nextFold[scalar] = negative ? scalar - offset : scalar + offset
                    previous = scalar
                }
            } else {
                var ranges: [StridedRange] = []
                var previous: UInt32 = 0
                for item in fields[2].split(separator: ",") {
                    let strideParts = item.split(separator: "/")
                    let lengthParts = strideParts[0].split(separator: "+")
                    guard let delta = UInt32(lengthParts[0], radix: 36) else { continue }
                    let first = previous + delta
                    let length = lengthParts.count > 1 ? UInt32(lengthParts[1], radix: 36) ?? 0 : 0
                    let stride = strideParts.count > 1 ? UInt32(strideParts[1], radix: 36) ?? 1 : 1
                    ranges.append(StridedRange(first: first, last: first + length, stride: max(stride, 1)))
                    previous = first + length
                }
                if fields[0] == "X" || fields[0] == "Y" {
                    tables.foldAdditions[String(fields[1])] = ranges
                } else {
                    tables.classes[String(fields[1])] = ranges
                }
            }
        }
        return tables
    }
}
