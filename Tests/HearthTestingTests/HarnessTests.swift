import DocumentModel
import Foundation
import Hearth
import HearthTesting
import SecurityRules
import Testing

@Suite("The rules-testing harness")
struct HarnessTests {
    @Test("assertFails passes only on PERMISSION_DENIED", arguments: EnvironmentKind.allCases)
    func assertFailsOnlyOnDenial(_ kind: EnvironmentKind) async throws {
        try await withEnvironment(kind) { environment in
            let anonymous = environment.unauthenticatedContext().firestore()
            let denied = try await assertFails { try await anonymous.document("users/alice").getDocument() }
            #expect(denied.code == .permissionDenied)

            let alice = environment.authenticatedContext(uid: "alice").firestore()
            let succeeded = await #expect(throws: RulesAssertionError.self) {
                try await assertFails { try await alice.document("users/alice").getDocument() }
            }
            #expect(succeeded?.message == "Expected PERMISSION_DENIED, but the request succeeded")
            #expect(succeeded?.underlying == nil)
        }
    }

    @Test("assertFails fails on any other error, such as NOT_FOUND or an invalid path", arguments: EnvironmentKind.allCases)
    func assertFailsOnOtherErrors(_ kind: EnvironmentKind) async throws {
        try await withEnvironment(kind, rules: openRules()) { environment in
            let alice = environment.authenticatedContext(uid: "alice").firestore()
            let notFound = await #expect(throws: RulesAssertionError.self) {
                try await assertFails { try await alice.document("notes/missing").updateData(["n": 1]) }
            }
            #expect((notFound?.underlying as? FirestoreError)?.code == .notFound)
            let invalid = await #expect(throws: RulesAssertionError.self) {
                try await assertFails { try await alice.document("notes").getDocument() }
            }
            #expect((invalid?.underlying as? FirestoreError)?.code == .invalidArgument)
        }
    }

    @Test("assertSucceeds returns the result, and fails with the operation's error")
    func assertSucceedsReturnsOrFails() async throws {
        try await withEnvironment(.embedded) { environment in
            try await environment.withSecurityRulesDisabled { admin in
                try await admin.document("users/alice").setData(["uid": "alice"])
            }
            let bob = environment.authenticatedContext(uid: "bob").firestore()
            let snapshot = try await assertSucceeds { try await bob.document("users/alice").getDocument() }
            #expect(snapshot["uid"] as? String == "alice")
            let failure = await #expect(throws: RulesAssertionError.self) {
                try await assertSucceeds { try await bob.document("users/alice").delete() }
            }
            #expect((failure?.underlying as? FirestoreError)?.code == .permissionDenied)
            #expect(failure?.description.hasPrefix("HearthTestingTests/HarnessTests.swift:") == true)
        }
    }

    @Test("assertFails finds PERMISSION_DENIED wrapped in a service's error")
    func assertFailsUnwraps() async throws {
        enum ServiceError: Error { case writeFailed(any Error), other(code: Int, cause: any Error) }
        let denied = FirestoreError(.permissionDenied, "denied")
        let found = try await assertFails { try await failing(ServiceError.writeFailed(denied)) }
        #expect(found == denied)
        let nested = try await assertFails { try await failing(ServiceError.other(code: 1, cause: denied)) }
        #expect(nested == denied)
        await #expect(throws: RulesAssertionError.self) {
            try await assertFails { try await failing(ServiceError.writeFailed(FirestoreError(.notFound, "missing"))) }
        }
    }

    @Test("Claims of an authenticated context reach request.auth.token", arguments: EnvironmentKind.allCases)
    func claims(_ kind: EnvironmentKind) async throws {
        let rules = RulesSource.source(
            """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                match /reports/{id} {
                  allow read: if request.auth.token.role == 'auditor' && request.auth.uid == 'ann';
                }
              }
            }
            """)
        try await withEnvironment(kind, rules: rules) { environment in
            let auditor = environment.authenticatedContext(uid: "ann", claims: ["role": "auditor"]).firestore()
            try await assertSucceeds { try await auditor.document("reports/r1").getDocument() }
            let other = environment.authenticatedContext(uid: "ann", claims: ["role": "guest"]).firestore()
            try await assertFails { try await other.document("reports/r1").getDocument() }
            try await assertFails { try await environment.unauthenticatedContext().firestore().document("reports/r1").getDocument() }
        }
    }

    @Test("withSecurityRulesDisabled bypasses the rules; clearFirestore deletes every document", arguments: EnvironmentKind.allCases)
    func rulesDisabledAndClearing(_ kind: EnvironmentKind) async throws {
        try await withEnvironment(kind) { environment in
            try await environment.withSecurityRulesDisabled { admin in
                try await admin.document("users/alice").setData(["anything": true])
                try await admin.document("elsewhere/x/deep/y").setData(["n": 1])
                try await admin.document("users/alice").delete()
                try await admin.document("users/bob").setData(["uid": "bob"])
            }
            try await environment.clearFirestore()
            let remaining = try await environment.withSecurityRulesDisabled { admin in
                [
                    try await admin.document("users/bob").getDocument().exists,
                    try await admin.document("elsewhere/x/deep/y").getDocument().exists,
                ]
            }
            #expect(remaining == [false, false])
        }
    }

    @Test("Every embedded environment is a fresh store")
    func environmentsAreIsolated() async throws {
        try await withEnvironment(.embedded) { first in
            try await first.withSecurityRulesDisabled { try await $0.document("users/alice").setData(["uid": "alice"]) }
            try await withEnvironment(.embedded) { second in
                let exists = try await second.withSecurityRulesDisabled { admin in
                    try await admin.document("users/alice").getDocument().exists
                }
                #expect(!exists)
            }
        }
    }

    @Test("Rules that do not compile are reported with their diagnostics", arguments: EnvironmentKind.allCases)
    func invalidRules(_ kind: EnvironmentKind) async throws {
        let broken = RulesSource.source("rules_version = '2';\nservice cloud.firestore { match /x { allow read: if } }")
        do {
            _ = try await withEnvironment(kind, rules: broken) { _ in Issue.record("The environment was created") }
        } catch let error as RulesCompilationError {
            #expect(kind == .embedded)
            #expect(!error.errors.isEmpty)
        } catch let error as FirestoreError {
            #expect(kind == .remote)
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("Error compiling rules:\nL2:"))
        }
    }

    @Test("cleanup writes the coverage report, JSON and HTML, with the evaluations of the run", arguments: EnvironmentKind.allCases)
    func coverageReport(_ kind: EnvironmentKind) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-coverage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let rules = openRules()
        try await withEnvironment(kind, rules: rules, coverageReportDirectory: directory) { environment in
            let before = try await environment.coverageReport()
            #expect(!before.json.contains("\"count\""))
            try await assertSucceeds { try await environment.unauthenticatedContext().firestore().document("a/b").getDocument() }
        }
        let json = try String(contentsOf: directory.appendingPathComponent("firestore-coverage.json"), encoding: .utf8)
        let html = try String(contentsOf: directory.appendingPathComponent("firestore-coverage.html"), encoding: .utf8)
        #expect(json.contains("{\"value\":{\"boolValue\":true},\"count\":1}"))
        #expect(html.contains("allow read, write: if"))
    }
}

/// Throws `error`: an operation that fails the given way.
private func failing(_ error: any Error) async throws {
    throw error
}
