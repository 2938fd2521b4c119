import DocumentModel
import SecurityRules
import Foundation

/// The emulator's settings from `emulator.json`, the counterpart of `firebase.json`'s
/// `emulators` block. Every key is optional; an unknown key is ignored with a warning that names
/// the closest known one:
///
/// ```json
/// {"host": "127.0.0.1", "port": 8080, "projectId": "demo-app", "rules": "rules/firestore.rules",
///  "dataFolder": ".hearth/data", "logLevel": "info", "import": "seed", "exportOnExit": "seed"}
/// ```
struct EmulatorConfiguration: Decodable {
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
    /// An export (in Google's format) seeding every project's default database: this one at start, others on first use.
    var importPath: String?
    /// Where the project's default database is exported (firebase-tools layout) on a clean stop.
    var exportOnExit: String?

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case host, port, projectId, rules, dataFolder, logLevel, exportOnExit
        case importPath = "import"
    }

    /// The defaults.
    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        host = try container.decodeIfPresent(String.self, forKey: .host) ?? host
        projectId = try container.decodeIfPresent(String.self, forKey: .projectId) ?? projectId
        rules = try container.decodeIfPresent(String.self, forKey: .rules) ?? rules
        dataFolder = try container.decodeIfPresent(String.self, forKey: .dataFolder) ?? dataFolder
        logLevel = try container.decodeIfPresent(String.self, forKey: .logLevel) ?? logLevel
        importPath = try container.decodeIfPresent(String.self, forKey: .importPath)
        exportOnExit = try container.decodeIfPresent(String.self, forKey: .exportOnExit)
        // Decoded as a double so that 8080.5 gets this message rather than JSONDecoder's vague one.
        if let number = try container.decodeIfPresent(Double.self, forKey: .port) {
            guard let port = Int(exactly: number), (0...65535).contains(port) else {
                throw DecodingError.typeMismatch(
                    Int.self, DecodingError.Context(codingPath: [CodingKeys.port], debugDescription: "\(number)"))
            }
            self.port = port
        }
    }

    /// The configuration in `directory`'s `emulator.json`, or the defaults if there is none.
    ///
    /// - Throws: `CommandFailure` saying `emulator.json: <what is wrong>`.
    /// Unknown keys are reported to `warn` as `emulator.json: unknown key 'prot' (did you mean
    /// 'port'?); it is ignored`.
    static func load(
        from directory: URL, warn: (String) -> Void = EmulatorSession.printError
    ) throws -> EmulatorConfiguration {
        let file = directory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: file.path) else { return EmulatorConfiguration() }
        do {
            let data = try Data(contentsOf: file)
            // JSONDecoder reports no position for syntax errors; this parser does.
            let json = try JSONValue(parsing: [UInt8](data))
            let configuration = try JSONDecoder().decode(EmulatorConfiguration.self, from: data)
            if case .object(let members) = json {
                unknownKeyWarnings(members.map(\.key)).forEach(warn)
            }
            return configuration
        } catch let error as FirestoreError {
            throw CommandFailure("\(fileName): \(error.message)")
        } catch let error as DecodingError {
            throw CommandFailure("\(fileName): \(describe(error))")
        } catch {
            throw CommandFailure("\(fileName): \(error.localizedDescription)")
        }
    }

    /// One warning per key that is not a setting, with the closest setting if one is near.
    static func unknownKeyWarnings(_ keys: [String]) -> [String] {
        let known = CodingKeys.allCases.map(\.stringValue)
        return keys.filter { !known.contains($0) }.map { key in
            let hint = Suggestion.closest(to: key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
            return "\(fileName): unknown key '\(key)'\(hint); it is ignored"
        }
    }

    /// A one-line account of a decoding error that names the key.
    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "expected a JSON object of settings"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            return key == CodingKeys.port.stringValue
                ? "'port' must be an integer from 0 to 65535" : "'\(key)' must be a string"
        case .keyNotFound(let key, _):
            return "'\(key.stringValue)' is missing"
        @unknown default:
            return "\(error)"
        }
    }
}
