#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The only unsafe code of the rules evaluator (issue 19). Everything else calls the safe
// wrappers below. Each trick stays because it pays for itself: the figure is the cost of a
// decision (the `HearthBenchmarks rules` create under rules/firestore.rules, instructions counted
// by callgrind, 14,442 per decision with every trick) with that trick replaced by its safe
// equivalent; see BENCHMARKS.md, "Unsafe code in the rules evaluator (#19)". Tricks measured
// below 3% of a decision were dropped (`@exclusivity(unchecked)` on the evaluation's counters,
// whose checks the optimizer removes anyway; buffer pointers in map scans and in the pattern
// automaton).
//
// `@exclusivity(unchecked)` that stays: `EvalContext.slots` and `PreparedRequest.fieldCache`
// (see `SlotStack`). Their owners are used by one thread, and every access is a single read or
// write of the stack or cache that calls nothing, so no two accesses overlap.
//
// `@unchecked Sendable` that stays, with why it is sound:
// - `CompiledAllow` (Compile/CompiledRuleset.swift): its condition is a tree of `Node`s, which are
//   not `Sendable` (a non-final class cannot be checked). Every node is immutable once compiled
//   (`let` properties of `Sendable` values, child nodes, compiled patterns and method tables), so
//   threads evaluating the ruleset only read them.
// - `CompiledFunction` (Evaluate/Nodes+Calls.swift): its body is set once by the compiler before
//   the ruleset exists, and cleared only by the ruleset's `deinit` (to end the cycle of a
//   recursive function), when nothing evaluates any more.
// - `Unretained` of a `Sendable` object (below; `Unmanaged` is not `Sendable`): it is that
//   object's reference without the count, so sharing it is as safe as sharing the object, given
//   the owner that keeps it alive (the method table's variants).

/// An object held strongly and read without reference counts: `with` lends it out through an
/// unretained reference to the same object. Sound with no condition on callers: the unretained
/// reference is to `object`, which this value holds, and a value is alive while its method runs.
///
/// The trick (child nodes of `&&` chains, of calls and of method calls, the called function,
/// and with `Unretained` the lazily bound arguments, the function body, the allow's match and
/// the method variants): 14,442 → 16,503 instructions per decision with all of these held
/// strongly instead (+14%; the match and the method variants alone, 15,415: +6.7%), since each
/// evaluated child otherwise takes a retain and a release (atomic operations).
struct Held<Object: AnyObject> {
    /// The object, owned.
    let object: Object
    private let unretained: Unmanaged<Object>

    init(_ object: Object) {
        self.object = object
        unretained = Unmanaged.passUnretained(object)
    }

    /// Calls `body` with the object, taking no reference count.
    @inline(__always)
    func with<Result>(_ body: (Object) -> Result) -> Result {
        unretained._withUnsafeGuaranteedRef(body)
    }
}

/// Objects held strongly and read without reference counts, as `Held`; an immutable list.
struct HeldList<Object: AnyObject> {
    /// The objects, owned.
    let objects: [Object]
    private let unretained: [Unmanaged<Object>]

    init(_ objects: [Object]) {
        self.objects = objects
        unretained = objects.map { Unmanaged.passUnretained($0) }
    }

    var count: Int { unretained.count }
    var indices: Range<Int> { unretained.indices }

    /// Calls `body` with the object at `index`, taking no reference count.
    @inline(__always)
    func with<Result>(_ index: Int, _ body: (Object) -> Result) -> Result {
        unretained[index]._withUnsafeGuaranteedRef(body)
    }
}

/// A reference to an object that something else keeps alive, read without reference counts.
/// Unlike `Held`, soundness rests on the user, and every use says who keeps the object:
/// - a lazily bound argument or `let` of a call (`EvalContext.Slot`): the node, held by the
///   called function or by the call node, which the ruleset holds for the whole evaluation;
/// - a user function's body (`CompiledFunction`): held by the function itself, set with it;
/// - the match of the allow being evaluated (`EvalContext.pathSource`): held by the ruleset;
/// - the variants of a method table (`MethodTable`): held by its `byTag`, set with them;
/// - the map of a slot or of a cached request field: held by the value stored beside it, which
///   stays until the slot is popped or the prepared request is freed. Reading members of
///   `data` parameters and of `request.resource.data` in place this way: 14,442 → 15,268
///   instructions per decision with the maps held strongly instead (+5.7%).
struct Unretained<Object: AnyObject> {
    private let reference: Unmanaged<Object>

    /// - Important: something else must keep `object` alive for as long as this value is used.
    init(_ object: Object) {
        reference = Unmanaged.passUnretained(object)
    }

    /// Calls `body` with the object, taking no reference count.
    @inline(__always)
    func with<Result>(_ body: (Object) -> Result) -> Result {
        reference._withUnsafeGuaranteedRef(body)
    }
}

extension Unretained: @unchecked Sendable where Object: Sendable {}

/// Whether two strings have the same representation: then they are equal (small strings hold
/// their bytes and length inline; others, the same storage and length). Unequal
/// representations prove nothing. Sound: `unsafeBitCast` checks that `String` is the size of
/// two words, and only equality of the bits is used, never their meaning.
///
/// The trick (with `exactlyEqual`'s small strings): map keys and literal key lists are usually
/// the literal's own small string, so most key lookups end at one comparison of two words.
/// Without it (every key compared by `==` and then by its bytes): 14,442 → 17,588 instructions
/// per decision (+22%); with the bytes compared by `elementsEqual` instead of `memcmp` too,
/// 36,877 (+155%).
@inline(__always)
func identicalRepresentation(_ lhs: String, _ rhs: String) -> Bool {
    representation(lhs) == representation(rhs)
}

@inline(__always)
private func representation(_ string: String) -> (UInt64, UInt64) {
    unsafeBitCast(string, to: (UInt64, UInt64).self)
}

/// Whether two strings of `count` UTF-8 bytes each that are canonically equivalent (`==`) have
/// the same bytes. Small strings (at most 15 bytes, held inline) are compared by
/// representation (the same bytes and length give the same bits); others with `memcmp` on
/// their contiguous storage, valid for the duration of the closures that lend it.
@usableFromInline
func exactlyEqual(_ lhs: String, _ rhs: String, count: Int) -> Bool {
    if count <= 15 {
        if identicalRepresentation(lhs, rhs) { return true }
    } else if let equal = lhs.utf8.withContiguousStorageIfAvailable({ left in
        rhs.utf8.withContiguousStorageIfAvailable { right in
            memcmp(left.baseAddress!, right.baseAddress!, count) == 0
        }
    }), let equal {
        return equal
    }
    return lhs.utf8.elementsEqual(rhs.utf8)
}

/// The caller's `RulesRequest`, lent by address to the `PreparedRequest` of a decision, which
/// reads it in place (`PreparedRequest.request`) instead of copying it. Only the functions below
/// make one, from an address valid during their call, and they stop the program if anything
/// still holds the prepared request (or an evaluation holding it) when the call returns, rather
/// than let it read the request after it is gone. Sound: only `PreparedRequest.request` below
/// reads the address, so a copy of the borrow taken out of the prepared request reads nothing.
///
/// The trick: copying the request costs a retain and a release per field at every decision:
/// 14,442 → 14,879 instructions per decision without it (+3.0%), and 3,434 → 3,864 (+12.5%)
/// for a decision whose condition is `true`.
struct BorrowedRequest {
    fileprivate let address: UnsafePointer<RulesRequest>

    fileprivate init(_ address: UnsafePointer<RulesRequest>) {
        self.address = address
    }
}

extension PreparedRequest {
    /// Calls `body` with `request` prepared for a decision (for a `list`, of the disjunct of
    /// its query that `listConstraints` describes).
    ///
    /// - Precondition: `body` keeps no reference to the prepared request.
    static func with<Result>(
        _ request: borrowing RulesRequest, listConstraints: QueryConstraints? = nil,
        _ body: (PreparedRequest) -> Result
    ) -> Result {
        withUnsafePointer(to: request) { address in
            var prepared = PreparedRequest(BorrowedRequest(address), listConstraints: listConstraints)
            let result = body(prepared)
            precondition(isKnownUniquelyReferenced(&prepared), "a prepared request outlived the request it borrows")
            return result
        }
    }

    /// Calls `body` with each of `requests` prepared for a decision, in order (the writes of a
    /// batch, decided together).
    ///
    /// - Precondition: `body` keeps no reference to the prepared requests.
    static func withEach<Result>(_ requests: [RulesRequest], _ body: ([PreparedRequest]) -> Result) -> Result {
        requests.withUnsafeBufferPointer { buffer in
            var prepared = buffer.indices.map {
                PreparedRequest(BorrowedRequest(buffer.baseAddress! + $0), listConstraints: nil)
            }
            let result = body(prepared)
            for index in prepared.indices {
                precondition(
                    isKnownUniquelyReferenced(&prepared[index]), "a prepared request outlived the request it borrows")
            }
            return result
        }
    }

    /// The request, read in place.
    var request: RulesRequest {
        unsafeAddress { borrowed.address }
    }

    var method: RulesMethod { request.method }
}

/// The resolved `request.*` fields of one decision (`request.auth`, `request.resource.data`…),
/// each computed on first use and then read in place: a value and, when it is a map, the map
/// unretained (held by the value). Sound: `filled` has a bit for each initialized element, only
/// those are read or deinitialized, a filled element is never stored again, and the buffer is
/// owned by this value (it cannot be copied) and freed with it.
///
/// The trick: 14,442 → 17,587 instructions per decision with an array of optional fields read
/// by copy instead (+22%).
struct RequestFieldCache: ~Copyable {
    private var elements: UnsafeMutablePointer<(value: RValue, map: Unretained<RMap>?)>?
    private var filled: UInt64 = 0
    private let count: Int

    init(count: Int) {
        precondition(count <= 64, "one bit per field")
        self.count = count
    }

    deinit {
        guard let elements else { return }
        var remaining = filled
        while remaining != 0 {
            (elements + remaining.trailingZeroBitCount).deinitialize(count: 1)
            remaining &= remaining - 1
        }
        elements.deallocate()
    }

    /// Whether `slot` holds a value.
    @inline(__always)
    func contains(_ slot: Int) -> Bool {
        slot >= 0 && slot < count && filled & (1 << UInt64(slot)) != 0
    }

    /// The value of a filled slot, with its map.
    @inline(__always)
    func field(_ slot: Int) -> (value: RValue, map: Unretained<RMap>?) {
        precondition(contains(slot), "an empty field slot")
        return elements.unsafelyUnwrapped[slot]
    }

    /// The map of a filled slot, without copying its value.
    @inline(__always)
    func map(_ slot: Int) -> Unretained<RMap>? {
        precondition(contains(slot), "an empty field slot")
        return elements.unsafelyUnwrapped[slot].map
    }

    /// Fills an empty slot.
    @inline(__always)
    mutating func store(_ value: RValue, at slot: Int) {
        precondition(slot >= 0 && slot < count && !contains(slot), "a field slot filled twice")
        let buffer = elements ?? UnsafeMutablePointer.allocate(capacity: count)
        elements = buffer
        var map: Unretained<RMap>?
        if case .map(let object) = value { map = Unretained(object) }
        (buffer + slot).initialize(to: (value, map))
        filled |= 1 << UInt64(slot)
    }
}

/// The stack of arguments and `let`s of an evaluation (`EvalContext`), in a buffer it owns:
/// grown by doubling, never shrunk. Sound: `count` elements are initialized, every read is
/// checked against it, and the buffer is owned by this value (it cannot be copied) and freed
/// with it.
///
/// The trick, with the field cache's: the stack and the cache are `@exclusivity(unchecked)`
/// properties of their (single-threaded) owners, read and written in accesses that never
/// overlap (nothing is called during one). Their dynamic exclusivity checks cost 2,269
/// instructions per decision (+15.7%: `swift_beginAccess`/`swift_endAccess` in the profile of
/// a build without `@exclusivity(unchecked)`). The stack in an `Array` instead of this buffer
/// costs less than 3% (14,442 → 14,817, +2.6%, with its checks off); it stays a buffer for the
/// goal of 1.5 µs per decision, which the dropped tricks together (about +5%) put at risk.
struct SlotStack: ~Copyable {
    private var buffer: UnsafeMutablePointer<EvalContext.Slot>?
    private var capacity = 0
    private(set) var count = 0

    init() {}

    deinit {
        guard let buffer else { return }
        buffer.deinitialize(count: count)
        buffer.deallocate()
    }

    /// Appends a slot.
    mutating func push(_ slot: EvalContext.Slot) {
        if count == capacity {
            let grown = UnsafeMutablePointer<EvalContext.Slot>.allocate(capacity: max(16, count * 2))
            if let buffer {
                grown.moveInitialize(from: buffer, count: count)
                buffer.deallocate()
            }
            buffer = grown
            capacity = max(16, count * 2)
        }
        (buffer.unsafelyUnwrapped + count).initialize(to: slot)
        count += 1
    }

    /// Removes the slots from `newCount` on.
    mutating func pop(to newCount: Int) {
        guard newCount >= 0, count > newCount, let buffer else { return }
        (buffer + newCount).deinitialize(count: count - newCount)
        count = newCount
    }

    /// The state of a slot.
    @inline(__always)
    func state(_ index: Int) -> EvalContext.Slot.State {
        precondition(index >= 0 && index < count, "a slot outside the stack")
        return buffer.unsafelyUnwrapped[index].state
    }

    /// The map of a slot's value, if it holds one.
    @inline(__always)
    func map(_ index: Int) -> Unretained<RMap>? {
        precondition(index >= 0 && index < count, "a slot outside the stack")
        return buffer.unsafelyUnwrapped[index].map
    }

    /// Replaces a slot.
    mutating func replace(_ index: Int, with slot: EvalContext.Slot) {
        precondition(index >= 0 && index < count, "a slot outside the stack")
        buffer.unsafelyUnwrapped[index] = slot
    }
}
