import Foundation
import ModuleHost
import Testing

@testable import AppShell

/// On a terminal, startup progress updates in place: one line per running operation, replaced
/// by its result.
@Suite("Startup progress in place")
struct ProgressBoardTests {
    @Test func runningLinesAreRedrawnAndReplacedByResults() async throws {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("a.first", priority: .asyncHigh) {}
        try initiator.add("b.second", priority: .asyncHigh, failurePolicy: .optional) { throw CancellationError() }
        _ = try await initiator.start()
        let report = await initiator.drain()
        let first = try #require(report.record("a.first"))
        let second = try #require(report.record("b.second"))

        var board = ProgressBoard()
        #expect(board.apply(.phaseStarted(.asyncHigh)) == "» phase asyncHigh\n")
        #expect(board.apply(.operationStarted(identifier: "a.first", phase: .asyncHigh)) == "  … a.first\n")
        // A second running line: the first is erased (cursor up one line, clear below) and both drawn.
        #expect(board.apply(.operationStarted(identifier: "b.second", phase: .asyncHigh)) == "\u{1B}[1A\u{1B}[J  … a.first\n  … b.second\n")
        // A result replaces its running line and stays; the other running line is drawn below it.
        let done = board.apply(.operationFinished(first))
        #expect(done.hasPrefix("\u{1B}[2A\u{1B}[J  ✓ a.first succeeded "))
        #expect(done.hasSuffix(" ms\n  … b.second\n"))
        let failed = board.apply(.operationFinished(second))
        #expect(failed.hasPrefix("\u{1B}[1A\u{1B}[J  ✗ b.second failed"))
        #expect(board.running.isEmpty)
        #expect(board.clear() == "", "nothing left to clear")
    }

    @Test func clearingRemovesTheRunningLines() {
        var board = ProgressBoard()
        _ = board.apply(.operationStarted(identifier: "x", phase: .high))
        _ = board.apply(.operationStarted(identifier: "y", phase: .high))
        #expect(board.clear() == "\u{1B}[2A\u{1B}[J")
        #expect(board.clear() == "")
    }
}

/// At a 40-column terminal every line of the startup progress, and of the report, fits.
extension ProgressBoardTests {
    @Test func everyLineFitsA40ColumnTerminal() async throws {
        let initiator = Initiator(maxConcurrentOperations: 2)
        try initiator.add("auth.restore-session", priority: .asyncHigh) {}
        try initiator.add("a.long-operation-identifier", priority: .asyncHigh, failurePolicy: .optional) {
            throw CancellationError()
        }
        _ = try await initiator.start()
        let report = await initiator.drain()
        var board = ProgressBoard(width: 40)
        var text = board.apply(.phaseStarted(.asyncHigh))
        for record in report.operations {
            text += board.apply(.operationStarted(identifier: record.identifier, phase: record.phase))
        }
        for record in report.operations { text += board.apply(.operationFinished(record)) }
        let lines = text.replacing(/\u{1B}\[[0-9]*[AJ]/, with: "").split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(lines.filter { $0.count > 40 })")
        #expect(lines.contains { $0.hasPrefix("  ✓ auth.restore-session succeeded") }, "\(lines)")
        let table = report.renderTable(width: 40).split(separator: "\n")
        #expect(table.allSatisfy { $0.count <= 40 }, "\(table.filter { $0.count > 40 })")
    }

    @Test func aRunningLineLongerThanTheTerminalIsCutToStayOneLine() {
        var board = ProgressBoard(width: 40)
        let line = board.apply(.operationStarted(identifier: String(repeating: "x", count: 50), phase: .high))
        #expect(line == "  … " + String(repeating: "x", count: 35) + "…\n")
    }

    @Test func aResultLineLongerThanTheTerminalIsWrappedNotCut() async throws {
        let initiator = Initiator()
        try initiator.add("auth.restore-session", priority: .asyncHigh) {}
        _ = try await initiator.start()
        let record = try #require(await initiator.drain().record("auth.restore-session"))
        var board = ProgressBoard(width: 34)
        let lines = board.apply(.operationFinished(record)).split(separator: "\n")
        #expect(lines.first == "  ✓ auth.restore-session succeeded")
        #expect(lines.count == 2 && lines[1].hasPrefix("    ") && lines[1].hasSuffix(" ms"), "\(lines)")
    }
}

/// Help at 40 columns once printed a 41-character line, a module identifier that could not break.
@Suite("Text wrapping")
struct TextWrapTests {
    @Test(arguments: [20, 40, 80])
    func noLineIsWiderThanTheWidthEvenForALongIdentifier(width: Int) {
        let text = "OVERVIEW: notes kept per user (from com.example.some-rather-long.module-identifier.notes) and more words"
        let lines = TextWrap.lines(text, width: width, indent: 10)
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines)")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 10)) })
        let rejoined = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        #expect(rejoined.filter { $0 != " " } == text.filter { $0 != " " }, "nothing is lost")
    }

    @Test func aWordBreaksAfterASeparatorWhenOneFits() {
        #expect(TextWrap.lines("com.modulehost.notes", width: 16) == ["com.modulehost.", "notes"])
        #expect(TextWrap.lines("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TextWrap.lines("a b", width: 40) == ["a b"])
        #expect(TextWrap.lines("", width: 40) == [""])
    }
}
