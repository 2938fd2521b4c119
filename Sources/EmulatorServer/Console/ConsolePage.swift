import NIOHTTP1
/// The console's page files (`ConsoleAssets`, generated from Console/Assets), as responses
/// encoded once.
enum ConsolePage {
    /// Each file's response, by file name.
    private static let responses: [String: HTTPResponse] = ConsoleAssets.files.mapValues { file in
        HTTPResponse(status: .ok, contentType: file.contentType, body: Array(file.text.utf8))
    }

    /// The response serving the file `name`, or `nil` if the page has no such file.
    static func response(for name: String) -> HTTPResponse? {
        responses[name]
    }
}
