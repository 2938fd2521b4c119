import Foundation

/// The emulator's settings from `emulator.json`, the counterpart of `firebase.json`'s
/// `emulators` block. Every key is optional and unknown keys are ignored:
///
/// ```json
/// {"host": "127.0.0.1", "port": 8080, "projectId": "demo-app", "rules": "rules/firestore.rules",
///  "dataFolder": ".hearth/data", "logLevel": "info"}
/// ```
struct EmulatorConfiguration: Decodable, Equatable {
    /// The file's name, looked up in the current directory.
    static let fileName = "emulator.json"

    /// The address the server listens on.
    var host = "127.0.0.1"
    /// The port for gRPC, REST and the admin endpoints.
    var port = 8080
    /// The project used when a command names none.
    var projectId = "demo-hearth"
    /// The security rules file.
    var rules = "rules/firestore.rules"
    /// The folder that holds the data, relative to the current directory unless absolute.
    var dataFolder = ".hearth/data"
    /// The server's log level.
    var logLevel = "info"

    private enum CodingKeys: String, CodingKey {
        case host, port, projectId, rules, dataFolder, logLevel
    }

    /// The defaults.
    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        host = try container.decodeIfPresent(String.self, forKey: .host) ?? host
        port = try container.decodeIfPresent(Int.self, forKey: .port) ?? port
        projectId = try container.decodeIfPresent(String.self, forKey: .projectId) ?? projectId
        rules = try container.decodeIfPresent(String.self, forKey: .rules) ?? rules
        dataFolder = try container.decodeIfPresent(String.self, forKey: .dataFolder) ?? dataFolder
        logLevel = try container.decodeIfPresent(String.self, forKey: .logLevel) ?? logLevel
        guard (0...65535).contains(port) else {
            throw DecodingError.dataCorruptedError(
                forKey: .port, in: container, debugDescription: "must be from 0 to 65535, got \(port)")
        }
    }

    /// The configuration in `directory`'s `emulator.json`, or the defaults if there is none.
    ///
    /// - Throws: `CommandFailure` saying `emulator.json: <what is wrong>`.
    static func load(from directory: URL) throws -> EmulatorConfiguration {
        let file = directory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: file.path) else { return EmulatorConfiguration() }
        do {
            return try JSONDecoder().decode(EmulatorConfiguration.self, from: Data(contentsOf: file))
        } catch let error as DecodingError {
            throw CommandFailure("\(fileName): \(describe(error))")
        } catch {
            throw CommandFailure("\(fileName): \(error.localizedDescription)")
        }
    }

    /// A one-line account of a decoding error that names the key.
    private static func describe(_ error: DecodingError) -> String {
        func key(_ context: DecodingError.Context) -> String {
            context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context) where context.codingPath.isEmpty:
            return "expected a JSON object of settings, not \(type == [String: Any].self ? "this" : "\(type)")"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "'\(key(context))' must be \(type == Int.self ? "an integer" : "a string")"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            let detail = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "not valid JSON" + (detail.map { ": \($0)" } ?? "")
        case .dataCorrupted(let context):
            return "'\(key(context))' \(context.debugDescription)"
        case .keyNotFound(let key, _):
            return "'\(key.stringValue)' is missing"
        @unknown default:
            return "\(error)"
        }
    }
}
