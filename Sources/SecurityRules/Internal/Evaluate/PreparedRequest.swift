import DocumentModel

/// The request of one decision, as the evaluation reads it. It borrows the caller's
/// `RulesRequest` (`request`), so it exists only inside `with(_:listConstraints:_:)` and
/// `withEach(_:_:)` (Unsafe/UnsafeTricks.swift, with the reason).
final class PreparedRequest {
    /// The request's address, read only through `request` (a copy of it reads nothing).
    let borrowed: BorrowedRequest
    let listConstraints: QueryConstraints?

    init(_ borrowed: BorrowedRequest, listConstraints: QueryConstraints?) {
        self.borrowed = borrowed
        self.listConstraints = listConstraints
    }

    var database: DatabaseID { request.database }

    /// The values of resolved member chains, by field and phase, computed on first use.
    /// `@exclusivity(unchecked)`: see Unsafe/UnsafeTricks.swift.
    @exclusivity(unchecked) private var fieldCache = RequestFieldCache(count: 2 * RequestFieldNode.Field.allCases.count)

    /// The cached value of a field slot, computing it with `make` on first use; with its map
    /// when it is one (valid while the request is).
    @inline(__always)
    func cachedField(_ slot: Int, _ make: () -> RValue) -> (value: RValue, map: Unretained<RMap>?) {
        if !fieldCache.contains(slot) {
            let value = make()
            fieldCache.store(value, at: slot)
        }
        return fieldCache.field(slot)
    }

    /// The map of a field slot, as `cachedField`, without copying the value.
    @inline(__always)
    func cachedFieldMap(_ slot: Int, _ make: () -> RValue) -> Unretained<RMap>? {
        if !fieldCache.contains(slot) {
            let value = make()
            fieldCache.store(value, at: slot)
        }
        return fieldCache.map(slot)
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
