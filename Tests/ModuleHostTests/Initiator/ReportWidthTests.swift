import Testing
@testable import ModuleHost

/// The startup table fits the width it is given, readable at 40 and at 200 columns, and never
/// drops an error without a way to read it in full.
@Suite("Startup report width")
struct ReportWidthTests {
    static let longModule: ModuleIdentifier = "com.example.a-module-with-a-rather-long-identifier"
    static let longError = "the remote configuration server at config.example.com answered 503 Service Unavailable after three retries"

    static func report() async throws -> StartupReport {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("storage.open-database-with-a-long-name", module: longModule, priority: .high) {}
        try initiator.add("remote-config", module: "com.example.config", priority: .asyncHigh,
                          failurePolicy: .optional) { throw TestFailure(longError) }
        _ = try await initiator.start()
        return await initiator.drain()
    }

    @Test func atTwoHundredColumnsIdentifiersAreWholeAndOnlyTheErrorIsCut() async throws {
        let table = try await Self.report().renderTable(width: 200)
        #expect(table.split(separator: "\n").allSatisfy { $0.count <= 200 }, "\(table)")
        #expect(table.contains(Self.longModule.rawValue))
        #expect(table.contains("storage.open-database-with-a-long-name "))
        #expect(table.contains("…"))
        #expect(table.replacingOccurrences(of: "\n", with: " ").contains("`startup --full` or --json shows them in full"))
    }

    @Test func atEightyColumnsLongIdentifiersTurnTheTableIntoBlocks() async throws {
        let table = try await Self.report().renderTable(width: 80)
        #expect(table.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(table)")
        #expect(table.contains("remote-config: failed"))
        #expect(!table.contains("…"))
    }

    @Test func atAHundredColumnsShortIdentifiersKeepTheTableWithTheErrorCut() async throws {
        let initiator = Initiator()
        try initiator.add("numbers.warm-primes", module: "com.modulehost.numbers", priority: .asyncHigh,
                          failurePolicy: .optional) { throw TestFailure(Self.longError) }
        _ = try await initiator.start()
        let table = await initiator.drain().renderTable(width: 100)
        #expect(table.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(table)")
        #expect(table.contains("OPERATION"))
        #expect(table.contains("com.modulehost.numbers"))
        #expect(table.contains("…"))
        #expect(table.replacingOccurrences(of: "\n", with: " ").contains("`startup --full` or --json shows them in full"))
        #expect(table.contains("OPERATION"))
    }

    @Test func atFortyColumnsEachOperationIsABlockWithItsErrorWrappedInFull() async throws {
        let table = try await Self.report().renderTable(width: 40)
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.prefix { !$0.isEmpty }.allSatisfy { $0.count <= 40 }, "\(table)")
        #expect(table.contains("remote-config: failed"))
        let joined = lines.map { $0.drop(while: { $0 == " " }) }.joined(separator: " ")
        #expect(joined.contains("error: " + Self.longError), "\(table)")
        #expect(!table.contains("…"))
    }

    @Test func withoutAWidthNothingIsCut() async throws {
        let table = try await Self.report().renderTable(width: nil)
        #expect(table.contains(Self.longError))
        #expect(!table.contains("…"))
    }
}
