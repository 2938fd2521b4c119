import DocumentModel
import Foundation

/// The export of Google's emulator kept in `Fixtures/google-export` (made by
/// `Tests/Interop/export_roundtrip.py`'s value cases through its export endpoint), and the
/// documents it holds, as they must read into `database`.
enum GoogleFixture {
    static var folder: String {
        Bundle.module.resourcePath! + "/Fixtures/google-export/firestore_export_1795724546"
    }
    static var output: String { folder + "/all_namespaces/all_kinds/output-0" }
    static var metadata: String { folder + "/firestore_export_1795724546.overall_export_metadata" }

    /// Where the tests import it: another project than the exported one.
    static let database = try! DatabaseID(project: "demo-imported")
    /// The project it was exported from, which its references keep.
    static let exported = try! DatabaseID(project: "demo-interop")

    static func name(_ path: String) -> DocumentName { try! DocumentName(database, path) }
    static func exportedName(_ path: String) -> DocumentName { try! DocumentName(exported, path) }

    /// Every document of the fixture, by path.
    static var documents: [String: MapValue] {
        var deep: Value = ["leaf": 1]
        for _ in 0..<19 { deep = ["m": deep] }
        return [
            "t/null": ["v": nil],
            "t/bool": ["t": true, "f": false],
            "t/ints": ["a": 0, "b": -1, "c": .integer(.max), "d": .integer(.min), "e": 42],
            "t/dbl": [
                "a": 1.5, "nan": .double(.nan), "pinf": .double(.infinity), "ninf": .double(-.infinity),
                "nz": .double(-0.0), "z": 0.0,
            ],
            "t/ts": ["a": .timestamp(try! Timestamp(rfc3339: "2024-01-02T03:04:05.123456Z")), "b": .timestamp(.min)],
            "t/str": ["a": "héllo 😀", "e": "", "long": .string(String(repeating: "x", count: 2000))],
            "t/bytes": ["a": .bytes([0, 1, 255]), "e": .bytes([])],
            "t/ref": [
                "a": .reference(exportedName("t/other")), "b": .reference(exportedName("a/b/c/d")),
                "n": .reference(exportedName("t/__id5__")),
            ],
            "t/geo": [
                "a": .geoPoint(try! GeoPoint(latitude: 1.5, longitude: -2.25)),
                "z": .geoPoint(try! GeoPoint(latitude: -0.0, longitude: 0.0)),
            ],
            "t/arr": ["a": [1, "x", nil, ["m": [1, 2]]], "e": []],
            "t/map": ["a": ["b": ["c": 1]], "e": .map(MapValue()), "sp.ec ial": ["`q": 1]],
            "t/vec": ["a": .vector([1.0, -0.0, 3.5])],
            "t/__id7__": ["x": 1],
            "t/__id-3__": ["x": 1],
            "t/sp ace%é": ["x": 1],
            "missing/p/sub/child": ["x": 1],
            "t/null/sub/c2": ["x": 1],
            "t/empty": MapValue(),
            "t/deep": ["m": deep],
        ]
    }
}
