import DocumentModel

/// The request of one decision, as the evaluation reads it. It borrows the caller's
/// `RulesRequest` (copying it would cost a retain per field at every decision), so it exists
/// only inside `with(_:listConstraints:_:)` and `withEach(_:_:)`: they make it from the address
/// of the request, valid only during the call, and stop the program if anything still holds
/// the prepared request (or an evaluation holding it) when the call returns, since that would
/// read the request after it is gone.
final class PreparedRequest {
    private let requestAddress: UnsafePointer<RulesRequest>
    let method: RulesMethod
    let listConstraints: QueryConstraints?

    /// - Important: `request` must stay valid (and unchanged) for the life of the object.
    private init(borrowing request: UnsafePointer<RulesRequest>, listConstraints: QueryConstraints?) {
        requestAddress = request
        method = request.pointee.method
        self.listConstraints = listConstraints
    }

    /// Calls `body` with `request` prepared for a decision (for a `list`, of the disjunct of
    /// its query that `listConstraints` describes).
    ///
    /// - Precondition: `body` keeps no reference to the prepared request.
    static func with<Result>(
        _ request: borrowing RulesRequest, listConstraints: QueryConstraints? = nil,
        _ body: (PreparedRequest) -> Result
    ) -> Result {
        withUnsafePointer(to: request) { address in
            var prepared = PreparedRequest(borrowing: address, listConstraints: listConstraints)
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
                PreparedRequest(borrowing: buffer.baseAddress! + $0, listConstraints: nil)
            }
            let result = body(prepared)
            for index in prepared.indices {
                precondition(
                    isKnownUniquelyReferenced(&prepared[index]), "a prepared request outlived the request it borrows")
            }
            return result
        }
    }

    /// The request.
    var request: RulesRequest {
        unsafeAddress { requestAddress }
    }

    var database: DatabaseID { request.database }

    /// The value of a resolved member chain, with its map when it is one (held by the value),
    /// for reading members without copying the value.
    struct CachedField {
        let value: RValue
        let map: Unmanaged<RMap>?
    }

    /// The values of resolved member chains, by field and phase: allocated on first use;
    /// `cachedFields` has a bit for each slot set (only those are initialized).
    @exclusivity(unchecked) private var fieldSlots: UnsafeMutablePointer<CachedField>?
    @exclusivity(unchecked) private var cachedFields: UInt64 = 0

    static let fieldSlotCount = 2 * RequestFieldNode.Field.allCases.count

    deinit {
        guard let fieldSlots else { return }
        var remaining = cachedFields
        while remaining != 0 {
            let slot = remaining.trailingZeroBitCount
            (fieldSlots + slot).deinitialize(count: 1)
            remaining &= remaining - 1
        }
        fieldSlots.deallocate()
    }

    /// The cached value of a field slot, computing it with `make` on first use.
    @inline(__always)
    func cachedField(_ slot: Int, _ make: () -> RValue) -> UnsafePointer<CachedField> {
        if cachedFields & (1 << UInt64(slot)) != 0, let fieldSlots { return UnsafePointer(fieldSlots + slot) }
        let value = make()
        var map: Unmanaged<RMap>?
        if case .map(let object) = value { map = Unmanaged.passUnretained(object) }
        let slots = fieldSlots ?? UnsafeMutablePointer<CachedField>.allocate(capacity: PreparedRequest.fieldSlotCount)
        fieldSlots = slots
        (slots + slot).initialize(to: CachedField(value: value, map: map))
        cachedFields |= 1 << UInt64(slot)
        return UnsafePointer(slots + slot)
    }

    /// `request`, built on first use.
    lazy var requestValue: RValue = .map(RMap(object: RequestObject(request)))

    /// `request` in the first phase (without `request.resource` when it depends on the stored document).
    lazy var firstPhaseRequestValue: RValue =
        request.newResourceDependsOnStoredDocument
        ? .map(RMap(object: RequestObject(request, firstPhase: true))) : requestValue

    /// `resource`, built on first use.
    lazy var resourceValue: RValue =
        method == .list
        ? .map(RMap(object: QueryResourceObject(listConstraints ?? QueryConstraints())))
        : DocumentObject.value(request.resource)
}
